"""``cosim verify CASE --soc S [--on iss|rtl] [--json F] [--dump-ir DIR]``: compile, run, compare with PyTorch."""

from __future__ import annotations

import json

from harness.quant import QUANT_MODES
from harness.verify import TARGETS, verify


def run_verify(args) -> int:
    result = verify(
        args.case,
        args.soc,
        on=args.on,
        json_path=args.json,
        dump_ir=args.dump_ir,
        workdir=args.workdir,
        quant=getattr(args, "quant", "auto"),  # callers that build args by hand may leave it out
        markers=not getattr(args, "no_markers", False),
        localize={"mismatch": True, "always": "always", "never": False}[getattr(args, "localize", "mismatch")],
    )
    status = result["status"]
    fwd = result.get("instret_forward")
    cyc = result.get("cycles_forward")
    print(f"{result['case']} on {result['soc']} ({result['target']}): {status}")
    if result.get("accelerator_used") is False:
        print(f"  note: {result['note']}")
    _print_quant(result.get("quant"))
    if cyc is not None:
        print(f"  cycles: total {result['cycles_total']}, forward {cyc}")
    if fwd is not None:
        print(f"  retired instructions: total {result['instret']}, forward {fwd}")
    for p in result.get("profile") or []:  # per-layer regions (harness.results.profile_entries)
        if p.get("where"):
            print(
                f"  region {p['region']}: {p['name']} on {p['where']}: {p['cycles']} {'cycles' if cyc else 'instructions'}"
            )
    for name, o in (result.get("outputs") or {}).items():
        print(
            f"  {name}: max_abs_err {o['max_abs_err']}, max_ulp_err {o['max_ulp_err']}, mismatches {o['mismatches']}"
            f" ({o.get('tolerance')})"
        )
        for m in o.get("first_mismatches", [])[:4]:
            print(f"    at {m['index']}: got {m['got']}, expected {m['expected']}")
    if result.get("message"):
        print(f"  {result['message']}")
    if args.print_json:
        print(json.dumps(result, indent=1))
    if getattr(args, "perfetto", None):
        from harness.report.perfetto import write_trace

        trace = write_trace([result], args.perfetto)
        print(
            f"  perfetto trace: {trace} (1 cycle = 1 us; open in ui.perfetto.dev)"
            if trace
            else "  perfetto: no trace (no cycle counts: run --on rtl)"
        )
    return 0 if status == "pass" else 1


def _print_quant(q: dict | None) -> None:
    if not q:
        return
    if q.get("mode") != "int8":
        print(f"  quant: {q.get('note', q.get('mode'))}")
        return
    why = (
        "quantized by default on this Gemmini config, --quant none runs float32"
        if q.get("requested") == "auto"
        else "--quant int8"
    )
    print(f"  quant: int8 ({why}): {q['scheme']}")
    if q.get("float_ops"):
        print(f"  quant: kept in float32 (on the core, between dequantize and quantize): {', '.join(q['float_ops'])}")
    acc = q.get("accuracy") or {}
    for name, fig in (acc.get("outputs") or {}).items():
        top1 = f", top-1 agreement {fig['top1_agreement']:.0%} of {fig['rows']}" if "top1_agreement" in fig else ""
        print(f"  {name} vs float32: max abs error {fig['max_abs_err_pct']}% of its range{top1}")


def register(sub) -> None:
    p = sub.add_parser("verify", help="compile a case, run it on Spike or the RTL, compare the outputs with PyTorch")
    p.add_argument("case", help="built-in case (see `cosim cases`), FILE.py:FUNC or FILE.mlir")
    p.add_argument("--soc", required=True, help="SoC config name or .toml path")
    p.add_argument("--on", choices=TARGETS, default="iss", help="iss (Spike, default) or rtl")
    p.add_argument("--json", metavar="F", help="write result.json here")
    p.add_argument(
        "--dump-ir",
        metavar="DIR",
        help="write the IR after every compiler stage into DIR, and after every pass into DIR/passes/ (NN-<pass>)",
    )
    p.add_argument("--workdir", metavar="DIR", help="keep the ELF, main.c and manifest.json under DIR")
    p.add_argument(
        "--quant",
        choices=QUANT_MODES,
        default="auto",
        help="int8: quantize the float case (cosim_q ops); none: run it in float32; auto (default): int8 on"
        " Gemmini configs, none elsewhere",
    )
    p.add_argument(
        "--perfetto", metavar="F", help="write a Perfetto trace (Chrome trace-event JSON) of the RTL run here"
    )
    p.add_argument(
        "--no-markers", action="store_true", help="no PROFILE region per layer (int8 programs on Gemmini configs)"
    )
    p.add_argument(
        "--localize",
        choices=("mismatch", "always", "never"),
        default="mismatch",
        help="name the first op that went wrong with a debug compile: on a mismatch (default), always, never",
    )
    p.add_argument("--print-json", action="store_true", help="print the whole result record")
    p.set_defaults(func=run_verify)
