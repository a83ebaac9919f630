"""``nox -s bench`` (bench vector): the vector unit's cycle counts beside t1's own
figures, FMA-lane utilization of an fp32 matmul, and simulation speed.

Every case is compiled from PyTorch, run on the RTL and checked against PyTorch in
the same run (its status is printed beside its figures). Memory: each config's
``[memory]`` section as it is (latency 4 cycles, 4 requests outstanding, beats of
``width_bits``: 64 bits on t1-small, 256 on t1-blastoise; the vector port is DLEN
bits wide). Nothing is asserted: the figures are printed, and written to
``results/bench/vector.json`` (``--vector-out DIR``).

Rows:

* bmm 8x8x8 (the built-in ``bmm``) on t1-blastoise: ``cycles_forward`` beside t1's
  vector-only emulator figure for pytorch.matmul on blastoise (14556, scalar work
  free), ``cycles_total`` beside t1's Rocket+T1 figure (69837);
* LeNet-5 on 1x1x28x28 (the built-in ``lenet5``) on t1-blastoise: ``cycles_forward``
  beside t1's vector-only figure for pytorch.lenet (1,118,850);
* fp32 matmul NxNxN (N = 64, ``--vector-matmul N``), a bench-only case, on
  t1-blastoise and t1-small: FMA-lane utilization = useful FMAs / (lanes x
  cycles_forward), useful FMAs counted by the unit (``vec_fma_ops`` in forward)
  beside N^3;
* simulated cycles per second of ``cosim run`` (cocotb) and of a plain C++ Verilator
  loop on the same ELF (the matmul's) and build flags, as in ``bench rtl``.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from rich.console import Console
from rich.table import Table

from configs import load_soc
from harness.bench_rtl import _children_cpu
from harness.cases import SEED, Case
from harness.results import write_json_atomic
from harness.verify import verify

# t1's published figures (issue 6): cycles on the blastoise configuration.
T1_BMM_VECTOR_ONLY = 14556  # pytorch.matmul, vector-only emulator (scalar work free)
T1_BMM_ROCKET = 69837  # pytorch.matmul, Rocket + T1
T1_LENET_VECTOR_ONLY = 1_118_850  # pytorch.lenet, vector-only emulator

DEFAULT_OUT = Path("results/bench")


def matmul_case(n: int) -> Case:
    """fp32 (n x n) @ (n x n): the utilization workload (bench-only, public Case API)."""

    def build() -> tuple:
        import torch

        g = torch.Generator().manual_seed(SEED + n)
        return (lambda a, b: a @ b), (torch.randn(n, n, generator=g), torch.randn(n, n, generator=g))

    return Case(
        f"matmul{n}",
        build,
        "reduction",
        ("mm",),
        f"fp32 matmul {n}x{n}x{n}",
    )


@dataclass
class CaseRun:
    """One case on one config: the verify result's figures."""

    case: str
    soc: str
    status: str
    cycles_total: int | None
    cycles_forward: int | None
    fma_ops_forward: int | None
    lanes: int
    sim_cycles_per_s: float | None
    wall_s: float
    elf: str
    message: str = ""
    counters: dict = field(default_factory=dict)

    @property
    def fma_utilization(self) -> float | None:
        if not self.cycles_forward or self.fma_ops_forward is None:
            return None
        return self.fma_ops_forward / (self.lanes * self.cycles_forward)


def run_case(case: str | Case, soc: str, workdir: Path) -> CaseRun:
    cfg = load_soc(soc)
    t0 = time.perf_counter()
    r = verify(case, cfg, on="rtl", workdir=workdir)
    fwd = r["counters"].get("forward", {})
    return CaseRun(
        case=r["case"],
        soc=soc,
        status=r["status"],
        cycles_total=r["cycles_total"],
        cycles_forward=r["cycles_forward"],
        fma_ops_forward=fwd.get("vec_fma_ops"),
        lanes=cfg.accelerator.lanes,
        sim_cycles_per_s=r["sim_cycles_per_s"],
        wall_s=round(time.perf_counter() - t0, 2),
        elf=r["elf"],
        message=r.get("message", ""),
        counters=r["counters"],
    )


