"""``cosim iss x.elf --soc S``: run an ELF on Spike, print its UART text, write result.json."""

from __future__ import annotations

import sys
from pathlib import Path

from harness.iss import run_iss
from harness.results import write_json_atomic
from sim.spike import Dump


def _cmd(args) -> int:
    dumps = [Dump.parse(d) for d in args.dump]
    outcome, result = run_iss(
        args.elf, args.soc, dumps=dumps, max_instructions=args.max_instructions, timeout_s=args.timeout
    )
    sys.stdout.write(outcome.uart)
    sys.stdout.flush()
    json_path = Path(args.json)
    if dumps:
        records = []
        for d in dumps:
            data = outcome.dumps.get(d.addr)
            path = json_path.with_name(f"{json_path.stem}.dump-{d.addr:x}-{d.size:x}.bin")
            if data is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
            records.append({"addr": f"0x{d.addr:x}", "size": d.size, "file": str(path) if data is not None else None})
        result["dumps"] = records
    write_json_atomic(json_path, result)
    status = result["status"]
    detail = outcome.message or f"exit code {outcome.exit_code}"
    print(
        f"cosim iss: {status}: {detail}; {outcome.instret} instructions, {outcome.wall_s:.3f} s; wrote {json_path}",
        file=sys.stderr,
    )
    return 0 if status == "pass" else 1


def register(sub) -> None:
    p = sub.add_parser(
        "iss",
        help="run an ELF on Spike (golden ISS) with the SoC's memory map and MMIO page",
        description="Run an ELF on Spike (--priv=m, our device tree and MMIO plugin). Prints the UART text, "
        "writes result.json; exits 0 only when the status is pass.",
    )
    p.add_argument("elf", help="ELF built with `cosim cc` for the same config")
    p.add_argument("--soc", required=True, help="SoC config name or path to a .toml")
    p.add_argument("--json", default="result.json", metavar="F", help="result file (default ./result.json)")
    p.add_argument(
        "--max-instructions", type=int, default=None, metavar="N", help="stop after N instructions (status timeout)"
    )
    p.add_argument(
        "--timeout", type=float, default=None, metavar="S", help="wall-clock limit in seconds (status timeout)"
    )
    p.add_argument(
        "--dump",
        action="append",
        default=[],
        metavar="ADDR:SIZE",
        help="memory region to save after EXIT (repeatable); written beside the JSON file",
    )
    p.set_defaults(func=_cmd)
