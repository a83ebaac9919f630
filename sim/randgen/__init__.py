"""Random instruction programs for the scalar ISA, for the difftest (see generator.py)."""

from sim.randgen.generator import DEFAULT_WEIGHTS, Generator, Program, generate

__all__ = ["DEFAULT_WEIGHTS", "Generator", "Program", "generate"]
