"""Standalone Verilator test bench for the binary32 FPU (``sim/rtl/fpu``).

``build`` compiles ``cosim_fpu`` with a C++ streaming harness (cached);
``vectors`` makes operand batches (random, special values, rounding and
underflow boundaries); ``oracle`` computes the expected bits and fflags with
Berkeley SoftFloat (RISC-V specialization); ``runner`` streams a batch through
the RTL and compares.
"""
