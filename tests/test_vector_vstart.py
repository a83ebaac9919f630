"""vstart != 0: which vector instructions trap, measured on Spike, and the RTL the same.

RVV 1.0 section 3.7 lets an implementation raise illegal instruction for any vstart
value it does not produce itself. Spike (our golden model) does that for every
arithmetic (OP-V) instruction and still runs loads/stores from vstart. Here every
zve32f instruction (plus vsetvli/vsetivli/vsetvl) runs on Spike at vstart 0, 1 and
31 (vstart >= vl for some vtypes); the set Spike traps is compared with the
decoder RTL's answer (vec_decoder.sv through the coverage probe), with the
reference model's (tests/vector_support/model.py), and, through the difftest, with
the SoC running the same program.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest
from vector_support import vstart_probe as vp
from vector_support.model import Model

from harness.commands.difftest import run_difftest
from harness.toolchain import build_elf
from sim.randgen.frame import Frame, trap_handler

VSTARTS = (0, 1, 31)
ILLEGAL_INSTRUCTION = 2


@pytest.fixture(scope="module")
def spike_small(tmp_path_factory) -> tuple[Path, list[vp.Probe], dict[vp.Probe, vp.Outcome]]:
    tmp = tmp_path_factory.mktemp("vstart")
    items = vp.probes(VSTARTS)
    src = tmp / "vstart_probe.S"
    src.write_text(vp.program(items))
    elf = build_elf([src], "t1-small", tmp / "vstart_probe.elf")
    return elf, items, vp.spike_outcomes(elf, "t1-small", items)


def _spike_traps(items, out, vstart: int) -> set[str]:
    return {p.name for p in items if p.vstart == vstart and not out[p].retired}


@pytest.mark.iss
def test_spike_traps_every_arithmetic_instruction_at_nonzero_vstart(spike_small):
    """The measurement itself: at vstart 0 every probe runs (so a trap at vstart != 0 is
    vstart's doing); at vstart != 0 Spike raises illegal instruction with mtval = the
    instruction word for exactly the OP-V encodings, and runs loads, stores and vset*."""
    _, items, out = spike_small
    assert _spike_traps(items, out, 0) == set()
    names = {p.name for p in items}
    assert len(names) == 517 + len(vp.VSET_FORMS)
    for v in VSTARTS[1:]:
        trapped = [p for p in items if p.vstart == v and not out[p].retired]
        assert {(out[p].mcause, out[p].mtval) for p in trapped} == {(ILLEGAL_INSTRUCTION, p.word) for p in trapped}
        opv = {p.name for p in items if p.word is not None and p.word & 0x7F == 0x57}
        assert {p.name for p in trapped} == opv
        assert len(opv) == 283  # 517 zve32f instructions minus 234 loads/stores
    print(f"\nSpike at vstart != 0: {len(opv)} instructions trap (every OP-V), {len(names) - len(opv)} run")


@pytest.mark.iss
@pytest.mark.rtl
def test_decoder_and_model_trap_what_spike_traps(spike_small):
    """vec_decoder.sv (probed standalone) and the model reject exactly Spike's set."""
    _, items, out = spike_small
    table = vp.coverage_table()
    gen = sys.modules["vec_gen_coverage"]
    for v in VSTARTS:
        spike = _spike_traps(items, out, v)
        insns = [dataclasses.replace(i, vstart=v) for i in table]
        rtl = {i.name for i, ok in zip(insns, gen.probe(insns), strict=True) if not ok}
        model = {i.name for i in insns if Model(256).execute(i.word, 0x4000_0000, 4, i.vtype, 8, v) is None}
        assert rtl == spike, f"vstart {v}: decoder traps {sorted(rtl - spike)}, runs {sorted(spike - rtl)}"
        assert model == spike, f"vstart {v}: model traps {sorted(model - spike)}, runs {sorted(spike - model)}"


@pytest.mark.iss
@pytest.mark.rtl
def test_soc_traps_where_spike_does(spike_small, tmp_path):
    """The probe program through `cosim difftest` on t1-small: every trap (cause, mtval,
    resumed PC) and every retired probe agree with Spike."""
    elf, items, out = spike_small
    report = run_difftest(elf, "t1-small", keep_trace=tmp_path / "rtl.trace")
    assert report.ok, report.result.summary()
    assert report.rtl is not None and report.rtl.exited_ok
    assert report.result.rtl_traps == sum(not o.retired for o in out.values())


@pytest.mark.iss
@pytest.mark.rtl
@pytest.mark.slow
def test_soc_traps_where_spike_does_blastoise(tmp_path):
    items = vp.probes(VSTARTS)
    src = tmp_path / "vstart_probe.S"
    src.write_text(vp.program(items))
    elf = build_elf([src], "t1-blastoise", tmp_path / "vstart_probe.elf")
    out = vp.spike_outcomes(elf, "t1-blastoise", items)
    assert {p.name for p in items if not out[p].retired and p.vstart == 0} == set()
    report = run_difftest(elf, "t1-blastoise")
    assert report.ok, report.result.summary()
    assert report.result.rtl_traps == sum(not o.retired for o in out.values())


@pytest.mark.iss
@pytest.mark.rtl
def test_vadd_at_vstart_1_traps_with_cause_2_and_the_instruction(tmp_path):
    """The regression: vadd.vv at vstart = 1 ran on the RTL (from element 1) and trapped
    on Spike. Now the RTL traps precisely: cause 2 (illegal instruction), mtval = the
    instruction word, mepc = its PC; and the difftest agrees with Spike all along."""
    vadd = 0x02420457  # vadd.vv v8, v4, v4
    frame = Frame(32)
    body = [
        "  vsetvli t1, x0, e32, m1, ta, mu",
        "  csrwi vstart, 1",
        "  .globl vstart_vadd",
        "vstart_vadd:",
        "  vadd.vv v8, v4, v4",
        "  csrr a1, vstart",
        "  csrwi vstart, 0",
    ]
    src = tmp_path / "vadd.S"
    src.write_text(
        "\n".join(
            ["  .text", "  .globl main", "main:", *frame.enter(".Ltrap"), *body, *frame.leave()]
            + trap_handler(".Ltrap", reads=("mcause", "mtval"))
        )
        + "\n"
    )
    elf = build_elf([src], "t1-small", tmp_path / "vadd.elf")
    pc = vp.symbols(elf, "vstart_vadd")["vstart_vadd"]
    report = run_difftest(elf, "t1-small", keep_trace=tmp_path / "rtl.trace")
    assert report.ok, report.result.summary()
    traps = [ln.split() for ln in (tmp_path / "rtl.trace").read_text().splitlines() if ln.startswith("trap ")]
    assert [(int(c), int(p, 16), int(w, 16)) for _, c, p, w in traps] == [(ILLEGAL_INSTRUCTION, pc, vadd)]
    assert report.result.rtl_traps == 1
