"""Gemmini disassembly: random fields packed as DESIGN.md lays them out come back out of the text.

The packing here is written from DESIGN.md's Gemmini section (and the argument
order of Gemmini's gemmini.h macros), independently of sim/gemmini/disasm.py's
field table; the text is parsed back token by token.
"""

from __future__ import annotations

import random
import struct
from types import SimpleNamespace

import pytest

from harness.commands.run import describe
from harness.iss import describe_trap
from sim.disasm import capstone_disassembler, disassemble, with_vector_fallback
from sim.gemmini import isa
from sim.gemmini.disasm import disasm_gemmini
from sim.outcome import RunOutcome, Trap

N = 150  # random instructions per operation
ACT_CODES = {v: k for k, v in isa.ACTIVATION_NAMES.items()}


def f32_bits(rng: random.Random) -> int:
    """A random float32 bit pattern, usually an ordinary scale, sometimes anything."""
    if rng.random() < 0.5:
        return struct.unpack("<I", struct.pack("<f", rng.choice([1.0, 0.5, 0.125, 1 / 3, 2.5e-3, -7.0])))[0]
    return rng.getrandbits(32)


def f32_of(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


# ---------------------------------------------------------------- parsing the text


def tokens(text: str) -> list[str]:
    return text.replace(",", " ").split()


def value(toks: list[str], key: str) -> str:
    assert key in toks, f"{key!r} missing in {toks}"
    return toks[toks.index(key) + 1]


def num(toks: list[str], key: str, default: int | None = None) -> int:
    if default is not None and key not in toks:
        return default
    return int(value(toks, key))


def addr(toks: list[str], key: str) -> int:
    hits = [t for t in toks if t.startswith(key + "=")]
    assert len(hits) == 1, f"{key}= not found once in {toks}"
    return int(hits[0].split("=", 1)[1], 16)


def act(toks: list[str], key: str = "act") -> int:
    text = value(toks, key)
    return ACT_CODES[text] if text in ACT_CODES else int(text)


def scale_matches(toks: list[str], key: str, bits: int) -> bool:
    text = value(toks, key)
    if text.startswith("nan("):
        return int(text[4:-1], 16) == bits
    return struct.unpack("<I", struct.pack("<f", float(text)))[0] == bits or f32_of(bits) == float(text) == 0.0


def parse_local(text: str) -> dict:
    """``sp=0x10 accumulate full norm 3 rows 4 cols 4`` / ``garbage rows 4 cols 4`` -> fields."""
    toks = tokens(text)
    out = {"rows": num(toks, "rows"), "cols": num(toks, "cols")}
    if "garbage" in toks:
        return out | {"garbage": True}
    (where,) = [t for t in toks if t.startswith(("sp=", "acc="))]
    kind, row = where.split("=")
    return out | {
        "garbage": False,
        "acc": kind == "acc",
        "row": int(row, 16),
        "accumulate": "accumulate" in toks,
        "full": "full" in toks,
        "norm": num(toks, "norm", 0),
    }


# ---------------------------------------------------------------- packing (DESIGN.md)


def rand_local(rng: random.Random) -> tuple[int, dict]:
    """A random rs2-style operand and its fields."""
    rows, cols = rng.getrandbits(16), rng.getrandbits(16)
    if rng.random() < 0.15:
        return (rows << 48) | (cols << 32) | 0xFFFF_FFFF, {"rows": rows, "cols": cols, "garbage": True}
    f = {
        "acc": rng.random() < 0.5,
        "accumulate": rng.random() < 0.5,
        "full": rng.random() < 0.5,
        "norm": rng.randrange(8),
        "row": rng.getrandbits(26),
    }
    raw = (f["acc"] << 31) | (f["accumulate"] << 30) | (f["full"] << 29) | (f["norm"] << 26) | f["row"]
    if raw == 0xFFFF_FFFF:
        raw, f["row"] = raw - 1, f["row"] - 1
    return (rows << 48) | (cols << 32) | raw, f | {"rows": rows, "cols": cols, "garbage": False}


def check_local(text: str, expected: dict) -> None:
    got = parse_local(text)
    assert got == expected, f"{text!r}: {got} != {expected}"


@pytest.mark.parametrize("funct", [isa.MVIN, isa.MVIN2, isa.MVIN3, isa.MVOUT])
def test_moves(funct):
    rng = random.Random(funct)
    for _ in range(N):
        dram = rng.getrandbits(64)
        rs2, local = rand_local(rng)
        text = disasm_gemmini(isa.encode(funct, 10, 11), dram, rs2)
        head, rest = text.split(" dram=")
        assert head == f"gemmini {isa.FUNCT_NAMES[funct]}"
        assert int(rest.split()[0], 16) == dram
        check_local(rest.split(" ", 1)[1], local)


@pytest.mark.parametrize(
    "funct,labels",
    [
        (isa.PRELOAD, ("bd", "c")),
        (isa.COMPUTE_PRELOADED, ("a", "bd")),
        (isa.COMPUTE_ACCUMULATED, ("a", "bd")),
    ],
)
def test_preload_and_compute_operands(funct, labels):
    rng = random.Random(funct)
    for _ in range(N):
        (rs1, l1), (rs2, l2) = rand_local(rng), rand_local(rng)
        text = disasm_gemmini(isa.encode(funct, 1, 2), rs1, rs2)
        prefix = f"gemmini {isa.FUNCT_NAMES[funct]} {labels[0]} "
        assert text.startswith(prefix)
        first, second = text[len(prefix) :].split(", ")
        check_local(first, l1)
        assert second.startswith(labels[1] + " ")
        check_local(second[len(labels[1]) + 1 :], l2)


def test_config_ex():
    rng = random.Random(1)
    for _ in range(N):
        df, a, sos, at, bt = rng.randrange(2), rng.randrange(4), *(rng.randrange(2) for _ in range(3))
        a_stride, scale, shift, c_stride = rng.getrandbits(16), f32_bits(rng), rng.getrandbits(32), rng.getrandbits(16)
        rs1 = (scale << 32) | (a_stride << 16) | (bt << 9) | (at << 8) | (sos << 7) | (a << 3) | (df << 2) | 0
        rs2 = (c_stride << 48) | shift
        toks = tokens(disasm_gemmini(isa.encode(isa.CONFIG, 1, 2), rs1, rs2))
        assert toks[:2] == ["gemmini", "config_ex"]
        assert value(toks, "dataflow") == ("WS" if df else "OS")
        assert act(toks) == a
        assert ("set_only_strides" in toks, "a_transpose" in toks, "b_transpose" in toks) == (sos, at, bt)
        assert (num(toks, "a_stride"), num(toks, "shift"), num(toks, "c_stride")) == (a_stride, shift, c_stride)
        assert scale_matches(toks, "scale", scale)
        assert "ignored" not in toks


def test_config_ld():
    rng = random.Random(2)
    for _ in range(N):
        shrink, mvin_id, repeats, block = rng.randrange(2), rng.randrange(3), rng.getrandbits(8), rng.getrandbits(16)
        scale, stride = f32_bits(rng), rng.getrandbits(64)
        rs1 = (scale << 32) | (block << 16) | (repeats << 8) | (mvin_id << 3) | (shrink << 2) | 1
        toks = tokens(disasm_gemmini(isa.encode(isa.CONFIG, 1, 2), rs1, stride))
        assert toks[:2] == ["gemmini", "config_ld"]
        assert (num(toks, "id"), num(toks, "stride"), "shrink" in toks) == (mvin_id, stride, bool(shrink))
        assert (num(toks, "block_stride"), num(toks, "pixel_repeats")) == (block, repeats)
        assert scale_matches(toks, "scale", scale)


def test_config_st_with_and_without_pooling():
    rng = random.Random(3)
    names = ("pool_stride", "pool_size", "upad", "lpad", "pool_out_dim", "porows", "pocols", "orows", "ocols")
    for i in range(N):
        pooled = i % 3 != 0
        f = {n: (rng.getrandbits(2 if n in names[:4] else 8) if pooled else 0) for n in names}
        a, stride, scale = rng.randrange(4), rng.getrandbits(32), f32_bits(rng)
        rs1 = (
            (f["ocols"] << 56) | (f["orows"] << 48) | (f["pocols"] << 40) | (f["porows"] << 32)
            | (f["pool_out_dim"] << 24) | (f["lpad"] << 10) | (f["upad"] << 8) | (f["pool_size"] << 6)
            | (f["pool_stride"] << 4) | (a << 2) | 2
        )  # fmt: skip
        toks = tokens(disasm_gemmini(isa.encode(isa.CONFIG, 1, 2), rs1, (scale << 32) | stride))
        assert toks[:2] == ["gemmini", "config_st"]
        assert (num(toks, "stride"), act(toks)) == (stride, a)
        assert scale_matches(toks, "scale", scale)
        assert {n: num(toks, n, 0) for n in names} == f
        if not pooled:
            assert not set(names) & set(toks)


def test_loop_ws_and_its_configs():
    rng = random.Random(4)
    for _ in range(N):
        ti, tj, tk, pI, pJ, pK = (rng.getrandbits(16) for _ in range(6))
        toks = tokens(disasm_gemmini(isa.encode(9, 1, 2), (pK << 32) | (pJ << 16) | pI, (tk << 32) | (tj << 16) | ti))
        assert toks[1] == "loop_ws_config_bounds"
        assert [num(toks, k) for k in ("I", "J", "K", "pad_I", "pad_J", "pad_K")] == [ti, tj, tk, pI, pJ, pK]
        a, b = rng.getrandbits(64), rng.getrandbits(64)
        for funct, (k1, k2), kind in (
            (10, ("a", "b"), "addr"),
            (11, ("d", "c"), "addr"),
            (12, ("a_stride", "b_stride"), "n"),
            (13, ("d_stride", "c_stride"), "n"),
        ):
            toks = tokens(disasm_gemmini(isa.encode(funct, 1, 2), a, b))
            assert toks[1] == isa.FUNCT_NAMES[funct]
            got = (addr(toks, k1), addr(toks, k2)) if kind == "addr" else (num(toks, k1), num(toks, k2))
            assert got == (a, b)
        acc, full_c, low_d, at, bt, res = (rng.randrange(2) for _ in range(6))
        a_act, a_id, b_id = rng.randrange(8), rng.randrange(4), rng.randrange(4)
        rs1 = (a_id << 18) | (b_id << 16) | (a_act << 8) | (low_d << 2) | (full_c << 1) | acc
        toks = tokens(disasm_gemmini(isa.encode(isa.LOOP_WS, 1, 2), rs1, (res << 2) | (bt << 1) | at))
        assert toks[1] == "loop_ws"
        flags = [k in toks for k in ("ex_accumulate", "full_c", "low_d", "a_transpose", "b_transpose", "resadd")]
        assert flags == [bool(x) for x in (acc, full_c, low_d, at, bt, res)]
        assert (act(toks), num(toks, "a_spad_id"), num(toks, "b_spad_id")) == (a_act, a_id, b_id)


# Each loop_conv_ws config register holds four 16-bit fields, lowest first (gemmini.h's gemmini_loop_conv_ws).
CONV_CONFIGS = {
    16: (("batch_size", "in_dim", "in_channels", "out_channels"), ("out_dim", "pool_out_dim", "stride", "padding")),
    17: (("pool_padding", "pool_stride", "pool_size", "kernel_dim"), ("pochs", "pocols", "porows", "batches")),
    18: (("lpad", "kchs", "kcols", "krows"), ("plpad", "dpad", "upad", "rpad")),
    19: (("pdpad", "pupad", "prpad", "orows"), ("ocols", "kernel_dilation")),
}


def test_loop_conv_ws_and_its_configs():
    rng = random.Random(5)
    for _ in range(N):
        for funct, (names1, names2) in CONV_CONFIGS.items():
            v1, v2 = [rng.getrandbits(16) for _ in names1], [rng.getrandbits(16) for _ in names2]
            rs1 = sum(v << (16 * i) for i, v in enumerate(v1))
            rs2 = sum(v << (16 * i) for i, v in enumerate(v2))
            toks = tokens(disasm_gemmini(isa.encode(funct, 1, 2), rs1, rs2))
            assert toks[1] == isa.FUNCT_NAMES[funct]
            assert [num(toks, n) for n in names1 + names2] == v1 + v2
        a, b = rng.getrandbits(64), rng.getrandbits(64)
        toks = tokens(disasm_gemmini(isa.encode(20, 1, 2), a, b))
        assert (addr(toks, "weights"), addr(toks, "output")) == (a, b)
        toks = tokens(disasm_gemmini(isa.encode(21, 1, 2), a, b))
        assert (addr(toks, "bias"), addr(toks, "input")) == (a, b)
        flags1 = ("no_bias", "wrot180", "trans_output_1203", "trans_weight_1203", "trans_weight_0132")
        flags1 += ("trans_input_3120", "dw")
        bits1 = [rng.randrange(2) for _ in flags1]
        mppr, c_act = rng.getrandbits(8), rng.randrange(4)
        bits2 = [rng.randrange(2) for _ in range(3)]
        rs1 = (mppr << 8) | sum(b << i for i, b in enumerate(bits1))
        rs2 = (c_act << 3) | (bits2[2] << 2) | (bits2[1] << 1) | bits2[0]
        toks = tokens(disasm_gemmini(isa.encode(isa.LOOP_CONV_WS, 1, 2), rs1, rs2))
        assert [f in toks for f in flags1] == [bool(b) for b in bits1]
        assert [f in toks for f in ("no_pool", "downsample", "input_dilated")] == [bool(b) for b in bits2]
        assert (num(toks, "max_pixels_per_row"), act(toks)) == (mppr, c_act)


def test_counter_flush_and_clock_gate():
    rng = random.Random(6)
    for _ in range(N):
        ops = [rng.randrange(2) for _ in range(4)]
        index, event, external, rd = rng.randrange(8), rng.randrange(64), rng.randrange(2), rng.randrange(32)
        rs1 = (external << 31) | (event << 12) | (index << 4) | sum(b << i for i, b in enumerate(ops))
        text = disasm_gemmini(isa.encode(isa.COUNTER, 3, 4, rd=rd), rs1, 0)
        toks = tokens(text)
        names = ["reset", "snapshot_reset", "snapshot_take", "configure"]
        assert [n in toks for n in names] == [bool(b) for b in ops]
        assert ("read" in toks) == (not any(ops))
        assert (num(toks, "index"), num(toks, "event", 0), "external" in toks) == (index, event, bool(external))
        assert text.endswith(f"-> x{rd}")
    assert disasm_gemmini(isa.encode(isa.FLUSH, 1, 2), 1, 0) == "gemmini flush skip"
    assert disasm_gemmini(isa.encode(isa.FLUSH, 1, 2), 0, 0) == "gemmini flush"
    assert disasm_gemmini(isa.encode(isa.CLKGATE_EN, 1, 2), 1, 0) == "gemmini clkgate_en enable"


def test_uncovered_bits_and_unknown_functs_are_named():
    text = disasm_gemmini(isa.encode(isa.CONFIG, 1, 2), (1 << 5) | 0, 0)  # config_ex bit 5 is no field
    assert text.endswith("ignored rs1 0x20")
    assert disasm_gemmini(isa.encode(isa.CONFIG, 1, 2), 3, 0).startswith("gemmini config_norm")
    assert disasm_gemmini(isa.encode(23, 10, 11)) == "gemmini funct 23 (unknown) x10, x11"
    assert disasm_gemmini(isa.encode(23, 10, 11), 5, 6) == "gemmini funct 23 (unknown) x10, x11 rs1=0x5 rs2=0x6"
    odd_funct3 = isa.encode(isa.MVIN, 10, 11) & ~(7 << 12) | (0b001 << 12)
    assert disasm_gemmini(odd_funct3).endswith("(funct3 001, expected 011)")


def test_register_form_without_values():
    for funct, name in isa.FUNCT_NAMES.items():
        word = isa.encode(funct, 10, 11, rd=5 if funct == isa.COUNTER else 0)
        regs = "x5, x10, x11" if funct == isa.COUNTER else "x10, x11"
        assert disasm_gemmini(word) == f"gemmini {name} {regs}"
        assert disassemble(word, 64) == f"gemmini {name} {regs}"


def test_every_funct_decodes_with_values():
    rng = random.Random(7)
    for funct, name in isa.FUNCT_NAMES.items():
        text = disasm_gemmini(isa.encode(funct, 1, 2), rng.getrandbits(64), rng.getrandbits(64))
        assert text.startswith("gemmini ") and "(unknown)" not in text and ".insn" not in text
        if funct != isa.CONFIG:
            assert text.split()[1] == name


# ---------------------------------------------------------------- the harness's printing paths

MVIN_WORD = isa.encode(isa.MVIN, 10, 11)


def test_harness_disassembler_decodes_fields_when_given_values():
    rs2 = (4 << 48) | (4 << 32) | 0x10
    assert (
        disassemble(MVIN_WORD, 64, rs1=0x40001000, rs2=rs2)
        == "gemmini mvin dram=0x40001000 sp=0x00000010 rows 4 cols 4"
    )
    assert disassemble(0x00A5A023, 64) == "sw a0, 0(a1)"  # the scalar path is unchanged


def test_trap_message_shows_the_gemmini_instruction():
    img = SimpleNamespace(word_at=lambda pc: MVIN_WORD if pc == 0x80000100 else None, symbol_at=lambda pc: "main")
    outcome = RunOutcome(target="iss", ending="trap")
    outcome.trap = Trap(cause=2, pc=0x80000100, tval=MVIN_WORD, description="illegal instruction")
    outcome.trap.detail = "rows 17 above DIM 4"
    describe_trap(outcome, img, SimpleNamespace(xlen=64))
    assert outcome.trap.disassembly == "gemmini mvin x10, x11"
    assert "at pc 0x80000100: gemmini mvin x10, x11" in outcome.message
    assert outcome.message.endswith("rows 17 above DIM 4")
    assert "(gemmini mvin x10, x11, 0x" in describe(outcome, 64)  # `cosim run`'s status line


def test_difftest_divergence_text_shows_the_gemmini_instruction():
    disasm = with_vector_fallback(capstone_disassembler(64), 64)
    assert disasm(0x80000000, MVIN_WORD) == "gemmini mvin x10, x11"
    assert disasm(0x80000000, 0x00A5A023) == "sw a0, 0(a1)"
