"""Spike commit-log and RTL trace parsers, on lines in the exact shapes both tools print."""

import pytest

from sim.difftest import LogFormatError, iter_rtl_trace, iter_spike_log, parse_rtl_line, parse_spike_line
from sim.difftest.record import Commit, Completion, MemAccess, TrapEvent, normalize_writes
from sim.difftest.rtl_trace import format_rtl_line

# Lines as Spike 0.0.5.dev20 prints them on this machine (RV32 and RV64).
SPIKE_RV32 = """\
core   0: 3 0x00001000 (0x00000297) x5  0x00001000
core   0: 3 0x0000100c (0x0182a283) x5  0x20000000 mem 0x00001018
core   0: 3 0x00001010 (0x00028067)
core   0: 3 0x20000008 (0x3002a073) c768_mstatus 0x80007800
core   0: 3 0x20000024 (0x18317253) c1_fflags 0x00000001 f4  0x3f36db6e
core   0: 3 0x20000050 (0x00c3a023) mem 0x200000c0 0x0000000c
core   0: 3 0x20000054 (0x0003a683) x13 0x0000000c mem 0x200000c0
core   0: 3 0x20000058 (0x00c380a3) mem 0x200000c1 0x0c
core   0: 3 0x2000005c (0x30200073) c768_mstatus 0x00001880 c784_mstatush 0x00000000 c1957_tcontrol 0x00000000
"""


def test_spike_line_fields():
    c = parse_spike_line("core   0: 3 0x20000024 (0x18317253) c1_fflags 0x00000001 f4  0x3f36db6e", 7)
    assert (c.pc, c.insn, c.line_no) == (0x20000024, 0x18317253, 7)
    assert c.writes == {("c", 1): 1, ("f", 4): 0x3F36DB6E}
    assert c.csr_names == {1: "fflags"}
    assert c.mem == []


def test_spike_loads_and_stores_keep_width():
    store_b = parse_spike_line("core   0: 3 0x20000058 (0x00c380a3) mem 0x200000c1 0x0c")
    assert store_b.mem == [MemAccess(0x200000C1, 0x0C, 1)]
    load = parse_spike_line("core   0: 3 0x20000054 (0x0003a683) x13 0x0000000c mem 0x200000c0")
    assert load.mem == [MemAccess(0x200000C0)] and not load.mem[0].is_store
    assert load.writes == {("x", 13): 0xC}
    rv64 = parse_spike_line("core   0: 3 0x0000000020000050 (0x00c3b023) mem 0x00000000200000c0 0x000000000000000c")
    assert rv64.mem == [MemAccess(0x200000C0, 0xC, 8)]


def test_spike_vector_prefix_is_metadata():
    c = parse_spike_line("core   0: 3 0x20000100 (0x02056007) e32 m2 l8 v4  0x" + "ab" * 32 + " mem 0x40000000")
    assert c.vector_meta == (32, 2, 8)
    assert c.writes == {("v", 4): int("ab" * 32, 16)}
    frac = parse_spike_line("core   0: 3 0x20000100 (0x02056007) e8 mf4 l2 v1  0x00")
    assert frac.vector_meta == (8, -4, 2)


def test_spike_non_commit_lines_are_skipped_and_bootrom_dropped():
    lines = ["some banner from spike\n", *SPIKE_RV32.splitlines(True)]
    commits = list(iter_spike_log(lines))
    assert commits[0].pc == 0x20000008  # boot ROM (0x1000..) gone
    assert len(commits) == 6
    assert len(list(iter_spike_log(lines, skip_bootrom=False))) == 9


def test_spike_bad_value_is_reported_with_line():
    with pytest.raises(LogFormatError, match="line 3"):
        parse_spike_line("core   0: 3 0x20000054 (0x0003a683) x13 0xzz", 3)
    with pytest.raises(LogFormatError, match="unknown write"):
        parse_spike_line("core   0: 3 0x20000054 (0x0003a683) q13 0x1", 3)


def test_rtl_commit_completion_trap():
    c = parse_rtl_line("0x20000010 (0x00a12023) mem 0x2000fff0 0x00000005", 1)
    assert isinstance(c, Commit) and c.mem == [MemAccess(0x2000FFF0, 5, 4)] and c.seq is None
    v = parse_rtl_line("0x20000014 (0x5208a2d7) x5 0x00000003 #09", 2)
    assert v.seq == 9 and v.writes == {("x", 5): 3}
    done = parse_rtl_line("@9 f3 0xffffffff3f800000", 3)
    assert isinstance(done, Completion) and done.seq == 9 and done.writes == {("f", 3): 0xFFFFFFFF3F800000}
    t = parse_rtl_line("trap 2 0x20000018 0x00000000", 4)
    assert isinstance(t, TrapEvent) and (t.cause, t.epc, t.tval) == (2, 0x20000018, 0)
    assert parse_rtl_line("   ") is None and parse_rtl_line("// comment") is None


@pytest.mark.parametrize("bad", ["garbage", "trap 2 0x1", "0x10 (0x13) #x", "@q x1 0x1", "0x10 (0x13) x1"])
def test_rtl_malformed_lines_say_which(bad):
    with pytest.raises(LogFormatError):
        list(iter_rtl_trace([bad]))


def test_format_rtl_line_round_trips_spike_commits():
    for commit in iter_spike_log(SPIKE_RV32.splitlines(), skip_bootrom=False):
        again = parse_rtl_line(format_rtl_line(commit, 32))
        assert (again.pc, again.insn, again.mem) == (commit.pc, commit.insn, commit.mem)
        assert normalize_writes(again.writes) == normalize_writes(commit.writes)


def test_normalize_unboxes_singles_and_splits_fcsr():
    assert normalize_writes({("f", 1): 0xFFFFFFFF_3F800000}) == {("f", 1): 0x3F800000}
    assert normalize_writes({("f", 1): 0x12345678_3F800000}) == {("f", 1): 0x12345678_3F800000}
    assert normalize_writes({("c", 3): (3 << 5) | 0x11}) == {("c", 1): 0x11, ("c", 2): 3}
