"""Accumulators that start from a fill: the fill's constant instead of a reload.

A matmul (or convolution) whose output starts at zero is a ``linalg.fill`` of the
output buffer followed by the contraction accumulating into it. After tiling and
unrolling, each output tile is a ``vector.load`` of the buffer into the k loop's
accumulator and a ``vector.store`` after it: the whole buffer is written with zeros
first and read back tile by tile (fp32 128^3 on t1-blastoise: 2 048 memory beats of
zeros, then 2 048 of reloads, their latency exposed at the start of every block of
rows). LLVM forwards neither (the widths differ).

This pass proves, by running the loop nest's index arithmetic (static loop bounds),
which loads of the nest after a constant fill read only the fill's values, and
replaces them with the constant. When every load of the buffer in the nest is
replaced and the nest overwrites every element the fill wrote, the fill goes too.

Loads of one datapath row (DLEN bits) or less stay: such a reload is one memory beat
whose latency hides behind the previous tile's stores, while the register copies
LLVM makes of a shared zero wait in the vector unit for those stores to read their
registers (WAR): bmm 8x8x8 on t1-blastoise 2 306 cycles reloading, 2 525 forwarded.

The proof is a replay in program order over an element map of the buffer: filled,
then dirty once the nest stores to an element. A load is forwarded when every
element it reads, in every iteration, is still filled. Anything it cannot follow
(a view of the buffer, an index it cannot evaluate, a write through an unknown
buffer, a call, a loop without static bounds around the buffer's accesses, more than
``MAX_STEPS`` interpreted ops) leaves the code as it is.
"""

from __future__ import annotations

import numpy as np
from torch_mlir import ir
from torch_mlir.dialects import arith

from compiler.mlir_utils import VIEW_OPS, constant_int, static_layout

MAX_STEPS = 2_000_000  # interpreted ops per nest; past it the nest is left alone
MAX_ELEMENTS = 1 << 24  # element map size (buffer elements)

_UNTOUCHED, _FILLED, _DIRTY = 0, 1, 2


class _Unknown(Exception):
    """The replay met something it cannot follow."""


def _op_name(owner) -> str:
    # an OpView's ``name`` may be an attribute (memref.get_global's symbol): ask its operation
    return getattr(owner, "operation", owner).name


def _root(value):
    """The buffer a memref value views, as a hashable key (block argument, allocation,
    or a global by name), or None if unknown."""
    while True:
        owner = value.owner
        if isinstance(owner, ir.Block):
            return ("arg", value)
        name = _op_name(owner)
        if name in ("memref.alloc", "memref.alloca"):
            return ("alloc", value)
        if name == "memref.get_global":
            return ("global", str(getattr(owner, "operation", owner).attributes["name"]))
        if name not in VIEW_OPS:
            return None
        value = owner.operands[0]


def _is_memref(value) -> bool:
    return isinstance(value.type, ir.MemRefType)


def _splat_constant(value):
    """The float of a uniform dense constant vector, or None."""
    owner = value.owner
    if isinstance(owner, ir.Block) or _op_name(owner) != "arith.constant":
        return None
    attr = owner.attributes["value"]
    if not isinstance(attr, ir.DenseFPElementsAttr) or not attr.is_splat:
        return None
    return attr.get_splat_value().value


def _walk(op):
    yield op
    for region in op.regions:
        for block in region.blocks:
            for o in block.operations:
                yield from _walk(o.operation)


def _touches(op, key) -> bool:
    """Does ``op`` (or anything nested in it) use a memref of buffer ``key``?"""
    return any(_is_memref(v) and _root(v) == key for o in _walk(op) for v in o.operands)


def _may_write_unknown(op) -> bool:
    """Could ``op`` write a buffer we cannot name (calls, stores through unknown views)?"""
    for o in _walk(op):
        if o.name in ("func.call", "llvm.call"):
            return True
        if o.name in ("vector.store", "memref.store", "vector.scatter", "vector.maskedstore", "vector.transfer_write"):
            mem = (
                o.operands[1] if o.name in ("vector.store", "memref.store", "vector.transfer_write") else o.operands[0]
            )
            if _root(mem) is None:
                return True
    return False


