"""gemmini-instructions: each planned layer function's body as Gemmini RoCC instructions.

After bufferization a layer function takes its operands and its output as memrefs
(identity layout, so the aligned pointer is the data's address). Its body becomes:

- a ``fence`` (the core's stores of the operands before Gemmini's DMA reads them);
- config_ex (weight stationary, B transposed for a linear's [N, K] weights), config_st
  (C's row stride, the requantization scale and ReLU applied on mvout) and one config_ld
  per mover (A, B, and the bias with a DRAM stride of 0: one row for every output row);
- ``scf.for`` loops over the plan's grid (batch, I0, J0, K0), each step one loop_ws:
  bounds, paddings of the last blocks, the A/B/D/C addresses from the memrefs' base
  pointers, with D only on the first K step and C only on the last (the steps between
  accumulate);
- a ``fence`` before the core reads the output.

A residual add is resadd's mvin / mvin2 (accumulating) / mvout per chunk of DIM rows; a
convolution on a config with loop_conv_ws is one loop_conv_ws (funct 16..21, 15) per tile of
its static grid, offsets computed here.

Each instruction is ``llvm.inline_asm ".insn r 0x7b, 3, funct, x0, $0, $1  # gemmini <what>"``
with rs1 and rs2 in registers (custom-3, funct3 = 3: both sources read, no rd), as Gemmini's
C macros emit them; nothing calls the C library.
"""

from __future__ import annotations

from torch_mlir import ir, passmanager
from torch_mlir.dialects import func

from compiler.gemmini import pooling
from compiler.gemmini.output_stationary import OsPlan, emit_os, plan_os
from compiler.gemmini.plan import PLAN_ATTR, AddPlan, ConvPlan, MatmulPlan, layer_functions, layer_geometry, plan_add
from compiler.gemmini.rocc import (
    ACC,
    ACC_ACCUMULATE,
    ACT_RELU,
    CONFIG,
    CONFIG_EX,
    CONFIG_LD,
    CONFIG_ST,
    DATAFLOW_WS,
    LOOP_CONV_WS,
    LOOP_WS,
    LOOP_WS_CONFIG_ADDRS_AB,
    LOOP_WS_CONFIG_ADDRS_DC,
    LOOP_WS_CONFIG_BOUNDS,
    LOOP_WS_CONFIG_STRIDES_AB,
    LOOP_WS_CONFIG_STRIDES_DC,
    MVIN,
    MVIN2,
    MVOUT,
    ONE_F32,
    Builder,
    f32_bits,
    local_operand,
    nest,
)
from compiler.mlir_utils import walk_ops
from compiler.targets import GemminiTarget


def _configs(b: Builder, geo: dict) -> None:
    k, n = geo["k"], geo["n"]
    act = ACT_RELU if geo["relu"] else 0
    b_t = 1 if geo["b_transposed"] else 0
    # config_ex: WS, no activation in the array, accumulator read scale 1.0, A stride 1, C stride 1
    b.insn(CONFIG, (ONE_F32 << 32) | (1 << 16) | (b_t << 9) | (DATAFLOW_WS << 2) | CONFIG_EX, 1 << 48, "config_ex WS")
    # config_st: C's row stride in bytes, requantization scale and ReLU on the accumulator read-out
    b.insn(CONFIG, (act << 2) | CONFIG_ST, (f32_bits(geo["scale"]) << 32) | n, f"config_st scale {geo['scale']!r}")

    def config_ld(mover: int, stride: int) -> None:
        # scale 1.0, block stride DIM rows, one pixel repeat
        rs1 = (ONE_F32 << 32) | (b.dim << 16) | (1 << 8) | (mover << 3) | CONFIG_LD
        b.insn(CONFIG, rs1, stride, f"config_ld {('A', 'B', 'D')[mover]} stride {stride}")

    config_ld(0, k)  # A [M, K] int8
    config_ld(1, k if b_t else n)  # B [K, N], or a linear's W [N, K]
    config_ld(2, 0)  # bias: the same int32 row for every output row


