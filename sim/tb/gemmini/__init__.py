"""Standalone test bench of the Gemmini-style spatial array (sim/rtl/gemmini/gemmini_array.sv)."""
