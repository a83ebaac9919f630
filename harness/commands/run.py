"""``cosim run x.elf --soc S``: run an ELF on the RTL SoC (Verilator under cocotb).

Prints the program's UART text, then one status line; writes result.json
(DESIGN.md's keys, ``target: "rtl"``). Exit code 0 when the program exited
with a passing code, 1 otherwise (trap, timeout, failure code).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from configs import load_soc
from harness.elfcheck import check_elf
from harness.errors import CosimError
from harness.results import make_result, write_json_atomic
from sim.disasm import disassemble
from sim.outcome import RunOutcome
from sim.rtl_runner import run_rtl
from sim.waves import DEFAULT_CAP_BYTES, DEFAULT_WINDOW, check_window


def parse_dump(text: str) -> tuple[int, int]:
    try:
        addr, size = (int(x, 0) for x in text.split(":"))
    except ValueError:
        raise CosimError(f"bad --dump {text!r}: expected ADDR:SIZE, e.g. 0xc0000000:4096") from None
    if size <= 0:
        raise CosimError(f"bad --dump {text!r}: size must be positive")
    return addr, size


def describe(outcome: RunOutcome, xlen: int) -> str:
    """One status line for the terminal."""
    if outcome.ending == "exit":
        verdict = "pass" if outcome.exited_ok else "FAIL"
        return (
            f"{verdict}: exit code {outcome.exit_code}; {outcome.cycles_total} cycles, {outcome.instret} instructions, "
            f"{(outcome.sim_cycles_per_s or 0) / 1e6:.2f} M cycles/s"
        )
    if outcome.ending == "trap" and outcome.trap is not None:
        t = outcome.trap
        insn = f" ({t.disassembly}, 0x{t.instruction:08x})" if t.instruction is not None else ""
        return f"TRAP: {t.description} at pc 0x{t.pc:0{xlen // 4}x}{insn}, tval 0x{t.tval:x}"
    return f"{outcome.ending.upper()}: {outcome.message}"


def run_run(args) -> int:
    if not args.waves and (args.waves_from or args.waves_to is not None):
        raise CosimError("--from/--to choose the cycles of the waves: add --waves")
    soc = load_soc(args.soc)
    elf = Path(args.elf)
    if not elf.is_file():
        raise CosimError(f"ELF file {str(elf)!r} does not exist")
    check_elf(elf, soc)
    dumps = [parse_dump(d) for d in args.dump or []]
    waves = None
    if args.waves:
        from sim.waves import dump_window

        dest = Path(args.waves_file or elf.with_suffix(".fst"))
        start, stop = check_window(args.waves_from, args.waves_to, args.waves_window)
        outcome, waves = dump_window(
            elf,
            soc,
            dest,
            start=start,
            stop=stop,
            cap_bytes=int(args.waves_cap * 2**20),
            max_cycles=args.max_cycles,
            dumps=dumps,
            trace=args.trace,
        )
        if waves is None:
            print(
                f"cosim run: no waves: the window was over the {args.waves_cap:g} MiB cap (--waves-cap)",
                file=sys.stderr,
            )
    else:
        outcome = run_rtl(elf, soc, max_cycles=args.max_cycles, dumps=dumps, trace=args.trace)
    if outcome.trap is not None and outcome.trap.instruction is not None and not outcome.trap.disassembly:
        outcome.trap.disassembly = disassemble(outcome.trap.instruction, soc.xlen)
    sys.stdout.write(outcome.uart)
    if outcome.uart and not outcome.uart.endswith("\n"):
        sys.stdout.write("\n")
    sys.stdout.flush()
    result = make_result(outcome, soc=soc, elf=elf)
    out = Path(args.json) if args.json else Path("result.json")
    write_json_atomic(out, result)
    for addr, data in outcome.dumps.items():
        path = out.with_name(f"dump_0x{addr:08x}.bin")
        path.write_bytes(data)
    print(f"cosim run: {describe(outcome, soc.xlen)}; wrote {out}", file=sys.stderr)
    if waves is not None:
        stopped = " (the run was stopped there)" if waves.stop == stop and outcome.ending == "timeout" else ""
        print(
            f"cosim run: waves of cycles {waves.start}..{waves.stop}{stopped} in {waves.path} "
            f"({waves.format.upper()}, {waves.bytes / 2**20:.1f} MiB)",
            file=sys.stderr,
        )
    return 0 if outcome.exited_ok else 1


def register(sub) -> None:
    p = sub.add_parser(
        "run",
        help="run an ELF on the RTL SoC (Verilator + cocotb) and write result.json",
        description="Run an ELF on the RTL of a SoC config until EXIT, a trap, the cycle limit or the watchdog. "
        "Prints the UART text; writes result.json.",
    )
    p.add_argument("elf", help="the program (built with `cosim cc` for the same --soc)")
    p.add_argument("--soc", required=True, help="SoC config name or .toml path (e.g. rv32, rv64)")
    p.add_argument("--max-cycles", type=int, default=None, help="cycle limit (default: the config's sim.max_cycles)")
    p.add_argument("--json", default=None, help="result file (default: ./result.json)")
    p.add_argument(
        "--waves",
        action="store_true",
        help="record waves of a window of cycles (--from/--to): FST, or VCD when liblz4-dev is absent",
    )
    p.add_argument("--from", dest="waves_from", type=int, default=0, metavar="C1", help="first cycle of the waves")
    p.add_argument(
        "--to",
        dest="waves_to",
        type=int,
        default=None,
        metavar="C2",
        help=f"last cycle of the waves; the run stops there (default: C1 + {DEFAULT_WINDOW})",
    )
    p.add_argument("--waves-window", type=int, default=DEFAULT_WINDOW, help=argparse.SUPPRESS)
    add_waves_file_arguments(p)
    p.add_argument(
        "--dump",
        action="append",
        metavar="ADDR:SIZE",
        help="after the run, write this memory region to dump_<ADDR>.bin beside the result (repeatable)",
    )
    p.add_argument("--trace", default=None, help="write the commit trace (sim/tb/commit_trace.md) to this file")
    p.set_defaults(func=run_run)


def add_waves_file_arguments(p: argparse.ArgumentParser) -> None:
    """--waves-cap and --waves-file, shared by the commands that dump waves (run, difftest)."""
    p.add_argument(
        "--waves-cap",
        type=float,
        default=DEFAULT_CAP_BYTES / 2**20,
        metavar="MB",
        help="largest waves file; a window over it is shrunk to its last cycles (default %(default)g MiB)",
    )
    p.add_argument("--waves-file", default=None, help="waves path (default: the ELF's name with .fst/.vcd)")
