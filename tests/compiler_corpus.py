"""Dump the compiler's final LLVM IR for a fixed corpus on every config it targets.

The rule for refactoring the compiler: behaviour does not change. This script
compiles every built-in case of ``cosim cases``, the default-tier random
programs (``tests/random_programs.py``, seeds 0-9), a cross-section of
``tests/fuzz_programs`` and two programs of its own (sin/cos, a matrix-vector
product) on rv32, rv64, t1-small, t1-blastoise and a VLEN-512 config
(t1-blastoise with VLEN 512, as tests/test_compiler_fuzz.py writes it), and
writes, per program and config:

- ``<program>@<config>.ll``: the LLVM IR handed to clang (after translation and the
  ``llvm-ir`` stage: down-leveling, explicit vector lengths, ``no-builtins``), byte for byte
  what ``compile_kernel`` writes as ``kernel.ll``;
- ``<program>@<config>.schedule.json``: the schedule report (``Kernel.schedule``),
  with locations inside the compiler's own sources (the frontend's ``forward``
  wrapper) reduced to ``loc(<compiler>)`` (their line numbers move with any edit)
  and the checkout's path to ``<root>`` in those of its cases and tests.

plus ``MANIFEST`` (sha256 of every file, sorted). Nothing is assembled or run.

    ./dev python tests/compiler_corpus.py /tmp/ir-before          # dump
    ./dev python tests/compiler_corpus.py /tmp/ir-after --compare /tmp/ir-before

``--compare`` exits 1 and names the files that differ (or are missing).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

RANDOM_SEEDS = range(10)
FUZZ = (
    "matmuls:mm_3x37x19",
    "matmuls:bmm_on_transposed_views",
    "matmuls:linear_on_1d_input",
    "elementwise:relu_signed_zero_and_huge",
    "elementwise:threshold_with_float_scalars",
    "elementwise:bool_inputs_buffers_outputs",
    "elementwise:integer_floor_division",
    "reductions:softmax_odd_last_dim",
    "reductions:var_std_unbiased_and_not",
    "convs:conv_dilation2",
    "pools:pool_overlap_with_nan_and_padding",
    "shapes:permute_reshape_linear",
    "models:conv_bn_dropout_relu_eval",
    "models:depthwise_separable_block",
)
COMPILER_LOC = re.compile(r'loc\(\\"[^"\\]*/compiler/[^"\\]*\\":\d+:\d+\)')


def _extra() -> dict[str, tuple]:
    """Paths the cases above miss: the sin/cos expansions and aten.mv as an N = 1 matmul."""
    import torch

    g = torch.Generator().manual_seed(3)
    return {
        "extra_sin_cos": (lambda x: torch.sin(x) + torch.cos(x), (torch.randn(7, 33, generator=g) * 4,)),
        "extra_matvec": (lambda a, v: a @ v, (torch.randn(37, 23, generator=g), torch.randn(23, generator=g))),
    }


CONFIGS = ("rv32", "rv64", "t1-small", "t1-blastoise", "t1-v512")


def write_vlen512_config(directory: Path) -> Path:
    """configs/t1-blastoise.toml with VLEN 512 (tests/test_compiler_fuzz.py's config)."""
    text = (ROOT / "configs" / "t1-blastoise.toml").read_text()
    new = text.replace('name = "t1-blastoise"', 'name = "t1-v512"').replace("vlen = 2048", "vlen = 512")
    new = new.replace("zvl2048b", "zvl512b").replace("VLEN 2048", "VLEN 512")
    path = directory / "t1-v512.toml"
    path.write_text(new)
    return path


def programs() -> list[tuple[str, object]]:
    """(name, Case) of every corpus program."""
    from random_programs import generate

    from harness.cases import REGISTRY, Case, resolve

    out = [(name, case) for name, case in REGISTRY.items()]
    for seed in RANDOM_SEEDS:
        p = generate(seed)
        out.append((p.name, Case(p.name, lambda p=p: (p.fn, p.inputs), p.tolerance)))
    for short in FUZZ:
        mod, func = short.split(":")
        out.append((f"fuzz_{mod}_{func}", resolve(f"{HERE / 'fuzz_programs' / (mod + '.py')}:{func}")))
    for name, (fn, inputs) in _extra().items():
        out.append((name, Case(name, lambda fn=fn, inputs=inputs: (fn, inputs), "elementwise")))
    return out


def final_ir(imported, soc) -> tuple[str, list[dict]]:
    """What compile_kernel hands to clang, and the schedule report, without compiling."""
    from compiler.llvm.codegen import check_llvm_ir, translate
    from compiler.pipeline import finish_llvm_ir, lower
    from compiler.targets import target_for

    target = target_for(soc)
    if target.vector is None and imported.without_window_decompositions is not None:
        imported = imported.without_window_decompositions()
    lowered = lower(imported.mlir, target)
    text = translate(lowered.module)
    check_llvm_ir(text)
    return finish_llvm_ir(text, target), lowered.report.ops


def dump(out: Path) -> int:
    from compiler.frontend import import_torch
    from harness.cases import materialize

    out.mkdir(parents=True, exist_ok=True)
    socs = {c: c for c in CONFIGS}
    tmp = Path(tempfile.mkdtemp(prefix="corpus-socs."))
    socs["t1-v512"] = str(write_vlen512_config(tmp))
    corpus = programs()
    t0 = time.perf_counter()
    for name, case in corpus:
        mat = materialize(case)
        imported = import_torch(mat.fn, mat.inputs, name=name.replace("-", "_").replace(":", "_"), source=case.name)
        for config, soc in socs.items():
            text, schedule = final_ir(imported, soc)
            (out / f"{name}@{config}.ll").write_text(text)
            report = COMPILER_LOC.sub("loc(<compiler>)", json.dumps(schedule, indent=1))
            for part in ("harness", "tests"):
                report = report.replace(f"{ROOT}/{part}/", f"<root>/{part}/")
            (out / f"{name}@{config}.schedule.json").write_text(report + "\n")
        print(f"{time.perf_counter() - t0:7.1f}s {name}", file=sys.stderr, flush=True)
    lines = [
        f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.name}" for p in sorted(out.iterdir()) if p.name != "MANIFEST"
    ]
    (out / "MANIFEST").write_text("\n".join(lines) + "\n")
    print(f"{len(corpus)} programs x {len(socs)} configs -> {out}")
    return len(corpus)


def compare(out: Path, before: Path) -> int:
    a = dict(reversed(line.split("  ", 1)) for line in (before / "MANIFEST").read_text().splitlines())
    b = dict(reversed(line.split("  ", 1)) for line in (out / "MANIFEST").read_text().splitlines())
    differ = sorted(n for n in a.keys() | b.keys() if a.get(n) != b.get(n))
    for n in differ:
        print(f"differs: {n}" + ("" if n in a and n in b else " (missing on one side)"))
    print(f"{len(a)} files before, {len(b)} after, {len(differ)} differ")
    return 1 if differ else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--compare", type=Path, metavar="BEFORE", help="a dump to compare with (exit 1 on a difference)")
    args = ap.parse_args()
    dump(args.out)
    return compare(args.out, args.compare) if args.compare else 0


if __name__ == "__main__":
    sys.exit(main())
