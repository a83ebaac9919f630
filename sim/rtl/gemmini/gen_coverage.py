#!/usr/bin/env python3
"""Generate COVERAGE.md: every Gemmini instruction and field, what the model and the RTL do with it, and which
tests vary it at DIM 4 and DIM 16.

Every column is measured, not typed:

- **model**: the functional model (sim/gemmini/model.py) is probed. Each field of each instruction is set to a
  few values in programs that make its effect visible (sim/tb/gemmini/unit_probe.py). "reads" means some value
  changed the model's state, its output or its verdict. The refusals are the gm_illegal_e names of the
  GemminiIllegal messages the probes drew.
- **RTL**: the decoder's source (gemmini_unit_decode.sv) is parsed. For each funct it gives the case that
  decodes it and the gm_illegal_e codes its checks can return, with their numbers from gemmini_unit_pkg.sv. The
  decode and whole-unit tests check that the RTL's verdict and reason equal the model's on every instruction.
- **tests**: the programs of sim/tb/gemmini/unit_programs.unit_programs (the whole-unit tests), run through the
  model and decoded with sim/tb/gemmini/unit_fields. A cell counts the distinct values the field took in the
  instructions the model accepted, and names the programs that vary it. The decode test's random streams are
  counted too, refused instructions included.
- **difftest**: the C programs in tests/gemmini_programs that tests/test_difftest_gemmini.py runs on the RTL,
  with the gemmini.h macros (or raw functs) each one calls.

    ./dev python sim/rtl/gemmini/gen_coverage.py            # rewrite COVERAGE.md
    ./dev python sim/rtl/gemmini/gen_coverage.py --check    # exit 1 if stale
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sim.gemmini import isa  # noqa: E402
from sim.gemmini.model import GemminiModel  # noqa: E402
from sim.gemmini.params import gemmini_params  # noqa: E402
from sim.tb.gemmini.unit_build import illegal_reasons  # noqa: E402
from sim.tb.gemmini.unit_fields import FIELDS, KINDS, Field, field_values, insn_kind  # noqa: E402
from sim.tb.gemmini.unit_probe import probe_field, probe_funct, probe_unknown  # noqa: E402
from sim.tb.gemmini.unit_programs import unit_programs  # noqa: E402
from sim.tb.gemmini.unit_stim import MapMemory, model_verdicts, random_program, regions  # noqa: E402
from sim.tb.gemmini.unit_uses import FEATURES, feature_uses  # noqa: E402

OUT = HERE / "COVERAGE.md"
DECODER = HERE / "gemmini_unit_decode.sv"
PROGRAMS = ROOT / "tests" / "gemmini_programs"
SOCS = ("gemmini-dim4", "gemmini-dim16")
# the decode test's streams (tests/test_gemmini_unit.py, test_decode_legality_matches_model)
DECODE_STREAMS = {"gemmini-dim4": (1, 2), "gemmini-dim16": (1, 2)}
DECODE_LEN = 2500
UNKNOWN = "any other funct"
# where DIFFERENCES.md describes a kind's differences from Gemmini v0.7 (anchors)
DIFFS = {
    "config_ex": "os-results-leave-at-a-drain",
    "config_ld": "reset-values",
    "config_st": "reset-values",
    "config_norm": "no-normalization-units",
    "mvin": "physical-addresses-no-tlb",
    "mvin2": "physical-addresses-no-tlb",
    "mvin3": "physical-addresses-no-tlb",
    "mvout": "physical-addresses-no-tlb",
    "preload": "os-results-leave-at-a-drain",
    "compute_preloaded": "os-results-leave-at-a-drain",
    "compute_accumulated": "os-sums-after-a-drain",
    "flush": "flush-is-a-drain-point",
    "loop_ws": "loop_ws-fields-of-a-later-gemminih",
    "clkgate_en": "clkgate_en-does-nothing",
    "counter": "counters-count-rtl-events",
    **{isa.FUNCT_NAMES[f]: "no-loop_conv_ws" for f in range(isa.LOOP_CONV_WS, isa.LOOP_CONV_WS_CONFIG_6 + 1)},
}
# gemmini.h / gemmini_counter.h calls -> the instruction kinds they issue (the tiled_* library calls issue many)
MACROS = (
    (r"\bgemmini_(?:extended_|block_)?mvin\s*\(", "mvin"),
    (r"\bgemmini_extended_mvin2\s*\(", "mvin2"),
    (r"\bgemmini_extended_mvin3\s*\(", "mvin3"),
    (r"\bgemmini_(?:extended_)?mvout\s*\(", "mvout"),
    (r"\bgemmini_(?:extended\d?_)?config_ld\s*\(", "config_ld"),
    (r"\bgemmini_(?:extended\d?_)?config_st\s*\(", "config_st"),
    (r"\bgemmini_(?:extended\d?_)?config_ex\s*\(", "config_ex"),
    (r"\bgemmini_(?:extended_)?preload(?:_zeros)?\s*\(", "preload"),
    (r"\bgemmini_(?:extended_)?compute_preloaded\s*\(", "compute_preloaded"),
    (r"\bgemmini_(?:extended_)?compute_accumulated\s*\(", "compute_accumulated"),
    (r"\bgemmini_flush\s*\(", "flush"),
    (r"\bgemmini_loop_ws\s*\(", "loop_ws"),
    (r"\bcounter_(?:reset|configure|read|snapshot\w*)\s*\(", "counter"),
)


# ---------------------------------------------------------------- the RTL decoder


def _blocks(text: str) -> dict[str, str]:
    """Case items of the decoder's funct case (and of config's rs1[1:0] case): label -> body text."""
    body = text[text.index("unique case (funct_i)") :]
    body = body[: body.index("endcase\n    end\n")] if "endcase\n    end\n" in body else body
    items: dict[str, str] = {}
    pat = re.compile(r"^\s{8}((?:7'd\d+,?\s*)+):\s*(.*)$", re.M)
    marks = list(pat.finditer(body))
    for m, nxt in zip(marks, [*marks[1:], None], strict=True):
        items[m[1].strip()] = body[m.start(2) : nxt.start() if nxt else len(body)]
    return items


def _func_reasons(text: str) -> dict[str, set[str]]:
    """gm_illegal_e names each checking function can return (through the functions it calls)."""
    funcs = {m[1]: m[2] for m in re.finditer(r"function automatic \w+ (\w+)\((.*?)endfunction", text, re.S)}
    direct = {n: set(re.findall(r"\bIll\w+", b)) - {"IllNone"} for n, b in funcs.items()}
    calls = {n: {c for c in funcs if c != n and re.search(rf"\b{c}\(", b)} for n, b in funcs.items()}
    out = {}
    for n in funcs:
        seen, todo, names = set(), [n], set()
        while todo:
            f = todo.pop()
            if f in seen:
                continue
            seen.add(f)
            names |= direct[f]
            todo += calls[f]
        out[n] = names
    return out


def rtl_decode() -> tuple[dict[str, tuple[str, list[str]]], list[str]]:
    """Per instruction kind: (how the decoder takes it, the reasons its own checks can refuse it with); and the
    reasons of the write of a pending OS result, which every command outside preload / compute does first."""
    text = DECODER.read_text()
    funcs = _func_reasons(text)

    def reasons(body: str) -> set[str]:
        r = set(re.findall(r"\br = (Ill\w+)", body))
        for f, names in funcs.items():
            if re.search(rf"\b{f}\(", body):
                r |= names
        return r

    # a pending OS result is written before any command outside the mesh stream: its checks apply to those
    pre = text[text.index("unknown functs") : text.index("unique case (funct_i)")]
    drain = reasons(pre[pre.index("mesh stream") :])
    out: dict[str, tuple[str, list[str]]] = {}
    for label, body in _blocks(text).items():
        functs = [int(x) for x in re.findall(r"7'd(\d+)", label)]
        for f in functs:
            if f == isa.CONFIG:
                sub = re.split(r"\n\s*(?=2'd\d: begin|default:)", body)
                for part in sub:
                    m = re.match(r"\s*2'd(\d): begin\s*//\s*(config_\w+)", part)
                    if m:
                        out[m[2]] = ("decoded", sorted(reasons(part)))
                    elif part.strip().startswith("default:"):
                        out["config_norm"] = ("refused", sorted(reasons(part)))
                continue
            how = "refused" if body.strip().startswith("r = ") else "decoded"
            out[isa.FUNCT_NAMES[f]] = (how, sorted(reasons(body)))
    for kind, _ in KINDS:
        if kind not in out:  # no case item of its own (the decoder's default): no checks of its own
            out[kind] = ("decoded (no checks)", [])
    out[UNKNOWN] = ("refused", sorted(reasons(pre[: pre.index("mesh stream")])))
    return out, sorted(drain)


# ---------------------------------------------------------------- the tests' streams


def _family(name: str) -> str:
    return re.sub(r"-\d+$", "", name)


def _measure(streams: dict[str, list]) -> dict[Field, tuple[set[int], set[str]]]:
    """Per field: the values it took in ``streams`` and the program families (seeds pooled) it took two or more
    values in."""
    vals: dict[Field, set[int]] = defaultdict(set)
    per_family: dict[Field, dict[str, set[int]]] = defaultdict(lambda: defaultdict(set))
    for name, prog in streams.items():
        for funct, rs1, rs2 in prog:
            if insn_kind(funct, rs1) is None:
                continue
            for f, v in field_values(funct, rs1, rs2).items():
                vals[f].add(v)
                per_family[f][_family(name)].add(v)
    return {f: (vals[f], {n for n, vs in per_family[f].items() if len(vs) > 1}) for f in vals}


def stream_fields(socs: tuple[str, ...] = SOCS) -> dict[str, dict[str, dict]]:
    """Per SoC: the whole-unit programs' instructions the model accepts, and the decode test's raw streams."""
    out: dict[str, dict[str, dict]] = {}
    for soc in socs:
        p = gemmini_params(soc)
        unit = {}
        for name, prog in unit_programs(soc).items():
            kept, verdicts = model_verdicts(GemminiModel(p, MapMemory(regions(soc))), prog)
            unit[name] = [i for i, v in zip(kept, verdicts, strict=True) if v[0]]
        decode = {f"decode-{s}": random_program(p, regions(soc), DECODE_LEN, s) for s in DECODE_STREAMS[soc]}
        out[soc] = {"unit": _measure(unit), "decode": _measure(decode)}
    return out


def uses(soc: str) -> dict[str, tuple[int, set[str]]]:
    """Per feature (unit_uses.FEATURES): legal instructions of the whole-unit programs that used it, and the
    program families they are in."""
    p = gemmini_params(soc)
    total: dict[str, int] = defaultdict(int)
    fams: dict[str, set[str]] = defaultdict(set)
    for name, prog in unit_programs(soc).items():
        for feat, n in feature_uses(p, regions(soc), prog).items():
            total[feat] += n
            fams[feat].add(_family(name))
    return {f: (total[f], fams[f]) for f in FEATURES}


def difftest_programs() -> dict[str, list[str]]:
    """Instruction kind -> the difftest's C programs that issue it directly."""
    out: dict[str, list[str]] = defaultdict(list)
    for c in sorted(PROGRAMS.glob("*.c")):
        src = c.read_text()
        kinds = {k for pat, k in MACROS if re.search(pat, src)}
        kinds |= {isa.FUNCT_NAMES[int(f)] for f in re.findall(r"\bRAW\((\d+),", src) if int(f) in isa.FUNCT_NAMES}
        if re.search(r"\bRAW\(0,", src):
            kinds.discard("config")
            kinds |= {"config_ex", "config_st"}
        for k in kinds:
            out[k].append(c.stem)
    return out


