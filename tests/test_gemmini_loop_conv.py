"""loop_conv_ws: the unrolled command stream, and convolutions end to end through GemminiModel.

The end-to-end tests tile a convolution into loop_conv_ws instructions the way Gemmini's software does
(our own driver below) and compare the int8 output with an independent numpy convolution.
"""

from __future__ import annotations

import struct
import time
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from sim.gemmini import isa
from sim.gemmini.loop_conv import LoopConv
from sim.gemmini.params import gemmini_params

# The shipped configs have loop_conv = false until the RTL implements it; the model's unroller is tested on them
# with it turned on.
DIM4 = replace(gemmini_params("gemmini-dim4"), loop_conv=True)
DIM16 = replace(gemmini_params("gemmini-dim16"), loop_conv=True)


def _illegal():
    from sim.gemmini.model import GemminiIllegal

    return GemminiIllegal


# ------------------------------------------------------------------ register packing (as gemmini.h's macro)


def conv_regs(**f: int) -> dict[int, tuple[int, int]]:
    g = f.get
    return {
        16: (
            g("out_channels", 0) << 48 | g("in_channels", 0) << 32 | g("in_dim", 0) << 16 | g("batch_size", 0),
            g("padding", 0) << 48 | g("stride", 0) << 32 | g("pool_out_dim", 0) << 16 | g("out_dim", 0),
        ),
        17: (
            g("kernel_dim", 0) << 48 | g("pool_size", 0) << 32 | g("pool_stride", 0) << 16 | g("pool_padding", 0),
            g("batches", 0) << 48 | g("porows", 0) << 32 | g("pocols", 0) << 16 | g("pochs", 0),
        ),
        18: (
            g("krows", 0) << 48 | g("kcols", 0) << 32 | g("kchs", 0) << 16 | g("lpad", 0),
            g("rpad", 0) << 48 | g("upad", 0) << 32 | g("dpad", 0) << 16 | g("plpad", 0),
        ),
        19: (
            g("orows", 0) << 48 | g("prpad", 0) << 32 | g("pupad", 0) << 16 | g("pdpad", 0),
            g("kernel_dilation", 0) << 16 | g("ocols", 0),
        ),
        20: (g("weights", 0), g("output", 0)),
        21: (g("bias", 0), g("input", 0)),
    }


def start_regs(
    no_bias=False, wrot180=False, pixels=0, no_pool=True, downsample=False, input_dilated=False, act=0, dw=False
) -> tuple[int, int]:
    rs1 = pixels << 8 | int(dw) << 6 | int(wrot180) << 1 | int(no_bias)
    rs2 = act << 3 | int(input_dilated) << 2 | int(downsample) << 1 | int(no_pool)
    return rs1, rs2


def simple(**over: int) -> dict[str, int]:
    """A 1x3x8x8 -> 5 channel, 3x3, pad 1 conv as one loop."""
    f = dict(
        batch_size=1,
        in_dim=8,
        in_channels=3,
        out_channels=5,
        out_dim=8,
        pool_out_dim=8,
        stride=1,
        padding=1,
        kernel_dim=3,
        pool_size=1,
        pool_stride=1,
        batches=1,
        porows=8,
        pocols=8,
        pochs=5,
        krows=3,
        kcols=3,
        kchs=3,
        lpad=1,
        rpad=1,
        upad=1,
        dpad=1,
        orows=8,
        ocols=8,
        kernel_dilation=1,
        weights=0x1000,
        output=0x2000,
        bias=0x3000,
        input=0x4000,
    )
    f.update(over)
    return f


def stream(fields: dict[str, int], params=DIM4, lc: LoopConv | None = None, **start) -> list[tuple[int, int, int]]:
    lc = lc or LoopConv()
    for funct, (a, b) in conv_regs(**fields).items():
        lc.configure(funct, a, b)
    return list(lc.commands(*start_regs(**start), params))


# ------------------------------------------------------------------ command stream