@dataclass
class Speed:
    soc: str
    cycles: int
    cosim_s: float
    plain_s: float
    plain_cpu_s: float

    @property
    def cosim_rate(self) -> float:
        return self.cycles / self.cosim_s

    @property
    def plain_rate(self) -> float:
        return self.cycles / self.plain_s


def measure_speed(run: CaseRun, workdir: Path) -> Speed:
    """The plain C++ loop (bench_main.cpp) on the ELF ``run`` ran under cocotb."""
    from sim.rtl_runner import _plusargs, parse_report
    from sim.verilator_build import build

    soc = load_soc(run.soc)
    plain = build(soc, flavour="plain", quiet=False)
    out = workdir / f"plain-{run.soc}"
    out.mkdir(parents=True, exist_ok=True)
    args = _plusargs(soc, Path(run.elf), out, None, soc.sim.max_cycles, soc.sim.watchdog_cycles, None, [])
    t0, cpu0 = time.perf_counter(), _children_cpu()
    subprocess.run([str(plain.executable), *args, "+finish_on_done"], check=True, capture_output=True)
    plain_s, plain_cpu = time.perf_counter() - t0, _children_cpu() - cpu0
    rep = parse_report(out / "result.txt")
    if rep.cycle != run.cycles_total:
        raise RuntimeError(f"plain loop ran {rep.cycle} cycles but cosim run {run.cycles_total}: not the same run")
    cosim_s = run.cycles_total / run.sim_cycles_per_s
    return Speed(run.soc, run.cycles_total, cosim_s, plain_s, plain_cpu)


@dataclass
class Options:
    ref_soc: str = "t1-blastoise"  # config of the rows with t1's figures
    util_socs: tuple[str, ...] = ("t1-blastoise", "t1-small")
    matmul: int = 64
    bmm: bool = True
    lenet: bool = True
    speed: bool = True


@dataclass
class Figures:
    options: Options
    bmm: CaseRun | None = None
    lenet: CaseRun | None = None
    matmul: list[CaseRun] = field(default_factory=list)
    speed: list[Speed] = field(default_factory=list)

    def to_json(self) -> dict:
        def run(r: CaseRun | None) -> dict | None:
            return None if r is None else {**asdict(r), "fma_utilization": r.fma_utilization}

        return {
            "options": asdict(self.options),
            "t1": {
                "bmm_vector_only": T1_BMM_VECTOR_ONLY,
                "bmm_rocket_t1": T1_BMM_ROCKET,
                "lenet_vector_only": T1_LENET_VECTOR_ONLY,
            },
            "bmm": run(self.bmm),
            "lenet": run(self.lenet),
            "matmul": [run(r) for r in self.matmul],
            "speed": [
                {**asdict(s), "cosim_cycles_per_s": s.cosim_rate, "plain_cycles_per_s": s.plain_rate}
                for s in self.speed
            ],
        }


def collect(opts: Options, workdir: Path) -> Figures:
    figs = Figures(opts)
    if opts.bmm:
        figs.bmm = run_case("bmm", opts.ref_soc, workdir)
    if opts.lenet:
        figs.lenet = run_case("lenet5", opts.ref_soc, workdir)
    for soc in opts.util_socs:
        figs.matmul.append(run_case(matmul_case(opts.matmul), soc, workdir))
    if opts.speed:
        for r in figs.matmul:
            if r.status == "pass":
                figs.speed.append(measure_speed(r, workdir))
    return figs


def _n(x: int | None) -> str:
    return "-" if x is None else f"{x:,}"


def _ratio(ours: int | None, theirs: int) -> str:
    return "-" if not ours else f"{ours / theirs:.2f}x"


