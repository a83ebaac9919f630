"""Random instruction programs for the difftest: the scalar ISA (generator.py) and RVV
(vector.py, ``python -m sim.randgen.vector``)."""

from sim.randgen.generator import DEFAULT_WEIGHTS, Generator, Program, generate

__all__ = ["DEFAULT_WEIGHTS", "Generator", "Program", "generate"]
