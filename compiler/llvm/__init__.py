"""The LLVM step: loops and the LLVM dialect, translation to LLVM IR, down-leveling for clang 22, codegen."""
