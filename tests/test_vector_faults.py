"""Precise vector memory exceptions (misaligned elements, access faults, fault-only-
first trimming) and the memory map passed from the config, checked against Spike.

Default tier (t1-small): the generator's rules; a directed program through the
difftest with the values that matter asserted on the RTL trace too (a unit-stride
load faulting at element 2 writes elements 0 and 1 and traps with vstart 2; ff
trims vl to 2; a store faulting at element 2 writes exactly elements 0 and 1; a
misaligned load traps with vstart 0; segment faults keep the fields before the
fault); three random faulting programs. Slow tier: a config written at test time
with other region sizes (built, run on Spike and the RTL: an access just past a
region end faults on both), and many random seeds on t1-small and t1-blastoise.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from configs import load_soc
from harness.commands.difftest import run_difftest
from harness.toolchain import build_elf
from sim.randgen.vector_faults import generate_vector_faults, memory_edges
from sim.soc_parameters import memory_map_parameters

ROOT = Path(__file__).resolve().parents[1]

PROLOGUE = """
  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 0(sp)
  la t0, handler
  csrrw t0, mtvec, t0
  sw t0, 4(sp)
"""
EPILOGUE = """
  lw t0, 4(sp)
  csrw mtvec, t0
  lw ra, 0(sp)
  addi sp, sp, 16
  li a0, 0
  ret
  .balign 4
handler:
  csrr t4, mcause
  csrr t5, mtval
  csrr t6, vstart
  csrr t6, mepc
  addi t6, t6, 4
  csrw mepc, t6
  mret
  .data
  .balign 16
buf: .word 1,2,3,4,5,6,7,8,9,10,11,12
"""
# SRAM ends at 0xC100_0000 on every t1 config.
DIRECTED_BODY = """
  li a0, 0xC0FFFFF8
  vsetivli t1, 8, e32, m1, tu, mu
  vmv.v.i v4, 7
  vle32.v v4, (a0)            # elements 0, 1 load; element 2 faults (cause 5)
  csrr s2, vstart             # 2 (read in the handler too)
  csrwi vstart, 0
  vmv.v.i v5, 5
  vle32ff.v v5, (a0)          # no trap: vl becomes 2
  csrr s3, vl
  vsetivli t1, 8, e32, m1, tu, mu
  la a1, buf
  addi a1, a1, 2
  vle32.v v6, (a1)            # misaligned at element 0 (cause 4)
  csrr s4, vstart
  csrwi vstart, 0
  vse32.v v4, (a0)            # stores elements 0 and 1, faults at 2 (cause 7)
  csrr s5, vstart
  csrwi vstart, 0
  lw t2, 0(a0)
  lw t3, 4(a0)
  li a2, 0xC1000000
  vle32ff.v v7, (a2)          # ff faulting at element 0 traps
  csrr s6, vl
  li a0, 0xC0FFFFF4
  vsetivli t1, 4, e32, m1, tu, mu
  vmv.v.i v10, 1
  vmv.v.i v11, 2
  vlseg2e32.v v10, (a0)       # segment 1, field 1 faults: vstart 1
  csrr s7, vstart
  csrwi vstart, 0
  vlseg2e32ff.v v12, (a0)     # the same as ff: vl 1
  csrr s8, vl
  vsetivli t1, 4, e8, m1, tu, mu
  vmv.v.i v0, 2
  vsetivli t1, 4, e32, m1, tu, mu
  li a0, 0xC0FFFFFC
  vle32ff.v v17, (a0), v0.t   # element 0 masked off, element 1 faults: vl 1
  csrr s9, vl
"""
# For a config with a 64 KiB SRAM and a 256 MiB DDR: just past both ends.
REGIONS_BODY = """
  vsetivli t1, 4, e32, m1, tu, mu
  li a0, 0xC000FFF8
  vle32.v v4, (a0)            # element 2 at 0xC001_0000
  csrr s2, vstart
  csrwi vstart, 0
  li a0, 0x4FFFFFFC
  vse32.v v4, (a0)            # element 1 at 0x5000_0000
  csrr s3, vstart
  csrwi vstart, 0
  li a0, 0xC000FFF4
  vle32ff.v v5, (a0)          # element 3 at 0xC001_0000: vl 3
  csrr s4, vl
