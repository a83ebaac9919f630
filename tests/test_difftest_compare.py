"""The comparator on synthetic traces: every kind of divergence, and every value it must not compare."""

import itertools

from sim.difftest import Comparator, compare_streams


def r_type(f7, rs2, rs1, f3, rd, op=0x33):
    return (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op


def i_type(imm, rs1, f3, rd, op):
    return ((imm & 0xFFF) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op


def s_type(imm, rs2, rs1, f3, op=0x23):
    return ((imm >> 5 & 0x7F) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((imm & 0x1F) << 7) | op


ADDI_X5 = i_type(5, 0, 0, 5, 0x13)  # addi x5, x0, 5
ADD_X12 = r_type(0, 11, 10, 0, 12)  # add x12, x10, x11
ADD_X6_X14_X5 = r_type(0, 5, 14, 0, 6)  # add x6, x14, x5
CSRR_MCYCLE = i_type(0xB00, 0, 2, 14, 0x73)  # csrr x14, mcycle
CSRW_MSCRATCH = i_type(0x340, 12, 1, 0, 0x73)  # csrw mscratch, x12
LW_X13 = i_type(0, 7, 2, 13, 0x03)  # lw x13, 0(x7)
LW_X10_MMIO = i_type(0, 11, 2, 10, 0x03)  # lw x10, 0(x11)
SW_X12 = s_type(0, 12, 7, 2)  # sw x12, 0(x7)
SW_X6 = s_type(0, 6, 7, 2)  # sw x6, 0(x7)
SB_X12 = s_type(1, 12, 7, 0)  # sb x12, 1(x7)
FADD = r_type(0, 3, 2, 7, 4, 0x53)  # fadd.s f4, f2, f3, dyn
MRET = 0x30200073
VADD = 0x02208057  # a vector op (OP-V), handled by the coprocessor


def spike_line(pc, insn, rest=""):
    return f"core   0: 3 0x{pc:08x} (0x{insn:08x}) {rest}".rstrip()


def rtl_line(pc, insn, rest=""):
    return f"0x{pc:08x} (0x{insn:08x}) {rest}".rstrip()


# (insn, spike writes, rtl writes) for a short clean program.
PROGRAM = [
    (ADDI_X5, "x5  0x00000005", "x5 0x00000005"),
    (ADD_X12, "x12 0x0000000c", "x12 0x0000000c"),
    (CSRW_MSCRATCH, "c832_mscratch 0x0000000c", "c832_mscratch 0x0000000c"),
    (SW_X12, "mem 0x200000c0 0x0000000c", "mem 0x200000c0 0x0000000c"),
    (LW_X13, "x13 0x0000000c mem 0x200000c0", "x13 0x0000000c mem 0x200000c0"),
    (FADD, "c1_fflags 0x00000001 f4  0x3f36db6e", "f4 0x3f36db6e"),
    (SB_X12, "mem 0x200000c1 0x0c", "mem 0x200000c1 0x0c"),
    (MRET, "c768_mstatus 0x00001880 c784_mstatush 0x00000000 c1957_tcontrol 0x00000000", ""),
]


def build(program, base=0x20000000):
    s, r = [], []
    for i, (insn, sw, rw) in enumerate(program):
        s.append(spike_line(base + 4 * i, insn, sw))
        r.append(rtl_line(base + 4 * i, insn, rw))
    return s, r


def run(s, r, **kw):
    return compare_streams(s, r, 32, **kw)


def test_identical_traces_compare_clean_and_count():
    s, r = build(PROGRAM)
    res = run(s, r)
    assert res.ok, res.summary()
    assert res.compared == len(PROGRAM)
    assert res.summary().startswith(f"no divergence ({len(PROGRAM)} instructions compared")


def test_register_value_divergence_names_pc_register_and_values():
    prog = list(PROGRAM)
    prog[1] = (ADD_X12, "x12 0x0000000c", "x12 0x0000000d")
    res = run(*build(prog))
    d = res.divergence
    assert d is not None and d.what == "register"
    assert d.pc == 0x20000004 and d.index == 2
    assert d.disassembly == "add a2, a0, a1"
    assert "x12: expected 0x0000000c (Spike), actual 0x0000000d (RTL), bit 0 differs" in d.details
    text = d.format()
    assert "pc 0x20000004" in text and "context" in text and "0x20000000" in text


def test_missing_and_extra_writes():
    prog = list(PROGRAM)
    prog[0] = (ADDI_X5, "x5  0x00000005", "")
    assert "Spike wrote 0x00000005, the RTL wrote nothing" in run(*build(prog)).divergence.details[0]
    prog = list(PROGRAM)
    prog[3] = (SW_X12, "mem 0x200000c0 0x0000000c", "x9 0x00000001 mem 0x200000c0 0x0000000c")
    assert "the RTL wrote 0x00000001, Spike wrote nothing" in run(*build(prog)).divergence.details[0]


def test_store_address_data_and_width_divergences():
    for rtl_mem, words in [
        ("mem 0x200000c4 0x0000000c", "address"),
        ("mem 0x200000c0 0x0000000e", "store data"),
        ("mem 0x200000c0 0x000c", "store width"),
        ("", "memory accesses"),
    ]:
        prog = list(PROGRAM)
        prog[3] = (SW_X12, "mem 0x200000c0 0x0000000c", rtl_mem)
        d = run(*build(prog)).divergence
        assert d is not None and d.what == "memory" and d.pc == 0x2000000C, rtl_mem
        assert words in " ".join(d.details)


def test_pc_divergence_and_instruction_word_divergence():
    s, r = build(PROGRAM)
    r[2] = rtl_line(0x20000010, CSRW_MSCRATCH, "c832_mscratch 0x0000000c")
    d = run(s, r).divergence
    assert d.what == "pc" and "Spike retired pc 0x20000008" in d.details[0]
    s, r = build(PROGRAM)
    r[2] = rtl_line(0x20000008, ADD_X12, "x12 0x0000000c")
    assert run(s, r).divergence.what == "instruction"


def test_side_effect_csr_writes_are_not_compared_but_named_csr_is():
    s, r = build(PROGRAM)
    assert run(s, r).ok  # fflags accrual, mret's mstatus: only Spike logs them
    prog = list(PROGRAM)
    prog[2] = (CSRW_MSCRATCH, "c832_mscratch 0x0000000c", "c832_mscratch 0x0000000e")
    d = run(*build(prog)).divergence
    assert d.what == "register" and "csr 0x340 (mscratch)" in d.details[0]


def test_f_registers_compare_nan_boxed_against_spike_flen32():
    prog = [(FADD, "c1_fflags 0x00000001 f4  0x3f36db6e", "f4 0xffffffff3f36db6e")]
    s, r = build(prog)
    assert compare_streams(s, r, 64).ok
    prog = [(FADD, "f4  0x3f36db6e", "f4 0x000000003f36db6e")]  # not boxed: wrong
    s, r = build(prog)
    d = compare_streams(s, r, 64).divergence
    assert d is not None and "0x000000003f36db6e (not NaN-boxed)" in d.details[0]
    prog = [(FADD, "f4  0x3f36db6e", "f4 0x3f36db6e")]  # RV32: 8 digits, no boxing
    assert run(*build(prog)).ok


def test_counter_reads_and_everything_derived_from_them_are_taken_from_rtl():
    prog = [
        (CSRR_MCYCLE, "x14 0x00000015", "x14 0x00000307"),
        (ADDI_X5, "x5  0x00000005", "x5 0x00000005"),
        (ADD_X6_X14_X5, "x6  0x0000001a", "x6 0x0000030c"),  # derived: differs legitimately
        (SW_X6, "mem 0x200000c0 0x0000001a", "mem 0x200000c0 0x0000030c"),
        (LW_X13, "x13 0x0000001a mem 0x200000c0", "x13 0x0000030c mem 0x200000c0"),
    ]
    res = run(*build(prog))
    assert res.ok, res.summary()
    assert res.copied_from_rtl == 3  # x14, x6, x13
    # Once x6 is overwritten by an untainted value it is compared again.
    prog += [(i_type(1, 0, 0, 6, 0x13), "x6  0x00000001", "x6 0x00000002")]
    assert run(*build(prog)).divergence.pc == 0x20000014


def test_mmio_loads_are_taken_from_rtl():
    prog = [(LW_X10_MMIO, "x10 0x00000000 mem 0x10000000", "x10 0x0000abcd mem 0x10000000")]
    assert run(*build(prog)).ok
    prog = [(LW_X10_MMIO, "x10 0x00000000 mem 0x20000000", "x10 0x0000abcd mem 0x20000000")]
    assert not run(*build(prog)).ok


def test_rtl_trap_then_handler_matches_spike_without_line():
    s, r = build(PROGRAM[:2])
    s.append(spike_line(0x20000100, CSRR_MCYCLE, "x14 0x00000001"))  # handler's first instruction
    r += ["trap 2 0x20000008 0x00000000", rtl_line(0x20000100, CSRR_MCYCLE, "x14 0x00000002")]
    res = run(s, r)
    assert res.ok and res.rtl_traps == 1


def test_pc_divergence_after_rtl_only_trap_says_so():
    s, r = build(PROGRAM[:3])
    r[2:2] = ["trap 2 0x20000008 0x00000000"]
    r[3] = rtl_line(0x20000100, ADDI_X5, "x5 0x00000005")
    d = run(s, r).divergence
    assert d.what == "pc" and "the RTL trapped just before (cause 2" in d.note


def test_pc_divergence_when_only_spike_trapped_says_so():
    csrw_mtvec = i_type(0x305, 5, 1, 0, 0x73)
    prog = [(csrw_mtvec, "c773_mtvec 0x20000100", "c773_mtvec 0x20000100"), (ADD_X12, "x12 0x1", "x12 0x1")]
    s, r = build(prog)
    s[1] = spike_line(0x20000100, ADDI_X5, "x5  0x00000005")
    d = run(s, r).divergence
    assert "Spike went to the trap vector 0x20000100" in d.note and "pc 0x20000004" in d.note


def test_spike_ending_first_is_a_divergence_rtl_ending_first_is_not():
    s, r = build(PROGRAM)
    assert run(s, r[:-3]).ok
    d = run(s[:-3], r).divergence
    assert d.what == "spike-ended" and d.pc == 0x20000014


def test_coprocessor_results_matched_by_sequence_number():
    prog = [(VADD, "x7  0x00000003", "#5"), (ADDI_X5, "x5  0x00000005", "x5 0x00000005")]
    s, r = build(prog)
    ok = run(s, [*r, "@5 x7 0x00000003"])
    assert ok.ok, ok.summary()
    bad = run(s, [*r, "@5 x7 0x00000004"]).divergence
    assert bad.what == "completion" and bad.pc == 0x20000000 and "#5" in bad.details[0]
    never = run(s, r).divergence
    assert never.what == "completion" and "ended without the result" in never.details[0]
    stray = run(s, [*r, "@5 x7 0x00000003", "@6 x1 0x1"]).divergence
    assert "no outstanding result" in stray.details[0]


def test_comparison_streams_without_reading_everything():
    """An endless Spike log is fine: comparison stops when the RTL trace ends."""

    def endless_spike():
        for i in itertools.count():
            yield spike_line(0x20000000 + 4 * i, ADDI_X5, "x5  0x00000005")

    rtl = (rtl_line(0x20000000 + 4 * i, ADDI_X5, "x5 0x00000005") for i in range(20000))
    res = Comparator(32).run(endless_spike(), rtl)
    assert res.ok and res.compared == 20000


def b_type(imm, rs2, rs1, f3, op=0x63):
    return (
        ((imm >> 12 & 1) << 31)
        | ((imm >> 5 & 0x3F) << 25)
        | (rs2 << 20)
        | (rs1 << 15)
        | (f3 << 12)
        | ((imm >> 1 & 0xF) << 8)
        | ((imm >> 11 & 1) << 7)
        | op
    )


BLTU_X14_X5 = b_type(12, 5, 14, 6)  # bltu x14, x5, +12 (from 0x..04 to 0x..10)
ADDI = {rd: i_type(rd, 0, 0, rd, 0x13) for rd in (6, 7, 8, 9, 11)}  # addi xN, x0, N
ADD_X10_X8 = r_type(0, 0, 8, 0, 10)  # add x10, x8, x0


def counter_branch_traces(rtl_x11="0x0000000b"):
    """Spike reads a small mcycle and takes the branch; the RTL reads a large one and falls through."""
    base = 0x20000000
    s = [
        spike_line(base, CSRR_MCYCLE, "x14 0x00000015"),
        spike_line(base + 4, BLTU_X14_X5),
        spike_line(base + 0x10, ADDI[6], "x6  0x00000006"),
        spike_line(base + 0x14, ADD_X10_X8, "x10 0x00000000"),
        spike_line(base + 0x18, ADDI[11], "x11 0x0000000b"),
    ]
    r = [
        rtl_line(base, CSRR_MCYCLE, "x14 0x00000307"),
        rtl_line(base + 4, BLTU_X14_X5),
        rtl_line(base + 8, ADDI[8], "x8 0x00000008"),
        rtl_line(base + 0xC, ADDI[9], "x9 0x00000009"),
        rtl_line(base + 0x10, ADDI[6], "x6 0x00000006"),
        rtl_line(base + 0x14, ADD_X10_X8, "x10 0x00000008"),  # x8 only written on the RTL's path
        rtl_line(base + 0x18, ADDI[11], f"x11 {rtl_x11}"),
    ]
    return s, r


def test_counter_dependent_branch_is_realigned_and_what_follows_compared():
    s, r = counter_branch_traces()
    res = run(s, r)
    assert res.ok, res.summary()
    assert res.resyncs == 1 and res.unchecked == 2  # the RTL's two extra instructions
    assert res.compared == 5
    assert "2 instructions on 1 counter-dependent paths realigned" in res.summary()
    # After realignment, untainted values are compared again.
    s, r = counter_branch_traces(rtl_x11="0x0000000c")
    d = run(s, r).divergence
    assert d is not None and d.pc == 0x20000018 and d.what == "register"


def test_branch_divergence_without_counter_values_is_not_realigned():
    s, r = counter_branch_traces()
    s[0] = spike_line(0x20000000, ADDI_X5, "x5  0x00000005")  # no counter read: nothing tainted
    r[0] = rtl_line(0x20000000, ADDI_X5, "x5 0x00000005")
    d = run(s, r).divergence
    assert d.what == "pc" and d.pc == 0x20000008 and not d.note


def test_realignment_gives_up_after_the_window():
    s, r = counter_branch_traces()
    d = run(
        s[:2] + [spike_line(0x30000000 + 4 * i, ADDI_X5, "x5  0x00000005") for i in range(50)], r, resync_window=20
    ).divergence
    assert d.what == "pc" and "no common pc found within 20 instructions" in d.note


VLE32 = 0x0205E087  # vle32.v v1, (a1)


def test_vector_load_accesses_belong_to_the_accelerator_and_its_register_arrives_later():
    vreg = "0x0000000000000000000000000000000000000004000000030000000200000001"
    s = [spike_line(0x20000000, VLE32, f"e32 m1 l4 v1  {vreg} c8_vstart 0x00000000 mem 0x200021e0 mem 0x200021e4")]
    r = [rtl_line(0x20000000, VLE32, "#0")]
    assert run(s, [*r, f"@0 v1 {vreg}"]).ok
    d = run(s, [*r, "@0 v1 0x5"]).divergence
    assert d.what == "completion" and "v1: expected 0x4000000030000000200000001 (Spike), actual 0x5 (RTL)" in d.details
    d = run(s, r).divergence
    assert "ended without the result of coprocessor instruction #0" in d.details[0] and d.spike_line == 1
