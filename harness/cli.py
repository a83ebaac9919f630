"""The ``cosim`` command line.

Each subcommand lives in ``harness/commands/<name>.py`` and exposes
``register(subparsers)``, which adds its parser and sets ``func`` to a callable
taking the parsed args and returning the process exit code.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
import warnings

# Stable command names (DESIGN.md); a module missing here is simply not offered.
COMMANDS = ("doctor", "cc", "run", "iss", "difftest", "cases", "verify", "regress", "passes")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cosim",
        description="Compile PyTorch to RVV/Gemmini, run it on simulated RTL or Spike, compare with PyTorch.",
    )
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="also show our dependencies' log lines and warnings"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"harness.commands.{name}")
        except ModuleNotFoundError as e:
            if e.name == f"harness.commands.{name}":
                continue
            raise
        module.register(sub)
    return parser


def quiet_dependencies(verbose: bool) -> None:
    """Users see our messages, not our dependencies' log lines and warnings (``-v`` shows them).

    A root handler of our own, at WARNING unless verbose: torch-mlir's importer logs through the root logger
    (``logging.debug``), which would otherwise install a handler that lets cocotb's runner print its INFO
    lines; torch.export's deprecation notes about its own internals are FutureWarnings."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(logging.DEBUG if verbose else logging.WARNING)
    handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    logging.basicConfig(handlers=[handler], level=logging.DEBUG if verbose else logging.WARNING, force=True)
    if not verbose:
        warnings.filterwarnings("ignore", category=FutureWarning)
        warnings.filterwarnings("ignore", category=DeprecationWarning)


def main(argv: list[str] | None = None) -> int:
    from compiler.errors import CompileError
    from configs import ConfigError
    from harness.errors import CosimError
    from sim.errors import SimError

    args = build_parser().parse_args(argv)
    quiet_dependencies(args.verbose)
    try:
        return int(args.func(args) or 0)
    except (CosimError, ConfigError, SimError, CompileError, FileNotFoundError) as e:
        print(f"cosim {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"cosim {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