"""


def _regions_config(tmp_path: Path, ddr_size: str) -> Path:
    text = (ROOT / "configs" / "t1-small.toml").read_text().replace('name = "t1-small"', 'name = "t1-regions"')
    text = re.sub(r"sram_size = \S+", "sram_size = 0x10000", text)
    text = re.sub(r"ddr_size = \S+", f"ddr_size = {ddr_size}", text)
    cfg = tmp_path / "t1-regions.toml"
    cfg.write_text(text)
    return cfg


def _xwrites(trace: Path, reg: int) -> list[int]:
    pat = re.compile(rf"^0x[0-9a-f]+ \(0x[0-9a-f]+\) x{reg} 0x([0-9a-f]+)")
    return [int(m.group(1), 16) for ln in trace.read_text().splitlines() if (m := pat.match(ln))]


def _difftest(src: str, soc, tmp_path: Path, name: str):
    s = tmp_path / f"{name}.S"
    s.write_text(src)
    elf = build_elf([s], soc, tmp_path / f"{name}.elf")
    rep = run_difftest(elf, soc, keep_trace=tmp_path / f"{name}.trace")
    assert rep.rtl is not None and rep.rtl.ending == "exit", rep.rtl
    assert rep.ok, rep.result.summary()
    return rep, tmp_path / f"{name}.trace"


def _traps(trace: Path) -> list[tuple[int, int]]:
    found = re.findall(r"^trap (\d+) 0x[0-9a-f]+ 0x([0-9a-f]+)$", trace.read_text(), re.M)
    return [(int(c), int(t, 16)) for c, t in found]


# ---- generator and parameters (no simulator) -----------------------------------------


def test_edges_follow_the_memory_map():
    edges = memory_edges(load_soc("t1-small").memory_map)
    found = {(e.addr, e.kind, e.stores) for e in edges}
    # SCALAR starts after a gap; DDR ends where SRAM begins; SRAM ends in nothing
    assert (0x2000_0000, "start", False) in found
    assert (0xC000_0000, "join", False) in found
    assert (0xC100_0000, "end", True) in found
    assert not any(e.addr == 0x4000_0000 and e.stores for e in edges), "the stack top is no store target"


def test_generator_is_reproducible_and_reaches_every_addressing_mode():
    mm = load_soc("t1-small").memory_map
    a = generate_vector_faults(5, 256, mm, 60)
    assert a.text == generate_vector_faults(5, 256, mm, 60).text
    assert a.text != generate_vector_faults(6, 256, mm, 60).text
    kinds, mnems = a.kinds.copy(), a.mnemonics.copy()
    for seed in range(6):
        p = generate_vector_faults(seed, 256, mm, 80)
        kinds.update(p.kinds)
        mnems.update(p.mnemonics)
    for k in ("unit", "strided", "indexed", "seg", "ff", "whole", "mask"):
        assert kinds[f"kind={k}"], k
    for k in ("masked", "vstart", "misaligned", "edge=end", "edge=start", "edge=join"):
        assert kinds[k], k
    names = set(mnems)
    assert any("ff.v" in m and "seg" in m for m in names)
    assert any(m.startswith(("vloxei", "vluxei", "vsoxei", "vsuxei")) for m in names)
    assert {"vlm.v", "vsm.v"} <= names and any(re.match(r"vs\dr\.v", m) for m in names)


def test_memory_map_parameters_come_from_the_config(tmp_path):
    p = memory_map_parameters(load_soc(_regions_config(tmp_path, "0x8000_0000")))
    assert p["Mem2Size"] == "33'h10000" and p["Mem2Base"] == "32'hc0000000"
    # a bare 2^31 would reach Verilator as a negative 32-bit number: sized literals
    assert p["Mem1Size"] == "33'h80000000" and p["MmioBase"] == "32'h10000000"


# ---- RTL vs Spike (default tier, t1-small) -------------------------------------------


@pytest.mark.rtl
def test_directed_faults_match_spike(tmp_path):
    rep, trace = _difftest(PROLOGUE + DIRECTED_BODY + EPILOGUE, "t1-small", tmp_path, "directed")
    causes = _traps(trace)
    assert [c for c, _ in causes] == [5, 4, 7, 5, 5], causes
    assert [t for c, t in causes if c != 4] == [0xC100_0000] * 4 and causes[1][1] % 4 == 2
    assert _xwrites(trace, 18) == [2]  # s2: vstart after the unit-stride fault
    assert _xwrites(trace, 19) == [2]  # s3: vl after the ff trim
    assert _xwrites(trace, 20) == [0]  # s4: vstart after the misaligned load
    assert _xwrites(trace, 21) == [2]  # s5: vstart after the store fault
    assert _xwrites(trace, 22) == [8]  # s6: an ff trap at element 0 leaves vl
    assert _xwrites(trace, 23) == [1]  # s7: segment 1 faulted
    assert _xwrites(trace, 24) == [1]  # s8: ff segment trimmed
    assert _xwrites(trace, 25) == [1]  # s9: masked-off element 0 does not trap
    # the faulting store wrote exactly elements 0 and 1 (the 8 bytes below the end)
    stores = re.findall(r"^@\d+( mem .*)$", trace.read_text(), re.M)
    assert stores == [" mem 0xc0fffff8 0x0000000000000000"], stores
    assert rep.result.vector_stores == 1


@pytest.mark.rtl
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_faulting_programs_small(tmp_path, seed):
    soc = load_soc("t1-small")
    prog = generate_vector_faults(seed, 256, soc.memory_map, 40)
    _, trace = _difftest(prog.text, soc, tmp_path, f"faults{seed}")
    assert len(_traps(trace)) >= 5


# ---- slow tier ---------------------------------------------------------------------


@pytest.mark.rtl
@pytest.mark.slow
def test_other_region_sizes_fault_on_both(tmp_path):
    """A config with a 64 KiB SRAM and a 256 MiB DDR (a gap after it): accesses just
    past either end fault on Spike and on the RTL built from that file."""
    soc = load_soc(_regions_config(tmp_path, "0x1000_0000"))
    src = PROLOGUE + REGIONS_BODY + EPILOGUE
    _, trace = _difftest(src, soc, tmp_path, "regions")
    assert _traps(trace) == [(5, 0xC001_0000), (7, 0x5000_0000)]
    assert _xwrites(trace, 18) == [2] and _xwrites(trace, 19) == [1] and _xwrites(trace, 20) == [3]
    # the same program on t1-small (16 MiB SRAM, 2 GiB DDR) does not fault at all
    _, trace2 = _difftest(src, "t1-small", tmp_path, "regions-default")
    assert _traps(trace2) == [] and _xwrites(trace2, 20) == [4]


@pytest.mark.rtl
@pytest.mark.slow
@pytest.mark.parametrize("soc_name", ["t1-small", "t1-blastoise"])
def test_random_faulting_programs_many_seeds(tmp_path, soc_name):
    soc = load_soc(soc_name)
    for seed in range(100, 125):
        prog = generate_vector_faults(seed, soc.accelerator.vlen, soc.memory_map, 80)
        _difftest(prog.text, soc, tmp_path, f"s{seed}")
