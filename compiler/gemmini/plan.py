"""gemmini-layer-plan: each quantized layer's loop_ws tiling, computed from the config.

One loop_ws (funct 8..13) runs an I x J x K block of DIM x DIM tiles: it moves the bias
(D, int32) into the accumulator, A and B into the scratchpad, runs the weight-stationary
computes and moves C out through the accumulator's scale unit. Two loops can be in flight,
so each owns half of each memory: A and B of one loop must fit half the scratchpad minus
DIM rows (LoopMatmul ends B DIM rows below the half's top), C half the accumulator. A
matmul larger than that is a grid of loops (``outer`` = I0 x J0 x K0); the loops over K of
one output block keep accumulating into the same accumulator half (C stored only by the
last), as LoopMatmul alternates halves only when a loop stores C.

The tile sizes minimize the bytes the DMA moves (A once per column block of C, B once per
row block) plus a fixed cost per loop, the same trade ``tiled_matmul_auto`` makes by
growing square tiles until the memories are full, plus a cycle for every preload row read
from a scratchpad bank that also holds the loop's A (one read a bank a cycle).

The frontend imports every ``cosim_q`` op as a call of a private, bodiless layer function
(:mod:`compiler.frontend.layer_calls`). Here, on tensors (before bufferization), each
matmul, linear and bmm layer gets

- ``gemmini.plan``: the Gemmini-level form of the layer, readable in ``--dump-ir``: the
  shapes, the dataflow and why (:mod:`compiler.gemmini.output_stationary` estimates WS against
  OS; ``gemmini.dataflow`` forces one), the loop_ws tiling, where the tiles live
  in the scratchpad and accumulator, how bias, requantization and ReLU are folded in;
- a body that reads its arguments and returns a fresh tensor, so that bufferization treats
  it as any defined function: read-only arguments (no defensive copies at the call), the
  result an out-parameter the caller owns. gemmini-instructions replaces that body with
  the RoCC instructions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from torch_mlir import ir
from torch_mlir.dialects import bufferization, func, memref

from compiler.errors import CompileError
from compiler.frontend.layer_calls import NAMESPACE, OP_ATTR, OPERANDS_ATTR
from compiler.gemmini import pooling
from compiler.gemmini.output_stationary import DATAFLOWS, choose_dataflow, os_plan_attribute
from compiler.gemmini.plan_values import blocks, i64, ints
from compiler.targets import GemminiTarget

# Loop-start cost in DMA beats (config commands, the first tiles' latency): long enough that
# a grid of small loops loses to one big one, short against a tile's traffic.
LOOP_COST_BEATS = 64
MAX_LOOP_BOUND = 0xFFFF  # loop_ws's I, J, K fields are 16 bits


@dataclass(frozen=True)
class MatmulPlan:
    """C[M, N] = requant(A[M, K] @ B[K, N] + bias) per batch, as a grid of loop_ws loops."""

    m: int
    n: int
    k: int
    batch: int
    dim: int
    tile: tuple[int, int, int]  # I, J, K of one loop, in DIM blocks
    sp_half: int  # scratchpad rows per half
    acc_half: int  # accumulator rows per half
    bias: bool = True

    @property
    def blocks(self) -> tuple[int, int, int]:
        return blocks(self.m, self.dim), blocks(self.n, self.dim), blocks(self.k, self.dim)

    @property
    def outer(self) -> tuple[int, int, int]:
        """Loops along I, J, K."""
        return tuple(blocks(b, t) for b, t in zip(self.blocks, self.tile, strict=True))  # type: ignore[return-value]

    @property
    def padding(self) -> tuple[int, int, int]:
        """Elements of padding in the last block along M, N, K (loop_ws's pad_I/J/K)."""
        d = self.dim
        return tuple(b * d - x for b, x in zip(self.blocks, (self.m, self.n, self.k), strict=True))  # type: ignore[return-value]

    @property
    def loops(self) -> int:
        i0, j0, k0 = self.outer
        return i0 * j0 * k0 * self.batch

    @property
    def a_rows(self) -> int:
        ti, _tj, tk = self.tile
        return ti * tk * self.dim

    @property
    def b_rows(self) -> int:
        _ti, tj, tk = self.tile
        return tk * tj * self.dim

    @property
    def c_rows(self) -> int:
        ti, tj, _tk = self.tile
        return ti * tj * self.dim

    @property
    def macs(self) -> int:
        return self.m * self.n * self.k * self.batch

    def dma_bytes(self) -> int:
        """int8 A and B reads, int32 bias reads, int8 C writes."""
        i0, j0, _k0 = self.outer
        a = self.m * self.k * j0
        b = self.k * self.n * i0
        bias = 4 * self.n * self.dim * blocks(self.m, self.dim) if self.bias else 0
        return self.batch * (a + b + bias + self.m * self.n)

    def bank_conflict_rows(self, banks: int) -> int:
        """Preload rows that share a scratchpad bank with the loop's A, over the whole layer.

        A WS preload's B rows ride beside the previous tile's A rows, and a bank reads one row a
        cycle (``gemmini_spad``), so each preload row read from a bank that holds A costs the mesh
        a cycle. loop_ws places A at the bottom of its half and B just below the top, so the tile
        sizes decide whether they share a bank; a loop preloads every one of its B rows once.
        """
        bank_rows = 2 * self.sp_half // banks
        shared = 0
        for half in (0, 1):
            base = half * self.sp_half
            b_end = base + self.sp_half - self.dim
            b_start = b_end - self.b_rows
            a_banks = set(range(base // bank_rows, (base + self.a_rows - 1) // bank_rows + 1))
            for bank in a_banks:
                lo, hi = max(b_start, bank * bank_rows), min(b_end, (bank + 1) * bank_rows)
                shared += max(0, hi - lo)
        return shared * self.loops // 2  # loops alternate halves

    def regions(self) -> dict[str, str]:
        """Where one loop's tiles live (loop n takes half n % 2 of the scratchpad)."""
        d, sh, ah = self.dim, self.sp_half, self.acc_half
        b_end = sh - d
        return {
            "sp_a": f"rows [{0}, {self.a_rows}) + h*{sh}",
            "sp_b": f"rows [{b_end - self.b_rows}, {b_end}) + h*{sh}",
            "acc_c": f"rows [{0}, {self.c_rows}) + h*{ah}",
        }


def plan_matmul(m: int, n: int, k: int, g: GemminiTarget, *, batch: int = 1, bias: bool = True) -> MatmulPlan:
    """The loop_ws tiling of an M x N x K matmul on ``g`` with the least DMA traffic plus loop cost."""
    d = g.dim
    sp_half, acc_half = g.sp_rows // 2, g.acc_rows // 2
    sp_budget = sp_half - d
    bi, bj, bk = blocks(m, d), blocks(n, d), blocks(k, d)
    best: tuple[float, MatmulPlan] | None = None
    for ti in range(1, min(bi, MAX_LOOP_BOUND) + 1):
        for tj in range(1, min(bj, MAX_LOOP_BOUND) + 1):
            if ti * tj * d > acc_half:
                break
            deepest = min(bk, MAX_LOOP_BOUND, sp_budget // ((ti + tj) * d))
            if deepest < 1:
                break
            for tk in sorted({deepest, *_bank_split_depths(ti, tj, deepest, d, sp_half, g.sp_banks)}, reverse=True):
                plan = MatmulPlan(m, n, k, batch, d, (ti, tj, tk), sp_half, acc_half, bias)
                cost = (
                    plan.dma_bytes() / g.dma_bytes + LOOP_COST_BEATS * plan.loops + plan.bank_conflict_rows(g.sp_banks)
                )
                if best is None or cost < best[0]:
                    best = (cost, plan)
    if best is None:
        raise ValueError(f"Gemmini DIM {d}: not even one tile fits (scratchpad {g.sp_rows}, accumulator {g.acc_rows})")
    return best[1]


def _bank_split_depths(ti: int, tj: int, most: int, d: int, sp_half: int, banks: int) -> list[int]:
    """The deepest K (at most ``most``) for each split of a half's banks between A (from the
    bottom) and B (below the top), so that no preload reads a bank holding A."""
    bank_rows = 2 * sp_half // banks
    per_half = sp_half // bank_rows if sp_half % bank_rows == 0 else 0
    depths = []
    for a_banks in range(1, per_half):
        b_room = (per_half - a_banks) * bank_rows - d
        tk = min(most, a_banks * bank_rows // (ti * d), b_room // (tj * d))
        if tk >= 1:
            depths.append(tk)
    return depths


# ---------------------------------------------------------------- the pass
PLAN_ATTR = "gemmini.plan"
DATAFLOW_ATTR = "gemmini.dataflow"  # a layer's requested dataflow: auto (default), WS or OS
MAPPED = ("matmul", "linear", "bmm", "add", "conv2d_nhwc", "linear_pool")


def layer_functions(module) -> list:
    """The layer functions of ``module`` (private functions carrying ``cosim_q.op``)."""
    return [op for op in module.body.operations if op.operation.name == "func.func" and OP_ATTR in op.attributes]


def _attr(fn, name: str, default=None):
    key = f"{NAMESPACE}.{name}"
    if key not in fn.attributes:
        return default
    a = fn.attributes[key]
    if isinstance(a, ir.BoolAttr):
        return ir.BoolAttr(a).value
    if isinstance(a, ir.FloatAttr):
        return ir.FloatAttr(a).value
    return a


def _shapes(fn) -> tuple[dict[str, list[int]], list[int]]:
    ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
    names = [ir.StringAttr(a).value for a in ir.ArrayAttr(fn.attributes[OPERANDS_ATTR])]
    inputs = list(ftype.inputs)
    shapes = {n: list(ir.ShapedType(t).shape) for n, t in zip(names, inputs[: len(names)], strict=True)}
    # on tensors the result; once bufferized, the out-parameter after the operands
    out = ftype.results[0] if ftype.results else inputs[len(names)]
    return shapes, list(ir.ShapedType(out).shape)


def layer_geometry(fn) -> dict:
    """What a mapped layer computes: op, M, N, K, batch, whether B is stored transposed, bias, scale, relu."""
    kind = ir.StringAttr(fn.attributes[OP_ATTR]).value
    name = ir.StringAttr(fn.attributes["sym_name"]).value
    if kind not in MAPPED:
        raise CompileError(
            f"{name}: cosim_q.{kind} has no Gemmini lowering here (mapped: {', '.join(MAPPED)}); "
            "decompose it into aten integer ops to run it on the core"
        )
    shapes, out = _shapes(fn)
    if kind == "conv2d_nhwc":
        (batch, in_dim, _, cin), (k, _, _, cout) = shapes["x"], shapes["w"]

        def first(name: str) -> int:
            return ir.IntegerAttr(ir.ArrayAttr(fn.attributes[f"{NAMESPACE}.{name}"])[0]).value

        return {
            "op": kind,
            "batch": batch,
            "in_dim": in_dim,
            "cin": cin,
            "cout": cout,
            "k": k,
            "stride": first("stride"),
            "padding": first("padding"),
            "dilation": first("dilation"),
            "out_dim": out[1],
            "bias": "bias" in shapes,
            "scale": float(np.float32(_attr(fn, "scale"))),
            "relu": bool(_attr(fn, "relu", False)),
            "out": out,
        }
    if kind == "add":
        return {
            "op": kind,
            "elements": math.prod(out),
            "a_scale": float(np.float32(_attr(fn, "a_scale"))),
            "b_scale": float(np.float32(_attr(fn, "b_scale"))),
            "relu": bool(_attr(fn, "relu", False)),
            "out": out,
        }
    if kind == "linear_pool":
        (m, k), (n, _) = shapes["x"], shapes["w"]

        def integer(name: str) -> int:
            return ir.IntegerAttr(fn.attributes[f"{NAMESPACE}.{name}"]).value

        return {
            "op": kind,
            "name": name,
            "m": m,
            "n": n,
            "k": k,
            "batch": 1,
            "b_transposed": True,
            "bias": "bias" in shapes,
            "scale": float(np.float32(_attr(fn, "scale"))),
            "relu": bool(_attr(fn, "relu", False)),
            "image": [ir.IntegerAttr(x).value for x in ir.ArrayAttr(fn.attributes[f"{NAMESPACE}.image"])],
            "kernel": integer("kernel"),
            "stride": integer("stride"),
            "padding": integer("padding"),
            "out": out,
        }
    if kind == "matmul":
        (m, k), (_, n) = shapes["a"], shapes["b"]
        batch, b_t = 1, False
    elif kind == "linear":
        x, (n, k) = shapes["x"], shapes["w"]
        m, batch, b_t = math.prod(x[:-1]), 1, True
    else:
        (batch, m, k), (_, _, n) = shapes["a"], shapes["b"]
        b_t = False
    scale = float(np.float32(_attr(fn, "scale")))
    return {
        "op": kind,
        "m": m,
        "n": n,
        "k": k,
        "batch": batch,
        "b_transposed": b_t,
        "bias": "bias" in shapes,
        "scale": scale,
        "relu": bool(_attr(fn, "relu", False)),
        "out": out,
    }


def plan_attribute(geo: dict, plan: MatmulPlan, g: GemminiTarget, requested: str = "auto"):
    """The ``gemmini.plan`` dictionary: the layer as Gemmini will run it (``requested``: the layer's
    ``gemmini.dataflow``, auto, WS or OS; output_stationary.choose_dataflow decides)."""
    dataflow, os_plan, why = choose_dataflow(requested, plan, geo, g, LOOP_COST_BEATS)
    if os_plan is not None:
        return os_plan_attribute(geo, os_plan, g, why)

    def s(text: str):
        return ir.StringAttr.get(text)

    regions = plan.regions()
    bias = "mvin3 int32 into the accumulator, one row repeated (DRAM stride 0)" if geo["bias"] else "none"
    entries = {
        "layer": s(
            f"{geo['op']} {geo['m']}x{geo['k']} @ {geo['k']}x{geo['n']}"
            + (f" x{geo['batch']}" if geo["batch"] > 1 else "")
        ),
        "dataflow": s(dataflow),
        "why_dataflow": s(why),
        "hardware_loop": s("loop_ws"),
        "dim": i64(g.dim),
        "mnk": ints((geo["m"], geo["n"], geo["k"])),
        "batch": i64(geo["batch"]),
        "blocks_ijk": ints(plan.blocks),
        "tile_ijk": ints(plan.tile),
        "loops_ijk": ints(plan.outer),
        "padding_ijk": ints(plan.padding),
        "loop_ws_per_layer": i64(plan.loops),
        "sp_a": s(regions["sp_a"]),
        "sp_b": s(regions["sp_b"] + (" (B stored transposed)" if geo["b_transposed"] else "")),
        "acc_c": s(regions["acc_c"]),
        "double_buffered": s(f"scratchpad halves of {plan.sp_half} rows, accumulator halves of {plan.acc_half}"),
        "bias": s(bias),
        "requant": s(
            f"config_st: scale {geo['scale']!r} (fp32) on mvout, int8 saturation" + (", ReLU" if geo["relu"] else "")
        ),
        "macs": i64(plan.macs),
        "dma_bytes": i64(plan.dma_bytes()),
    }
    return ir.DictAttr.get(entries)


def requested_dataflow(fn) -> str:
    """The layer function's ``gemmini.dataflow`` (set by :func:`compiler.gemmini.with_dataflow`), else auto."""
    if DATAFLOW_ATTR not in fn.attributes:
        return "auto"
    value = ir.StringAttr(fn.attributes[DATAFLOW_ATTR]).value
    if value not in DATAFLOWS:
        raise CompileError(f"{DATAFLOW_ATTR} = {value!r}: use one of {', '.join(DATAFLOWS)}")
    return value


def _placeholder_body(fn) -> None:
    """Read every argument, return a fresh tensor: bufferization's view of the layer."""
    ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
    block = fn.regions[0].blocks.append(*ftype.inputs)
    with ir.InsertionPoint(block), fn.location:
        for arg in block.arguments:
            t = ir.RankedTensorType(arg.type)
            bufferization.ToBufferOp(ir.MemRefType.get(t.shape, t.element_type), arg, read_only=True)
        out = ir.RankedTensorType(ftype.results[0])
        buf = memref.AllocOp(ir.MemRefType.get(out.shape, out.element_type), [], [])
        result = bufferization.ToTensorOp(out, buf.result, restrict=True, writable=True)
        func.ReturnOp([result.result])


@dataclass(frozen=True)
class AddPlan:
    """A residual add over ``elements`` int8 values, seen as rows of ``width``: chunks of up to
    DIM rows are moved into the accumulator (a scaled, the b scaled and accumulated) and out."""

    elements: int
    dim: int
    width: int  # elements a row: DIM x MAX_BLOCK_LEN (one block move), or all of them

    @property
    def rows(self) -> int:
        return self.elements // self.width

    @property
    def tail(self) -> int:
        return self.elements % self.width

    @property
    def chunks(self) -> int:
        return blocks(self.rows, self.dim)

    @property
    def acc_rows(self) -> int:
        return blocks(self.width, self.dim) * self.dim


def plan_add(elements: int, g: GemminiTarget) -> AddPlan:
    return AddPlan(elements, g.dim, min(elements, g.dim * g.max_block_len))


def add_plan_attribute(geo: dict, plan: AddPlan, g: GemminiTarget):
    s = ir.StringAttr.get
    entries = {
        "layer": s(f"add of {plan.elements} int8 elements"),
        "dim": i64(g.dim),
        "hardware": s(
            f"mvin a (scale {geo['a_scale']!r}) and mvin2 b (scale {geo['b_scale']!r}, accumulate) into the "
            "accumulator as int8 (shrunk), mvout with scale 1.0" + (", ReLU" if geo["relu"] else "")
        ),
        "row_elements": i64(plan.width),
        "rows": i64(plan.rows),
        "chunks_of_dim_rows": i64(plan.chunks),
        "tail_elements": i64(plan.tail),
        "acc_rows": s(f"rows [0, {plan.acc_rows})"),
    }
    return ir.DictAttr.get(entries)


@dataclass(frozen=True)
class ConvPlan:
    """A convolution as a grid of loop_conv_ws loops: each loop one batch image, ``orows`` x ``ocols``
    output pixels, ``ochs`` output and ``kchs`` input channels, the whole kernel window."""

    geo: tuple  # (batch, in_dim, cin, cout, k, stride, padding, dilation, out_dim)
    dim: int
    orows: int
    ocols: int
    ochs: int
    kchs: int

    def rows(self, orows: int, ocols: int, ochs: int, kchs: int) -> tuple[int, int, int]:
        """Scratchpad rows of the input and weight tiles, accumulator rows of the output (LoopConv's sizes)."""
        _b, _i, _ci, _co, k, s, _p, dl, _o = self.geo
        dk = k + (dl - 1) * (k - 1)
        irows, icols = orows * s + dk - 1, ocols * s + dk - 1
        a = blocks(kchs, self.dim) * irows * icols
        b = blocks(ochs, self.dim) * k * k * kchs
        c = blocks(ochs, self.dim) * orows * ocols
        return a, b, c

    @property
    def outer(self) -> tuple[int, int, int, int, int]:
        """Loops along batch, output rows, output columns, output channels, input channels."""
        batch, _i, cin, cout, _k, _s, _p, _d, od = self.geo
        return (
            batch,
            blocks(od, self.orows),
            blocks(od, self.ocols),
            blocks(cout, self.ochs),
            blocks(cin, self.kchs),
        )

    @property
    def loops(self) -> int:
        return math.prod(self.outer)

    @property
    def macs(self) -> int:
        batch, _i, cin, cout, k, _s, _p, _d, od = self.geo
        return batch * od * od * cout * cin * k * k


def plan_conv(geo: dict, g: GemminiTarget) -> ConvPlan:
    """The loop_conv_ws tiling with the fewest loops (ties: more input channels per loop, fewer
    partial sums); each loop's input and weights fit half the scratchpad, its outputs half the
    accumulator, and its pixel counts the 8-bit fields."""
    d = g.dim
    key = tuple(geo[n] for n in ("batch", "in_dim", "cin", "cout", "k", "stride", "padding", "dilation", "out_dim"))
    od, cin, cout = geo["out_dim"], geo["cin"], geo["cout"]

    half_sp, half_acc = g.sp_rows // 2, g.acc_rows // 2
    k, st, dil = geo["k"], geo["stride"], geo["dilation"]
    dk = k + (dil - 1) * (k - 1)

    def splits(n: int, step: int, most: int) -> list[int]:
        """Tile sizes that split ``n`` into 1, 2, ... ``most`` loops (multiples of ``step`` when split)."""
        sizes = {n}
        for j in range(2, most + 1):
            t = blocks(blocks(n, j), step) * step
            if t < n:
                sizes.add(t)
        return sorted(sizes, reverse=True)

    best: tuple[tuple, ConvPlan] | None = None
    for kchs in splits(cin, d, 16):
        for ochs in splits(cout, d, 16):
            b_rows = blocks(ochs, d) * k * k * kchs
            if b_rows >= half_sp:
                continue
            for ocols in splits(min(od, 255), 1, od):
                icols = ocols * st + dk - 1
                # the most output rows whose input rows fit beside the weights and whose outputs fit
                by_sp = ((half_sp - b_rows) // (blocks(kchs, d) * icols) - dk + 1) // st
                orows = min(od, 255, by_sp, half_acc // (blocks(ochs, d) * ocols))
                if orows < 1:
                    continue
                plan = ConvPlan(key, d, orows, ocols, ochs, kchs)
                a, b, c = plan.rows(orows, ocols, ochs, kchs)
                assert a + b <= half_sp and c <= half_acc, plan
                score = (plan.loops, -kchs, -ochs)
                if best is None or score < best[0]:
                    best = (score, plan)
    if best is None:
        raise CompileError(f"Gemmini DIM {d}: no loop_conv_ws tile of this convolution fits ({geo})")
    return best[1]


def conv_plan_attribute(geo: dict, plan: ConvPlan, g: GemminiTarget):
    s = ir.StringAttr.get
    a, b, c = plan.rows(plan.orows, plan.ocols, plan.ochs, plan.kchs)
    entries = {
        "layer": s(
            f"conv2d NHWC {geo['batch']}x{geo['in_dim']}x{geo['in_dim']}x{geo['cin']} * HWIO "
            f"{geo['k']}x{geo['k']}x{geo['cin']}x{geo['cout']}, stride {geo['stride']}, padding {geo['padding']}, "
            f"dilation {geo['dilation']}"
        ),
        "dataflow": s("WS"),
        "hardware_loop": s("loop_conv_ws"),
        "dim": i64(g.dim),
        "tile_orows_ocols_ochs_kchs": ints((plan.orows, plan.ocols, plan.ochs, plan.kchs)),
        "loops_b_orow_ocol_och_kch": ints(plan.outer),
        "loop_conv_ws_per_layer": i64(plan.loops),
        "sp_input_weights": s(f"{a} + {b} of {g.sp_rows // 2} rows (one half per loop)"),
        "acc_out": s(f"{c} of {g.acc_rows // 2} rows (one half per stored loop)"),
        "bias": s("mvin3 int32 by the loop, one row per output pixel" if geo["bias"] else "none (zeros)"),
        "requant": s(
            f"config_st: scale {geo['scale']!r} (fp32) on mvout, int8 saturation" + (", ReLU" if geo["relu"] else "")
        ),
        "macs": i64(plan.macs),
    }
    return ir.DictAttr.get(entries)


def plan_layers(module, g: GemminiTarget) -> int:
    """Plan every layer function of ``module``; returns how many."""
    fns = layer_functions(module)
    with module.context, ir.Location.unknown():
        for fn in fns:
            if PLAN_ATTR in fn.attributes:
                continue
            geo = layer_geometry(fn)
            if geo["op"] == "add":
                fn.attributes[PLAN_ATTR] = add_plan_attribute(geo, plan_add(geo["elements"], g), g)
            elif geo["op"] == "conv2d_nhwc":
                fn.attributes[PLAN_ATTR] = conv_plan_attribute(geo, plan_conv(geo, g), g)
            elif geo["op"] == pooling.OP:
                fn.attributes[PLAN_ATTR] = pooling.plan_attribute(geo, pooling.plan_pool(geo, g), g)
            else:
                plan = plan_matmul(geo["m"], geo["n"], geo["k"], g, batch=geo["batch"], bias=geo["bias"])
                fn.attributes[PLAN_ATTR] = plan_attribute(geo, plan, g, requested_dataflow(fn))
            if not fn.regions[0].blocks:
                _placeholder_body(fn)
        pooling.accumulator_halves(module, PLAN_ATTR, g)
    return len(fns)