def _loop_body(b: Builder, geo: dict, plan: MatmulPlan, bases: dict, ijk: list) -> None:
    """One loop_ws at grid step ``ijk`` = (batch, i0, j0, k0) as i64 values."""
    d = plan.dim
    m, n, k = geo["m"], geo["n"], geo["k"]
    (bi, bj, bk), (ti, tj, tk), (i0n, j0n, k0n) = plan.blocks, plan.tile, plan.outer
    pi, pj, pk = plan.padding
    bat, i0, j0, k0 = ijk

    def bound(x0, t: int, blocks: int):
        return b.minsi(b.c(t), b.add(b.c(blocks), b.mul(x0, b.c(-t))))

    def pad(x0, last: int, p: int):
        return b.select(b.eq(x0, b.c(last)), b.c(p), b.c(0)) if p else b.c(0)

    zero = b.c(0)
    first_k, last_k = b.eq(k0, zero), b.eq(k0, b.c(k0n - 1))
    rs1 = b.ors(pad(i0, i0n - 1, pi), b.shl(pad(j0, j0n - 1, pj), 16), b.shl(pad(k0, k0n - 1, pk), 32))
    rs2 = b.ors(bound(i0, ti, bi), b.shl(bound(j0, tj, bj), 16), b.shl(bound(k0, tk, bk), 32))
    b.insn(LOOP_WS_CONFIG_BOUNDS, rs1, rs2)
    row_i = b.mul(i0, b.c(ti * d))  # first output row of the block
    col_j = b.mul(j0, b.c(tj * d))
    col_k = b.mul(k0, b.c(tk * d))
    a = b.add(bases["a"], b.add(b.mul(bat, b.c(m * k)), b.add(b.mul(row_i, b.c(k)), col_k)))
    if geo["b_transposed"]:
        b_off = b.add(b.mul(col_j, b.c(k)), col_k)
    else:
        b_off = b.add(b.mul(col_k, b.c(n)), col_j)
    bb = b.add(bases["b"], b.add(b.mul(bat, b.c(k * n)), b_off))
    b.insn(LOOP_WS_CONFIG_ADDRS_AB, a, bb)
    if "bias" in bases:
        dd = b.select(first_k, b.add(bases["bias"], b.mul(col_j, b.c(4))), zero)
    else:
        dd = zero
    c_addr = b.add(bases["c"], b.add(b.mul(bat, b.c(m * n)), b.add(b.mul(row_i, b.c(n)), col_j)))
    cc = b.select(last_k, c_addr, zero)
    b.insn(LOOP_WS_CONFIG_ADDRS_DC, dd, cc)
    b.insn(LOOP_WS_CONFIG_STRIDES_AB, k, k if geo["b_transposed"] else n)
    b.insn(LOOP_WS_CONFIG_STRIDES_DC, 0, n)
    # rs1: ex_accumulate (a bias was loaded, or an earlier K step's sums), activation; rs2: B transpose
    acc = b.c(1) if geo["bias"] else b.select(first_k, zero, b.c(1))
    act = b.c((ACT_RELU if geo["relu"] else 0) << 8)
    b.insn(LOOP_WS, b.ors(acc, act), 2 if geo["b_transposed"] else 0)


def _os_plan_of(fn, geo: dict, g: GemminiTarget) -> OsPlan | None:
    """The OS plan when ``gemmini.plan`` says the layer runs output-stationary, else None."""
    entries = ir.DictAttr(fn.attributes[PLAN_ATTR])
    if "dataflow" not in entries or ir.StringAttr(entries["dataflow"]).value != "OS":
        return None
    plan = plan_os(geo["m"], geo["n"], geo["k"], g, batch=geo["batch"], bias=geo["bias"])
    assert plan is not None, "the plan pass chose OS for a layer whose panels do not fit"
    return plan