def test_stream_counts_and_kinds():
    cmds = stream(simple())
    kinds = Counter(c[0] for c in cmds)
    # per (och block, krow, kcol, kch block): 8 orows x 2 ocol blocks of 4 -> 16 preload/compute pairs
    pairs = 2 * 3 * 3 * 1 * 8 * 2
    assert kinds[isa.PRELOAD] == pairs
    assert kinds[isa.COMPUTE_PRELOADED] == 2 * 3 * 3  # one weight load per (och, krow, kcol, kch)
    assert kinds[isa.COMPUTE_ACCUMULATED] == pairs - 18
    assert kinds[isa.MVIN3] == 8 * 2  # bias: per pixel row block, all 5 channels in one (2-block) mvin3
    assert kinds[isa.MVIN2] == 9  # weights: 5 out channels in one block mvin per (krow, kcol)
    assert kinds[isa.MVOUT] == 8 * 2 * 2
    # input: 10 rows x (1 pad + 2 blocks + 1 pad) column pieces
    assert kinds[isa.MVIN] == 10 * 4
    configs = [c for c in cmds if c[0] == isa.CONFIG]
    assert [c[1] & 3 for c in configs] == [isa.CONFIG_LD] * 3
    assert sorted((c[1] >> 3) & 3 for c in configs) == [0, 1, 2]


def test_local_addresses_stay_in_the_loops_half():
    lc = LoopConv()
    half_sp, half_acc = DIM4.sp_rows // 2, DIM4.acc_rows // 2
    for loop in range(4):
        cmds = stream(simple(), lc=lc)
        slot = loop % 2
        for funct, _rs1, rs2 in cmds:
            if funct in (isa.MVIN, isa.MVIN2):
                row = rs2 & 0xFFFF_FFFF
                assert slot * half_sp <= row < (slot + 1) * half_sp
            if funct in (isa.MVIN3, isa.MVOUT):
                addr = rs2 & 0xFFFF_FFFF
                assert addr >> 31 == 1
                assert slot * half_acc <= (addr & 0x3FF_FFFF) < (slot + 1) * half_acc
            if funct == isa.PRELOAD:
                assert (rs2 >> 30) & 3 == 3  # accumulate into the accumulator
            if funct == isa.MVIN:
                assert (rs2 >> 48) <= DIM4.dim


def test_input_padding_rows_are_zero_moves():
    cmds = stream(simple())
    mvins = [c for c in cmds if c[0] == isa.MVIN]
    zeros = [c for c in mvins if c[1] == 0]
    # padding: 2 full rows (1+8+1 pixels) + 8 rows x 2 edge pixels = 36 pixels of zeros
    assert sum(c[2] >> 48 for c in zeros) == 36
    assert sum(c[2] >> 48 for c in mvins) == 10 * 10


def test_output_zero_keeps_partial_sums_and_acc_half():
    lc = LoopConv()
    first = stream(simple(output=0), lc=lc)
    assert not any(c[0] == isa.MVOUT for c in first)
    second = stream(simple(bias=0), lc=lc)  # continues the same accumulator half, adds no bias
    assert not any(c[0] == isa.MVIN3 for c in second)
    acc1 = {c[2] & 0x3FF_FFFF for c in first if c[0] == isa.PRELOAD}
    acc2 = {c[2] & 0x3FF_FFFF for c in second if c[0] == isa.PRELOAD}
    assert acc1 == acc2
    third = stream(simple(), lc=lc)
    acc3 = {c[2] & 0x3FF_FFFF for c in third if c[0] == isa.PRELOAD}
    assert min(acc3) == DIM4.acc_rows // 2


