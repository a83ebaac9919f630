"""sim/gemmini/model.py and loop_ws.py against the independent formulation in tests/gemmini_support/reference.py."""

from __future__ import annotations

import numpy as np
import pytest
from gemmini_support import reference as ref
from gemmini_support.reference import ACC, ACCUMULATE, FULL, GARBAGE, operand

from sim.gemmini import isa
from sim.gemmini.model import GemminiIllegal, GemminiModel
from sim.gemmini.params import gemmini_params

CONFIGS = ["gemmini-dim4", "gemmini-dim16"]
MEM_BASE = 0x8000_0000
MEM_SIZE = 1 << 20


@pytest.fixture(params=CONFIGS)
def env(request):
    p = gemmini_params(request.param)
    mem = ref.FlatMemory(MEM_SIZE, MEM_BASE)
    return GemminiModel(p, mem), mem, np.random.default_rng(hash(request.param) & 0xFFFF)


def cfg(m: GemminiModel, pair: tuple[int, int]) -> None:
    m.execute(isa.CONFIG, *pair)


def i8(rng, shape):
    return rng.integers(-128, 128, shape, dtype=np.int8)


# ---------------------------------------------------------------- mvin / mvout


def test_mvin_mvout_scratchpad_blocks_strides_unaligned(env):
    m, mem, rng = env
    d = m.p.dim
    for trial in range(12):
        rows = int(rng.integers(1, d + 1))
        cols = int(rng.integers(1, d * m.p.max_block_len + 1))
        stride = cols + int(rng.integers(0, 9))
        bstride = d + int(rng.integers(0, 3))
        src = MEM_BASE + 0x100 + int(rng.integers(0, 64))  # unaligned on purpose
        data = i8(rng, (rows, stride))
        mem.put(src, data)
        before = m.sp.copy()
        sp_row = int(rng.integers(0, 64))
        cfg(m, ref.config_ld(stride, block_stride=bstride))
        m.execute(isa.MVIN, src, operand(sp_row, cols, rows))
        expect = before.copy()
        for off, piece in ref.mvin_rows(data, rows, cols, d, bstride).items():
            expect[sp_row + off, : len(piece)] = piece  # the rest of the row keeps its old value
        np.testing.assert_array_equal(m.sp, expect, err_msg=f"trial {trial}: rows {rows} cols {cols}")
        # mvout of the first block back to a fresh place
        dst = MEM_BASE + 0x8000 + int(rng.integers(0, 16))
        ocols = min(cols, d)
        cfg(m, ref.config_st(ocols + 3))
        m.execute(isa.MVOUT, dst, operand(sp_row, ocols, rows))
        np.testing.assert_array_equal(mem.get(dst, (rows, ocols), np.int8, ocols + 3), data[:rows, :ocols])
    assert m.counters["insn_mvin"] == 12 and m.counters["insn_mvout"] == 12


def test_mvin_ids_have_their_own_config(env):
    m, mem, rng = env
    d = m.p.dim
    data = i8(rng, (d, 3 * d))
    mem.put(MEM_BASE, data)
    cfg(m, ref.config_ld(3 * d, idx=0))
    cfg(m, ref.config_ld(d, idx=1))
    cfg(m, ref.config_ld(2 * d, idx=2, scale=2.0))
    m.execute(isa.MVIN, MEM_BASE, operand(0, d, d))
    m.execute(isa.MVIN2, MEM_BASE, operand(d, d, d))
    m.execute(isa.MVIN3, MEM_BASE, operand(2 * d, d, d))
    flat = data.reshape(-1)
    np.testing.assert_array_equal(m.sp[:d], data[:, :d])
    np.testing.assert_array_equal(m.sp[d : 2 * d], flat[: d * d].reshape(d, d))
    by2 = flat[: 2 * d * d].reshape(d, 2 * d)[:, :d]
    np.testing.assert_array_equal(m.sp[2 * d : 3 * d], ref.scale_array(by2, 2.0, -128, 127))


def test_mvin_scale_rounding_and_saturation(env):
    m, mem, rng = env
    d = m.p.dim
    vals = np.array([-128, -3, -1, 1, 3, 5, 127, 100] * d * d, dtype=np.int8)[: d * d].reshape(d, d)
    mem.put(MEM_BASE, vals)
    for scale in (0.5, 1.5, -1.0, 2.0, 1e30, float("nan"), 0.1):
        cfg(m, ref.config_ld(d, scale=scale))
        m.execute(isa.MVIN, MEM_BASE, operand(0, d, d))
        np.testing.assert_array_equal(m.sp[:d], ref.scale_array(vals, scale, -128, 127), err_msg=f"scale {scale}")
    # ties go to even: 1*0.5 -> 0, 3*0.5 -> 2, -3*0.5 -> -2
    cfg(m, ref.config_ld(d, scale=0.5))
    m.execute(isa.MVIN, MEM_BASE, operand(0, d, d))
    assert list(m.sp[:d].reshape(-1)[1:6]) == [-2, 0, 0, 2, 2]