def _plan_of(fn, geo: dict, g: GemminiTarget) -> MatmulPlan:
    """The plan the dump shows (``gemmini.plan``'s tile_ijk), so the IR says what runs."""
    entries = ir.DictAttr(fn.attributes[PLAN_ATTR])
    tile = tuple(ir.IntegerAttr(x).value for x in ir.ArrayAttr(entries["tile_ijk"]))
    half_sp, half_acc = g.sp_rows // 2, g.acc_rows // 2
    return MatmulPlan(geo["m"], geo["n"], geo["k"], geo["batch"], g.dim, tile, half_sp, half_acc, geo["bias"])  # type: ignore[arg-type]


def _emit_add(b: Builder, geo: dict, plan: AddPlan, bases: dict) -> None:
    """Residual add as Gemmini's resadd runs it: both operands moved into the accumulator as int8
    through the mvin scale unit (a overwriting, b accumulating), then moved out at scale 1.0."""
    w, d = plan.width, plan.dim
    act = ACT_RELU if geo["relu"] else 0
    for mover, scale in ((0, geo["a_scale"]), (1, geo["b_scale"])):
        # shrink (bit 2): int8 rows into the accumulator, through the scale unit
        rs1 = (f32_bits(scale) << 32) | (d << 16) | (1 << 8) | (mover << 3) | (1 << 2) | CONFIG_LD
        b.insn(CONFIG, rs1, w, f"config_ld {'AB'[mover]} scale {scale!r} stride {w}")
    b.insn(CONFIG, (act << 2) | CONFIG_ST, (ONE_F32 << 32) | w, "config_st scale 1.0")

    def chunk(offset, cols: int, rows) -> None:
        b.insn(MVIN, b.add(bases["a"], offset), local_operand(b, ACC, cols, rows), "mvin a")
        b.insn(MVIN2, b.add(bases["b"], offset), local_operand(b, ACC_ACCUMULATE, cols, rows), "mvin2 b accumulate")
        b.insn(MVOUT, b.add(bases["c"], offset), local_operand(b, ACC, cols, rows), "mvout")

    if plan.rows:

        def body(ivs) -> None:
            (c0,) = ivs
            rows = b.minsi(b.c(d), b.add(b.c(plan.rows), b.mul(c0, b.c(-d))))
            chunk(b.mul(c0, b.c(d * w)), w, rows)

        nest(b, [plan.chunks], [], body)
    if plan.tail:
        chunk(b.c(plan.rows * w), plan.tail, 1)


def _conv_plan_of(fn, geo: dict, g: GemminiTarget) -> ConvPlan:
    """The tiling the dump shows (``gemmini.plan``'s tile_orows_ocols_ochs_kchs)."""
    entries = ir.DictAttr(fn.attributes[PLAN_ATTR])
    tile = [ir.IntegerAttr(x).value for x in ir.ArrayAttr(entries["tile_orows_ocols_ochs_kchs"])]
    key = tuple(geo[n] for n in ("batch", "in_dim", "cin", "cout", "k", "stride", "padding", "dilation", "out_dim"))
    return ConvPlan(key, g.dim, *tile)