@pytest.mark.parametrize(
    "fields,start,word",
    [
        (simple(kchs=0), {}, "kchs"),
        (simple(), {"act": 2}, "activation"),
        (simple(orows=16, ocols=16, porows=16, pocols=16), {}, "accumulator"),
        (simple(kernel_dilation=2), {"input_dilated": True}, "input_dilated"),
        (simple(), {"downsample": True}, "downsample"),
        (simple(in_channels=8, kchs=8, pochs=5), {"pixels": 2}, "max_pixels_per_row"),
        (simple(pool_size=0), {"no_pool": False}, "pool"),
        (simple(upad=9, dpad=9), {}, "padding"),
    ],
)
def test_refused_fields_are_named(fields, start, word):
    with pytest.raises(_illegal(), match=word):
        stream(fields, **start)


def test_scratchpad_overflow_is_refused():
    with pytest.raises(_illegal(), match="scratchpad"):
        stream(
            simple(in_dim=60, orows=60, ocols=60, porows=60, pocols=60, out_dim=60, kchs=3, pochs=1, batches=1),
            params=DIM4,
        )


def test_config_without_loop_conv_is_refused():
    from dataclasses import replace

    with pytest.raises(_illegal(), match="loop_conv"):
        stream(simple(), params=replace(DIM4, loop_conv=False))


# ------------------------------------------------------------------ end to end through the model


class FakeMemory:
    """A bytearray as main memory from BASE; address 0 is never handed out (it means zeros/skip)."""

    BASE = 0x8000_0000

    def __init__(self, size: int = 1 << 20):
        self.buf = bytearray(size)
        self.top = 64

    def alloc(self, data: bytes | int) -> int:
        n = data if isinstance(data, int) else len(data)
        addr = self.BASE + self.top
        if not isinstance(data, int):
            self.buf[self.top : self.top + n] = data
        self.top += (n + 63) // 64 * 64 + 64
        return addr

    def read(self, addr: int, size: int) -> bytes:
        off = addr - self.BASE
        assert 0 <= off and off + size <= len(self.buf), f"read outside fake memory at 0x{addr:x}"
        return bytes(self.buf[off : off + size])

    def write(self, addr: int, data: bytes) -> None:
        off = addr - self.BASE
        assert 0 <= off and off + len(data) <= len(self.buf), f"write outside fake memory at 0x{addr:x}"
        self.buf[off : off + len(data)] = data

    def array(self, addr: int, shape, dtype) -> np.ndarray:
        n = int(np.prod(shape)) * np.dtype(dtype).itemsize
        return np.frombuffer(self.read(addr, n), dtype=dtype).reshape(shape)


def f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def reference_conv(x, w, bias, stride, padding, dilation=1, scale=1.0, relu=False, pool=None):
    """int8 NHWC x, w[kh][kw][cin][cout], int32 bias -> int8 NHWC (Gemmini's scale/saturate, zero-padded max pool)."""
    n, h, _, cin = x.shape
    k = w.shape[0]
    dk = (k - 1) * dilation + 1
    od = (h + 2 * padding - dk) // stride + 1
    xp = np.zeros((n, h + 2 * padding, h + 2 * padding, cin), dtype=np.int64)
    xp[:, padding : padding + h, padding : padding + h] = x
    acc = np.zeros((n, od, od, w.shape[3]), dtype=np.int64)
    for kr in range(k):
        for kc in range(k):
            r0, c0 = kr * dilation, kc * dilation
            patch = xp[:, r0 : r0 + stride * (od - 1) + 1 : stride, c0 : c0 + stride * (od - 1) + 1 : stride]
            acc += patch @ w[kr, kc].astype(np.int64)
    if bias is not None:
        acc += bias.astype(np.int64)
    y = np.rint(acc.astype(np.float32) * np.float32(scale)).astype(np.int64)
    y = np.clip(y, -128, 127)
    if relu:
        y = np.maximum(y, 0)
    if pool is not None:
        ps, pst, pp = pool
        pod = (od + 2 * pp - ps) // pst + 1
        yp = np.zeros((n, od + 2 * pp, od + 2 * pp, y.shape[3]), dtype=np.int64)  # padding counts as 0
        yp[:, pp : pp + od, pp : pp + od] = y
        out = np.full((n, pod, pod, y.shape[3]), -128, dtype=np.int64)
        for r in range(ps):
            for c in range(ps):
                out = np.maximum(out, yp[:, r : r + pst * (pod - 1) + 1 : pst, c : c + pst * (pod - 1) + 1 : pst])
        y = out
    return y.astype(np.int8)