def test_mvin_accumulator_int32_shrink_accumulate_and_zero_writer(env):
    m, mem, rng = env
    d = m.p.dim
    data = rng.integers(-(1 << 31), 1 << 31, (d, d), dtype=np.int64).astype(np.int32)
    mem.put(MEM_BASE, data)
    cfg(m, ref.config_ld(4 * d))
    m.execute(isa.MVIN, MEM_BASE, operand(ACC | 8, d, d))
    np.testing.assert_array_equal(m.acc[8 : 8 + d], data)
    m.execute(isa.MVIN, MEM_BASE, operand(ACC | ACCUMULATE | 8, d, d))
    np.testing.assert_array_equal(m.acc[8 : 8 + d], ref.wrap32(data.astype(np.int64) * 2))
    small = i8(rng, (d, d))
    mem.put(MEM_BASE + 0x1000, small)
    cfg(m, ref.config_ld(d, shrink=True))
    m.execute(isa.MVIN, MEM_BASE + 0x1000, operand(ACC | 8, d - 1, d))
    np.testing.assert_array_equal(m.acc[8 : 8 + d, : d - 1], small[:, : d - 1])
    np.testing.assert_array_equal(m.acc[8 : 8 + d, d - 1], ref.wrap32(data[:, d - 1].astype(np.int64) * 2))
    m.execute(isa.MVIN, 0, operand(ACC | 8, d, 2))  # DRAM address 0: zeros, nothing read
    assert not m.acc[8:10].any() and m.acc[10 : 8 + d, : d - 1].tolist() == small[2:, : d - 1].tolist()


def test_mvout_accumulator_scale_relu_full(env):
    m, mem, rng = env
    d = m.p.dim
    big = np.array([(1 << 24) + 1, -(1 << 31), (1 << 31) - 1, 3, -3, 5, 255, -129] * d, dtype=np.int64)
    data = np.concatenate([big, rng.integers(-5000, 5000, d * d)])[: d * d].reshape(d, d).astype(np.int32)
    m.acc[0:d] = data
    for scale, act in ((1.0, 0), (0.5, 0), (0.5, 1), (1 / 64, 1), (-0.25, 1), (3.0, 0)):
        cfg(m, ref.config_st(d, act=act, scale=scale))
        m.execute(isa.MVOUT, MEM_BASE, operand(ACC, d, d))
        got = mem.get(MEM_BASE, (d, d), np.int8)
        np.testing.assert_array_equal(got, ref.acc_to_int8(data, scale, act == 1), err_msg=f"{scale} {act}")
    cfg(m, ref.config_st(4 * d, act=1, scale=0.5))
    m.execute(isa.MVOUT, MEM_BASE, operand(ACC | FULL, d, d))
    np.testing.assert_array_equal(mem.get(MEM_BASE, (d, d), np.int32), data)  # full width: raw, no act


def test_mvout_max_pooling(env):
    m, mem, rng = env
    d = m.p.dim
    orows, ocols, ch = 5, 5, min(d, 4)
    img = rng.integers(-300, 300, (orows * ocols, d)).astype(np.int32)
    m.acc[0 : orows * ocols] = img
    for stride, size, upad, lpad in ((2, 3, 1, 1), (1, 2, 0, 0), (2, 2, 0, 1)):
        porows = (orows + 2 * upad - size) // stride + 1
        pocols = (ocols + 2 * lpad - size) // stride + 1
        cfg(
            m,
            ref.config_st(
                ch,
                scale=0.5,
                pool_stride=stride,
                pool_size=size,
                out_dim=pocols,
                porows=porows,
                pocols=pocols,
                orows=orows,
                ocols=ocols,
                upad=upad,
                lpad=lpad,
            ),
        )
        m.execute(isa.MVOUT, MEM_BASE, operand(ACC, ch, d))
        scaled = ref.acc_to_int8(img[:, :ch], 0.5, False).reshape(orows, ocols, ch)
        want = ref.maxpool(scaled, stride, size, porows, pocols, upad, lpad)
        got = mem.get(MEM_BASE, (porows * pocols, ch), np.int8).reshape(porows, pocols, ch)
        np.testing.assert_array_equal(got, want, err_msg=f"stride {stride} size {size}")


