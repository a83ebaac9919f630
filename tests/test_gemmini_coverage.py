"""sim/rtl/gemmini/COVERAGE.md is generated (gen_coverage.py) and current; the facts it is built from hold.

- The page is what the generator writes now (it changes whenever the model, the decoder, the field table or the
  tests' programs change: regenerate it).
- The field table (sim/tb/gemmini/unit_fields.py) matches the model: every field but the few Gemmini ignores is
  read by the model (a wrong bit range would read as ignored), and the ignored ones are exactly those.
- The decoder parse finds every gm_illegal_e code the RTL uses.
- The default tier's DIM 4 programs vary every field the model reads (the decode test or the whole-unit tests).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GEN = ROOT / "sim" / "rtl" / "gemmini" / "gen_coverage.py"

# Fields the model ignores, by design: funct 7's rs1 (Gemmini's TLB flush), clkgate_en, the loop_conv functs (no
# loop_conv unit in the shipped configs: refused whatever rs1 holds) and config_norm (refused whatever it holds).
IGNORED = {
    ("flush", "rs1 (skip)"),
    ("clkgate_en", "rs1"),
    ("config_norm", "any (rs1[1:0] = 3)"),
    *((f"loop_conv_ws{s}", "rs1") for s in ["", *(f"_config_{i}" for i in range(1, 7))]),
}


def _gen():
    spec = importlib.util.spec_from_file_location("gemmini_gen_coverage", GEN)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["gemmini_gen_coverage"] = mod
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod


def test_coverage_table_is_current():
    gen = _gen()
    assert gen.OUT.read_text() == gen.render(), "COVERAGE.md is stale: run ./dev python sim/rtl/gemmini/gen_coverage.py"


def test_check_option_reports_staleness(tmp_path, monkeypatch, capsys):
    gen = _gen()
    stale = tmp_path / "COVERAGE.md"
    stale.write_text("old\n")
    monkeypatch.setattr(gen, "OUT", stale)
    monkeypatch.setattr(gen, "render", lambda: "new\n")
    assert gen.main(["--check"]) == 1 and "stale" in capsys.readouterr().err
    stale.write_text("new\n")
    assert gen.main(["--check"]) == 0


def test_field_table_matches_the_model():
    from sim.gemmini.params import gemmini_params
    from sim.tb.gemmini.unit_fields import FIELDS
    from sim.tb.gemmini.unit_probe import probe_field

    p = gemmini_params("gemmini-dim4")
    ignored = {(f.kind, f.name) for f in FIELDS if not probe_field(p, f)[0]}
    assert ignored == IGNORED


def test_decoder_parse_finds_every_reason():
    from sim.tb.gemmini.unit_build import illegal_reasons

    rtl, drain = _gen().rtl_decode()
    found = set(drain).union(*(set(r) for _, r in rtl.values()))
    used = set(illegal_reasons()) - {"IllNone", "IllLoopCmd"}  # IllLoopCmd is reserved, never raised
    assert found == used, f"parsed {sorted(found)}, the package has {sorted(used)}"
    assert rtl["config_norm"][0] == rtl["loop_conv_ws"][0] == "refused"
    assert rtl["mvin"][0] == rtl["loop_ws"][0] == "decoded"


def test_dim4_programs_vary_every_field_the_model_reads():
    gen = _gen()
    from sim.gemmini.params import gemmini_params
    from sim.tb.gemmini.unit_fields import FIELDS
    from sim.tb.gemmini.unit_probe import probe_field

    p = gemmini_params("gemmini-dim4")
    s = gen.stream_fields(("gemmini-dim4",))["gemmini-dim4"]
    never = [
        f"{f.kind} {f.name}"
        for f in FIELDS
        if probe_field(p, f)[0] and all(len(s[k].get(f, (set(), set()))[0]) < 2 for k in ("unit", "decode"))
    ]
    assert not never, f"fields the model reads that no DIM 4 program varies: {never}"


def test_difference_links_reach_a_section():
    """COVERAGE.md links each instruction to a section of DIFFERENCES.md (GitHub's heading anchors)."""
    import re

    gen = _gen()
    text = (ROOT / "sim" / "rtl" / "gemmini" / "DIFFERENCES.md").read_text()
    anchors = {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in re.findall(r"^## (.+)$", text, re.M)}
    missing = sorted(set(gen.DIFFS.values()) - anchors)
    assert not missing, f"DIFFERENCES.md has no section for {missing}"
    linked = set(re.findall(r"\]\(#([\w\-]+)\)", text))
    assert linked <= anchors, f"the summary table links to missing sections {sorted(linked - anchors)}"


def test_dim4_programs_use_every_feature():
    from sim.tb.gemmini.unit_uses import FEATURES

    used = _gen().uses("gemmini-dim4")
    never = [f for f in FEATURES if not used[f][0]]
    assert not never, f"features no DIM 4 whole-unit program uses: {never}"