def report_entry(fn, geo: dict, g: GemminiTarget) -> dict:
    """The layer's entry in the schedule report (``Kernel.schedule``): it runs on Gemmini."""
    name = ir.StringAttr(fn.attributes["sym_name"]).value
    if geo["op"] == "conv2d_nhwc":
        cp = _conv_plan_of(fn, geo, g)
        how = f"Gemmini loop_conv_ws (WS): {cp.loops} loop(s), tiles of {cp.orows}x{cp.ocols} pixels x {cp.ochs} x {cp.kchs} channels"
        return {
            "op": name,
            "loops": [geo["batch"], geo["out_dim"], geo["out_dim"], geo["cout"], geo["cin"]],
            "iterators": ["parallel"] * 4 + ["reduction"],
            "tile_sizes": [1, cp.orows, cp.ocols, cp.ochs, cp.kchs],
            "vectorized": False,
            "accelerator": "gemmini",
            "reason": how,
        }
    if geo["op"] == "add":
        plan = plan_add(geo["elements"], g)
        how = f"Gemmini resadd: {plan.chunks} chunks of {g.dim} rows x {plan.width} (+ {plan.tail} tail)"
        return {
            "op": name,
            "loops": [geo["elements"]],
            "iterators": ["parallel"],
            "tile_sizes": [plan.width],
            "vectorized": False,
            "accelerator": "gemmini",
            "reason": how,
        }
    if geo["op"] == pooling.OP:
        pp = pooling.plan_pool(geo, g)
        return {
            "op": name,
            "loops": [geo["m"], geo["n"], geo["k"]],
            "iterators": ["parallel", "parallel", "reduction"],
            "tile_sizes": [pp.tile_i * g.dim, g.dim, pp.tile_k * g.dim],
            "vectorized": False,
            "accelerator": "gemmini",
            "reason": (
                f"Gemmini loop_ws (WS) + max pool {pp.kernel}/{pp.stride}/{pp.padding} on mvout: {pp.loops} loop(s) "
                f"without C, {len(pp.bands())} band(s) of {pp.rows_per_band} pooled rows an image"
            ),
        }
    os_plan = _os_plan_of(fn, geo, g)
    if os_plan is not None:
        return {
            "op": name,
            "loops": [geo["batch"], geo["m"], geo["n"], geo["k"]],
            "iterators": ["parallel", "parallel", "parallel", "reduction"],
            "tile_sizes": [1, g.dim, g.dim, g.dim * os_plan.chain_blocks],
            "vectorized": False,
            "accelerator": "gemmini",
            "reason": f"Gemmini OS, issued by the core: {os_plan.commands()} commands; {os_plan.describe()}",
        }
    plan = _plan_of(fn, geo, g)
    tiles = [t * g.dim for t in plan.tile]
    how = f"Gemmini loop_ws (WS): {plan.loops} loop(s) of {'x'.join(map(str, plan.tile))} blocks of DIM {g.dim}"
    return {
        "op": name,
        "loops": [geo["batch"], geo["m"], geo["n"], geo["k"]],
        "iterators": ["parallel", "parallel", "parallel", "reduction"],
        "tile_sizes": [1, *tiles],
        "vectorized": False,
        "accelerator": "gemmini",
        "reason": how,
    }


def _fields(*pairs: tuple[int, int]) -> int:
    """16-bit fields (value, lsb) of a loop_conv_ws config register."""
    out = 0
    for value, lsb in pairs:
        assert 0 <= value < 1 << 16, value
        out |= value << lsb
    return out


