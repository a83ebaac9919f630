"""The programs of the whole-unit tests (tests/test_gemmini_unit.py): random tile sequences in one dataflow, a
loop_ws with every field, the feature programs, and the random streams of unit_stim, per SoC and seed.

:func:`unit_programs` is the catalogue the tests take their programs from; sim/rtl/gemmini/gen_coverage.py
measures the same catalogue, so COVERAGE.md says what the tests run.
"""

from __future__ import annotations

import random

from sim.gemmini import isa
from sim.gemmini.params import GemminiParams
from sim.tb.gemmini.unit_stim import GARBAGE, WINDOW_SIZE, f32_bits, random_program, regions, rs, window_base


def tile_program(
    p: GemminiParams, seed: int, ddr: int, ddr_size: int, dataflow: int, tiles: int
) -> list[tuple[int, int, int]]:
    """A random tile sequence in one dataflow: configs, then per tile mvin A / B (/ D into the accumulator),
    preload, compute (sometimes a second, accumulated), mvout of C; DRAM inside [ddr, ddr + ddr_size)."""
    r, d = random.Random(seed), p.dim
    prog: list[tuple[int, int, int]] = []
    ws = dataflow == isa.WS
    a_t = r.random() < 0.2
    b_t = (not a_t) and r.random() < 0.2 if ws else (a_t and r.random() < 0.3)
    if not ws and not a_t:
        b_t = False
    act = int(r.random() < 0.3)
    scale = r.choice((1.0, 1.0, 0.5, 0.25))
    shift = 0 if ws else r.randrange(0, 4)
    cfg_ex = isa.CONFIG_EX | (dataflow << 2) | (act << 3) | (int(a_t) << 8) | (int(b_t) << 9) | (1 << 16)
    prog.append((isa.CONFIG, cfg_ex | (f32_bits(scale) << 32), shift | (1 << 48)))
    pitch = 4 * d * 4  # DRAM row pitch of every matrix (bytes)
    for idx in range(3):
        # int8 loads scale (and saturate); mvin3 of int8 D into the accumulator (shrink) scales too
        shrink = idx == 2 and r.random() < 0.3
        ld_scale = f32_bits(r.choice((1.0, 1.0, 0.5, 2.0, -0.75)))
        ld = isa.CONFIG_LD | (int(shrink) << 2) | (idx << 3) | (1 << 8) | (d << 16) | (ld_scale << 32)
        prog.append((isa.CONFIG, ld, pitch))
    st_scale = r.choice((1.0, 0.5, 0.125))
    prog.append((isa.CONFIG, isa.CONFIG_ST | (act << 2), pitch | (f32_bits(st_scale) << 32)))
    region = ddr_size // (tiles * 4 + 4)

    def dram(slot: int) -> int:
        return ddr + slot * region + r.randrange(0, 32)

    for t in range(tiles):
        sp_a, sp_b = (t * 4) * d, (t * 4 + 1) * d
        acc_c = (t % (p.acc_rows // d)) * d
        ar, ac = r.randrange(1, d + 1), r.randrange(1, d + 1)
        br, bc = r.randrange(1, d + 1), r.randrange(1, d + 1)
        prog.append((isa.MVIN, dram(4 * t), rs(sp_a, d, d)))
        prog.append((isa.MVIN2, dram(4 * t + 1), rs(sp_b, d, d)))
        with_d = r.random() < 0.5
        if with_d:
            prog.append((isa.MVIN3, dram(4 * t + 2), rs(0x8000_0000 | acc_c, d, d)))
        accumulate = with_d or r.random() < 0.3
        c_raw = 0x8000_0000 | (int(accumulate) << 30) | acc_c
        if r.random() < 0.2:
            c_raw = (t * 4 + 2) * d  # C in the scratchpad (int8 clip)
        cr, cc = r.randrange(1, d + 1), r.randrange(1, d + 1)
        if ws:
            prog.append((isa.PRELOAD, rs(sp_b, bc, br), rs(c_raw, cc, cr)))
            prog.append((isa.COMPUTE_PRELOADED, rs(sp_a, ac, ar), rs(GARBAGE, d, d)))
        else:
            prog.append((isa.PRELOAD, rs(GARBAGE, d, d), rs(c_raw, cc, cr)))
            prog.append((isa.COMPUTE_PRELOADED, rs(sp_a, ac, ar), rs(sp_b, bc, br)))
            if r.random() < 0.4:
                prog.append((isa.COMPUTE_ACCUMULATED, rs(sp_a, ac, ar), rs(sp_b, bc, br)))
        full = c_raw >> 31 and r.random() < 0.3
        src = c_raw | (int(full) << 29) if c_raw >> 31 else c_raw
        prog.append((isa.MVOUT, dram(4 * t + 3), rs(src & ~(1 << 30), cc, cr)))
    return prog


def loop_program(p: GemminiParams, seed: int, ddr: int, ddr_size: int) -> list[tuple[int, int, int]]:
    """One loop_ws (WS) with small random bounds and pads and random loop_ws fields (ex accumulate, full C, low D,
    ReLU, A or B transposed, the config_ex transpose to match), its matrices inside [ddr, ddr + ddr_size)."""
    r, d = random.Random(seed), p.dim
    mi, mj, mk = r.randrange(1, 3), r.randrange(1, 3), r.randrange(1, 3)
    pi, pj, pk = r.randrange(0, d), r.randrange(0, d), r.randrange(0, d)
    ex_acc, full_c, low_d, act = (int(r.random() < 0.3) for _ in range(4))
    a_t, b_t = r.choice(((0, 0), (0, 0), (1, 0), (0, 1)))
    q = ddr_size // 4
    a, b, dd, c = ddr, ddr + q, ddr + 2 * q, ddr + 3 * q
    # elements a matrix row (row-major; a transposed matrix is stored K x I or J x K)
    sa = (mi if a_t else mk) * d
    sb = (mk if b_t else mj) * d
    sd, sc = mj * d, mj * d
    d_bytes, c_bytes = (1 if low_d else 4), (4 if full_c else 1)
    ex = isa.CONFIG_EX | (isa.WS << 2) | (act << 3) | (a_t << 8) | (b_t << 9) | (1 << 16)
    one = f32_bits(1.0) << 32
    prog = [
        (isa.CONFIG, ex | one, 1 << 48),
        (isa.CONFIG, isa.CONFIG_LD | (0 << 3) | (1 << 8) | (d << 16) | one, sa),
        (isa.CONFIG, isa.CONFIG_LD | (1 << 3) | (1 << 8) | (d << 16) | one, sb),
        (isa.CONFIG, isa.CONFIG_LD | (low_d << 2) | (2 << 3) | (1 << 8) | (d << 16) | one, sd * d_bytes),
        (isa.CONFIG, isa.CONFIG_ST | (act << 2), sc * c_bytes | one),
        (isa.LOOP_WS_CONFIG_BOUNDS, pi | (pj << 16) | (pk << 32), mi | (mj << 16) | (mk << 32)),
        (isa.LOOP_WS_CONFIG_ADDRS_AB, a, b),
        (isa.LOOP_WS_CONFIG_ADDRS_DC, dd if r.random() < 0.5 else 0, c),
        (isa.LOOP_WS_CONFIG_STRIDES_AB, sa, sb),
        (isa.LOOP_WS_CONFIG_STRIDES_DC, sd, sc),
        (isa.LOOP_WS, ex_acc | (full_c << 1) | (low_d << 2) | (act << 8), a_t | (b_t << 1)),
    ]
    return prog


def feature_program(p: GemminiParams, seed: int, ddr: int, ddr_size: int) -> list[tuple[int, int, int]]:
    """Legal uses of the fields random streams rarely reach legally: mvin with pixel repeats, shrunk and scaled
    accumulator mvins, max-pooled mvouts (from the accumulator, scaled, ReLU, and from the scratchpad) with random
    window, stride, padding and geometry, 1-D mvouts, OS with C stride 0, WS with C and A strides of 2, all inside
    [ddr, ddr + ddr_size)."""
    r, d = random.Random(seed), p.dim
    one = f32_bits(1.0) << 32
    sc = f32_bits(r.choice((1.0, 0.5, 2.0, -0.75))) << 32
    prog: list[tuple[int, int, int]] = []
    # pixel repeats: copies of each row go up to reps-1 rows above, shifted right by cols each
    reps, cols = r.randrange(2, 5), r.randrange(1, d + 1)
    prog.append((isa.CONFIG, isa.CONFIG_LD | (0 << 3) | (reps << 8) | (d << 16) | sc, d))
    prog.append((isa.MVIN, ddr + r.randrange(0, 64), rs(8 * d + r.randrange(0, d), cols, r.randrange(1, d + 1))))
    # an image of orows x ocols pixels, one a row, in the accumulator (int32, then shrunk int8 on top) and the
    # scratchpad
    orows, ocols = r.randrange(2, 5), r.randrange(2, 5)
    pixels = orows * ocols
    prog.append((isa.CONFIG, isa.CONFIG_LD | (2 << 3) | (1 << 8) | (d << 16) | one, 4 * d))
    prog.append((isa.CONFIG, isa.CONFIG_LD | (1 << 2) | (1 << 3) | (1 << 8) | (d << 16) | sc, d))
    for row in range(0, pixels, d):
        n = min(d, pixels - row)
        prog.append((isa.MVIN3, ddr + 0x400 + row * 4 * d, rs(0x8000_0000 | row, d, n)))
        if r.random() < 0.5:  # mvin2 with shrink: int8 rows scaled into the accumulator, accumulated
            prog.append((isa.MVIN2, ddr + 0x800 + row * d, rs(0xC000_0000 | row, d, n)))
        prog.append((isa.MVIN2, ddr + 0xC00 + row * d, rs(16 * d + row, d, n)))
    for src in (0x8000_0000, 16 * d):
        size, stride = r.randrange(1, 4), r.randrange(1, 3)
        upad, lpad = r.randrange(0, size), r.randrange(0, size)
        porows = (orows + 2 * upad - size) // stride + 1
        pocols = (ocols + 2 * lpad - size) // stride + 1
        if porows < 1 or pocols < 1:
            size, upad, lpad, porows, pocols = 1, 0, 0, orows, ocols
        out_dim = pocols + r.randrange(0, 3)
        act = r.getrandbits(1)
        st = (
            isa.CONFIG_ST
            | (act << 2)
            | (stride << 4)
            | (size << 6)
            | (upad << 8)
            | (lpad << 10)
            | (out_dim << 24)
            | (porows << 32)
            | (pocols << 40)
            | (orows << 48)
            | (ocols << 56)
        )
        prog.append((isa.CONFIG, st, 2 * d | sc))
        prog.append((isa.MVOUT, ddr + 0x1000 + (0x800 if src == 16 * d else 0), rs(src, r.randrange(1, d + 1), 0)))
    # 1-D mvout: pool size without stride, orows x ocols rows, pool_out_dim pixels a DRAM row
    st1 = isa.CONFIG_ST | (1 << 6) | ((ocols + 1) << 24) | (orows << 48) | (ocols << 56)
    prog.append((isa.CONFIG, st1, d | sc))
    prog.append((isa.MVOUT, ddr + 0x2000, rs(0x8000_0000, r.randrange(1, d + 1), 1)))
    # OS with C stride 0 (every row to C + DIM - 1), then WS with C and A strides of 2
    prog.append((isa.CONFIG, isa.CONFIG_ST, d | one))
    prog.append((isa.CONFIG, isa.CONFIG_EX | (isa.OS << 2) | (1 << 16) | one, r.randrange(0, 4)))
    prog.append((isa.PRELOAD, rs(GARBAGE, d, d), rs(0xC000_0000 | 4 * d, d, d)))
    prog.append((isa.COMPUTE_PRELOADED, rs(8 * d, d, d), rs(16 * d, d, d)))
    prog.append((isa.MVOUT, ddr + 0x3000, rs(0x8000_0000 | 4 * d, d, d)))
    prog.append((isa.CONFIG, isa.CONFIG_EX | (isa.WS << 2) | (2 << 16) | one, 2 << 48))
    prog.append((isa.PRELOAD, rs(16 * d, d, d), rs(0x8000_0000 | 6 * d, d, d)))
    prog.append((isa.COMPUTE_PRELOADED, rs(8 * d, d, d), rs(GARBAGE, d, d)))
    prog.append((isa.MVOUT, ddr + 0x3800, rs(0x8000_0000 | 6 * d, d, d)))
    prog.append((isa.MVOUT, ddr + 0x3C00, rs(0x8000_0000 | 6 * d + d, d, d)))
    return prog


# Seeds of the whole-unit program tests per SoC (DIM 4 in the default tier, DIM 16 in the slow one).
UNIT_SEEDS: dict[str, dict[str, tuple[int, ...]]] = {
    "gemmini-dim4": {"tiles": (1, 2), "loop": (1, 2, 3, 4, 5), "features": (1, 2, 3, 4), "random": (1, 2)},
    "gemmini-dim16": {"tiles": (1, 2, 3), "loop": (1, 2, 3, 4, 5, 6), "features": (1, 2, 3), "random": (1, 2, 3, 4)},
}


def unit_programs(soc: str) -> dict[str, list[tuple[int, int, int]]]:
    """Every program the whole-unit comparison tests run on ``soc``, by test id (tiles-ws-1, loop-2, random-1):
    the tests take them from here, and gen_coverage.py measures which fields they vary."""
    from sim.gemmini.params import gemmini_params

    p, base, seeds = gemmini_params(soc), window_base(soc), UNIT_SEEDS[soc]
    out: dict[str, list[tuple[int, int, int]]] = {}
    for seed in seeds["tiles"]:
        for df, name in ((isa.WS, "ws"), (isa.OS, "os")):
            out[f"tiles-{name}-{seed}"] = tile_program(p, seed * 7 + df, base, WINDOW_SIZE, df, tiles=6)
    for seed in seeds["loop"]:
        out[f"loop-{seed}"] = loop_program(p, seed, base, WINDOW_SIZE)
    for seed in seeds["features"]:
        out[f"features-{seed}"] = feature_program(p, seed, base, WINDOW_SIZE)
    for seed in seeds["random"]:
        out[f"random-{seed}"] = random_program(p, regions(soc), 300, seed, pair=True)
    return out