def tables(figs: Figures) -> list[Table]:
    out = []
    t = Table(title="Cycles beside t1's published figures (t1 = blastoise)")
    for col in ("case", "soc", "PyTorch check", "figure", "ours", "t1", "ours / t1"):
        t.add_column(col, justify="right")
    if figs.bmm:
        b = figs.bmm
        t.add_row(
            b.case,
            b.soc,
            b.status,
            "forward vs vector-only",
            _n(b.cycles_forward),
            _n(T1_BMM_VECTOR_ONLY),
            _ratio(b.cycles_forward, T1_BMM_VECTOR_ONLY),
        )
        t.add_row(
            b.case,
            b.soc,
            b.status,
            "total vs Rocket+T1",
            _n(b.cycles_total),
            _n(T1_BMM_ROCKET),
            _ratio(b.cycles_total, T1_BMM_ROCKET),
        )
    if figs.lenet:
        n = figs.lenet
        t.add_row(
            n.case,
            n.soc,
            n.status,
            "forward vs vector-only",
            _n(n.cycles_forward),
            _n(T1_LENET_VECTOR_ONLY),
            _ratio(n.cycles_forward, T1_LENET_VECTOR_ONLY),
        )
    out.append(t)

    n = figs.options.matmul
    t = Table(title=f"fp32 matmul {n}x{n}x{n}: FMA-lane utilization in forward")
    for col in ("soc", "PyTorch check", "lanes", "cycles_forward", "FMAs counted", f"{n}^3", "utilization"):
        t.add_column(col, justify="right")
    for r in figs.matmul:
        u = r.fma_utilization
        t.add_row(
            r.soc,
            r.status,
            str(r.lanes),
            _n(r.cycles_forward),
            _n(r.fma_ops_forward),
            _n(n**3),
            "-" if u is None else f"{100 * u:.1f}%",
        )
    out.append(t)

    if figs.speed:
        t = Table(title=f"Simulation speed (matmul {n} ELF, one run each)")
        for col in ("soc", "cycles", "cosim run M cyc/s", "plain C++ M cyc/s", "ratio", "plain per CPU-s M"):
            t.add_column(col, justify="right")
        for s in figs.speed:
            t.add_row(
                s.soc,
                _n(s.cycles),
                f"{s.cosim_rate / 1e6:.3f}",
                f"{s.plain_rate / 1e6:.3f}",
                f"{s.cosim_rate / s.plain_rate:.2f}",
                f"{s.cycles / s.plain_cpu_s / 1e6:.3f}",
            )
        out.append(t)
    return out


def parse(argv: list[str]) -> tuple[Options, Path]:
    # --vector-* names: harness.bench hands the same arguments to every benchmark.
    p = argparse.ArgumentParser(prog="bench vector")
    p.add_argument("--vector-ref-soc", default=Options.ref_soc, help="config of the bmm/LeNet rows")
    p.add_argument("--vector-util-soc", action="append", help="configs of the matmul row (default both t1 configs)")
    p.add_argument("--vector-matmul", type=int, default=Options.matmul, help="matmul size N (NxNxN)")
    p.add_argument("--vector-no-bmm", action="store_true")
    p.add_argument("--vector-no-lenet", action="store_true")
    p.add_argument("--vector-no-speed", action="store_true")
    p.add_argument("--vector-out", type=Path, default=DEFAULT_OUT, help="directory of vector.json")
    a, _ = p.parse_known_args(argv)
    opts = Options(
        ref_soc=a.vector_ref_soc,
        util_socs=tuple(a.vector_util_soc or Options.util_socs),
        matmul=a.vector_matmul,
        bmm=not a.vector_no_bmm,
        lenet=not a.vector_no_lenet,
        speed=not a.vector_no_speed,
    )
    return opts, a.vector_out


def run(argv: list[str]) -> None:
    opts, out_dir = parse(argv)
    with tempfile.TemporaryDirectory(prefix="bench-vector-") as tmp:
        figs = collect(opts, Path(tmp))
    console = Console(width=max(Console().width, 132))  # wide enough for every column, even in a pipe
    for t in tables(figs):
        console.print(t)
    print("memory: each config's [memory] section (latency 4, 4 outstanding, width_bits beats); vector port DLEN bits")
    print("utilization = vec_fma_ops in forward / (lanes x cycles_forward); t1 figures are cycles on blastoise")
    for r in [figs.bmm, figs.lenet, *figs.matmul]:
        if r is not None and r.status != "pass":
            print(f"[bench vector] {r.case} on {r.soc}: {r.status}: {r.message}")
    path = out_dir / "vector.json"
    write_json_atomic(path, figs.to_json())
    print(f"figures written to {path}")
