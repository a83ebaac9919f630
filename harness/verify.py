"""``verify(case, soc, on="iss"|"rtl")``: compile, run, compare with PyTorch.

    from harness.verify import verify
    result = verify("addmm", "t1-small", on="iss")        # the result.json dict
    result = verify("model.py:make", "rv32")              # a user case

The result has DESIGN.md's keys plus ``compile`` (seconds per stage, cache hit,
per-op schedule), ``instret_forward`` (retired instructions inside the forward
PROFILE region) and ``manifest``; on a config with an accelerator also
``accelerator_used`` (whether the compiled code drives it) and, when it does not,
a ``note`` saying that the case ran on the scalar core only. ``quant`` (``auto``
quantizes PyTorch cases on Gemmini configs, :mod:`harness.quant.flow`) adds result.json's
``quant`` key; an int8 case is compared bit for bit with its int8 program run on the host,
and fails (``mismatch``, ``reason: accuracy``) when too far from the float32 module.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from compiler import compile_kernel, for_target
from compiler.frontend import import_mlir_file, import_torch
from compiler.frontend.profile_regions import profile_markers, regions_of
from configs import SocConfig, load_soc
from harness.cases import Case, materialize, resolve
from harness.check import accept_float_op_steps, apply_accuracy, compare_all
from harness.errors import CosimError
from harness.program import Program, build_program, read_outputs
from harness.results import FORWARD_REGION, make_result, write_json_atomic
from sim.outcome import RunOutcome

TARGETS = ("iss", "rtl")


def run_on(target: str, elf: Path, soc: SocConfig, dumps: list[tuple[int, int]], workdir: Path) -> RunOutcome:
    """Run an ELF on Spike or on the RTL; the RTL runner is imported only when asked for."""
    if target == "iss":
        from harness.elfcheck import check_elf
        from harness.iss import describe_trap
        from sim.spike import Dump, run_spike

        outcome = run_spike(elf, soc, dumps=[Dump(a, s) for a, s in dumps], workdir=workdir)
        describe_trap(outcome, check_elf(elf, soc), soc)
        return outcome
    if target == "rtl":
        try:
            from sim.rtl_runner import run_rtl
        except ImportError as e:
            raise CosimError(
                f"the RTL runner is not available in this checkout ({e}); verify on Spike with --on iss"
            ) from None
        return run_rtl(elf, soc, dumps=dumps, workdir=workdir)
    raise CosimError(f"unknown target {target!r}; use one of {', '.join(TARGETS)}")


def compile_case(
    c: Case,
    soc,
    out_dir: Path,
    *,
    dump_ir: str | os.PathLike | None = None,
    quant: dict | None = None,
    markers: bool = True,
):
    """Frontend + compiler + program builder for one case. Returns (materialized, kernel, program, seconds,
    regions): ``regions`` is the per-layer PROFILE region table of a program with layer calls
    (:mod:`compiler.frontend.profile_regions`; [] without, or with ``markers`` off).

    With ``quant`` (a dict), the case is quantized first and the dict receives result.json's ``quant`` record."""
    with profile_markers(markers):
        return _compile_case(c, soc, out_dir, dump_ir=dump_ir, quant=quant)


