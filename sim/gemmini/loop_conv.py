"""loop_conv_ws (funct 15..21): Gemmini's hardware convolution loop, unrolled.

Gemmini v0.7's LoopConv unit takes six config registers (funct 16..21) and a
start command (funct 15) and issues primitive commands from five sequencers:
bias loader (config_ld id 2 + mvin3 into the accumulator), weight loader
(config_ld id 1 + mvin2), input loader (config_ld id 0 + mvin, zero rows for
padding), execute (preload + compute over the kernel window, accumulating into
the accumulator) and store (mvout, or config_st + pooled mvouts + config_st).
In hardware the sequencers overlap and Gemmini's ROB orders their hazards; a
functional model gets the same memory effect by running them one after the
other, which is what :meth:`LoopConv.commands` yields.

Double buffering is kept as in hardware: two loop slots alternate (each owns one
half of the scratchpad: input rows from the bottom of the half, weights from its
top) and the accumulator half flips after every loop that writes an output
(a loop with output address 0 keeps its partial sums where the next loop adds to
them).

Register packing follows gemmini.h's ``gemmini_loop_conv_ws`` (see
:data:`FIELDS`). Supported: batch, stride, padding, kernel dilation, input
dilation, downsampling, max pooling, ReLU, wrot180, the four transposes, no_bias
and max_pixels_per_row (first-layer optimization; the mvin's pixel repeats do the
work). The ``dw`` bit (rs1[6]) is ignored, as v0.7's LoopConv ignores it: a
depthwise conv runs as one loop per channel with the strides chosen by software.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from sim.gemmini import isa
from sim.gemmini.params import GARBAGE_ADDR, GemminiParams

# funct -> (register, [(name, lsb, width)]) for rs1 and rs2 of each config.
FIELDS: dict[int, tuple[tuple[tuple[str, int, int], ...], tuple[tuple[str, int, int], ...]]] = {
    isa.LOOP_CONV_WS_CONFIG_1: (
        (("batch_size", 0, 16), ("in_dim", 16, 16), ("in_channels", 32, 16), ("out_channels", 48, 16)),
        (("out_dim", 0, 16), ("pool_out_dim", 16, 16), ("stride", 32, 16), ("padding", 48, 16)),
    ),
    isa.LOOP_CONV_WS_CONFIG_2: (
        (("pool_padding", 0, 16), ("pool_stride", 16, 16), ("pool_size", 32, 16), ("kernel_dim", 48, 16)),
        (("pochs", 0, 16), ("pocols", 16, 16), ("porows", 32, 16), ("batches", 48, 16)),
    ),
    isa.LOOP_CONV_WS_CONFIG_3: (
        (("lpad", 0, 16), ("kchs", 16, 16), ("kcols", 32, 16), ("krows", 48, 16)),
        (("plpad", 0, 16), ("dpad", 16, 16), ("upad", 32, 16), ("rpad", 48, 16)),
    ),
    isa.LOOP_CONV_WS_CONFIG_4: (
        (("pdpad", 0, 16), ("pupad", 16, 16), ("prpad", 32, 16), ("orows", 48, 16)),
        (("ocols", 0, 16), ("kernel_dilation", 16, 16)),
    ),
    isa.LOOP_CONV_WS_CONFIG_5: ((("weights", 0, 64),), (("output", 0, 64),)),
    isa.LOOP_CONV_WS_CONFIG_6: ((("bias", 0, 64),), (("input", 0, 64),)),
}

MVIN_SCALE_ONE = 0x3F80_0000  # fp32 1.0: the loop's mvins never scale
ACC_SCALE_KEEP = 0xFFFF_FFFF  # config_st scale meaning "leave the mvout scale as software set it"
ACC = 1 << 31
ACC_ACCUMULATE = 3 << 30
MASK32 = 0xFFFF_FFFF


@dataclass(frozen=True)
class ConvLoop:
    """Every field of one loop_conv_ws, decoded from the six configs and the start command."""

    batch_size: int
    in_dim: int
    in_channels: int
    out_channels: int
    out_dim: int
    pool_out_dim: int
    stride: int
    padding: int
    kernel_dim: int
    pool_size: int
    pool_stride: int
    pool_padding: int
    batches: int
    porows: int
    pocols: int
    pochs: int
    krows: int
    kcols: int
    kchs: int
    lpad: int
    rpad: int
    upad: int
    dpad: int
    plpad: int
    prpad: int
    pupad: int
    pdpad: int
    orows: int
    ocols: int
    kernel_dilation: int
    weights: int
    output: int
    bias: int
    input: int
    # start command (funct 15)
    no_bias: bool
    wrot180: bool
    trans_output_1203: bool
    trans_weight_1203: bool
    trans_weight_0132: bool
    trans_input_3120: bool
    dw: bool
    max_pixels_per_row: int
    no_pool: bool
    downsample: bool
    input_dilated: bool
    activation: int


def _illegal(msg: str) -> Exception:
    from sim.gemmini.model import GemminiIllegal  # the model imports us; import late to avoid a cycle

    return GemminiIllegal(f"loop_conv_ws: {msg}")


def decode(regs: dict[int, tuple[int, int]], rs1: int, rs2: int) -> ConvLoop:
    """The loop's fields from the config registers (funct -> (rs1, rs2)) and the start command's rs1/rs2."""
    values: dict[str, int] = {}
    for funct, (f1, f2) in FIELDS.items():
        r1, r2 = regs.get(funct, (0, 0))
        for reg, fields in ((r1, f1), (r2, f2)):
            for name, lsb, width in fields:
                values[name] = (reg >> lsb) & ((1 << width) - 1)
    pixels = (rs1 >> 8) & 0xFF
    return ConvLoop(
        **values,
        no_bias=bool(rs1 & 1),
        wrot180=bool(rs1 >> 1 & 1),
        trans_output_1203=bool(rs1 >> 2 & 1),
        trans_weight_1203=bool(rs1 >> 3 & 1),
        trans_weight_0132=bool(rs1 >> 4 & 1),
        trans_input_3120=bool(rs1 >> 5 & 1),
        dw=bool(rs1 >> 6 & 1),
        max_pixels_per_row=pixels if pixels else 1,  # 0 means 1, as in hardware (older software leaves it 0)
        no_pool=bool(rs2 & 1),
        downsample=bool(rs2 >> 1 & 1),
        input_dilated=bool(rs2 >> 2 & 1),
        activation=(rs2 >> 3) & 3,
    )


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True)
class _Derived:
    irows: int
    icols: int
    irows_unpadded: int
    icols_unpadded: int
    input_spad_stride: int
    weight_spad_stride: int
    bias_spad_stride: int
    a_rows: int  # scratchpad rows the input tile takes
    b_rows: int  # scratchpad rows the weights take
    c_rows: int  # accumulator rows the outputs take


def _derive(c: ConvLoop, dim: int) -> _Derived:
    dil = c.input_dilated

    def undilated(x: int) -> int:
        return (x + dil) >> dil

    dkrows = c.krows + (c.kernel_dilation - 1) * (c.krows - 1)
    dkcols = c.kcols + (c.kernel_dilation - 1) * (c.kcols - 1)
    irows_nd = c.orows * c.stride + dkrows - 1
    icols_nd = c.ocols * c.stride + dkcols - 1
    irows_unpadded = undilated(irows_nd - c.upad - c.dpad)
    icols_unpadded = undilated(icols_nd - c.lpad - c.rpad)
    if irows_unpadded <= 0 or icols_unpadded <= 0:
        raise _illegal(
            f"padding leaves no input: orows {c.orows} ocols {c.ocols} stride {c.stride} krows {c.krows} "
            f"kcols {c.kcols} with upad {c.upad} dpad {c.dpad} lpad {c.lpad} rpad {c.rpad}"
        )
    if dil:
        irows = irows_unpadded + undilated(c.upad) + undilated(c.dpad)
        icols = icols_unpadded + undilated(c.lpad) + undilated(c.rpad)
    else:
        irows, icols = irows_nd, icols_nd
    ds = int(c.downsample)
    plane = (irows >> ds) * (icols >> ds)
    ichs, ochs = c.kchs, c.pochs
    if c.trans_input_3120:
        input_spad_stride = ichs * plane
        a_rows = _ceil_div(c.batches, dim) * input_spad_stride
    else:
        input_spad_stride = c.batches * plane
        a_rows = _ceil_div(ichs, dim) * input_spad_stride
    if c.trans_weight_0132:
        weight_spad_stride = c.krows * c.kcols * ochs
        b_rows = _ceil_div(ichs, dim) * weight_spad_stride
    else:
        weight_spad_stride = c.krows * c.kcols * ichs
        b_rows = _ceil_div(ochs, dim) * weight_spad_stride
    bias_spad_stride = c.batches * c.orows * c.ocols
    return _Derived(
        irows,
        icols,
        irows_unpadded,
        icols_unpadded,
        input_spad_stride,
        weight_spad_stride,
        bias_spad_stride,
        a_rows,
        b_rows,
        _ceil_div(ochs, dim) * bias_spad_stride,
    )


def _check(c: ConvLoop, p: GemminiParams) -> None:
    """Refuse what the hardware would hang on or silently get wrong, naming the field."""
    if not p.loop_conv:
        raise _illegal("this Gemmini config has loop_conv = false (no hardware conv loop); tile in software")
    if not p.has_ws:
        raise _illegal("the conv loop is weight-stationary but this config has no WS dataflow")
    for name in (
        "batch_size",
        "in_dim",
        "in_channels",
        "out_channels",
        "out_dim",
        "stride",
        "kernel_dim",
        "kernel_dilation",
        "batches",
        "porows",
        "pocols",
        "pochs",
        "krows",
        "kcols",
        "kchs",
        "orows",
        "ocols",
    ):
        if getattr(c, name) == 0:
            raise _illegal(f"{name} is 0 (config registers not written, or an empty tile)")
    if c.activation not in (isa.ACT_NONE, isa.ACT_RELU):
        raise _illegal(
            f"activation {c.activation} ({isa.ACTIVATION_NAMES.get(c.activation, '?')}) needs "
            "normalization units this Gemmini has not; use 0 (none) or 1 (relu)"
        )
    if c.input_dilated and c.kernel_dilation > 1:
        raise _illegal("input_dilated with kernel_dilation > 1: the loop supports one dilation at a time")
    if c.input_dilated and c.stride != 1:
        raise _illegal(f"input_dilated needs stride 1, got stride {c.stride}")
    if c.downsample and (c.kernel_dim != 1 or c.stride != 2):
        raise _illegal(f"downsample needs kernel_dim 1 and stride 2, got kernel_dim {c.kernel_dim} stride {c.stride}")
    if c.max_pixels_per_row > 1 and c.max_pixels_per_row * min(c.kchs, p.dim) > p.dim:
        raise _illegal(f"max_pixels_per_row {c.max_pixels_per_row} x kchs {c.kchs} exceeds DIM {p.dim}")
    if not c.no_pool:
        if c.pool_size == 0 or c.pool_stride == 0:
            raise _illegal(f"pooling with pool_size {c.pool_size} pool_stride {c.pool_stride} (set no_pool instead)")
        # config_st's pooling fields are narrow; the hardware would truncate them silently
        for name, width in (
            ("ocols", 8),
            ("orows", 8),
            ("pocols", 8),
            ("porows", 8),
            ("pool_out_dim", 8),
            ("plpad", 2),
            ("pupad", 2),
            ("pool_size", 2),
            ("pool_stride", 2),
        ):
            if getattr(c, name) >> width:
                raise _illegal(f"{name} {getattr(c, name)} does not fit config_st's {width}-bit pooling field")


class LoopConv:
    """The config registers of Gemmini's conv loop and its two double-buffered loop slots."""

    def __init__(self) -> None:
        self._regs: list[dict[int, tuple[int, int]]] = [{}, {}]
        self._slot = 0  # the loop slot the next configs and start go to
        self._acc_start = 0  # accumulator row where the next loop's bias/outputs start
        self.last: ConvLoop | None = None  # the most recent loop, for diagnostics

    def configure(self, funct: int, rs1: int, rs2: int) -> None:
        if funct not in FIELDS:
            raise _illegal(f"funct {funct} is not a loop_conv_ws config (16..21)")
        self._regs[self._slot][funct] = (rs1, rs2)

    def commands(self, rs1: int, rs2: int, params: GemminiParams) -> Iterator[tuple[int, int, int]]:
        """The primitive commands (funct, rs1, rs2) of the loop that this start command (funct 15) runs.

        Validation and the double-buffer bookkeeping happen now, at the start command; the commands
        themselves are generated as they are consumed.
        """
        c = decode(self._regs[self._slot], rs1, rs2)
        _check(c, params)
        d = _derive(c, params.dim)
        half_sp = params.sp_rows // 2
        half_acc = params.acc_rows // 2
        if d.a_rows + d.b_rows > half_sp:
            raise _illegal(
                f"tile needs {d.a_rows} input + {d.b_rows} weight scratchpad rows but a loop has half the "
                f"scratchpad ({half_sp} rows): reduce batches/orows/ocols/kchs/pochs/krows/kcols"
            )
        if d.c_rows > half_acc:
            raise _illegal(
                f"tile needs {d.c_rows} accumulator rows (pochs {c.pochs} x batches {c.batches} x orows "
                f"{c.orows} x ocols {c.ocols}) but a loop has half the accumulator ({half_acc} rows)"
            )
        a_start = self._slot * half_sp
        b_end = (self._slot + 1) * half_sp
        acc_start = self._acc_start
        self._slot ^= 1
        if c.output != 0:
            self._acc_start = (self._acc_start + half_acc) % params.acc_rows
        self.last = c
        return self._generate(c, d, params, a_start, b_end - d.b_rows, acc_start)

    def _generate(
        self, c: ConvLoop, d: _Derived, p: GemminiParams, a_start: int, b_start: int, acc_start: int
    ) -> Iterator[tuple[int, int, int]]:
        yield from _ld_bias(c, d, p, acc_start)
        yield from _ld_weights(c, d, p, b_start)
        yield from _ld_input(c, d, p, a_start)
        yield from _execute(c, d, p, a_start, b_start, acc_start)
        yield from _store(c, d, p, acc_start)


