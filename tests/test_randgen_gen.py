"""The random program generator: reproducible, complete in what it covers, forward-only control flow."""

import re

import pytest

from sim.randgen import DEFAULT_WEIGHTS, generate
from sim.randgen.generator import BASE_REG


@pytest.mark.parametrize("xlen", [32, 64])
def test_same_seed_same_program_other_seed_other_program(xlen):
    a = generate(11, xlen, 200).text
    assert a == generate(11, xlen, 200).text
    assert a != generate(12, xlen, 200).text


@pytest.mark.parametrize("xlen", [32, 64])
def test_every_class_rounding_mode_and_width_appears(xlen):
    p = generate(5, xlen, 3000)
    assert set(p.classes) == set(DEFAULT_WEIGHTS)
    assert set(p.rounding_modes) == {"rne", "rtz", "rdn", "rup", "rmm", "dyn"}
    loads = {"lb", "lbu", "lh", "lhu", "lw", "flw"} | ({"lwu", "ld"} if xlen == 64 else set())
    stores = {"sb", "sh", "sw", "fsw"} | ({"sd"} if xlen == 64 else set())
    muldiv = {"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"}
    fp = {
        "fadd.s",
        "fsub.s",
        "fmul.s",
        "fdiv.s",
        "fsqrt.s",
        "fmadd.s",
        "fmsub.s",
        "fnmsub.s",
        "fnmadd.s",
        "fmin.s",
        "fmax.s",
        "feq.s",
        "flt.s",
        "fle.s",
        "fclass.s",
        "fsgnj.s",
        "fsgnjn.s",
        "fsgnjx.s",
        "fcvt.w.s",
        "fcvt.wu.s",
        "fcvt.s.w",
        "fcvt.s.wu",
        "fmv.x.w",
        "fmv.w.x",
    }
    if xlen == 64:
        fp |= {"fcvt.l.s", "fcvt.lu.s", "fcvt.s.l", "fcvt.s.lu"}
        muldiv |= {"mulw", "divw", "divuw", "remw", "remuw"}
    missing = (loads | stores | muldiv | fp) - set(p.mnemonics)
    assert not missing


def test_only_other_xlen_instructions_never_appear_on_rv32():
    p = generate(9, 32, 3000)
    assert not {"ld", "sd", "lwu", "addw", "mulw", "fcvt.l.s", "addiw"} & set(p.mnemonics)


def test_division_corners_are_set_up():
    text = generate(3, 64, 3000).text
    # A zero divisor and most-negative / -1, right before a div/rem.
    assert re.search(r"li (x\d+), 0\n  (div|rem)\w* x\d+, x\d+, \1\n", text)
    assert re.search(r"li (x\d+), -9223372036854775808\n  li (x\d+), -1\n  (div|rem) x\d+, \1, \2\n", text)
    assert re.search(r"li (x\d+), -2147483648\n  li (x\d+), -1\n  (div|rem)u?w x\d+, \1, \2\n", text)


@pytest.mark.parametrize("xlen", [32, 64])
def test_branches_and_jumps_only_go_forward(xlen):
    lines = generate(21, xlen, 2000).text.splitlines()
    defined = {ln[:-1]: i for i, ln in enumerate(lines) if re.fullmatch(r"\.Lrg\d+:", ln)}
    uses = [(i, m.group(0)) for i, ln in enumerate(lines) for m in [re.search(r"\.Lrg\d+$", ln)] if m]
    assert uses and len(uses) == len(defined)
    for i, label in uses:
        assert defined[label] > i, f"{label} used on line {i} is not ahead"


@pytest.mark.parametrize("xlen", [32, 64])
def test_memory_accesses_stay_in_the_data_block_and_are_aligned(xlen):
    no_traps = {k: v for k, v in DEFAULT_WEIGHTS.items() if k != "trap"}
    p = generate(4, xlen, 3000, weights=no_traps)
    width = {
        "lb": 1,
        "lbu": 1,
        "sb": 1,
        "lh": 2,
        "lhu": 2,
        "sh": 2,
        "lw": 4,
        "lwu": 4,
        "sw": 4,
        "flw": 4,
        "fsw": 4,
        "ld": 8,
        "sd": 8,
    }
    seen_offsets = set()
    for m in re.finditer(r"^  (\w+) \w+, (-?\d+)\((x\d+)\)$", p.text, re.M):
        op, off, base = m.group(1), int(m.group(2)), m.group(3)
        if base == "x2" or op == "jalr":
            continue  # prologue/epilogue stack saves; jumps
        assert base == f"x{BASE_REG}"
        assert 0 <= off <= 1024 - width[op] and off % width[op] == 0
        seen_offsets.add((width[op], off % 8))
    # every width at every aligned position within a doubleword
    assert {(1, k) for k in range(8)} <= seen_offsets
    assert {(2, k) for k in range(0, 8, 2)} <= seen_offsets


def test_base_register_and_stack_are_never_random_destinations():
    text = generate(8, 64, 3000).text
    body = text.split("csrwi fcsr, 0")[1]
    dests = re.findall(r"^  (?!s[bhwd] |fsw |b\w+ )\S+ (x\d+),", body, re.M)
    assert dests and not {"x0", "x2", "x3", "x4", f"x{BASE_REG}"} & set(dests)


def test_frm_is_only_set_to_legal_modes():
    text = generate(13, 32, 3000).text
    for m in re.finditer(r"(?:fsrmi x\d+|csrwi frm), (\d+)", text):
        assert int(m.group(1)) <= 4
    for m in re.finditer(r"li (x\d+), (-?\d+)\n  fscsr x\d+, \1", text):
        assert (int(m.group(2)) >> 5) <= 4


def test_bad_options_are_rejected_with_reason():
    with pytest.raises(ValueError, match="xlen"):
        generate(1, 16)
    with pytest.raises(ValueError, match="unknown instruction classes"):
        generate(1, 32, weights={"vector": 1})
    with pytest.raises(ValueError, match="data_bytes"):
        generate(1, 32, data_bytes=4096)
    with pytest.raises(ValueError, match="csr_targets"):
        generate(1, 32, csr_targets=("mstatus",))


def test_csr_targets_select_what_the_csr_class_writes():
    text = generate(2, 32, 2000, csr_targets=("mscratch", "mtval")).text
    body = text.split(".Lrg_trap:")[0]
    assert re.search(r"csrr[sc]?w?i? x\d+, mtval, ", body)
    assert not re.search(r"csrr[wsc]i? x\d+, mepc, ", body)


@pytest.mark.parametrize("xlen", [32, 64])
def test_trap_class_makes_every_kind_of_trap_and_installs_a_handler(xlen):
    only = {k: (1 if k == "trap" else 0) for k in DEFAULT_WEIGHTS}
    p = generate(6, xlen, 400, weights=only)
    assert p.classes["trap"] == 400
    text = p.text
    for insn in ("ecall", "ebreak", ".word 0x00000000", "csrr x5, 0x7c0"):
        assert f"  {insn}\n" in text
    width = {"lh": 2, "lhu": 2, "lw": 4, "lwu": 4, "flw": 4, "sh": 2, "sw": 4, "fsw": 4, "ld": 8, "sd": 8}
    misaligned = re.findall(r"^  (\w+) \w+, (\d+)\(x27\)$", text, re.M)
    assert len(misaligned) > 200
    for op, off in misaligned:
        assert int(off) % width[op] != 0 and int(off) + width[op] <= 1024
    # main points mtvec at its own handler and restores the runtime's on return.
    assert "csrrw x5, mtvec, x5" in text and "csrw mtvec, x5" in text and ".Lrg_trap:" in text