def gemmini_conv(
    model,
    mem,
    x,
    w,
    bias,
    stride,
    padding,
    *,
    dilation=1,
    scale=1.0,
    relu=False,
    pool=None,
    tile=(1, 4, 4, 8, 8),
    pixels=0,
    configure=True,
):
    """Tile a conv into loop_conv_ws instructions, as a software library would; returns the int8 NHWC output."""
    n, h, _, cin = x.shape
    k, cout = w.shape[0], w.shape[3]
    dk = (k - 1) * dilation + 1
    od = (h + 2 * padding - dk) // stride + 1
    ps, pst, pp = pool if pool is not None else (1, 1, 0)
    pod = (od + 2 * pp - ps) // pst + 1
    xa = mem.alloc(np.ascontiguousarray(x, dtype=np.int8).tobytes())
    wa = mem.alloc(np.ascontiguousarray(w, dtype=np.int8).tobytes())  # (krow*K*cin + kcol*cin + kch)*cout + och
    ba = mem.alloc(np.ascontiguousarray(bias, dtype="<i4").tobytes()) if bias is not None else 0
    out_shape = (n, pod, pod, cout)
    oa = mem.alloc(int(np.prod(out_shape)))
    ex = model.execute
    if configure:
        ex(isa.CONFIG, f32_bits(1.0) << 32 | stride << 16 | isa.WS << 2 | isa.CONFIG_EX, 1 << 48)
        ex(isa.CONFIG, int(relu) << 2 | isa.CONFIG_ST, f32_bits(scale) << 32 | cout)
    tb, tpr, tpc, tpoch, tkch = tile
    for b in range(0, n, tb):
        for porow in range(0, pod, tpr):
            orow = porow * pst - pp
            for pocol in range(0, pod, tpc):
                ocol = pocol * pst - pp
                for poch in range(0, cout, tpoch):
                    for kch in range(0, cin, tkch):
                        batches, porows, pocols = min(n - b, tb), min(pod - porow, tpr), min(pod - pocol, tpc)
                        pochs, kchs = min(cout - poch, tpoch), min(cin - kch, tkch)
                        orows, ocols = porows * pst + ps - 1, pocols * pst + ps - 1
                        pupad, plpad = max(0, -orow), max(0, -ocol)
                        pdpad, prpad = max(0, orow + orows - od), max(0, ocol + ocols - od)
                        orows, ocols = orows - pupad - pdpad, ocols - plpad - prpad
                        orow_f, ocol_f = max(orow, 0), max(ocol, 0)
                        irow, icol = orow_f * stride - padding, ocol_f * stride - padding
                        irows, icols = (
                            orows * stride + dk - 1,
                            ocols * stride + dk - 1,
                        )  # as the hardware sizes the tile
                        upad, lpad = max(0, -irow), max(0, -icol)
                        dpad, rpad = max(0, irow + irows - h), max(0, icol + icols - h)
                        last = kch + kchs >= cin
                        if pool is None:
                            out = oa + (b * od * od + orow_f * od + ocol_f) * cout + poch
                        else:
                            out = oa + (b * pod * pod + porow * pod + pocol) * cout + poch
                        first = kch == 0
                        no_bias = bias is None
                        bias_addr = (ba + poch * 4 if not no_bias else 1) if first else 0
                        regs = conv_regs(
                            batch_size=n,
                            in_dim=h,
                            in_channels=cin,
                            out_channels=cout,
                            out_dim=od,
                            pool_out_dim=pod,
                            stride=stride,
                            padding=padding,
                            kernel_dim=k,
                            pool_size=ps,
                            pool_stride=pst,
                            pool_padding=pp,
                            batches=batches,
                            porows=porows,
                            pocols=pocols,
                            pochs=pochs,
                            krows=k,
                            kcols=k,
                            kchs=kchs,
                            lpad=lpad,
                            rpad=rpad,
                            upad=upad,
                            dpad=dpad,
                            plpad=plpad,
                            prpad=prpad,
                            pupad=pupad,
                            pdpad=pdpad,
                            orows=orows,
                            ocols=ocols,
                            kernel_dilation=dilation,
                            weights=wa + kch * cout + poch,
                            output=out if last else 0,
                            bias=bias_addr,
                            input=xa + ((b * h * h + (irow + upad) * h + (icol + lpad)) * cin + kch),
                        )
                        for funct, (r1, r2) in regs.items():
                            ex(funct, r1, r2)
                        ex(
                            isa.LOOP_CONV_WS,
                            *start_regs(no_bias=no_bias and first, pixels=pixels, no_pool=pool is None, act=int(relu)),
                        )
    return mem.array(oa, out_shape, np.int8)


