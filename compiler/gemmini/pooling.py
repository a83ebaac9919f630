"""A convolution with its max pool as one Gemmini layer (``cosim_gemmini.linear_pool``): the pool on mvout.

The frontend (:func:`compiler.frontend.layer_calls.conv2d_pool_in_layer`) gives the layer the conv's im2col
rows ``(n, oh, ow)`` as A and its OIHW weights as a linear's [N, K]; the output is the pooled image's rows
``(n, ph, pw)`` of N channels. Gemmini's store unit pools while it moves the accumulator out: config_st
describes an image of ``orows`` x ``ocols`` pixels, one pixel an accumulator row starting at the mvout's
local address, and a pooled mvout writes its ``porows`` x ``pocols`` window maxima (after the scale and
ReLU) with a pixel pitch of config_st's stride and a row pitch of ``pool_out_dim`` pixels. Window pixels
outside the image count as zero: right for a pool after a ReLU (values >= 0, each window holds a real
pixel) or without padding, which is what the frontend folds.

So the accumulator must hold a band of whole conv rows of one block of up to DIM output channels in
consecutive rows:

- one loop_ws per (image, band, channel block, K step) with J = 1: the loop's C tile (i, 0) sits at
  accumulator row i * DIM, so the band's pixels are consecutive rows from the start of the loop's half
  (with J > 1 a channel block's rows would be J * DIM apart);
- a band is the conv rows ``R`` pooled rows read: ``(R - 1) * stride + kernel`` rows (fewer at the image's
  top and bottom), as many pooled rows as fit half the accumulator; bands overlap by ``kernel - stride``
  conv rows, which are computed again (the array's MACs exceed the conv's by that much);
- no loop stores C (no C address), so each band's sums stay put, and the core issues config_st with
  the band's pooling geometry and the pooled mvout of each channel block after its loop.

LoopMatmul flips its accumulator half only after a loop that stores C, so every loop of this layer runs in
the same half, fixed by how many C-storing loop_ws ran before it since reset. ``forward`` runs once (the
main :mod:`harness.program` writes calls it once after reset), its
layer calls in order, each grid of loops static: :func:`accumulator_halves` counts them at compile time
(the plan's ``acc_half``). The mvouts after a loop and the next loop's writes to the same rows are
ordered by Gemmini's reorder buffer like any other local-address hazard.
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir

from compiler.errors import CompileError
from compiler.frontend.layer_calls import POOL_DIM_MAX, pooled_size
from compiler.gemmini.plan_values import blocks, i64, ints
from compiler.gemmini.rocc import (
    ACC,
    ACT_RELU,
    CONFIG,
    CONFIG_ST,
    LOOP_WS,
    LOOP_WS_CONFIG_ADDRS_AB,
    LOOP_WS_CONFIG_ADDRS_DC,
    LOOP_WS_CONFIG_BOUNDS,
    LOOP_WS_CONFIG_STRIDES_AB,
    LOOP_WS_CONFIG_STRIDES_DC,
    MVOUT,
    Builder,
    f32_bits,
)
from compiler.targets import GemminiTarget

OP = "linear_pool"
MAX_LOOP_BOUND = 0xFFFF


@dataclass(frozen=True)
class Band:
    """Pooled rows [pr0, pr1) of one image and the conv rows [r0, r1) they read; ``upad``: window rows
    above r0 that are padding (only at the image's top)."""

    pr0: int
    pr1: int
    r0: int
    r1: int
    upad: int


@dataclass(frozen=True)
class PoolPlan:
    images: int
    oh: int
    ow: int
    n: int  # output channels
    k: int  # the im2col row length (C x KH x KW)
    kernel: int
    stride: int
    padding: int
    dim: int
    rows_per_band: int  # pooled rows
    tile_i: int  # loop_ws I: DIM-row blocks of the largest band
    tile_k: int  # loop_ws K blocks a loop
    acc_half_rows: int

    @property
    def ph(self) -> int:
        return pooled_size(self.oh, self.kernel, self.stride, self.padding)

    @property
    def pw(self) -> int:
        return pooled_size(self.ow, self.kernel, self.stride, self.padding)

    def bands(self) -> list[Band]:
        k, s, p = self.kernel, self.stride, self.padding
        out = []
        for pr0 in range(0, self.ph, self.rows_per_band):
            pr1 = min(self.ph, pr0 + self.rows_per_band)
            r0, r1 = max(0, pr0 * s - p), min(self.oh, (pr1 - 1) * s - p + k)
            out.append(Band(pr0, pr1, r0, r1, max(0, p - pr0 * s)))
        return out

    @property
    def channel_blocks(self) -> int:
        return blocks(self.n, self.dim)

    @property
    def k_steps(self) -> int:
        return blocks(blocks(self.k, self.dim), self.tile_k)

    @property
    def loops(self) -> int:
        return self.images * len(self.bands()) * self.channel_blocks * self.k_steps

    @property
    def array_macs(self) -> int:
        """The MACs the array runs: every band's rows (the overlaps again) x N x K."""
        rows = sum(b.r1 - b.r0 for b in self.bands()) * self.ow
        return self.images * rows * self.n * self.k


def plan_pool(geo: dict, g: GemminiTarget) -> PoolPlan:
    """The bands (as many pooled rows as half the accumulator holds) and the loops' K tiling."""
    d, half_acc, half_sp = g.dim, g.acc_rows // 2, g.sp_rows // 2
    nimg, oh, ow = geo["image"]
    k, s, p = geo["kernel"], geo["stride"], geo["padding"]
    ph = pooled_size(oh, k, s, p)
    rows = 0
    for r in range(1, ph + 1):
        conv_rows = (r - 1) * s + k
        if conv_rows * ow > half_acc or conv_rows > POOL_DIM_MAX:
            break
        rows = r
    if rows == 0:
        raise CompileError(f"{geo['name']}: {k} conv rows of {ow} pixels exceed half the accumulator ({half_acc})")
    probe = PoolPlan(nimg, oh, ow, geo["n"], geo["k"], k, s, p, d, rows, 1, 1, half_acc)
    tile_i = blocks(max((b.r1 - b.r0) * ow for b in probe.bands()), d)
    tile_k = min(blocks(geo["k"], d), MAX_LOOP_BOUND, (half_sp - d) // ((tile_i + 1) * d))
    if tile_k < 1:
        raise CompileError(f"{geo['name']}: a band's {tile_i} blocks of A do not fit half the scratchpad")
    return PoolPlan(nimg, oh, ow, geo["n"], geo["k"], k, s, p, d, rows, tile_i, tile_k, half_acc)


def plan_attribute(geo: dict, plan: PoolPlan, g: GemminiTarget):
    """``gemmini.plan`` of a conv + max pool layer (``acc_half`` is added once the program is planned)."""

    s = ir.StringAttr.get
    nimg, oh, ow = geo["image"]
    entries = {
        "layer": s(
            f"conv (im2col) {geo['m']}x{geo['k']} @ {geo['k']}x{geo['n']} + max pool {plan.kernel}x{plan.kernel} "
            f"stride {plan.stride} padding {plan.padding}: {nimg} x {oh}x{ow} pooled to {plan.ph}x{plan.pw}"
        ),
        "dataflow": s("WS"),
        "hardware_loop": s("loop_ws without C (J = 1), pooled mvouts issued by the core"),
        "dim": i64(g.dim),
        "mnk": ints((geo["m"], geo["n"], geo["k"])),
        "image": ints(geo["image"]),
        "pool_kernel_stride_padding": ints((plan.kernel, plan.stride, plan.padding)),
        "pooled": ints((plan.ph, plan.pw)),
        "pooled_rows_per_band": i64(plan.rows_per_band),
        "bands": i64(len(plan.bands())),
        "tile_ijk": ints((plan.tile_i, 1, plan.tile_k)),
        "loop_ws_per_layer": i64(plan.loops),
        "pool": s(
            f"config_st per band: orows = the band's conv rows, ocols {ow}, porows = its pooled rows, pocols "
            f"{plan.pw}, pool_out_dim {plan.pw}, upad {plan.padding} at the top, lpad {plan.padding}; one pooled "
            f"mvout of up to {g.dim} channels per loop's last K step"
        ),
        "bias": s("mvin3 int32 by the loop on its first K step" if geo["bias"] else "none"),
        "requant": s(
            f"config_st: scale {geo['scale']!r} (fp32) on mvout, int8 saturation" + (", ReLU" if geo["relu"] else "")
        ),
        "macs": i64(geo["m"] * geo["n"] * geo["k"]),
        "array_macs": i64(plan.array_macs),
    }
    return ir.DictAttr.get(entries)


def _c_stores(entries) -> int:
    """How many loop_ws of a planned layer store C (each flips LoopMatmul's accumulator half)."""
    loop = ir.StringAttr(entries["hardware_loop"]).value if "hardware_loop" in entries else ""
    if loop == "loop_ws" and ir.StringAttr(entries["dataflow"]).value == "WS":
        i0, j0, _k0 = (ir.IntegerAttr(x).value for x in ir.ArrayAttr(entries["loops_ijk"]))
        return ir.IntegerAttr(entries["batch"]).value * i0 * j0
    if loop == "loop_conv_ws":
        raise CompileError("a pooled conv layer beside loop_conv_ws layers: their accumulator halves are not tracked")
    return 0  # OS (issued by the core), resadd, the pooled layers themselves


def accumulator_halves(module, plan_attr: str, g: GemminiTarget) -> None:
    """Set each pooled layer's ``acc_half`` in its plan: the parity of the C-storing loop_ws that run before
    it, counted along ``forward``'s layer calls (loop_ws starts in half 0 at reset)."""
    fns = {
        ir.StringAttr(op.attributes["sym_name"]).value: op
        for op in module.body.operations
        if op.operation.name == "func.func" and plan_attr in op.attributes
    }
    pooled = {name for name, fn in fns.items() if ir.StringAttr(fn.attributes["cosim_q.op"]).value == OP}
    if not pooled:
        return
    forward = next(
        op
        for op in module.body.operations
        if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == "forward"
    )
    top = [op for op in forward.regions[0].blocks[0].operations if op.operation.name == "func.call"]
    order = [ir.FlatSymbolRefAttr(c.attributes["callee"]).value for c in top]
    order = [name for name in order if name in fns]
    if sorted(order) != sorted(fns) or len(set(order)) != len(order):
        raise CompileError(
            "a pooled conv layer needs every layer called once, in forward's body (its accumulator half is "
            f"counted at compile time): calls {order}, layers {sorted(fns)}"
        )
    stores = 0
    for name in order:
        fn = fns[name]
        entries = ir.DictAttr(fn.attributes[plan_attr])
        if name in pooled:
            half = stores % 2
            new = {e.name: e.attr for e in entries}
            new["acc_half"] = i64(half)
            new["acc_rows"] = ir.StringAttr.get(
                f"rows from {half * (g.acc_rows // 2)} (half {half}: {stores} C-storing loop_ws before it), "
                "one a band's pixel"
            )
            fn.attributes[plan_attr] = ir.DictAttr.get(new)
        else:
            stores += _c_stores(entries)


def emit_pool(b: Builder, geo: dict, plan: PoolPlan, bases: dict, half: int, configs) -> None:
    """The layer's instructions (after the fence): ``configs`` (config_ex WS with B transposed, config_st,
    config_ld of A, B, D), then per image, band and channel block the loops over K and the pooled mvout.
    The grid is static and emitted unrolled, its offsets computed here."""
    d, n, k = plan.dim, plan.n, plan.k
    act = ACT_RELU if geo["relu"] else 0
    scale = f32_bits(geo["scale"]) << 32
    configs(b, geo)
    bk = blocks(k, d)
    acc_base = ACC | (half * plan.acc_half_rows)
    for img in range(plan.images):
        for band in plan.bands():
            pixels = (band.r1 - band.r0) * plan.ow
            ti = blocks(pixels, d)
            row0 = (img * plan.oh + band.r0) * plan.ow  # the band's first im2col row
            porows = band.pr1 - band.pr0
            st_rs1 = (
                plan.ow << 56
                | (band.r1 - band.r0) << 48
                | plan.pw << 40
                | porows << 32
                | plan.pw << 24
                | plan.padding << 10
                | band.upad << 8
                | plan.kernel << 6
                | plan.stride << 4
                | act << 2
                | CONFIG_ST
            )
            for j in range(plan.channel_blocks):
                cols = min(d, n - j * d)
                for ks in range(plan.k_steps):
                    tk = min(plan.tile_k, bk - ks * plan.tile_k)
                    last_k = ks == plan.k_steps - 1
                    pad_k = bk * d - k if last_k else 0
                    b.insn(
                        LOOP_WS_CONFIG_BOUNDS,
                        (pad_k << 32) | ((d - cols) << 16) | (ti * d - pixels),
                        (tk << 32) | (1 << 16) | ti,
                    )
                    col_k = ks * plan.tile_k * d
                    a = b.add(bases["a"], b.c(row0 * k + col_k))
                    w = b.add(bases["b"], b.c(j * d * k + col_k))
                    b.insn(LOOP_WS_CONFIG_ADDRS_AB, a, w)
                    first = ks == 0
                    bias = b.add(bases["bias"], b.c(j * d * 4)) if first and "bias" in bases else b.c(0)
                    b.insn(LOOP_WS_CONFIG_ADDRS_DC, bias, 0, "loop_ws_config_addrs_dc (no C: the sums stay)")
                    b.insn(LOOP_WS_CONFIG_STRIDES_AB, k, k)
                    b.insn(LOOP_WS_CONFIG_STRIDES_DC, 0, n)
                    accumulate = 1 if geo["bias"] or not first else 0
                    b.insn(LOOP_WS, accumulate | act << 8, 2)
                b.insn(
                    CONFIG, st_rs1, scale | n, f"config_st pool {plan.kernel}/{plan.stride} rows {band.r0}..{band.r1}"
                )
                out = b.add(bases["c"], b.c(((img * plan.ph + band.pr0) * plan.pw) * n + j * d))
                # a pooled mvout's extent comes from config_st; rows = DIM keeps the command a legal mvout
                b.insn(MVOUT, out, (d << 48) | (cols << 32) | acc_base, "mvout pooled")
    b.insn(CONFIG, act << 2 | CONFIG_ST, scale | n, "config_st no pooling")