def test_mvin_pixel_repeats(env):
    m, mem, rng = env
    d = m.p.dim
    w, reps, rows = max(1, d // 4), 3, min(d, 4)
    data = i8(rng, (rows, w))
    mem.put(MEM_BASE, data)
    m.sp[:] = 9
    cfg(m, ref.config_ld(w, pixel_repeats=reps, block_stride=d))
    base = 1  # row 1: copies reaching above row 0 are dropped
    m.execute(isa.MVIN, MEM_BASE, operand(base, w, rows))
    expect = np.full(m.sp.shape, 9, dtype=np.int8)
    for r in range(rows):
        for k in range(reps):
            if base + r - k >= 0 and k * w < d:
                expect[base + r - k, k * w : min(d, (k + 1) * w)] = data[r, : min(w, d - k * w)]
    np.testing.assert_array_equal(m.sp[:16], expect[:16])


def test_mvout_1d(env):
    m, mem, rng = env
    d = m.p.dim
    orows, ocols, out_dim = 3, 5, 7
    img = rng.integers(-100, 100, (orows * ocols, d)).astype(np.int32)
    m.acc[0 : orows * ocols] = img
    cfg(m, ref.config_st(d, pool_size=1, out_dim=out_dim, orows=orows, ocols=ocols))
    m.execute(isa.MVOUT, MEM_BASE, operand(ACC, d, d))
    for n in range(orows * ocols):
        addr = MEM_BASE + ((n // ocols) * out_dim + n % ocols) * d
        np.testing.assert_array_equal(mem.get(addr, (1, d), np.int8)[0], img[n], err_msg=f"pixel {n}")


# ---------------------------------------------------------------- the mesh


def _put_sp(m, row, arr):
    m.sp[row : row + arr.shape[0], : arr.shape[1]] = arr


def test_ws_preload_compute_sizes_garbage_accumulate(env):
    m, mem, rng = env
    d = m.p.dim
    cfg(m, ref.config_ex(dataflow=1))
    for trial in range(10):
        a, b, dd = i8(rng, (d, d)), i8(rng, (d, d)), i8(rng, (d, d))
        _put_sp(m, 0, a), _put_sp(m, d, b), _put_sp(m, 2 * d, dd)
        ar, ac, bc = (int(x) for x in rng.integers(1, d + 1, 3))
        use_d = trial % 2 == 0
        acc_prev = rng.integers(-1000, 1000, (d, d)).astype(np.int32)
        m.acc[0:d] = acc_prev
        accumulate = trial % 3 == 0
        m.execute(isa.PRELOAD, operand(d, bc, ac), operand(ACC | (ACCUMULATE if accumulate else 0), bc, ar))
        m.execute(isa.COMPUTE_PRELOADED, operand(0, ac, ar), operand(2 * d, d, d) if use_d else GARBAGE)
        at = ref.Tile.from_rows(a, ar, ac, d).data
        wt = ref.Tile.from_rows(b, ac, bc, d).data
        res = ref.ws_result(at, wt, dd.astype(np.int64) if use_d else None)[:ar, :bc]
        expect = acc_prev.copy()
        expect[:ar, :bc] = ref.wrap32(expect[:ar, :bc] + res) if accumulate else res
        np.testing.assert_array_equal(m.acc[0:d], expect, err_msg=f"trial {trial}")
    # compute_accumulated keeps the weights; garbage A gives zeros; garbage C writes nothing
    m.execute(isa.PRELOAD, GARBAGE, operand(ACC, d, d))
    m.execute(isa.COMPUTE_ACCUMULATED, operand(0, ac, ar), GARBAGE)
    np.testing.assert_array_equal(m.acc[:ar, :bc], ref.ws_result(at, wt)[:ar, :bc])
    m.execute(isa.PRELOAD, GARBAGE, operand(ACC, d, d))
    m.execute(isa.COMPUTE_PRELOADED, GARBAGE, GARBAGE)
    assert not m.acc[0:d].any()
    snap = m.acc.copy()
    m.execute(isa.PRELOAD, operand(d, d, d), GARBAGE)
    m.execute(isa.COMPUTE_PRELOADED, operand(0, d, d), GARBAGE)
    np.testing.assert_array_equal(m.acc, snap)


def test_ws_c_stride_a_stride_and_scratchpad_output(env):
    m, mem, rng = env
    d = m.p.dim
    a = i8(rng, (2 * d, d))
    b = i8(rng, (d, d))
    _put_sp(m, 0, a), _put_sp(m, 4 * d, b)
    for c_stride in (1, 2, 0):
        m.acc[:] = 7
        cfg(m, ref.config_ex(dataflow=1, c_stride=c_stride, a_stride=2))
        m.execute(isa.PRELOAD, operand(4 * d, d, d), operand(ACC | ACCUMULATE | 16, d, d))
        m.execute(isa.COMPUTE_PRELOADED, operand(0, d, d), GARBAGE)
        res = ref.ws_result(a[0 : 2 * d : 2], b)
        expect = np.full(m.acc.shape, 7, dtype=np.int64)
        for r in range(d):
            expect[16 + r * c_stride] += res[r]
        np.testing.assert_array_equal(m.acc, expect, err_msg=f"c_stride {c_stride}")
    # output to the scratchpad: saturated to int8, ReLU from config_ex
    cfg(m, ref.config_ex(dataflow=1, act=1))
    m.execute(isa.PRELOAD, operand(4 * d, d, d), operand(8 * d, d, d))
    m.execute(isa.COMPUTE_PRELOADED, operand(0, d, d), GARBAGE)
    np.testing.assert_array_equal(m.sp[8 * d : 9 * d], np.maximum(ref.sat(ref.ws_result(a[:d], b), 8), 0))


@pytest.mark.parametrize("which", ["a", "b"])
def test_ws_transposes(env, which):
    m, mem, rng = env
    d = m.p.dim
    a, b = i8(rng, (d, d)), i8(rng, (d, d))
    _put_sp(m, 0, a), _put_sp(m, d, b)
    ar, ac, bc = d - 1, d - 2 if d > 2 else 1, d - 1
    cfg(m, ref.config_ex(dataflow=1, a_t=which == "a", b_t=which == "b"))
    m.execute(isa.PRELOAD, operand(d, bc, ac), operand(ACC, bc, ar))
    m.execute(isa.COMPUTE_PRELOADED, operand(0, ac, ar), GARBAGE)
    at = ref.Tile.from_rows(a, ar, ac, d, transpose=which == "a").data
    wt = ref.Tile.from_rows(b, ac, bc, d, transpose=which == "b").data
    np.testing.assert_array_equal(m.acc[:ar, :bc], ref.ws_result(at, wt)[:ar, :bc])


def test_ws_reads_operands_from_accumulator_with_scale(env):
    m, mem, rng = env
    d = m.p.dim
    src = rng.integers(-600, 600, (d, d)).astype(np.int32)
    m.acc[4 * d : 5 * d] = src
    b = i8(rng, (d, d))
    _put_sp(m, 0, b)
    cfg(m, ref.config_ex(dataflow=1, acc_scale=0.25, act=1))
    m.execute(isa.PRELOAD, operand(0, d, d), operand(ACC, d, d))
    m.execute(isa.COMPUTE_PRELOADED, operand(ACC | 4 * d, d, d), GARBAGE)
    np.testing.assert_array_equal(m.acc[:d], ref.ws_result(ref.acc_to_int8(src, 0.25, True), b))


def test_os_preload_accumulate_shift_and_flush(env):
    m, mem, rng = env
    d = m.p.dim
    a1, b1, a2, b2, dd = (i8(rng, (d, d)) for _ in range(5))
    for i, t in enumerate((a1, b1, a2, b2, dd)):
        _put_sp(m, i * d, t)
    for shift in (0, 1, 3, 7):
        cfg(m, ref.config_ex(dataflow=0, shift=shift))
        m.execute(isa.PRELOAD, operand(4 * d, d, d), GARBAGE)
        m.execute(isa.COMPUTE_PRELOADED, operand(0, d, d), operand(d, d, d))
        m.execute(isa.PRELOAD, GARBAGE, operand(ACC | 2 * d, d, d))
        m.execute(isa.COMPUTE_ACCUMULATED, operand(2 * d, d, d), operand(3 * d, d, d))
        assert not m.acc[2 * d : 3 * d].any()  # results stay in the PEs until shifted out
        m.execute(isa.FLUSH, 0, 0)
        total = dd.astype(np.int64) + ref.ws_result(a1, b1) + ref.ws_result(a2, b2)
        want = np.vectorize(lambda v, s=shift: ref.rne_shift(int(v), s))(total)
        np.testing.assert_array_equal(m.acc[2 * d : 3 * d], ref.sat(want, 20), err_msg=f"shift {shift}")
        m.acc[:] = 0


def test_os_sums_wrap_at_20_bits_and_shift_ties(env):
    """OS sums live in the PEs at the 20-bit mesh output width (PE.scala's MacUnit out_d): a chain past 2^19 wraps."""
    m, mem, rng = env
    d = m.p.dim
    a = np.full((d, d), -128, dtype=np.int8)
    _put_sp(m, 0, a)
    cfg(m, ref.config_ex(dataflow=0, shift=0))
    m.execute(isa.PRELOAD, GARBAGE, operand(ACC, d, d))
    m.execute(isa.COMPUTE_PRELOADED, operand(0, d, d), operand(0, d, d))
    for _ in range(40):  # 41 * d * 2^14 passes 2^19
        m.execute(isa.PRELOAD, GARBAGE, operand(ACC, d, d))
        m.execute(isa.COMPUTE_ACCUMULATED, operand(0, d, d), operand(0, d, d))
    m.execute(isa.FLUSH, 0, 0)
    total = 41 * d * 128 * 128
    assert total >= 1 << 19
    wrapped = (total + (1 << 19)) % (1 << 20) - (1 << 19)
    assert (m.acc[:d] == wrapped).all(), (m.acc[0, 0], wrapped)
    # ties: D = [1, 3, 5, -1, -3] >> 1 -> [0, 2, 2, 0, -2]
    dvals = np.zeros((d, d), dtype=np.int8)
    dvals[0, : min(d, 5)] = [1, 3, 5, -1, -3][: min(d, 5)]
    _put_sp(m, d, dvals)
    cfg(m, ref.config_ex(dataflow=0, shift=1))
    m.execute(isa.PRELOAD, operand(d, d, d), operand(ACC | d, d, d))
    m.execute(isa.COMPUTE_PRELOADED, GARBAGE, GARBAGE)
    m.execute(isa.FLUSH, 0, 0)
    assert list(m.acc[d, : min(d, 5)]) == [0, 2, 2, 0, -2][: min(d, 5)]


# ---------------------------------------------------------------- loop_ws


def _loop_ws(m, mem, rng, ti, tj, tk, pad, bias, full_c, a_t=False, b_t=False, scale=1.0, act=0):
    d = m.p.dim
    M, N, KK = ti * d - pad[0], tj * d - pad[1], tk * d - pad[2]
    A, B = i8(rng, (M, KK)), i8(rng, (KK, N))
    D = rng.integers(-3000, 3000, (M, N)).astype(np.int32)
    As = (A.T if a_t else A).copy()
    Bs = (B.T if b_t else B).copy()
    aA, aB, aD, aC = MEM_BASE, MEM_BASE + 0x20000, MEM_BASE + 0x40000, MEM_BASE + 0x80000
    mem.put(aA, As), mem.put(aB, Bs), mem.put(aD, D)
    cfg(m, ref.config_ex(dataflow=1, a_t=a_t, b_t=b_t))
    cfg(m, ref.config_st(N * (4 if full_c else 1), act=act, scale=scale))
    cfg(m, ref.config_ld(As.shape[1], idx=0, block_stride=d))
    cfg(m, ref.config_ld(Bs.shape[1], idx=1, block_stride=d))
    cfg(m, ref.config_ld(N * 4, idx=2, block_stride=d))
    m.execute(isa.LOOP_WS_CONFIG_BOUNDS, pad[0] | pad[1] << 16 | pad[2] << 32, ti | tj << 16 | tk << 32)
    m.execute(isa.LOOP_WS_CONFIG_ADDRS_AB, aA, aB)
    m.execute(isa.LOOP_WS_CONFIG_ADDRS_DC, aD if bias else 0, aC)
    m.execute(isa.LOOP_WS_CONFIG_STRIDES_AB, As.shape[1], Bs.shape[1])
    m.execute(isa.LOOP_WS_CONFIG_STRIDES_DC, N, N)
    m.execute(isa.LOOP_WS, 1 | int(full_c) << 1 if bias else int(full_c) << 1, int(a_t) | int(b_t) << 1)
    exact = A.astype(np.int64) @ B.astype(np.int64) + (D if bias else 0)
    if full_c:
        got = mem.get(aC, (M, N), np.int32)
        np.testing.assert_array_equal(got, ref.wrap32(exact))
    else:
        got = mem.get(aC, (M, N), np.int8)
        np.testing.assert_array_equal(got, ref.acc_to_int8(exact, scale, act == 1))
    return A, B


def test_loop_ws_bias_padding_full_c(env):
    m, mem, rng = env
    d = m.p.dim
    _loop_ws(m, mem, rng, 3, 2, 3, (1, d - 1, 2), bias=True, full_c=True)
    _loop_ws(m, mem, rng, 2, 3, 2, (0, 0, 0), bias=False, full_c=False, scale=1 / 32, act=1)


@pytest.mark.parametrize("which", ["a", "b"])
def test_loop_ws_transposes(env, which):
    m, mem, rng = env
    d = m.p.dim
    _loop_ws(m, mem, rng, 2, 2, 3, (1, 2 % d, 3 % d), bias=True, full_c=True, a_t=which == "a", b_t=which == "b")


def test_loop_ws_macs_and_double_buffering(env):
    m, mem, rng = env
    d = m.p.dim
    before = m.counters["gemmini_macs"]
    A, B = _loop_ws(m, mem, rng, 2, 1, 2, (1, 0, 3 % d), bias=False, full_c=True)
    assert m.counters["gemmini_macs"] - before == A.shape[0] * A.shape[1] * B.shape[1]
    half = m.p.sp_rows // 2
    # loop 1 placed A at the bottom of the first half; loop 2 at the bottom of the second
    first_a = m.sp[:d].copy()
    np.testing.assert_array_equal(first_a[:d, :d], A[:d, :d])
    A2, _ = _loop_ws(m, mem, rng, 2, 1, 2, (1, 0, 3 % d), bias=False, full_c=True)
    np.testing.assert_array_equal(m.sp[half : half + d, :d], A2[:d, :d])
    np.testing.assert_array_equal(m.sp[:d], first_a)


# ---------------------------------------------------------------- counters


def test_counter_instruction(env):
    m, mem, rng = env
    d = m.p.dim

    def ctr(rs1):
        return m.execute(isa.COUNTER, rs1, 0)

    ctr((45 << 12) | (0 << 4) | 8)  # counter 0: RDMA read requests
    ctr((4 << 12) | (1 << 4) | 8 | (1 << 31))  # counter 1: external RDMA bytes received
    mem.put(MEM_BASE, i8(rng, (d, d)))
    cfg(m, ref.config_ld(d))
    m.execute(isa.MVIN, MEM_BASE, operand(0, d, 3))
    assert ctr(0 << 4) == 3
    assert ctr(1 << 4) == 3 * d
    assert ctr((0 << 4) | 4) == 3  # take a snapshot (returns the live value)
    m.execute(isa.MVIN, MEM_BASE, operand(0, d, 2))
    assert ctr(0 << 4) == 3  # snapshot held
    assert ctr((0 << 4) | 2) == 3  # clear it
    assert ctr(0 << 4) == 5
    ctr(1)  # reset all
    assert ctr(0 << 4) == 0 and ctr(1 << 4) == 0
    m.execute(isa.MVIN, MEM_BASE, operand(0, d, 1))
    assert ctr(0 << 4) == 1  # the config survived the reset


# ---------------------------------------------------------------- errors


def test_errors_name_instruction_and_field(env):
    m, mem, rng = env
    p, d = m.p, m.p.dim
    cases = [
        (lambda: m.execute(isa.MVIN, MEM_BASE, operand(0, d, d + 1)), rf"mvin: rows = {d + 1} exceeds DIM = {d}"),
        (lambda: m.execute(isa.MVIN, MEM_BASE, operand(0, d * p.max_block_len + 1, 1)), "MAX_BLOCK_LEN"),
        (lambda: m.execute(isa.MVIN, MEM_BASE, operand(ACC, d * p.max_block_len_acc + 1, 1)), "MAX_BLOCK_LEN_ACC"),
        (lambda: m.execute(isa.MVIN, MEM_BASE, operand(p.sp_rows - 1, d, 2)), "outside the scratchpad"),
        (lambda: m.execute(isa.MVOUT, MEM_BASE, operand(ACC | p.acc_rows, d, 1)), "outside the accumulator"),
        (lambda: m.execute(isa.MVOUT, MEM_BASE, operand(ACC | FULL, d + 1, 1)), "full-width accumulator mvout"),
        (lambda: m.execute(isa.MVOUT, MEM_BASE, operand(0, d, d + 1)), rf"mvout: rows = {d + 1}"),
        (lambda: m.execute(isa.PRELOAD, operand(0, d, d + 1), GARBAGE), rf"preload: rows = {d + 1}"),
        (lambda: m.execute(isa.COMPUTE_PRELOADED, operand(0, d + 1, d), GARBAGE), rf"A cols = {d + 1}"),
        (lambda: m.execute(99, 0, 0), "unknown funct 99"),
        (lambda: cfg(m, ref.config_ex(act=2)), r"config_ex: activation = 2"),
        (lambda: cfg(m, ref.config_st(0, act=3)), r"config_st: activation = 3"),
        (lambda: cfg(m, ref.config_ex(dataflow=1, a_t=True, b_t=True)), "two transposers"),
        (lambda: m.execute(isa.MVIN, MEM_BASE - 64, operand(0, d, 1)), "unmapped"),
    ]
    for fn, pat in cases:
        with pytest.raises(GemminiIllegal, match=pat):
            fn()


def test_dataflow_and_loop_conv_availability():
    from dataclasses import replace

    p = gemmini_params("gemmini-dim4")
    mem = ref.FlatMemory(4096)
    m = GemminiModel(replace(p, dataflows=("WS",), loop_conv=False), mem)
    with pytest.raises(GemminiIllegal, match=r"config_ex: dataflow = OS"):
        cfg(m, ref.config_ex(dataflow=0))
    for f in range(isa.LOOP_CONV_WS, isa.LOOP_CONV_WS_CONFIG_6 + 1):
        with pytest.raises(GemminiIllegal, match=rf"{isa.FUNCT_NAMES[f]}: this config has no loop_conv_ws"):
            m.execute(f, 0, 0)


# ---------------------------------------------------------------- slow sweep


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS)
def test_random_loop_ws_sweep(config):
    p = gemmini_params(config)
    rng = np.random.default_rng(7)
    for _ in range(25):
        m = GemminiModel(p, ref.FlatMemory(MEM_SIZE, MEM_BASE))
        d = p.dim
        ti, tj, tk = (int(x) for x in rng.integers(1, 5, 3))
        pad = tuple(int(x) for x in rng.integers(0, d, 3))
        t = int(rng.integers(0, 3))
        _loop_ws(
            m,
            m.mem,
            rng,
            ti,
            tj,
            tk,
            pad,
            bias=bool(rng.integers(0, 2)),
            full_c=bool(rng.integers(0, 2)),
            a_t=t == 1,
            b_t=t == 2,
            scale=float(rng.choice([1.0, 0.5, 1 / 16])),
            act=int(rng.integers(0, 2)),
        )


def test_os_c_stride_follows_the_shift_out_order(env):
    m, mem, rng = env
    d = m.p.dim
    a, b = i8(rng, (d, d)), i8(rng, (d, d))
    _put_sp(m, 0, a), _put_sp(m, d, b)
    cfg(m, ref.config_ex(dataflow=0, c_stride=0))
    m.execute(isa.PRELOAD, GARBAGE, operand(ACC | ACCUMULATE | 8, d, d))
    m.execute(isa.COMPUTE_PRELOADED, operand(0, d, d), operand(d, d, d))
    m.execute(isa.FLUSH, 0, 0)
    # stride 0: every row lands on C + DIM-1 and, with the accumulate bit, they all add up
    np.testing.assert_array_equal(m.acc[8 + d - 1], ref.ws_result(a, b).sum(axis=0))
    cfg(m, ref.config_ex(dataflow=0, c_stride=2))
    m.execute(isa.PRELOAD, GARBAGE, operand(ACC | 8, d, d))
    m.execute(isa.COMPUTE_PRELOADED, operand(0, d, d), operand(d, d, d))
    with pytest.raises(GemminiIllegal, match="C stride = 2"):
        m.execute(isa.FLUSH, 0, 0)


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS)
def test_256_cubed_matmul_through_loop_ws_is_fast(config):
    """256x256x256 int8 with an int32 bias, tiled through loop_ws the way gemmini.h's outer loop does."""
    import time

    p = gemmini_params(config)
    d, n = p.dim, 256
    mem = ref.FlatMemory(1 << 21, MEM_BASE)
    m = GemminiModel(p, mem)
    rng = np.random.default_rng(3)
    a, b = i8(rng, (n, n)), i8(rng, (n, n))
    bias = rng.integers(-1000, 1000, (n, n)).astype(np.int32)
    aa, ab, ad, ac = MEM_BASE, MEM_BASE + 0x10000, MEM_BASE + 0x20000, MEM_BASE + 0x60000
    mem.put(aa, a), mem.put(ab, b), mem.put(ad, bias)
    t0 = time.perf_counter()
    cfg(m, ref.config_ex(dataflow=1))
    cfg(m, ref.config_st(n * 4))
    for idx, stride in ((0, n), (1, n), (2, n * 4)):
        cfg(m, ref.config_ld(stride, idx=idx, block_stride=d))
    ti, tj, tk = 4, 8, 256 // d // (2 if d == 4 else 1)
    tiles = n // d
    for i0 in range(0, tiles, ti):
        for j0 in range(0, tiles, tj):
            for k0 in range(0, tiles, tk):
                m.execute(isa.LOOP_WS_CONFIG_BOUNDS, 0, ti | tj << 16 | tk << 32)
                m.execute(isa.LOOP_WS_CONFIG_ADDRS_AB, aa + (i0 * n + k0) * d, ab + (k0 * n + j0) * d)
                dp = ad + (i0 * n + j0) * d * 4 if k0 == 0 else 0
                cp = ac + (i0 * n + j0) * d * 4 if k0 + tk >= tiles else 0
                m.execute(isa.LOOP_WS_CONFIG_ADDRS_DC, dp, cp)
                m.execute(isa.LOOP_WS_CONFIG_STRIDES_AB, n, n)
                m.execute(isa.LOOP_WS_CONFIG_STRIDES_DC, n, n)
                m.execute(isa.LOOP_WS, 1 | 2, 0)  # accumulate onto the bias / earlier K chunks, full C
    elapsed = time.perf_counter() - t0
    got = mem.get(ac, (n, n), np.int32)
    np.testing.assert_array_equal(got, a.astype(np.int64) @ b.astype(np.int64) + bias)
    assert m.counters["gemmini_macs"] == n**3
    assert elapsed < 30, f"{config}: {elapsed:.1f} s"


# ---------------------------------------------------------------- array drains, store and load corners


def _os_tile(m, rng, a_row, b_row, d_row=None):
    d = m.p.dim
    a, b = i8(rng, (d, d)), i8(rng, (d, d))
    _put_sp(m, a_row, a), _put_sp(m, b_row, b)
    dd = None
    if d_row is not None:
        dd = i8(rng, (d, d))
        _put_sp(m, d_row, dd)
    return a, b, dd


def test_os_result_lands_before_a_mvout_without_flush(env):
    """ExecuteController flushes the array itself when its queue runs dry: a mvout right after the last compute sees C."""
    m, mem, rng = env
    d = m.p.dim
    a, b, dd = _os_tile(m, rng, 0, d, 2 * d)
    cfg(m, ref.config_ex(dataflow=0, shift=2))
    m.execute(isa.PRELOAD, operand(2 * d, d, d), operand(ACC | 5 * d, d, d))
    m.execute(isa.COMPUTE_PRELOADED, operand(0, d, d), operand(d, d, d))
    cfg(m, ref.config_st(4 * d))
    m.execute(isa.MVOUT, MEM_BASE, operand(ACC | FULL | 5 * d, d, d))
    want = ref.os_out(dd.astype(np.int64) + ref.ws_result(a, b), 2)
    np.testing.assert_array_equal(mem.get(MEM_BASE, (d, d), np.int32), want)


def test_os_pending_result_keeps_the_config_of_its_computes(env):
    """A config_ex waits for the array to drain: the held-over result uses the shift and activation it ran with."""
    m, mem, rng = env
    d = m.p.dim
    a, b, dd = _os_tile(m, rng, 0, d, 2 * d)
    cfg(m, ref.config_ex(dataflow=0, shift=1, act=0))
    m.execute(isa.PRELOAD, operand(2 * d, d, d), operand(3 * d, d, d))  # C into the scratchpad: int8, activation
    m.execute(isa.COMPUTE_PRELOADED, operand(0, d, d), operand(d, d, d))
    cfg(m, ref.config_ex(dataflow=0, shift=6, act=1))
    want = ref.os_out(dd.astype(np.int64) + ref.ws_result(a, b), 1)
    np.testing.assert_array_equal(m.sp[3 * d : 4 * d], np.clip(want, -128, 127))
    # the next result uses the new config
    m.execute(isa.PRELOAD, operand(2 * d, d, d), operand(4 * d, d, d))
    m.execute(isa.COMPUTE_PRELOADED, operand(0, d, d), operand(d, d, d))
    m.execute(isa.PRELOAD, GARBAGE, GARBAGE)
    m.execute(isa.COMPUTE_PRELOADED, GARBAGE, GARBAGE)
    want2 = ref.os_out(dd.astype(np.int64) + ref.ws_result(a, b), 6)
    np.testing.assert_array_equal(m.sp[4 * d : 5 * d], np.maximum(np.clip(want2, -128, 127), 0))


def test_os_chain_keeps_summing_across_loads(env):
    """Preloads without a C leave nothing in flight: mvins between a chain's computes do not drain it."""
    m, mem, rng = env
    d = m.p.dim
    a1, b1, _ = _os_tile(m, rng, 0, d)
    a2, b2 = i8(rng, (d, d)), i8(rng, (d, d))
    mem.put(MEM_BASE, a2), mem.put(MEM_BASE + d * d, b2)
    cfg(m, ref.config_ex(dataflow=0, shift=0))
    cfg(m, ref.config_ld(d))
    m.execute(isa.PRELOAD, GARBAGE, GARBAGE)
    m.execute(isa.COMPUTE_PRELOADED, operand(0, d, d), operand(d, d, d))
    m.execute(isa.MVIN, MEM_BASE, operand(2 * d, d, d))
    m.execute(isa.MVIN, MEM_BASE + d * d, operand(3 * d, d, d))
    m.execute(isa.PRELOAD, GARBAGE, operand(ACC | ACCUMULATE | 0, d, d))
    m.execute(isa.COMPUTE_ACCUMULATED, operand(2 * d, d, d), operand(3 * d, d, d))
    assert not m.acc[:d].any()  # still in the array
    m.execute(isa.FLUSH, 0, 0)
    np.testing.assert_array_equal(m.acc[:d], ref.os_out(ref.ws_result(a1, b1) + ref.ws_result(a2, b2), 0))


def test_flush_is_the_tlb_flush_and_keeps_a_preload(env):
    m, mem, rng = env
    d = m.p.dim
    a, w, _ = _os_tile(m, rng, 0, d)
    cfg(m, ref.config_ex(dataflow=1))
    m.execute(isa.PRELOAD, operand(d, d, d), operand(ACC | 2 * d, d, d))
    m.execute(isa.FLUSH, 0, 0)
    m.execute(isa.COMPUTE_PRELOADED, operand(0, d, d), GARBAGE)
    np.testing.assert_array_equal(m.acc[2 * d : 3 * d], ref.ws_result(a, w))


def test_pooled_mvout_takes_its_size_from_config_st(env):
    """StoreController's pooling walks porows x pocols x window from config_st; the rows field is not used."""
    m, mem, rng = env
    d = m.p.dim
    orows, ocols, ch = 4, 6, min(d, 3)
    img = rng.integers(-300, 300, (orows * ocols, d)).astype(np.int32)
    m.acc[0 : orows * ocols] = img
    porows, pocols = (orows - 2) // 2 + 1, (ocols - 2) // 2 + 1
    want = ref.maxpool(ref.acc_to_int8(img[:, :ch], 0.25, True).reshape(orows, ocols, ch), 2, 2, porows, pocols, 0, 0)
    for rows in (0, d, 1):
        mem.put(MEM_BASE, np.zeros(porows * pocols * ch, dtype=np.int8))
        cfg(
            m,
            ref.config_st(
                ch,
                act=1,
                scale=0.25,
                pool_stride=2,
                pool_size=2,
                out_dim=pocols,
                porows=porows,
                pocols=pocols,
                orows=orows,
                ocols=ocols,
            ),
        )
        m.execute(isa.MVOUT, MEM_BASE, operand(ACC, ch, rows))
        got = mem.get(MEM_BASE, (porows * pocols, ch), np.int8).reshape(porows, pocols, ch)
        np.testing.assert_array_equal(got, want, err_msg=f"rows {rows}")
    # without pooling, rows = 0 still moves nothing
    cfg(m, ref.config_st(ch))
    mem.put(MEM_BASE, np.full(d, 7, dtype=np.int8))
    m.execute(isa.MVOUT, MEM_BASE, operand(ACC, ch, 0))
    assert (mem.get(MEM_BASE, (1, d), np.int8) == 7).all()


def test_config_st_scale_all_ones_keeps_the_scale(env):
    """StoreController latches config_st's scale only when its bits are not all ones (ACC_SCALE_NO_CHANGE)."""
    m, mem, rng = env
    d = m.p.dim
    data = rng.integers(-2000, 2000, (d, d)).astype(np.int32)
    m.acc[:d] = data
    cfg(m, ref.config_st(d, scale=0.125))
    m.execute(isa.CONFIG, isa.CONFIG_ST | 1 << 2, (0xFFFF_FFFF << 32) | d)  # ReLU, stride d, "no change"
    m.execute(isa.MVOUT, MEM_BASE, operand(ACC, d, d))
    np.testing.assert_array_equal(mem.get(MEM_BASE, (d, d), np.int8), ref.acc_to_int8(data, 0.125, True))
    cfg(m, ref.config_st(d, scale=2.0))  # any other value is taken
    m.execute(isa.MVOUT, MEM_BASE, operand(ACC, d, d))
    np.testing.assert_array_equal(mem.get(MEM_BASE, (d, d), np.int8), ref.acc_to_int8(data, 2.0, False))


def test_shrunk_accumulator_mvin_goes_through_the_mvin_scale(env):
    """Scratchpad.scala: int8 accumulator mvins (is_acc && !has_acc_bitwidth) use the int8 mvin scale unit;
    int32 accumulator mvins have no scaler in the default Gemmini."""
    m, mem, rng = env
    d = m.p.dim
    small = i8(rng, (d, d))
    mem.put(MEM_BASE, small)
    for scale in (0.5, 3.0, -1.0, 0.3):
        cfg(m, ref.config_ld(d, scale=scale, shrink=True))
        m.execute(isa.MVIN, MEM_BASE, operand(ACC | 2 * d, d, d))
        np.testing.assert_array_equal(m.acc[2 * d : 3 * d], ref.mvin_int8_scaled(small, scale), err_msg=f"{scale}")
    base = m.acc[2 * d : 3 * d].astype(np.int64)
    cfg(m, ref.config_ld(d, scale=0.5, shrink=True))
    m.execute(isa.MVIN, MEM_BASE, operand(ACC | ACCUMULATE | 2 * d, d, d))
    np.testing.assert_array_equal(m.acc[2 * d : 3 * d], base + ref.mvin_int8_scaled(small, 0.5))
    wide = rng.integers(-(1 << 20), 1 << 20, (d, d)).astype(np.int32)
    mem.put(MEM_BASE + 0x1000, wide)
    cfg(m, ref.config_ld(4 * d, scale=0.5))
    m.execute(isa.MVIN, MEM_BASE + 0x1000, operand(ACC | 4 * d, d, d))
    np.testing.assert_array_equal(m.acc[4 * d : 5 * d], wide)


def test_os_read_after_write_sees_the_previous_result(env):
    """A compute or preload that reads rows a pending OS result will write sees that result (Gemmini's ROB holds
    it until the array, with nothing else to run, flushes): repeated C = A x I + I on the same rows grows by I each
    time, and a preload's D read from the last C sees it too."""
    m, mem, rng = env
    d = m.p.dim
    eye = np.eye(d, dtype=np.int8)
    x = rng.integers(-8, 8, (d, d), dtype=np.int8)
    _put_sp(m, 0, eye)  # I (the D of each preload)
    _put_sp(m, d, eye)  # I (B)
    _put_sp(m, 2 * d, x)  # A, read and written by every step
    cfg(m, ref.config_ex(dataflow=0))
    steps = 5
    for _ in range(steps):
        m.execute(isa.PRELOAD, operand(0, d, d), operand(2 * d, d, d))
        m.execute(isa.COMPUTE_PRELOADED, operand(2 * d, d, d), operand(d, d, d))
    # D read from the row block the last step writes: it must see that step's result.
    m.execute(isa.PRELOAD, operand(2 * d, d, d), operand(3 * d, d, d))
    m.execute(isa.COMPUTE_PRELOADED, GARBAGE, GARBAGE)
    cfg(m, ref.config_st(d))
    m.execute(isa.MVOUT, MEM_BASE, operand(3 * d, d, d))
    want = x.astype(np.int64) + steps * np.eye(d, dtype=np.int64)
    np.testing.assert_array_equal(m.sp[2 * d : 3 * d], want)
    np.testing.assert_array_equal(mem.get(MEM_BASE, (d, d), np.int8), want)


def test_strides_start_at_one_row(env):
    """Gemmini's RTL leaves the DRAM strides unset at reset; like Gemmini's Spike model ours start at DIM bytes,
    so a mvin/mvout of a dense DIM x DIM int8 matrix needs no config first."""
    m, mem, rng = env
    d = m.p.dim
    x = i8(rng, (d, d))
    mem.put(MEM_BASE, x)
    m.execute(isa.MVIN, MEM_BASE, operand(7, d, d))
    np.testing.assert_array_equal(m.sp[7 : 7 + d], x)
    m.execute(isa.MVOUT, MEM_BASE + 0x1000, operand(7, d, d))
    np.testing.assert_array_equal(mem.get(MEM_BASE + 0x1000, (d, d), np.int8), x)