def _model(params):
    from sim.gemmini.model import GemminiModel

    mem = FakeMemory()
    return GemminiModel(params, mem), mem


def _operands(rng, n, h, cin, cout, k, with_bias=True):
    x = rng.integers(-128, 128, size=(n, h, h, cin), dtype=np.int8)
    w = rng.integers(-128, 128, size=(k, k, cin, cout), dtype=np.int8)
    bias = rng.integers(-20000, 20000, size=cout).astype(np.int32) if with_bias else None
    return x, w, bias


CASES = [
    # params, n, h, cin, cout, k, stride, pad, bias, relu, scale, tile(b, porows, pocols, pochs, kchs)
    (DIM4, 1, 7, 3, 5, 3, 1, 1, True, False, 1 / 64, (1, 4, 4, 8, 8)),
    (DIM4, 2, 9, 6, 7, 3, 2, 1, True, True, 1 / 128, (2, 3, 5, 4, 4)),
    (DIM4, 1, 8, 5, 9, 1, 1, 0, False, False, 1 / 16, (1, 8, 4, 9, 5)),
    (DIM4, 1, 9, 2, 3, 5, 1, 2, True, False, 1 / 32, (1, 3, 3, 3, 2)),
    (DIM4, 2, 6, 9, 6, 3, 2, 0, False, True, 1 / 64, (1, 2, 2, 6, 4)),  # kch split: partial sums across loops
    (DIM16, 1, 8, 20, 18, 3, 1, 1, True, False, 1 / 256, (1, 8, 8, 18, 20)),
    (DIM16, 2, 7, 3, 17, 3, 2, 1, True, True, 1 / 64, (2, 4, 4, 17, 3)),
]