def _compile_case(c: Case, soc, out_dir: Path, *, dump_ir, quant):
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    mat = materialize(c)
    if quant is not None:
        from harness.quant.flow import quantize_case

        mat, record = quantize_case(mat, soc)
        quant.update(record)
        seconds["quantize"] = record["seconds"]
    if c.mlir_path is not None:
        imported = import_mlir_file(c.mlir_path, name=c.name)
    elif quant is not None:
        from harness.quant.flow import quiet_torch_warnings

        with quiet_torch_warnings():  # re-exporting the int8 GraphModule: torch's own deprecation notes
            imported = import_torch(mat.fn, mat.inputs, name=c_identifier(c.name), source=c.name)
    else:
        imported = import_torch(mat.fn, mat.inputs, name=c_identifier(c.name), source=c.name)
    if quant is not None and quant.get("dataflow", "auto") != "auto":  # the case's Gemmini dataflow option
        from compiler.gemmini import with_dataflow

        imported = with_dataflow(imported, quant["dataflow"])
    seconds["frontend"] = time.perf_counter() - t0
    t1 = time.perf_counter()
    kernel = compile_kernel(imported, soc, dump_dir=dump_ir)
    seconds["compile"] = time.perf_counter() - t1
    seconds.update(kernel.seconds)
    t2 = time.perf_counter()
    program = build_program(kernel, soc, out_dir, case=c.name)
    seconds["link"] = time.perf_counter() - t2
    imported = for_target(imported, kernel.target)  # what compile_kernel compiled on this config
    return mat, kernel, program, seconds, regions_of(imported.mlir)


def accelerator_use(soc, strategy: str) -> dict:
    """``accelerator_used`` (and a ``note`` when false) for a config with an accelerator; {} without one.

    A case on a Gemmini config compiles with the ``gemmini`` strategy only when its (quantized) program has int8
    layers the backend maps; otherwise (float ops only, or ``--quant none``) it runs on the core, and its pass
    says nothing about the matrix unit."""
    kind = soc.accelerator.kind
    if kind == "none":
        return {}
    if strategy != "scalar":
        return {"accelerator_used": True}
    why = (
        "no int8 matmul, linear, bmm, conv2d or residual add in the program for Gemmini to run"
        if kind == "gemmini"
        else f"the compiler did not use the {kind} unit"
    )
    return {"accelerator_used": False, "note": f"ran on the RV{soc.xlen} core only: {why}"}


def c_identifier(name: str) -> str:
    """A case name as a C identifier (the kernel's symbol and the work directory): other characters become _."""
    return "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in name)


def verify(
    case: str | Case,
    soc,
    on: str = "iss",
    *,
    json_path: str | os.PathLike | None = None,
    dump_ir: str | os.PathLike | None = None,
    workdir: str | os.PathLike | None = None,
    quant: str = "auto",
    markers: bool = True,
    localize: bool | str = True,
    elf_patch: Callable[[Program], None] | None = None,
) -> dict:
    """Compile ``case`` for ``soc``, run it on ``on`` and compare with PyTorch (``quant``: auto|int8|none).

    ``markers``: PROFILE regions around each layer call and each stretch of core work between layers
    (programs with int8 layers; result.json's ``profile`` names them). ``localize``: on a mismatch of a
    PyTorch case, a debug compile names the first op that went wrong (:mod:`harness.localize`,
    result.json's ``localization``); ``"always"``: checks every op on a pass too. ``elf_patch``: called with each built program before it runs
    (fault injection in tests: :func:`harness.localize.flip_bit`)."""
    if on not in TARGETS:
        raise CosimError(f"unknown target {on!r}; use one of {', '.join(TARGETS)}")
    soc = load_soc(soc)
    c = resolve(case) if isinstance(case, str) else case
    from harness.quant import wants_quant

    quant_record: dict | None = (
        {"requested": quant} if wants_quant(quant, soc, is_mlir=c.mlir_path is not None) else None
    )
    t_start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="cosim-verify-") as tmp_name:
        out_dir = Path(workdir) if workdir else Path(tmp_name)
        out_dir = out_dir / f"{c_identifier(c.name)}-{soc.name}"
        mat, kernel, program, seconds, regions = compile_case(
            c, soc, out_dir, dump_ir=dump_ir, quant=quant_record, markers=markers
        )
        if elf_patch is not None:
            elf_patch(program)
        tolerance = "exact" if quant_record is not None else c.tolerance  # int8: bit for bit
        dumps = [(int(o["address"], 16), o["size"]) for o in program.outputs]
        outcome = run_on(on, program.elf, soc, dumps, out_dir)
        outputs = None
        if outcome.exited_ok:
            got = read_outputs(program.manifest, outcome.dumps)
            if mat.reference:
                outputs = compare_all(got, mat.reference, tolerance)
        forward = [p for p in outcome.profile if p.region == FORWARD_REGION and p.stop is not None]
        extra = {
            "instret_forward": forward[0].cycles if forward and on == "iss" else None,
            "compile": {
                "seconds": {k: round(v, 4) for k, v in seconds.items()},
                "cached": kernel.cached,
                "strategy": kernel.target.strategy,
                "kernel": kernel.key,
                "schedule": kernel.schedule,
            },
            "tolerance": tolerance,
            "manifest": str(program.manifest) if workdir else None,
            "verify_wall_s": round(time.perf_counter() - t_start, 3),
            **accelerator_use(soc, kernel.target.strategy),
        }
        if not mat.reference:
            extra["message_reference"] = "no reference outputs for this case: only the run itself was checked"
        if quant_record is not None:
            extra["quant"] = quant_record
        elif soc.accelerator.kind == "gemmini" and c.mlir_path is None:
            extra["quant"] = {"mode": "none", "note": "--quant none: the float32 model ran on the core"}
        result = make_result(
            outcome, soc=soc, elf=program.elf, case=c.name, outputs=outputs, extra=extra, regions=regions
        )
        wanted = localize == "always" or (localize and result["status"] == "mismatch")
        if wanted and c.mlir_path is None and outcome.exited_ok:
            _localize(result, mat, c, soc, on, out_dir, quantized=quant_record is not None, elf_patch=elf_patch)
        if quant_record is not None:
            accept_float_op_steps(result, quant_record)
            apply_accuracy(result, quant_record)
    if json_path:
        write_json_atomic(json_path, result)
    return result