def _vector_len(vtype) -> int:
    vt = ir.VectorType(vtype)
    if vt.rank != 1 or vt.scalable:
        raise _Unknown("not a 1-D fixed vector")
    return vt.shape[0]


class _Replay:
    """Runs a loop nest's index arithmetic and records the accesses of one buffer."""

    def __init__(self, buf, key):
        self.buf, self.key = buf, key
        layout = static_layout(buf.type)
        if layout is None:
            raise _Unknown("dynamic layout")
        self.strides, self.offset = layout
        self.env: dict = {}
        self.steps = 0
        self.trace: list[tuple[str, object, int, int]] = []  # (load|store, op, start, length)
        self.has_access: dict = {}

    def _val(self, v) -> int:
        c = constant_int(v)
        if c is not None:
            return c
        try:
            return self.env[v]
        except KeyError:
            raise _Unknown("index not evaluable") from None

    def _contains_access(self, op) -> bool:
        # keyed by the operation: its Python objects differ per walk but hash and compare by identity
        if op not in self.has_access:
            self.has_access[op] = _touches(op, self.key)
        return self.has_access[op]

    def _address(self, indices) -> int:
        return self.offset + sum(self._val(i) * s for i, s in zip(indices, self.strides, strict=True))

    def run_ops(self, ops) -> None:
        for op in ops:
            self.steps += 1
            if self.steps > MAX_STEPS:
                raise _Unknown("too many steps")
            self._run(op)

    def _run(self, op) -> None:
        name = op.name
        if name in ("vector.load", "vector.store"):
            mem = op.operands[0] if name == "vector.load" else op.operands[1]
            if _root(mem) != self.key:
                return
            if mem != self.buf:
                raise _Unknown("access through a view")
            indices = op.operands[1:] if name == "vector.load" else op.operands[2:]
            vtype = op.results[0].type if name == "vector.load" else op.operands[0].type
            kind = "load" if name == "vector.load" else "store"
            self.trace.append((kind, op, self._address(indices), _vector_len(vtype)))
            return
        if name == "scf.for":
            if not self._contains_access(op):
                return
            lb, ub, step = (self._val(v) for v in op.operands[:3])
            body = op.regions[0].blocks[0]
            ops = [o.operation for o in body.operations]
            for i in range(lb, ub, step):
                self.env[body.arguments[0]] = i
                self.run_ops(ops)
            return
        if name in ("arith.addi", "arith.subi", "arith.muli", "arith.divui", "arith.remui", "arith.index_cast"):
            try:
                a = [self._val(v) for v in op.operands]
            except _Unknown:
                return  # not an index we need (yet); a later use raises
            r = {
                "arith.addi": lambda: a[0] + a[1],
                "arith.subi": lambda: a[0] - a[1],
                "arith.muli": lambda: a[0] * a[1],
                "arith.divui": lambda: a[0] // a[1],
                "arith.remui": lambda: a[0] % a[1],
                "arith.index_cast": lambda: a[0],
            }[name]()
            self.env[op.results[0]] = r
            return
        if name == "affine.linearize_index":
            self._linearize(op)
            return
        if self._contains_access(op):
            raise _Unknown(f"{name} uses the buffer")

    def _linearize(self, op) -> None:
        # affine.linearize_index [i0, i1, ...] by (b0, b1, ...): mixed radix, static bases only
        bases = list(ir.DenseI64ArrayAttr(op.attributes["static_basis"]))
        try:
            idx = [self._val(v) for v in op.operands]
        except _Unknown:
            return
        if len(bases) not in (len(idx), len(idx) - 1) or any(b < 0 for b in bases):
            return
        bases = bases[-(len(idx) - 1) :] if len(idx) > 1 else []
        r = 0
        for i, x in enumerate(idx):
            r = x if i == 0 else r * bases[i - 1] + x
        self.env[op.results[0]] = r