@pytest.mark.parametrize("case", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_conv_matches_numpy(case):
    params, n, h, cin, cout, k, stride, pad, with_bias, relu, scale, tile = case
    rng = np.random.default_rng(hash(case[1:6]) & 0xFFFF)
    x, w, bias = _operands(rng, n, h, cin, cout, k, with_bias)
    model, mem = _model(params)
    got = gemmini_conv(model, mem, x, w, bias, stride, pad, scale=scale, relu=relu, tile=tile)
    want = reference_conv(x, w, bias, stride, pad, scale=scale, relu=relu)
    assert np.array_equal(got, want), f"{np.count_nonzero(got != want)} of {got.size} outputs differ"
    assert model.counters["gemmini_macs"] > 0


def test_kernel_dilation_matches_numpy():
    rng = np.random.default_rng(7)
    x, w, bias = _operands(rng, 1, 9, 4, 6, 3)
    model, mem = _model(DIM4)
    got = gemmini_conv(model, mem, x, w, bias, 1, 2, dilation=2, scale=1 / 64, tile=(1, 5, 5, 6, 4))
    assert np.array_equal(got, reference_conv(x, w, bias, 1, 2, dilation=2, scale=1 / 64))


@pytest.mark.parametrize("params,pixels", [(DIM4, 1), (DIM16, 5)])
def test_first_layer_pixels_per_row(params, pixels):
    """max_pixels_per_row packs several kernel columns of a 3-channel input into one compute."""
    rng = np.random.default_rng(11)
    x, w, bias = _operands(rng, 1, 8, 3, 8, 5)
    model, mem = _model(params)
    # Gemmini's PixelRepeater drops the repeats that would fall below the start of a scratchpad half
    got = gemmini_conv(model, mem, x, w, bias, 1, 2, scale=1 / 128, tile=(1, 8, 8, 8, 3), pixels=pixels)
    assert np.array_equal(got, reference_conv(x, w, bias, 1, 2, scale=1 / 128))


def test_pixels_per_row_uses_fewer_computes():
    base = stream(simple(), params=DIM16)
    packed = stream(simple(), params=DIM16, pixels=3)
    n_base = sum(c[0] == isa.PRELOAD for c in base)
    n_packed = sum(c[0] == isa.PRELOAD for c in packed)
    assert n_packed * 3 == n_base
    assert any(c[0] == isa.CONFIG and (c[1] >> 8) & 0xFF == 3 for c in packed)  # the input mvin repeats pixels


@pytest.mark.parametrize("pool,tile", [((3, 2, 1), (1, 2, 2, 8, 8)), ((2, 2, 0), (2, 4, 4, 4, 8))])
def test_pooled_conv_matches_numpy(pool, tile):
    rng = np.random.default_rng(3)
    x, w, bias = _operands(rng, 2, 8, 3, 5, 3)
    model, mem = _model(DIM4)
    model.execute(isa.CONFIG, isa.CONFIG_ST, f32_bits(0.5) << 32)
    model.execute(isa.CONFIG, isa.CONFIG_ST, 0xFFFF_FFFF << 32)
    # LoopConv's pooling config_st carries scale 0xFFFFFFFF (ACC_SCALE_NO_CHANGE): StoreController keeps the scale
    assert model.st.scale == np.float32(0.5)
    got = gemmini_conv(model, mem, x, w, bias, 1, 1, scale=1 / 64, relu=False, pool=pool, tile=tile)
    assert np.array_equal(got, reference_conv(x, w, bias, 1, 1, scale=1 / 64, pool=pool))


def test_depthwise_as_per_channel_loops():
    """A depthwise conv: one loop per channel over NHWC input, weights [K][K][C], planar output per channel."""
    rng = np.random.default_rng(5)
    n, h, c, k, stride, pad = 1, 8, 6, 3, 1, 1
    x = rng.integers(-128, 128, size=(n, h, h, c), dtype=np.int8)
    wdw = rng.integers(-128, 128, size=(k, k, c), dtype=np.int8)
    bias = rng.integers(-5000, 5000, size=c).astype(np.int32)
    od = (h + 2 * pad - k) // stride + 1
    model, mem = _model(DIM4)
    xa, wa = mem.alloc(x.tobytes()), mem.alloc(wdw.tobytes())
    ba, oa = mem.alloc(bias.astype("<i4").tobytes()), mem.alloc(c * n * od * od)
    ex = model.execute
    ex(isa.CONFIG, f32_bits(1.0) << 32 | stride << 16 | isa.WS << 2 | isa.CONFIG_EX, 1 << 48)
    ex(isa.CONFIG, isa.CONFIG_ST, f32_bits(1 / 32) << 32 | 1)  # planar output: one byte between pixels
    for ch in range(c):
        # in_channels = C makes the pixel stride C; out_channels = 1 makes the weight tap stride C
        regs = conv_regs(
            batch_size=n,
            in_dim=h,
            in_channels=c,
            out_channels=1,
            out_dim=od,
            pool_out_dim=od,
            stride=stride,
            padding=pad,
            kernel_dim=k,
            pool_size=1,
            pool_stride=1,
            batches=n,
            porows=od,
            pocols=od,
            pochs=1,
            krows=k,
            kcols=k,
            kchs=1,
            lpad=pad,
            rpad=pad,
            upad=pad,
            dpad=pad,
            orows=od,
            ocols=od,
            kernel_dilation=1,
            weights=wa + ch,
            output=oa + ch * n * od * od,
            bias=ba + 4 * ch,
            input=xa + ch,
        )
        for funct, (r1, r2) in regs.items():
            ex(funct, r1, r2)
        ex(isa.LOOP_CONV_WS, *start_regs(dw=True))
    got = mem.array(oa, (c, n, od, od), np.int8).transpose(1, 2, 3, 0)
    wfull = np.zeros((k, k, 1, 1), dtype=np.int8)
    want = np.stack(
        [
            reference_conv(
                x[..., ch : ch + 1], (wfull + wdw[:, :, ch, None, None]), bias[ch : ch + 1], stride, pad, scale=1 / 32
            )[..., 0]
            for ch in range(c)
        ],
        axis=-1,
    )
    assert np.array_equal(got, want)


def test_typical_conv_time():
    """1x3x32x32 -> 16 channels, 3x3, pad 1 at DIM 4: measured, and bounded so a slowdown shows."""
    rng = np.random.default_rng(1)
    x, w, bias = _operands(rng, 1, 32, 3, 16, 3)
    model, mem = _model(DIM4)
    t0 = time.perf_counter()
    got = gemmini_conv(model, mem, x, w, bias, 1, 1, scale=1 / 64, relu=True, tile=(1, 4, 8, 16, 3))
    elapsed = time.perf_counter() - t0
    assert np.array_equal(got, reference_conv(x, w, bias, 1, 1, scale=1 / 64, relu=True))
    ncmd = sum(v for key, v in model.counters.items() if key.startswith("insn_"))
    print(f"typical conv: {elapsed:.2f} s for {ncmd} instructions/commands")
    assert elapsed < 30


def test_transposed_input_rows_step_by_the_whole_batch():
    """With trans_input_3120 the input is [C][H][W][N]: a loop over 2 of 6 batches reads pixel (c, y, x) of batch b
    at ((c * in_dim + y) * in_dim + x) * batch_size + b, the full batch size (not the loop's 2)."""
    in_dim, cin, batch_size, batches = 4, 3, 6, 2
    f = simple(
        batch_size=batch_size,
        batches=batches,
        in_dim=in_dim,
        in_channels=cin,
        kchs=cin,
        out_dim=in_dim,
        pool_out_dim=in_dim,
        porows=in_dim,
        pocols=in_dim,
        orows=in_dim,
        ocols=in_dim,
    )
    rs1, rs2 = start_regs()
    lc = LoopConv()
    for funct, (a, b) in conv_regs(**f).items():
        lc.configure(funct, a, b)
    cmds = list(lc.commands(rs1 | 1 << 5, rs2, DIM4))
    loads = [c for c in cmds if c[0] == isa.MVIN and c[1] != 0]
    # One mvin per (channel, image row): DIM pixels of `batches` columns, pixel rows batch_size apart in DRAM.
    assert all((c[2] >> 48) == in_dim and (c[2] >> 32) & 0xFFFF == batches for c in loads), loads[:3]
    want = {f["input"] + (ch * in_dim + y) * in_dim * batch_size for ch in range(cin) for y in range(in_dim)}
    assert {c[1] for c in loads} == want
    ld0 = [c for c in cmds if c[0] == isa.CONFIG and c[1] & 3 == isa.CONFIG_LD and (c[1] >> 3) & 3 == 0]
    assert ld0 and ld0[0][2] == batch_size  # the DRAM stride between pixels