def _emit_conv(b: Builder, geo: dict, plan: ConvPlan, bases: dict) -> None:
    """One loop_conv_ws per tile of the plan's grid, its pads and DRAM offsets computed here (the
    grid is static); the K-channel tiles after the first add to the accumulator (no bias), only
    the last stores."""
    bsz, in_dim, cin, cout = geo["batch"], geo["in_dim"], geo["cin"], geo["cout"]
    k, st, pad, dil, od = geo["k"], geo["stride"], geo["padding"], geo["dilation"], geo["out_dim"]
    act = ACT_RELU if geo["relu"] else 0
    # config_ex: WS, the array steps `stride` input pixels between output pixels
    b.insn(CONFIG, (st << 16) | (DATAFLOW_WS << 2) | CONFIG_EX, 1 << 48, f"config_ex WS A stride {st}")
    b.insn(CONFIG, (act << 2) | CONFIG_ST, (f32_bits(geo["scale"]) << 32) | cout, f"config_st scale {geo['scale']!r}")
    dk = k + (dil - 1) * (k - 1)
    for bi in range(bsz):
        for orow in range(0, od, plan.orows):
            for ocol in range(0, od, plan.ocols):
                for och in range(0, cout, plan.ochs):
                    for kch in range(0, cin, plan.kchs):
                        orows, ocols = min(od - orow, plan.orows), min(od - ocol, plan.ocols)
                        ochs, kchs = min(cout - och, plan.ochs), min(cin - kch, plan.kchs)
                        irow, icol = orow * st - pad, ocol * st - pad
                        irows, icols = orows * st + dk - 1, ocols * st + dk - 1
                        lpad, upad = max(-icol, 0), max(-irow, 0)
                        rpad, dpad = max(icol + icols - in_dim, 0), max(irow + irows - in_dim, 0)
                        b.insn(
                            16,
                            _fields((bsz, 0), (in_dim, 16), (cin, 32), (cout, 48)),
                            _fields((od, 0), (od, 16), (st, 32), (pad, 48)),
                            "loop_conv_ws_config_1",
                        )
                        b.insn(
                            17,
                            _fields((k, 48)),
                            _fields((ochs, 0), (ocols, 16), (orows, 32), (1, 48)),
                            "loop_conv_ws_config_2",
                        )
                        b.insn(
                            18,
                            _fields((lpad, 0), (kchs, 16), (k, 32), (k, 48)),
                            _fields((dpad, 16), (upad, 32), (rpad, 48)),
                            "loop_conv_ws_config_3",
                        )
                        b.insn(19, _fields((orows, 48)), _fields((ocols, 0), (dil, 16)), "loop_conv_ws_config_4")
                        last, first = kch + kchs >= cin, kch == 0
                        w_addr = b.add(bases["w"], b.c(kch * cout + och))
                        out_off = ((bi * od + orow) * od + ocol) * cout + och
                        out_addr = b.add(bases["c"], b.c(out_off)) if last else b.c(0)
                        b.insn(20, w_addr, out_addr, "loop_conv_ws_config_5")
                        in_off = ((bi * in_dim + irow + upad) * in_dim + icol + lpad) * cin + kch
                        in_addr = b.add(bases["x"], b.c(in_off))
                        if not first:
                            bias = b.c(0)  # keep the partial sums of the previous input channels
                        elif "bias" in bases:
                            bias = b.add(bases["bias"], b.c(och * 4))
                        else:
                            bias = in_addr  # any address: no_bias loads zeros
                        b.insn(21, bias, in_addr, "loop_conv_ws_config_6")
                        no_bias = int(first and "bias" not in bases)
                        b.insn(LOOP_CONV_WS, no_bias, (act << 3) | 1, "loop_conv_ws")


def emit_layer(fn, g: GemminiTarget) -> None:
    geo = layer_geometry(fn)
    block = fn.regions[0].blocks[0]
    for op in reversed(list(block.operations)):
        op.erase()
    args = list(block.arguments)
    if geo["op"] == "conv2d_nhwc":
        b = Builder(g.dim)
        names = [ir.StringAttr(a).value for a in ir.ArrayAttr(fn.attributes["cosim_q.operands"])]
        with ir.InsertionPoint(block), fn.location:
            bases = {nm: b.address(v) for nm, v in zip(names, args, strict=False)}
            bases["c"] = b.address(args[len(names)])
            b.fence()
            _emit_conv(b, geo, _conv_plan_of(fn, geo, g), bases)
            b.fence()
            func.ReturnOp([])
        return
    if geo["op"] == "add":
        b = Builder(g.dim)
        with ir.InsertionPoint(block), fn.location:
            bases = {"a": b.address(args[0]), "b": b.address(args[1]), "c": b.address(args[2])}
            b.fence()
            _emit_add(b, geo, plan_add(geo["elements"], g), bases)
            b.fence()
            func.ReturnOp([])
        return
    os_plan = None if geo["op"] == pooling.OP else _os_plan_of(fn, geo, g)
    names = [ir.StringAttr(a).value for a in ir.ArrayAttr(fn.attributes["cosim_q.operands"])]
    roles = {"x": "a", "w": "b", "a": "a", "b": "b", "bias": "bias"}
    b = Builder(g.dim)
    with ir.InsertionPoint(block), fn.location:
        bases = {roles[nm]: b.address(v) for nm, v in zip(names, args, strict=False)}
        bases["c"] = b.address(args[len(names)])
        b.fence()
        if geo["op"] == pooling.OP:
            half = ir.IntegerAttr(ir.DictAttr(fn.attributes[PLAN_ATTR])["acc_half"]).value
            pooling.emit_pool(b, geo, pooling.plan_pool(geo, g), bases, half, _configs)
        elif os_plan is not None:
            emit_os(b, geo, os_plan, bases)
        else:
            plan = _plan_of(fn, geo, g)
            _configs(b, geo)
            nest(b, [geo["batch"], *plan.outer], [], lambda ijk: _loop_body(b, geo, plan, bases, ijk))
        b.fence()
        func.ReturnOp([])