def _fill_nest(op):
    """(buffer, constant) if ``op`` only stores one splat constant into one buffer
    (a ``vector.store`` or a loop nest of them around scalar index arithmetic), else None."""
    if op.name == "scf.for" and len(op.results) > 0:
        return None
    stores = []
    for o in _walk(op):
        if o.name == "vector.store":
            stores.append(o)
            continue
        scalar = all(not isinstance(r.type, ir.VectorType) for r in o.results)
        if o.name in ("scf.for", "scf.yield", "affine.linearize_index") or (o.name.startswith("arith.") and scalar):
            continue
        return None
    if not stores:
        return None
    bufs = {s.operands[1] for s in stores}
    consts = {_splat_constant(s.operands[0]) for s in stores}
    if len(bufs) != 1 or len(consts) != 1 or None in consts:
        return None
    (buf,), (const,) = bufs, consts
    return (buf, const) if _root(buf) is not None else None


def _forward_in_block(block, dlen: int) -> int:
    ops = [o.operation for o in block.operations]
    done = 0
    for fi, fill in enumerate(ops):
        found = _fill_nest(fill)
        if found is None:
            continue
        buf, const = found
        key = _root(buf)
        if ir.MemRefType(buf.type).element_type != ir.F32Type.get():
            continue
        # the nest: the next op that uses the buffer; nothing between may write unknown memory
        nest = None
        for o in ops[fi + 1 :]:
            if _touches(o, key):
                nest = o
                break
            if _may_write_unknown(o):
                break
        if nest is None or _may_write_unknown(nest):
            continue
        try:
            filled = _Replay(buf, key)
            filled.run_ops([fill])
            replay = _Replay(buf, key)
            replay.run_ops([nest])
        except _Unknown:
            continue
        size = max((s + n for _, _, s, n in filled.trace + replay.trace), default=0)
        if size > MAX_ELEMENTS or min((s for _, _, s, _ in filled.trace + replay.trace), default=0) < 0:
            continue
        state = np.zeros(size, dtype=np.uint8)
        for _, _, s, n in filled.trace:
            state[s : s + n] = _FILLED
        forwardable: dict = {}
        loads: dict = {}
        for kind, op, s, n in replay.trace:
            if kind == "store":
                state[s : s + n] = _DIRTY
            else:
                loads[op] = op  # one entry per operation, whatever the walk that met it
                ok = n * 32 > dlen and bool(np.all(state[s : s + n] == _FILLED))
                forwardable[op] = forwardable.get(op, True) and ok
        chosen = [loads[k] for k, ok in forwardable.items() if ok]
        for load in chosen:
            with ir.InsertionPoint(load), load.location:
                vt = ir.VectorType(load.results[0].type)
                attr = ir.DenseElementsAttr.get_splat(vt, ir.FloatAttr.get(vt.element_type, const))
                c = arith.ConstantOp(vt, attr).result
            load.results[0].replace_all_uses_with(c)
            load.erase()
        done += len(chosen)
        all_loads_gone = len(chosen) == len(loads)
        if chosen and all_loads_gone and not np.any(state == _FILLED) and not _has_other_reads(nest, key, buf):
            fill.erase()
        if chosen:
            return done + _forward_in_block(block, dlen)  # the op list changed: start over
    for op in ops:
        for region in op.regions:
            for b in region.blocks:
                done += _forward_in_block(b, dlen)
    return done


def _has_other_reads(nest, key, buf) -> bool:
    """Does the nest read the buffer other than through the vector.loads replayed (all gone now)?"""
    for o in _walk(nest):
        for v in o.operands:
            if _is_memref(v) and _root(v) == key and o.name != "vector.store":
                return True
    return False


def forward_fills(module, dlen: int) -> int:
    """Replace every accumulator load longer than a ``dlen``-bit row proved to read a
    constant fill; returns how many."""
    done = 0
    with module.context, ir.Location.unknown():
        for op in module.body.operations:
            for region in op.operation.regions:
                for block in region.blocks:
                    done += _forward_in_block(block, dlen)
    return done
