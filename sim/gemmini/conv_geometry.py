"""loop_conv_ws's configuration: the fields of its six config registers and start command, the checks Gemmini's
LoopConv needs to hold, and the tile geometry (input size with padding and dilation, scratchpad and accumulator
rows) the sequencers in conv_sequencers.py work from.

Register packing follows gemmini.h's ``gemmini_loop_conv_ws`` (:data:`FIELDS`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.gemmini import isa
from sim.gemmini.params import GemminiParams
from sim.gemmini.state import GemminiIllegal

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


def conv_illegal(msg: str) -> GemminiIllegal:
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
class ConvGeometry:
    """The tile's sizes derived from its fields: the input with padding and dilation, and the local rows it takes."""

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


def derive(c: ConvLoop, dim: int) -> ConvGeometry:
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
        raise conv_illegal(
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
    return ConvGeometry(
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


def check(c: ConvLoop, p: GemminiParams) -> None:
    """Refuse what the hardware would hang on or silently get wrong, naming the field."""
    if not p.loop_conv:
        raise conv_illegal("this Gemmini config has loop_conv = false (no hardware conv loop); tile in software")
    if not p.has_ws:
        raise conv_illegal("the conv loop is weight-stationary but this config has no WS dataflow")
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
            raise conv_illegal(f"{name} is 0 (config registers not written, or an empty tile)")
    if c.activation not in (isa.ACT_NONE, isa.ACT_RELU):
        raise conv_illegal(
            f"activation {c.activation} ({isa.ACTIVATION_NAMES.get(c.activation, '?')}) needs "
            "normalization units this Gemmini has not; use 0 (none) or 1 (relu)"
        )
    if c.input_dilated and c.kernel_dilation > 1:
        raise conv_illegal("input_dilated with kernel_dilation > 1: the loop supports one dilation at a time")
    if c.input_dilated and c.stride != 1:
        raise conv_illegal(f"input_dilated needs stride 1, got stride {c.stride}")
    if c.downsample and (c.kernel_dim != 1 or c.stride != 2):
        raise conv_illegal(
            f"downsample needs kernel_dim 1 and stride 2, got kernel_dim {c.kernel_dim} stride {c.stride}"
        )
    if c.max_pixels_per_row > 1 and c.max_pixels_per_row * min(c.kchs, p.dim) > p.dim:
        raise conv_illegal(f"max_pixels_per_row {c.max_pixels_per_row} x kchs {c.kchs} exceeds DIM {p.dim}")
    if not c.no_pool:
        if c.pool_size == 0 or c.pool_stride == 0:
            raise conv_illegal(
                f"pooling with pool_size {c.pool_size} pool_stride {c.pool_stride} (set no_pool instead)"
            )
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
                raise conv_illegal(f"{name} {getattr(c, name)} does not fit config_st's {width}-bit pooling field")