# ---------------------------------------------------------------- the page


def _cell(meas: dict, f: Field) -> str:
    vals, streams = meas.get(f, (set(), set()))
    if not vals:
        return "never"
    if len(vals) == 1:
        return f"fixed ({next(iter(vals)):#x})"
    return f"{len(vals)} values ({', '.join(sorted(streams))})" if streams else f"{len(vals)} values"


def render() -> str:
    codes = illegal_reasons()
    rtl, drain = rtl_decode()
    streams = stream_fields()
    diff = difftest_programs()

    def named(names) -> str:
        return ", ".join(f"{n} ({codes[n]})" for n in sorted(names, key=lambda n: codes[n])) or "none"

    lines = [
        "# Gemmini unit: instruction and field coverage",
        "",
        "Generated by `sim/rtl/gemmini/gen_coverage.py`; do not edit by hand (`--check` fails when this page",
        "is stale, in the default tier: `tests/test_gemmini_coverage.py`). Every cell is measured:",
        "",
        "- **model**: the functional model probed with a few values of each field in programs that show its",
        "  effect (`sim/tb/gemmini/unit_probe.py`). *reads* = some value changed the state, the output or",
        "  the verdict. The refusals are the reasons the probes drew.",
        "- **RTL**: `gemmini_unit_decode.sv` parsed. It gives the case that decodes each funct and the",
        "  `gm_illegal_e` reasons (codes from `gemmini_unit_pkg.sv`) its own checks can return. Every",
        "  command other than preload and compute first writes a pending OS result, so it can also be",
        "  refused with that write's reasons:",
        f"  {named(drain)}.",
        "  The decode and whole-unit tests check that the RTL's verdict and reason equal the model's on",
        "  every instruction.",
        "- **unit DIM 4 / DIM 16**: the whole-unit tests' programs (`unit_programs.unit_programs`:",
        "  tiles-ws, tiles-os, loop, features, random), the instructions the model accepts, compared with",
        "  the model on the RTL (`tests/test_gemmini_unit.py`; DIM 16 in the slow tier). A cell is the number of",
        "  distinct values the field took, then the program families (seeds pooled) that vary it.",
        "  *fixed* = one value only.",
        "- **decode**: the decode test's random streams, refusals included (DIM 4; DIM 16 slow).",
        "- **difftest**: the C programs in `tests/gemmini_programs` that issue it directly. The difftest",
        "  (`tests/test_difftest_gemmini.py`) runs them on the gemmini-dim4 RTL and compares every write",
        "  with the model's.",
        "- **differences**: [DIFFERENCES.md](DIFFERENCES.md).",
        "",
        "## Instructions",
        "",
        "| instruction | funct | model | RTL | RTL refusals (code) | difftest programs | differences |",
        "|---|---|---|---|---|---|---|",
    ]
    p4 = gemmini_params(SOCS[0])
    for kind, funct in KINDS:
        model = probe_funct(p4, kind)
        how, reasons = rtl[kind]
        progs = ", ".join(diff.get(kind, [])) or "none"
        d = DIFFS.get(kind)
        link = f"[{d}](DIFFERENCES.md#{d})" if d else "none"
        lines.append(f"| `{kind}` | {funct} | {model} | {how} | {named(reasons)} | {progs} | {link} |")
    others = [f for f in range(128) if f not in isa.FUNCT_NAMES]
    how, reasons = rtl[UNKNOWN]
    lines.append(
        f"| {UNKNOWN} | {others[0]}..{others[-1]} except {isa.COUNTER} | {probe_unknown(p4, others)} | {how} "
        f"| {named(reasons)} | none | none |"
    )
    lines += [
        "",
        "## Fields",
        "",
        "| instruction | field | bits | model | model refusals (code) | unit DIM 4 | unit DIM 16 | decode DIM 4 |"
        " decode DIM 16 |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    gaps = []
    for f in FIELDS:
        reads, refusals = probe_field(p4, f)
        u4, u16 = (_cell(streams[s]["unit"], f) for s in SOCS)
        d4, d16 = (_cell(streams[s]["decode"], f) for s in SOCS)
        lines.append(
            f"| `{f.kind}` | {f.name} | `{f.bits}` | {'reads' if reads else 'ignores'} | {named(refusals)} "
            f"| {u4} | {u16} | {d4} | {d16} |"
        )
        if reads and not (u4.split()[0].isdigit() or d4.split()[0].isdigit()):
            gaps.append(f"`{f.kind}` {f.name}")
    lines += [
        "",
        "## Configured features in use",
        "",
        "The whole-unit programs' legal instructions that ran with each feature in force (the configs before",
        "the instruction, `sim/tb/gemmini/unit_uses.py`), and their program families.",
        "",
        "| feature | unit DIM 4 | unit DIM 16 |",
        "|---|---|---|",
    ]
    used = {soc: uses(soc) for soc in SOCS}
    for feat in FEATURES:
        cells = []
        for soc in SOCS:
            n, fams = used[soc][feat]
            cells.append(f"{n} ({', '.join(sorted(fams))})" if n else "never")
        lines.append(f"| {feat} | {cells[0]} | {cells[1]} |")
        if not used[SOCS[0]][feat][0]:
            gaps.append(f"feature: {feat}")
    lines += ["", "## Fields the model reads and features no DIM 4 test exercises", ""]
    lines += [f"- {g}" for g in gaps] or ["None."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if COVERAGE.md is not what this would write")
    args = ap.parse_args(argv)
    text = render()
    if args.check:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT} is stale: run ./dev python sim/rtl/gemmini/gen_coverage.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