def _config_ld(state_id: int, spad_stride: int, dram_stride: int, pixel_repeats: int = 1) -> tuple[int, int, int]:
    rs1 = (
        (MVIN_SCALE_ONE << 32)
        | (spad_stride & 0xFFFF) << 16
        | (pixel_repeats & 0xFF) << 8
        | state_id << 3
        | isa.CONFIG_LD
    )
    return (isa.CONFIG, rs1, dram_stride)


def _ld_bias(c: ConvLoop, d: _Derived, p: GemminiParams, acc_start: int) -> Iterator[tuple[int, int, int]]:
    if c.bias == 0:  # no bias address at all: keep what the accumulator holds (partial sums of a previous loop)
        return
    dim = p.dim
    ochs = c.pochs
    per_mvin = min(ochs, p.max_block_len_acc * dim)
    yield _config_ld(2, d.bias_spad_stride, 0)  # DRAM stride 0: one bias row for every pixel
    ocols, orows = c.ocols, c.orows
    plane = orows * ocols
    mvin3 = isa.MVIN3
    for b in range(c.batches):
        for orow in range(orows):
            for ocol in range(0, ocols, dim):
                rows = min(ocols - ocol, dim)
                base = acc_start + b * plane + orow * ocols + ocol
                for och in range(0, ochs, per_mvin):
                    dram = 0 if c.no_bias else c.bias + och * 4  # address 0 moves in zeros
                    spad = ACC | (base + (och // dim) * c.batches * plane)
                    yield (mvin3, dram, rows << 48 | min(ochs - och, per_mvin) << 32 | spad)


def _ld_weights(c: ConvLoop, d: _Derived, p: GemminiParams, b_start: int) -> Iterator[tuple[int, int, int]]:
    dim = p.dim
    ochs, kchs, krows, kcols, kd = c.pochs, c.kchs, c.krows, c.kcols, c.kernel_dim
    cin, cout = c.in_channels, c.out_channels
    if c.trans_weight_0132:
        per_mvin = min(kchs, p.max_block_len * dim)
        dram_stride = cin
        och_step, kch_step = dim, per_mvin
    else:
        per_mvin = min(ochs, p.max_block_len * dim)
        dram_stride = kd * kd * cout if c.trans_weight_1203 else cout
        och_step, kch_step = per_mvin, dim
    yield _config_ld(1, d.weight_spad_stride, dram_stride)
    mvin2 = isa.MVIN2
    w = c.weights
    for och in range(0, ochs, och_step):
        for krow in range(krows):
            for kcol in range(kcols):
                for kch in range(0, kchs, kch_step):
                    if c.trans_weight_0132:
                        off = (krow * kd * cout + kcol * cout + och) * cin + kch
                        spad = b_start + (kch // dim) * krows * kcols * ochs + krow * kcols * ochs + kcol * ochs + och
                        rows, cols = min(ochs - och, dim), min(kchs - kch, per_mvin)
                    else:
                        if c.trans_weight_1203:
                            off = (kch * kd * kd + krow * kd + kcol) * cout + och
                        else:
                            off = (krow * kd * cin + kcol * cin + kch) * cout + och
                        spad = b_start + (och // dim) * krows * kcols * kchs + krow * kcols * kchs + kcol * kchs + kch
                        rows, cols = min(kchs - kch, dim), min(ochs - och, per_mvin)
                    yield (mvin2, w + (off & MASK32), rows << 48 | cols << 32 | spad)


def _ld_input(c: ConvLoop, d: _Derived, p: GemminiParams, a_start: int) -> Iterator[tuple[int, int, int]]:
    dim = p.dim
    dil, ds = int(c.input_dilated), int(c.downsample)
    upad_u, lpad_u = (c.upad + dil) >> dil, (c.lpad + dil) >> dil
    dpad_u, rpad_u = (c.dpad + dil) >> dil, (c.rpad + dil) >> dil
    irows_u, icols_u = d.irows_unpadded, d.icols_unpadded
    ichs, batches, in_dim = c.kchs, c.batches, c.in_dim
    trans = c.trans_input_3120
    if trans:
        per_mvin = min(batches, p.max_block_len * dim)
        dram_stride = c.batch_size
    else:
        per_mvin = min(ichs, p.max_block_len * dim)
        dram_stride = c.in_channels
    yield _config_ld(0, d.input_spad_stride, dram_stride << ds, c.max_pixels_per_row)
    plane_cols = d.icols >> ds
    plane = (d.irows >> ds) * plane_cols
    stride_spad = d.input_spad_stride
    block_ds = dim << ds
    mvin = isa.MVIN
    base_addr, cin = c.input, c.in_channels
    b_step, ich_step = (per_mvin, 1) if trans else (1, per_mvin)
    for b in range(0, batches, b_step):
        for irow in range(-upad_u, irows_u + dpad_u, 1 << ds):
            row_zero = irow < 0 or irow >= irows_u
            row_spad = ((irow + upad_u) >> ds) * plane_cols
            icol = -lpad_u
            while icol < icols_u + rpad_u:
                if icol < 0:
                    n = min(-icol, dim)
                elif icol >= icols_u:
                    n = min(icols_u + rpad_u - icol, dim)
                else:
                    n = min(icols_u - icol, block_ds)
                zero = row_zero or icol < 0 or icol >= icols_u
                col_spad = row_spad + ((icol + lpad_u) >> ds)
                for ich in range(0, ichs, ich_step):
                    if trans:
                        off = (ich * in_dim * in_dim + irow * in_dim + icol) * c.batch_size + b  # the whole batch
                        spad = a_start + (b // dim) * stride_spad + ich * plane + col_spad
                        cols = min(batches - b, per_mvin)
                    else:
                        off = (b * in_dim * in_dim + irow * in_dim + icol) * cin + ich
                        spad = a_start + (ich // dim) * stride_spad + b * plane + col_spad
                        cols = min(ichs - ich, per_mvin)
                    dram = 0 if zero else base_addr + (off & MASK32)
                    yield (mvin, dram, (n >> ds) << 48 | cols << 32 | spad)
                icol += n


def _execute(
    c: ConvLoop, d: _Derived, p: GemminiParams, a_start: int, b_start: int, acc_start: int
) -> Iterator[tuple[int, int, int]]:
    dim = p.dim
    dil, ds = int(c.input_dilated), int(c.downsample)
    trans = c.trans_input_3120
    if trans:
        # the loop sets only the strides: A rows one image plane apart, C rows one output plane apart
        yield (
            isa.CONFIG,
            (d.irows * d.icols & 0xFFFF) << 16 | 1 << 7 | isa.CONFIG_EX,
            (c.orows * c.ocols & 0xFFFF) << 48,
        )
    ochs, kchs, krows, kcols, batches = c.pochs, c.kchs, c.krows, c.kcols, c.batches
    orows, ocols, stride, kdil = c.orows, c.ocols, c.stride, c.kernel_dilation
    upad, lpad = c.upad, c.lpad
    pix = c.max_pixels_per_row
    plane_cols = d.icols >> ds
    plane = (d.irows >> ds) * plane_cols
    in_stride = d.input_spad_stride
    oplane = orows * ocols
    cblock = batches * oplane
    preload, comp_pre, comp_acc = isa.PRELOAD, isa.COMPUTE_PRELOADED, isa.COMPUTE_ACCUMULATED
    garbage = GARBAGE_ADDR
    ocol_block = dim << dil
    b_step = dim if trans else 1
    for och in range(0, ochs, dim):
        cols_j = min(ochs - och, dim)
        c_och = acc_start + (och // dim) * cblock
        for krow in range(krows):
            krow_ = krows - krow - 1 if c.wrot180 else krow
            for kcol in range(0, kcols, pix):
                kcol_ = kcols - kcol - 1 if c.wrot180 else kcol
                pixels = min(kcols - kcol, pix)
                for kch in range(0, kchs, dim):
                    cols_k = pixels * min(kchs - kch, dim)
                    if c.trans_weight_0132:
                        b_addr = (
                            b_start + (kch // dim) * krows * kcols * ochs + krow_ * kcols * ochs + kcol_ * ochs + och
                        )
                    else:
                        b_addr = (
                            b_start + (och // dim) * krows * kcols * kchs + krow_ * kcols * kchs + kcol_ * kchs + kch
                        )
                    new_weights = True
                    pre_rs1_w = cols_k << 48 | cols_j << 32
                    for b in range(0, batches, b_step):
                        for orow in range(orows):
                            skip_row = dil and (krow * kdil + orow - upad) & 1
                            irow = (orow * stride + krow * kdil + dil) >> dil
                            ocol = 0
                            while ocol < ocols:
                                if skip_row or (dil and (kcol * kdil + ocol - lpad) & 1):
                                    ocol += 1  # input dilation: this output needs no input from this tap
                                    continue
                                icol = (ocol * stride + kcol * kdil + dil) >> dil
                                if trans:
                                    rows_i = min(batches - b, dim)
                                    a_addr = (
                                        a_start
                                        + (b // dim) * in_stride
                                        + kch * plane
                                        + (irow >> ds) * plane_cols
                                        + (icol >> ds)
                                    )
                                else:
                                    rows_i = (min(ocols - ocol, ocol_block) + dil) >> dil
                                    a_addr = (
                                        a_start
                                        + (kch // dim) * in_stride
                                        + b * plane
                                        + (irow >> ds) * plane_cols
                                        + (icol >> ds)
                                    )
                                c_addr = c_och + b * oplane + orow * ocols + ocol
                                ij = rows_i << 48 | cols_j << 32
                                yield (
                                    preload,
                                    pre_rs1_w | (b_addr if new_weights else garbage),
                                    ij | ACC_ACCUMULATE | c_addr,
                                )
                                yield (
                                    comp_pre if new_weights else comp_acc,
                                    rows_i << 48 | cols_k << 32 | a_addr,
                                    ij | garbage,
                                )
                                new_weights = False
                                ocol += 1 if trans else ocol_block


def _store(c: ConvLoop, d: _Derived, p: GemminiParams, acc_start: int) -> Iterator[tuple[int, int, int]]:
    if c.output == 0:  # partial sums stay in the accumulator for the next loop
        return
    dim = p.dim
    ochs, batches, orows, ocols = c.pochs, c.batches, c.orows, c.ocols
    oplane = orows * ocols
    cblock = batches * oplane
    cout, out_dim, out = c.out_channels, c.out_dim, c.output
    mvout = isa.MVOUT
    st_rs2 = ACC_SCALE_KEEP << 32 | cout
    if c.no_pool:
        for b in range(batches):
            for orow in range(orows):
                for ocol in range(0, ocols, dim):
                    rows_i = min(ocols - ocol, dim)
                    for och in range(0, ochs, dim):
                        if c.trans_output_1203:
                            off = (orow * out_dim * c.batch_size + ocol * c.batch_size + b) * cout + och
                        else:
                            off = (b * out_dim * out_dim + orow * out_dim + ocol) * cout + och
                        spad = ACC | (acc_start + (och // dim) * cblock + b * oplane + orow * ocols + ocol)
                        yield (mvout, out + (off & MASK32), rows_i << 48 | min(ochs - och, dim) << 32 | spad)
        return
    pod = c.pool_out_dim
    yield (
        isa.CONFIG,
        ocols << 56
        | orows << 48
        | c.pocols << 40
        | c.porows << 32
        | pod << 24
        | c.plpad << 10
        | c.pupad << 8
        | c.pool_size << 6
        | c.pool_stride << 4
        | c.activation << 2
        | isa.CONFIG_ST,
        st_rs2,
    )
    for b in range(batches):
        for och in range(0, ochs, dim):
            spad = ACC | (acc_start + (och // dim) * cblock + b * oplane)
            # the hardware leaves rows unset (config_st gives a pooled mvout its extent); DIM keeps it a legal mvout
            yield (mvout, out + (b * pod * pod * cout + och), dim << 48 | min(ochs - och, dim) << 32 | spad)
    yield (isa.CONFIG, c.activation << 2 | isa.CONFIG_ST, st_rs2)
