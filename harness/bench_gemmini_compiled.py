"""Gemmini utilization of programs compiled from PyTorch (no C library), on the Gemmini RTL.

Run by ``nox -s bench`` (``python -m harness.bench --only gemmini-compiled``) or alone:
``python -m harness.bench_gemmini_compiled [--soc gemmini-dim16] [--size 256] [--resnet-input 16]``.

Two tables, both from ``cosim verify`` runs (quantized, compiled by the ``gemmini`` backend, run on the
RTL, every output checked bit for bit against the int8 reference in the same run: a fast wrong
answer is no figure):

- a SIZE^3 int8 matmul (``a @ b``, and ``nn.Linear`` with its int32 bias) compiled from PyTorch:
  utilization over ``forward``'s region (``mesh_utilization`` = useful MACs / (DIM^2 x cycles_forward)),
  beside the same shape through Gemmini's ``tiled_matmul_auto`` in C (``harness.bench_gemmini_rtl.measure``,
  checked against numpy), and whether the compiled ELF holds any ``tiled_*`` symbol;
- ResNet-18's mapped layers (result.json's ``profile`` entries with ``where = "gemmini"``): cycles,
  useful MACs and utilization per layer and over all of them (aim: 75 %, the figure quoted for
  Buddy-MLIR's Gemmini backend). ``--resnet-input 0`` leaves it out.

Nothing is asserted about speed.
"""

from __future__ import annotations

import argparse
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

# Buddy-MLIR's quoted utilization of ResNet-18's layers on Gemmini: the aim, printed beside ours.
RESNET_AIM = 0.75
DEFAULT_RESNET_INPUT = 16  # minutes on the gemmini-dim16 RTL; 64x64 is a run of many millions of cycles


@dataclass
class MatmulRow:
    """One compiled-from-PyTorch matmul beside the C library's."""

    what: str  # "matmul" (a @ b) or "linear" (with bias)
    shape: str
    status: str
    cycles: int | None
    macs: int | None
    utilization: float | None
    tiled_symbols: list[str]
    c_status: str
    c_cycles: int | None
    c_utilization: float | None

    @property
    def ratio(self) -> float | None:
        """Compiled utilization over the C library's (1.0 = as good)."""
        if self.utilization is None or not self.c_utilization:
            return None
        return self.utilization / self.c_utilization


@dataclass
class LayerRow:
    """One mapped layer of a verify result's ``profile``."""

    name: str
    cycles: int
    macs: int
    utilization: float


def mapped_layers(result: dict) -> list[LayerRow]:
    """The Gemmini layers of a verify result (``profile`` entries run on Gemmini with counters)."""
    rows = []
    for entry in result.get("profile") or []:
        counters = entry.get("counters") or {}
        if entry.get("where") != "gemmini" or not entry.get("cycles") or "mesh_utilization" not in counters:
            continue
        rows.append(
            LayerRow(
                name=entry.get("name") or f"region {entry['region']}",
                cycles=entry["cycles"],
                macs=counters.get("gemmini_macs", 0),
                utilization=counters["mesh_utilization"],
            )
        )
    return rows


def overall_utilization(rows: list[LayerRow], dim: int) -> float | None:
    """Useful MACs over DIM^2 x cycles summed over ``rows`` (a cycle-weighted mean, not a mean of ratios)."""
    cycles = sum(r.cycles for r in rows)
    return sum(r.macs for r in rows) / (dim * dim * cycles) if cycles else None


def forward_figures(result: dict) -> tuple[int | None, int | None, float | None]:
    """(cycles_forward, useful MACs, mesh_utilization) over ``forward``'s region of an RTL result."""
    forward = (result.get("counters") or {}).get("forward") or {}
    return result.get("cycles_forward"), forward.get("gemmini_macs"), forward.get("mesh_utilization")


def matmul_case(what: str, size: int):
    """A float SIZE^3 ``a @ b`` or ``nn.Linear(size, size)`` on size x size, as a user writes it."""
    from harness.cases import Case

    def build():
        import torch

        g = torch.Generator().manual_seed(size)
        x = torch.randn(size, size, generator=g)
        if what == "matmul":
            return (lambda a, b: a @ b), (x, torch.randn(size, size, generator=g))
        torch.manual_seed(size)
        return torch.nn.Linear(size, size), (x,)

    return Case(f"bench_{what}{size}", build, "reduction", (what,), f"{what} {size}^3")


def resnet18_case(size: int):
    from harness.cases import Case

    def build():
        import torch

        from harness.models.resnet import ResNet18, randomize_batch_norm

        torch.manual_seed(0)
        x = torch.randn(1, 3, size, size, generator=torch.Generator().manual_seed(size))
        return randomize_batch_norm(ResNet18()), (x,), {"classifier": False}

    return Case(f"bench_resnet18_{size}", build, "reduction", ("conv2d", "linear"), f"ResNet-18 at {size}x{size}")


def _status(result: dict) -> str:
    return "pass" if result["status"] == "pass" else f"{result['status']}: {result.get('message', '')}"[:80]