def _localize(result: dict, mat, c: Case, soc, on: str, out_dir: Path, *, quantized: bool, elf_patch) -> None:
    """result.json's ``localization``: the first op whose device output differs (harness.localize)."""
    from harness.localize import describe, localize

    try:
        loc = localize(
            mat.fn,
            tuple(mat.inputs),
            soc,
            on,
            out_dir,
            name=c_identifier(c.name),
            float_tolerance="transcendental" if quantized else c.tolerance,
            quantized=quantized,
            elf_patch=elf_patch,
        )
    except Exception as e:  # the mismatch stands; say why it could not be localized
        loc = {"done": False, "why": f"localization failed: {type(e).__name__}: {e}"}
    result["localization"] = loc
    if result["status"] != "pass" or loc.get("first_bad"):
        line = describe(loc)
        result["message"] = f"{result['message']}; {line}" if result.get("message") else line


# ---------------------------------------------------------------------------
# Case sources for ``nox -s verify`` (harness.verify_suite.CASE_SOURCES)

SUITE_SOCS = ("rv32", "t1-small", "t1-blastoise")


def _suite_cases(socs: tuple[str, ...], target: str) -> list:
    """Every built-in case on each of ``socs``, run on ``target`` (iss or rtl)."""
    from harness.cases import REGISTRY
    from harness.verify_suite import Case as SuiteCase

    return [
        SuiteCase(
            id=f"torch:{name}@{soc}/{target}",
            soc=soc,
            target=target,
            kind="torch",
            run=lambda workdir, n=name, s=soc: verify(n, s, on=target, workdir=workdir),
        )
        for soc in socs
        for name in REGISTRY
    ]


def verify_cases() -> list:
    """Every built-in PyTorch case on the scalar and vector configs, on Spike."""
    return _suite_cases(SUITE_SOCS, "iss")


# The default simulated cores of the main job: the scalar baseline and the small
# vector core (t1-blastoise's RTL is in the slow tier: its build and runs are long).
RTL_SUITE_SOCS = ("rv32", "t1-small")


def verify_cases_rtl() -> list:
    """Every built-in case on the RTL of the default simulated cores."""
    return _suite_cases(RTL_SUITE_SOCS, "rtl")
