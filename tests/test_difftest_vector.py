"""`cosim difftest` on vector code: the test bench logs every vector register an
instruction's destination group covers (`@<seq> v<n> 0x<VLEN/4 digits>`,
sim/tb/commit_trace.md) and the comparator matches them with Spike's vector writes.

Default tier: comparator rules on hand-made lines, and one C program with RVV
intrinsics on t1-small (clean, then a corrupted vector write in a copied trace
is named by PC and register). Slow tier: more programs, and t1-blastoise.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness.cli import main as cosim
from harness.commands.difftest import run_difftest
from harness.toolchain import build_elf
from sim.difftest import Comparator

ROOT = Path(__file__).resolve().parent
RVV_BASIC = ROOT / "vector_support" / "programs" / "rvv_basic.c"
RVV_PERM = ROOT / "vector_support" / "programs" / "rvv_perm.c"
SAXPY = ROOT / "programs" / "vector_saxpy.c"
VLEN = {"t1-small": 256, "t1-blastoise": 2048}
MIN_VWRITES = {"t1-small": 100, "t1-blastoise": 40}  # fewer strip-mining iterations at VLEN 2048

_VWRITE = re.compile(r"^@(\d+) v(\d+) 0x([0-9a-f]+)$")
_RETIRE = re.compile(r"^0x([0-9a-f]+) \(0x[0-9a-f]+\).* #(\d+)$")


# ---- comparator rules, no simulator ------------------------------------------

V = 256 // 4  # hex digits of a t1-small register
VLE32_V8 = 0x0206E407  # vle32.v v8, (a3)


def _spike(line: str) -> str:
    return f"core   0: 3 {line}\n"


def _vval(x: int) -> str:
    return f"0x{x:0{V}x}"


def test_unlogged_group_register_must_be_unchanged():
    """vle32 at m4 with vl=8: Spike logs v8 only, the RTL logs v8..v11."""
    spike = [_spike(f"0x20000000 (0x{VLE32_V8:08x}) e32 m4 l8 v8  {_vval(5)} mem 0x20003000")]
    rtl = ["0x20000000 (0x0206e407) #3\n", f"@3 v8 {_vval(5)}\n"] + [f"@3 v{n} {_vval(0)}\n" for n in (9, 10, 11)]
    assert Comparator(32).run(spike, rtl).ok
    # The RTL changed v10, which Spike left as it was (0).
    bad = rtl[:3] + [f"@3 v10 {_vval(1)}\n"] + rtl[4:]
    res = Comparator(32).run(spike, bad)
    assert not res.ok
    assert res.divergence.pc == 0x20000000 and res.divergence.what == "completion"
    assert "v10: the RTL wrote" in res.summary() and "Spike left it unchanged" in res.summary()


def test_logged_vector_write_value_and_absence_are_divergences():
    spike = [_spike(f"0x20000000 (0x{VLE32_V8:08x}) e32 m1 l8 v8  {_vval(0x1234)}")]
    res = Comparator(32).run(spike, ["0x20000000 (0x0206e407) #0\n", f"@0 v8 {_vval(0x1235)}\n"])
    assert not res.ok and "v8: expected" in res.summary() and "bit 0 differs" in res.summary()
    res = Comparator(32).run(spike, ["0x20000000 (0x0206e407) #0\n"])
    assert not res.ok and "ended without the result of coprocessor instruction #0" in res.summary()


def test_shadow_follows_agreed_writes():
    """After both sides wrote v9 = 7, an unlogged RTL v9 must still be 7."""
    vadd = 0x02940457  # any OP-V word; the comparator does not decode vector instructions
    spike = [
        _spike(f"0x20000000 (0x{vadd:08x}) e32 m2 l16 v8  {_vval(1)} v9  {_vval(7)}"),
        _spike(f"0x20000004 (0x{VLE32_V8:08x}) e32 m2 l8 v8  {_vval(2)}"),
    ]
    rtl = [
        f"0x20000000 (0x{vadd:08x}) #1\n",
        "0x20000004 (0x0206e407) #2\n",
        f"@1 v8 {_vval(1)}\n",
        f"@1 v9 {_vval(7)}\n",
        f"@2 v8 {_vval(2)}\n",
        f"@2 v9 {_vval(7)}\n",
    ]
    assert Comparator(32).run(spike, rtl).ok
    rtl[-1] = f"@2 v9 {_vval(0)}\n"
    res = Comparator(32).run(spike, rtl)
    assert not res.ok and res.divergence.pc == 0x20000004 and "v9" in res.summary()


VSE32_V1 = 0x020560A7  # vse32.v v1, (a0)


def _store_lines(rtl_mem: str) -> tuple[list[str], list[str]]:
    spike = [
        _spike(
            f"0x20000000 (0x{VSE32_V1:08x}) e32 m1 l2 c8_vstart 0x00000000 "
            "mem 0x20002200 0x00000001 mem 0x20002204 0x00000002"
        )
    ]
    return spike, ["0x20000000 (0x020560a7) #7\n", f"@7{rtl_mem}\n"]


def test_vector_store_bytes_compare_as_memory_images():
    """Spike's per-element writes and the RTL's byte runs must leave the same bytes."""
    spike, rtl = _store_lines(" mem 0x20002200 0x0000000200000001")
    res = Comparator(32).run(spike, rtl)
    assert res.ok and res.vector_stores == 1 and "memory writes of 1 vector stores" in res.summary()
    # The same bytes as two runs, in the other order: still the same image.
    spike, rtl = _store_lines(" mem 0x20002204 0x00000002 mem 0x20002200 0x00000001")
    assert Comparator(32).run(spike, rtl).ok


def test_vector_store_wrong_missing_and_extra_bytes_are_named():
    spike, rtl = _store_lines(" mem 0x20002200 0x0000000300000001")
    res = Comparator(32).run(spike, rtl)
    assert not res.ok and res.divergence.what == "memory" and res.divergence.pc == 0x20000000
    assert "store data at 0x20002204: expected 0x02 (Spike), actual 0x03 (RTL)" in res.summary()
    assert "vse32.v v1, (a0)" in res.summary().replace("  ", " ")  # vector words are disassembled
    spike, rtl = _store_lines(" mem 0x20002200 0x00000001")
    res = Comparator(32).run(spike, rtl)
    assert not res.ok and "Spike wrote 0x20002204..0x20002207 (4 bytes) = 0x00000002, the RTL did not" in res.summary()
    spike, rtl = _store_lines(" mem 0x20002200 0x000000000200000001")
    res = Comparator(32).run(spike, rtl)
    assert not res.ok and "the RTL wrote 0x20002208 = 0x00, Spike did not" in res.summary()


def test_vector_store_without_rtl_writes_is_a_divergence():
    spike, rtl = _store_lines("")
    res = Comparator(32).run(spike, rtl)
    assert not res.ok and "vector store writes 8 bytes on Spike, 0 on the RTL" in res.summary()
    res = Comparator(32).run(spike, rtl[:1])
    assert not res.ok and "ended without the memory writes of vector store #7" in res.summary()


# ---- on the RTL ----------------------------------------------------------------


def _difftest_clean(prog: Path, soc: str, tmp: Path):
    elf = build_elf([prog], soc, tmp / f"{prog.stem}.elf")
    trace = tmp / "trace.txt"
    report = run_difftest(elf, soc, keep_trace=trace)
    assert report.ok, report.result.summary()
    assert report.rtl is not None and report.rtl.exited_ok
    vlines = [m for line in trace.read_text().splitlines() if (m := _VWRITE.match(line))]
    assert len(vlines) >= MIN_VWRITES[soc], "too few vector register writes in the RTL trace"
    assert all(len(m.group(3)) == VLEN[soc] // 4 for m in vlines)
    return elf, trace, report


@pytest.fixture(scope="module")
def basic_small(tmp_path_factory):
    return _difftest_clean(RVV_BASIC, "t1-small", tmp_path_factory.mktemp("dtv-small"))


@pytest.mark.rtl
@pytest.mark.iss
def test_rvv_program_difftests_clean_on_t1_small(basic_small):
    _, _, report = basic_small
    assert report.result.compared > 5000


@pytest.mark.rtl
@pytest.mark.iss
def test_corrupted_vector_write_is_named(basic_small, tmp_path, capsys):
    elf, trace, _ = basic_small
    lines = trace.read_text().splitlines()
    # A vector write in the middle of the trace and the instruction it belongs to.
    seq_pc: dict[int, int] = {}
    target = None
    for i, line in enumerate(lines):
        if m := _RETIRE.match(line):
            seq_pc[int(m.group(2))] = int(m.group(1), 16)
        elif (m := _VWRITE.match(line)) and i > len(lines) // 2:
            target = (i, int(m.group(1)), int(m.group(2)), m.group(3))
            break
    assert target is not None
    i, seq, reg, val = target
    flipped = f"{int(val, 16) ^ (1 << 40):0{len(val)}x}"
    lines[i] = f"@{seq} v{reg} 0x{flipped}"
    bad = tmp_path / "bad-trace.txt"
    bad.write_text("\n".join(lines) + "\n")
    rc = cosim(["difftest", str(elf), "--soc", "t1-small", "--rtl-trace", str(bad)])
    out = capsys.readouterr().out
    assert rc == 1, out
    assert "first divergence" in out and "(completion)" in out
    assert f"pc 0x{seq_pc[seq]:08x}" in out
    assert re.search(rf"\bv{reg}: ", out), out
    assert flipped.lstrip("0") in out


@pytest.mark.rtl
@pytest.mark.iss
@pytest.mark.slow
@pytest.mark.parametrize(
    "soc,prog",
    [("t1-small", RVV_PERM), ("t1-small", SAXPY), ("t1-blastoise", RVV_BASIC), ("t1-blastoise", RVV_PERM)],
    ids=lambda x: x.stem if isinstance(x, Path) else x,
)
def test_rvv_program_difftests_clean_slow(soc, prog, tmp_path):
    _difftest_clean(prog, soc, tmp_path)
