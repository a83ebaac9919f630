"""``cosim cc --soc S -o x.elf a.c b.S``: build a user's program against the runtime."""

from __future__ import annotations

import sys

from configs import load_soc
from harness.toolchain import build_elf


def run_cc(args) -> int:
    soc = load_soc(args.soc)
    out = build_elf(
        args.sources,
        soc,
        args.output,
        opt=args.opt,
        include_dirs=args.include,
        defines=args.define,
        extra_cflags=args.cflag,
    )
    extra = f", Gemmini DIM {soc.accelerator.dim}" if soc.has_gemmini else ""
    print(f"cosim cc: wrote {out} ({soc.name}, {soc.march}, {soc.mabi}{extra})", file=sys.stderr)
    return 0


def register(sub) -> None:
    p = sub.add_parser(
        "cc",
        help="compile and link C/assembly against the bare-metal runtime for a SoC config",
        description="Compile and link C, assembly, objects or LLVM IR with the bare-metal runtime "
        "(baremetal/) for the ISA, ABI and memory map of a SoC config, then check the ELF. "
        "On a Gemmini config, Gemmini's C API is on the include path as in its test suite "
        '("include/gemmini.h", "include/gemmini_testutils.h", ...; gemmini_params.h generated '
        "from the config) and BAREMETAL is defined, so Gemmini's own test programs build unchanged.",
    )
    p.add_argument("sources", nargs="+", metavar="FILE", help=".c, .S, .s, .o, .a, .ll or .bc files")
    p.add_argument("--soc", required=True, help="SoC config name (e.g. rv32, t1-small) or path to a .toml")
    p.add_argument("-o", "--output", required=True, help="output ELF path")
    p.add_argument(
        "-O", dest="opt", default="2", type=lambda s: f"-O{s}", metavar="LEVEL", help="optimization level (default 2)"
    )
    p.add_argument("-I", dest="include", action="append", default=[], metavar="DIR", help="add an include directory")
    p.add_argument("-D", dest="define", action="append", default=[], metavar="NAME[=VALUE]", help="define a macro")
    p.add_argument(
        "--cflag", action="append", default=[], metavar="FLAG", help="extra compiler flag (repeatable), e.g. --cflag=-g"
    )
    p.set_defaults(func=run_cc)
