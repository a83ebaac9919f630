"""``python -m sim.randgen --seed 7 --soc rv32 -o prog.S``: write one random program."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from configs import load_soc
from sim.randgen.generator import generate


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m sim.randgen", description=__doc__)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--soc", default="rv32", help="SoC config name or path (gives XLEN)")
    p.add_argument("--length", type=int, default=300, help="random instructions in the body")
    p.add_argument("-o", "--output", type=Path, help="output .S (default: stdout)")
    args = p.parse_args(argv)
    prog = generate(args.seed, load_soc(args.soc).xlen, args.length)
    if args.output:
        args.output.write_text(prog.text)
    else:
        sys.stdout.write(prog.text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
