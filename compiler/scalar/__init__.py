"""The scalar backend: no schedule of its own; its LLVM-level marking is :mod:`compiler.scalar.data_pointer_noalias`."""
