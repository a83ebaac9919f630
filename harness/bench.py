"""``nox -s bench``: every benchmark, figures and ratios printed side by side.

Each benchmark is a module ``harness.bench_<name>`` with ``run(args) -> None`` that
prints its own table (rich). Nothing here asserts: machines are noisy, so speed
goals are read off these figures, not enforced by tests.
"""

from __future__ import annotations

import argparse
import importlib
import time

from harness.cli import quiet_dependencies

BENCHMARKS = ("rtl", "compile", "vector", "gemmini", "gemmini-rtl", "gemmini-compiled", "markers", "executor")


def main(argv: list[str] | None = None) -> int:
    # no abbreviations: a benchmark's own option (bench_markers' --on) must not read as --only
    parser = argparse.ArgumentParser(prog="python -m harness.bench", description=__doc__, allow_abbrev=False)
    parser.add_argument("--only", choices=BENCHMARKS, action="append", help="run just these benchmarks")
    parser.add_argument("-v", "--verbose", action="store_true", help="also show our dependencies' logs and warnings")
    args, rest = parser.parse_known_args(argv)
    quiet_dependencies(args.verbose)  # users see the figures, not torch's or cocotb's notes
    for name in args.only or BENCHMARKS:
        try:
            module_name = f"harness.bench_{name.replace('-', '_')}"
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            if e.name == module_name:
                print(f"[bench {name}] not available in this checkout")
                continue
            raise
        t0 = time.perf_counter()
        print(f"\n=== bench {name} ===")
        module.run(rest)
        print(f"[bench {name}] {time.perf_counter() - t0:.1f} s wall")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