def _output_in_place(call, layer_names: set[str], freed: set[str]) -> bool:
    """A layer call writing a temporary that is then only copied into one of ``forward``'s
    arguments writes that argument instead (Gemmini's mvout lands there; the copy would
    cost the core a load and a store per word: 3 000 instructions for a 64 x 64 result)."""
    if ir.FlatSymbolRefAttr(call.attributes["callee"]).value not in layer_names:
        return False
    temp = call.operands[len(call.operands) - 1]
    owner = temp.owner
    # .operation.name: an OpView's .name may be its attribute (get_global's symbol)
    if isinstance(owner, ir.Block) or owner.operation.name not in (
        "memref.alloc",
        "memref.alloca",
        "memref.get_global",
    ):
        return False
    users = [u.owner.operation for u in temp.uses]
    copies = [u for u in users if u.name == "memref.copy"]
    others = [u for u in users if u.name not in ("memref.copy", "memref.dealloc", "func.call")]
    calls = [u for u in users if u.name == "func.call"]
    if others or len(copies) != 1 or len(calls) != 1 or copies[0].operands[0] != temp:
        return False
    copy = copies[0]
    dst = copy.operands[1]
    if not isinstance(dst.owner, ir.Block) or dst.type != temp.type or len(list(dst.uses)) != 1:
        return False
    if copy.parent != call.parent:
        return False
    call.operands[len(call.operands) - 1] = dst
    copy.erase()
    for use in list(temp.uses):
        use.owner.erase()  # the dealloc
    if owner.operation.name == "memref.get_global":
        freed.add(ir.FlatSymbolRefAttr(owner.attributes["name"]).value)
    owner.erase()
    return True


def _drop_unused_globals(module, names: set[str]) -> None:
    used = {
        ir.FlatSymbolRefAttr(op.attributes["name"]).value
        for op in walk_ops(module.operation)
        if op.name == "memref.get_global"
    }
    for op in list(module.body.operations):
        if op.operation.name == "memref.global":
            sym = ir.StringAttr(op.attributes["sym_name"]).value
            if sym in names and sym not in used:
                op.operation.erase()


def emit_layers(module, g: GemminiTarget) -> list[dict]:
    """Give every planned layer function its instructions; returns their schedule-report entries."""
    fns = [f for f in layer_functions(module) if PLAN_ATTR in f.attributes]
    names = {ir.StringAttr(f.attributes["sym_name"]).value for f in fns}
    with module.context, ir.Location.unknown():
        calls = [op for op in walk_ops(module.operation) if op.name == "func.call"]
        freed: set[str] = set()
        for call in calls:
            _output_in_place(call, names, freed)
        _drop_unused_globals(module, freed)
        tidy = passmanager.PassManager.parse("func.func(canonicalize,cse)")
        entries = []
        for fn in fns:
            entries.append(report_entry(fn, layer_geometry(fn), g))
            emit_layer(fn, g)
            tidy.run(fn.operation)  # this function only: the rest compiles as on the scalar backend
    return entries
