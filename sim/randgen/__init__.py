"""Random instruction programs for the difftest: the scalar ISA (generator.py) and RVV
(vector.py, ``python -m sim.randgen.vector``: the generator and its helpers; vector_ops.py the
instruction tables, vector_arith.py and vector_mem.py the arithmetic and memory items)."""

from sim.randgen.generator import DEFAULT_WEIGHTS, Generator, Program, generate

__all__ = ["DEFAULT_WEIGHTS", "Generator", "Program", "generate"]
