"""Test bench of the SoC: HDL top, DPI backing store, cocotb entry point."""
