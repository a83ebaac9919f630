"""Simulation layer: the RTL SoC under Verilator + cocotb, and Spike as the golden ISS.

Never imports ``harness`` or ``compiler``; reads SoC configs from ``configs``.
Every runner returns a :class:`sim.outcome.RunOutcome`.
"""