def measure_matmul(what: str, soc, size: int, workdir: Path) -> MatmulRow:
    from harness.bench_gemmini_rtl import measure
    from harness.elfcheck import ElfImage
    from harness.verify import verify

    result = verify(matmul_case(what, size), soc, on="rtl", workdir=workdir)
    cycles, macs, util = forward_figures(result)
    tiled = sorted(ElfImage(result["elf"]).symbols_with_prefix("tiled_"))
    c_row = measure(soc, size, size, size, "WS", what == "linear", workdir)
    return MatmulRow(
        what=what,
        shape=f"{size}x{size}x{size}",
        status=_status(result),
        cycles=cycles,
        macs=macs,
        utilization=util,
        tiled_symbols=tiled,
        c_status=c_row.status,
        c_cycles=c_row.cycles,
        c_utilization=c_row.utilization,
    )


def _pct(x: float | None) -> str:
    return f"{100 * x:.1f}" if x is not None else "-"


def _num(x: int | None) -> str:
    return f"{x:,}" if x is not None else "-"


def matmul_table(rows: list[MatmulRow], soc_name: str) -> Table:
    t = Table(title=f"{soc_name} RTL: int8 matmul compiled from PyTorch vs tiled_matmul_auto in C (WS)")
    for col in ("op", "I x J x K", "status", "cycles fwd", "MACs", "util %", "tiled_* in ELF"):
        t.add_column(col, justify="right")
    for col in ("C status", "C cycles", "C util %", "compiled / C"):
        t.add_column(col, justify="right")
    for r in rows:
        t.add_row(
            r.what,
            r.shape,
            r.status,
            _num(r.cycles),
            _num(r.macs),
            _pct(r.utilization),
            ", ".join(r.tiled_symbols) or "none",
            r.c_status,
            _num(r.c_cycles),
            _pct(r.c_utilization),
            f"{r.ratio:.2f}" if r.ratio is not None else "-",
        )
    return t


def resnet_table(rows: list[LayerRow], soc_name: str, size: int, dim: int, status: str) -> Table:
    t = Table(
        title=f"{soc_name} RTL: ResNet-18 at {size}x{size}, mapped layers (status {status}; "
        f"aim {100 * RESNET_AIM:.0f} % over them, Buddy-MLIR's figure)"
    )
    for col in ("layer", "cycles", "useful MACs", "util %"):
        t.add_column(col, justify="right")
    for r in rows:
        t.add_row(r.name, _num(r.cycles), _num(r.macs), _pct(r.utilization))
    t.add_row(
        "all mapped layers",
        _num(sum(r.cycles for r in rows)),
        _num(sum(r.macs for r in rows)),
        _pct(overall_utilization(rows, dim)),
    )
    return t


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="bench gemmini-compiled")
    p.add_argument("--soc", default="gemmini-dim16", help="Gemmini config (default gemmini-dim16)")
    p.add_argument("--size", type=int, default=256, help="matmul I = J = K (default 256; 0: leave the matmuls out)")
    p.add_argument(
        "--op",
        action="append",
        choices=("matmul", "linear"),
        help="which compiled matmuls to run (default both: a @ b, and nn.Linear with bias)",
    )
    p.add_argument(
        "--resnet-input",
        type=int,
        default=DEFAULT_RESNET_INPUT,
        metavar="N",
        help=f"ResNet-18's input N x N (default {DEFAULT_RESNET_INPUT}, minutes on the RTL; 0: leave it out)",
    )
    args, _ = p.parse_known_args(argv or [])
    if args.size < 0:
        p.error(f"--size {args.size}: give a matrix size (e.g. --size 256), or 0 to leave the matmuls out")
    if args.resnet_input < 0 or 0 < args.resnet_input < 8:
        p.error(f"--resnet-input {args.resnet_input}: give 0 (leave ResNet-18 out) or an image size of at least 8")
    return args


def run(argv: list[str] | None = None) -> None:
    from configs import load_soc
    from harness.verify import verify

    args = parse_args(argv)
    soc = load_soc(args.soc)
    if soc.accelerator.kind != "gemmini":
        raise SystemExit(f"bench gemmini-compiled: {args.soc} has no Gemmini unit; use e.g. --soc gemmini-dim16")
    console = Console(width=200)
    with tempfile.TemporaryDirectory(prefix="bench-gemmini-compiled-") as tmp:
        work = Path(tmp)
        rows = []
        for what in (args.op or ("matmul", "linear")) if args.size else ():
            rows.append(measure_matmul(what, soc, args.size, work))
            print(f"[gemmini-compiled] {what} {args.size}^3: {rows[-1].cycles} cycles", flush=True)
        if rows:
            console.print(matmul_table(rows, soc.name))
            print("util = useful MACs / (DIM^2 x cycles) over forward's region (compiled) or the C call + fence (C);")
            print("matmul is a @ b (C: D = NULL), linear is nn.Linear with its int32 bias (C: with D).")
        if args.resnet_input:
            result = verify(resnet18_case(args.resnet_input), soc, on="rtl", workdir=work)
            layers = mapped_layers(result)
            console.print(resnet_table(layers, soc.name, args.resnet_input, soc.accelerator.dim, _status(result)))
            cycles, macs, util = forward_figures(result)
            print(f"forward: {_num(cycles)} cycles, {_num(macs)} useful MACs, {_pct(util)} % utilization")
            print("per layer: the PROFILE region around each layer call (im2col and other core work is outside).")


if __name__ == "__main__":
    import sys

    run(sys.argv[1:])
