"""loop_conv_ws's five sequencers as generators of primitive commands (funct, rs1, rs2): bias loader (config_ld id 2
+ mvin3 into the accumulator), weight loader (config_ld id 1 + mvin2), input loader (config_ld id 0 + mvin, zero
rows for padding), the execute sequencer (preload + compute over the kernel window, accumulating into the
accumulator) and the store sequencer (mvout, or config_st + pooled mvouts + config_st). :func:`generate` runs them
one after the other, which gives the memory effect of the hardware's overlapped sequencers (Gemmini's ROB orders
their hazards).
"""

from __future__ import annotations

from collections.abc import Iterator

from sim.gemmini import isa
from sim.gemmini.conv_geometry import ConvGeometry, ConvLoop
from sim.gemmini.params import GARBAGE_ADDR, GemminiParams

MVIN_SCALE_ONE = 0x3F80_0000  # fp32 1.0: the loop's mvins never scale
ACC_SCALE_KEEP = 0xFFFF_FFFF  # config_st scale meaning "leave the mvout scale as software set it"
ACC = 1 << 31
ACC_ACCUMULATE = 3 << 30
MASK32 = 0xFFFF_FFFF


def _config_ld(state_id: int, spad_stride: int, dram_stride: int, pixel_repeats: int = 1) -> tuple[int, int, int]:
    rs1 = (
        (MVIN_SCALE_ONE << 32)
        | (spad_stride & 0xFFFF) << 16
        | (pixel_repeats & 0xFF) << 8
        | state_id << 3
        | isa.CONFIG_LD
    )
    return (isa.CONFIG, rs1, dram_stride)


def load_bias(c: ConvLoop, d: ConvGeometry, p: GemminiParams, acc_start: int) -> Iterator[tuple[int, int, int]]:
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


def load_weights(c: ConvLoop, d: ConvGeometry, p: GemminiParams, b_start: int) -> Iterator[tuple[int, int, int]]:
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


def load_input(c: ConvLoop, d: ConvGeometry, p: GemminiParams, a_start: int) -> Iterator[tuple[int, int, int]]:
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


def execute_window(
    c: ConvLoop, d: ConvGeometry, p: GemminiParams, a_start: int, b_start: int, acc_start: int
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


def store(c: ConvLoop, d: ConvGeometry, p: GemminiParams, acc_start: int) -> Iterator[tuple[int, int, int]]:
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


def generate(
    c: ConvLoop, d: ConvGeometry, p: GemminiParams, a_start: int, b_start: int, acc_start: int
) -> Iterator[tuple[int, int, int]]:
    """Every command of one loop, the sequencers in order (bias, weights, input, execute, store)."""
    yield from load_bias(c, d, p, acc_start)
    yield from load_weights(c, d, p, b_start)
    yield from load_input(c, d, p, a_start)
    yield from execute_window(c, d, p, a_start, b_start, acc_start)
    yield from store(c, d, p, acc_start)
