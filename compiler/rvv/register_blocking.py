"""RVV register blocking: unroll-and-jam and unroll factors for loops around vector accumulators."""

from __future__ import annotations

from torch_mlir import ir

from compiler.mlir_utils import (
    child_ops,
    constant_int,
    drop_attribute,
    passes,
    restore,
    run_transform,
    static_layout,
    transform_sequence,
    walk_ops,
)

# Loops that carry a vector accumulator (a hoisted matmul row) run one vfmacc per
# step; unrolling them amortizes the loop's scalar overhead over several.
ACC_UNROLL = 4


# Vector registers the jammed accumulators and their shared B rows may occupy
# (of 32: v0 stays free for masks, a few for the register allocator's slack).
REG_BUDGET = 28


# Registers an unrolled k loop may fill with accumulators and B rows: all 32, v0
# included (its loads and fmas take no mask). At 31, two LMUL-4 column tiles of two
# jammed rows (16 accumulator registers, 8 of B rows) run k by 1; at 32 they are
# unrolled by 2: t1-small mm 32x64 @ 64x48 retires 8.5% fewer instructions (53.8%
# vector against 49.3%) in the same RTL cycles (a 3-to-8-channel 3x3 conv on 32x32:
# 4% fewer instructions, 2.4% more cycles).
VECTOR_REGS = 32


def loop_transform_script(attr: str, op: str, factor: int = ACC_UNROLL) -> str:
    """A transform script applying ``transform.loop.<op>`` by ``factor`` to loops tagged ``attr``."""
    return transform_sequence(
        f"    %l = transform.structured.match attributes {{{attr}}} in %root : (!transform.any_op) -> !transform.any_op\n"
        f"    transform.loop.{op} %l {{factor = {factor}}} : !transform.any_op"
    )


UNROLL_ATTR = "cosim_unroll"


JAM_ATTR = "cosim_jam"


def _trip_count(loop) -> int | None:
    vals = [constant_int(v) for v in loop.operands[:3]]
    if None in vals:
        return None
    lb, ub, step = vals
    return (ub - lb) // step if step > 0 else None


def _vector_regs(vtype, vlen: int) -> int:
    """Registers an LLVM register group of ``vtype`` occupies (LMUL rounded up to a power of two)."""
    vt = ir.VectorType(vtype)
    bits = vt.element_type.width * (vt.shape[-1] if vt.rank else 1)
    lmul = 1
    while lmul * vlen < bits:
        lmul *= 2
    return lmul


def _acc_registers(loop, vlen: int) -> int:
    """Vector registers the accumulators of ``loop`` (an scf.for yielding vectors) occupy."""
    regs = sum(_vector_regs(r.type, vlen) for r in loop.results if isinstance(r.type, ir.VectorType))
    return max(regs, 1)


_VECTOR_READS = ("vector.transfer_read", "vector.load", "vector.gather")


def _vector_reads(loop) -> list:
    return [o for o in walk_ops(loop) if o.name in _VECTOR_READS]


def _load_registers(loop, vlen: int) -> int:
    """Vector registers one step of ``loop`` loads into (the B rows of a matmul step)."""
    return sum(_vector_regs(o.results[0].type, vlen) for o in _vector_reads(loop))


def _depends_on(value, target, depth: int = 6) -> bool:
    """Whether ``value`` is ``target`` or computed from it by a few ops."""
    if value == target:
        return True
    owner = value.owner
    if depth == 0 or not hasattr(owner, "operands"):
        return False
    return any(_depends_on(v, target, depth - 1) for v in owner.operands)


def _loads_vary_with(loop, inner) -> bool:
    """Whether a vector read inside ``inner`` is indexed by ``loop``'s induction variable
    (``loop`` walks column tiles, each with its own B tile, not rows sharing one)."""
    iv = loop.regions[0].blocks[0].arguments[0]
    return any(any(_depends_on(v, iv) for v in o.operands) for o in _vector_reads(inner))


def _single_loop(op):
    """The only scf.for directly in ``op``'s body, or None."""
    loops = [b.operation for b in op.regions[0].blocks[0].operations if b.operation.name == "scf.for"]
    return loops[0] if len(loops) == 1 else None


def _acc_loop_inside(op):
    """The accumulator loop (an scf.for yielding vectors) directly inside ``op`` or one
    single loop further in (rows -> column tiles -> k), else None."""
    inner = _single_loop(op)
    for _ in range(2):
        if inner is None:
            return None
        if any(isinstance(r.type, ir.VectorType) for r in inner.results):
            return inner
        inner = _single_loop(inner)
    return None


def _short_k(acc, dlen: int) -> int | None:
    """K when ``acc`` is a k loop whose A scalars become lane splats of one row load
    per accumulator (compiler.rvv.lane_splats, once k is unrolled): a static trip count
    whose K elements fit one datapath row, accumulators of at most one row, and every
    scalar load indexed by k in its memref's innermost, unit-stride dimension. bmm
    8x8x8 on t1-blastoise: A's rows read once (a beat each) instead of its columns
    once per k (a beat per element)."""
    trips = _trip_count(acc)
    iv = acc.regions[0].blocks[0].arguments[0]
    loads = [o for o in walk_ops(acc) if o.name == "memref.load"]
    if not trips or not loads:
        return None
    for r in acc.results:
        if isinstance(r.type, ir.VectorType):
            vt = ir.VectorType(r.type)
            if vt.rank != 1 or vt.element_type.width * vt.shape[0] > dlen:
                return None
    for ld in loads:
        mtype = ir.MemRefType(ld.operands[0].type)
        if not isinstance(mtype.element_type, ir.FloatType) or trips * mtype.element_type.width > dlen:
            return None
        layout = static_layout(mtype)
        if layout is None or layout[0][-1] != 1 or ld.operands[-1] != iv:
            return None
    return trips


# Most rows (or column tiles) jammed into one k loop: past this the A scalars of
# one k step no longer fit the f registers.
MAX_JAM = 8


def _jam_factor(trips: int | None, acc_regs: int, load_regs: int = 0, loads_per_copy: bool = False) -> int:
    """Largest divisor of ``trips`` (at most MAX_JAM, any value: 3 column tiles of
    24 columns, 5 rows) whose copies of the accumulators plus the B rows in
    flight fit REG_BUDGET (``loads_per_copy``: the loop walks column tiles, each
    with its own B tile)."""
    if not trips:
        return 1
    load_regs = load_regs or acc_regs
    for f in range(min(trips, MAX_JAM), 1, -1):
        # jammed column tiles: each B tile is dead after its fmas, two in flight;
        # jammed rows: the (already jammed) B tiles of a k step serve every row
        loads = 2 * load_regs if loads_per_copy else load_regs
        if trips % f == 0 and f * acc_regs + loads <= REG_BUDGET:
            return f
    return 1


# Cycles the memory port takes per beat of a streamed B tile: 4 requests
# outstanding at a latency of 4 cycles move 4 beats per 5 cycles (both t1
# configs; the vector port is DLEN bits wide, so a beat is one datapath row).
PORT_CYCLES_PER_BEAT = 5 / 4


def _k_step_cycles(fr: int, fc: int, rows_per_tile: int) -> float:
    """Estimated cycles of one k step of ``fr`` jammed rows by ``fc`` jammed column
    tiles of ``rows_per_tile`` datapath rows each, per accumulator: the slowest of
    the arithmetic (a vfmacc per row and tile, a datapath row a cycle), the B
    tiles' memory beats (one read serves every row) and the core's issue (an flw
    per row, a load and an address add per tile, the vfmaccs; one a cycle)."""
    arith = fr * fc * rows_per_tile
    memory = fc * rows_per_tile * PORT_CYCLES_PER_BEAT
    issue = fr + 2 * fc + fr * fc
    return max(arith, memory, issue) / (fr * fc)


def _column_jam(cols: int | None, rows: int | None, acc_regs: int, load_regs: int, rows_per_tile: int) -> int:
    """Jam factor of a column-tile loop inside a row loop of ``rows`` iterations,
    chosen with the row jam the next round gives it (``_jam_factor``): the fewest
    estimated cycles per accumulator (``_k_step_cycles``), then the most
    accumulators, then the most column tiles. Jamming every column tile first
    can leave no registers for a second row: LeNet-5's first convolution (6 rows,
    4 tiles of 224 columns at LMUL 4 on t1-blastoise) jammed 4 tiles and 1 row,
    re-reading its 25 x 896 B matrix once per output channel (memory-bound); 1
    tile and 6 rows read it once (``tests/test_rvv_blocking.py``)."""
    best: tuple = ()
    for fc in range(min(cols or 1, MAX_JAM), 0, -1):
        if cols and cols % fc:
            continue
        if fc > 1 and fc * acc_regs + 2 * load_regs > REG_BUDGET:
            continue
        fr = _jam_factor(rows, fc * acc_regs, fc * load_regs)
        best = max(best, (-_k_step_cycles(fr, fc, rows_per_tile), fr * fc, fc))
    return best[2] if best else 1


def _rows_per_tile(acc, dlen: int) -> int:
    """Datapath rows of one accumulator of ``acc`` (its first vector result)."""
    for r in acc.results:
        if isinstance(r.type, ir.VectorType):
            vt = ir.VectorType(r.type)
            bits = vt.element_type.width * (vt.shape[-1] if vt.rank else 1)
            return max(1, -(-bits // dlen))
    return 1


def _column_jam_of(cols, rows, acc, acc_regs: int, load_regs: int, dlen: int) -> int:
    """Jam factor of the column-tile loop ``cols`` (directly around the accumulator
    loop ``acc``) inside ``rows``: ``_column_jam`` when ``rows`` is a row loop whose
    jammed copies would share the B tiles, else every column tile that fits."""
    trips = _trip_count(cols)
    if _writes_vary_with(rows, acc) and not _loads_vary_with(rows, acc):
        return _column_jam(trips, _trip_count(rows), acc_regs, load_regs, _rows_per_tile(acc, dlen))
    return _jam_factor(trips, acc_regs, load_regs, True)


def _writes_vary_with(loop, acc) -> bool:
    """Whether ``loop``'s iterations store ``acc``'s accumulators at different places
    (its induction variable reaches the store indices). A reduction loop around a
    hoisted accumulator (``x.mean(dim=(0, 2))``: dim 0 outside the row loop) stores
    every iteration's sum at the same place; jammed, its copies started from the
    same loaded value and overwrote each other (a wrong result on every vector config)."""
    iv = loop.regions[0].blocks[0].arguments[0]
    results = set(acc.results)
    stores = [
        o
        for o in walk_ops(loop)
        if o.name in ("vector.store", "vector.transfer_write", "memref.store") and o.operands[0] in results
    ]
    if not stores:
        return False
    return all(any(_depends_on(v, iv) for v in o.operands[2:]) for o in stores)


def mark_jam_loops(module, vlen: int, dlen: int) -> dict[int, int]:
    """A loop directly around an accumulator loop (the column tiles of a matmul row,
    or its rows) is unrolled-and-jammed, so one k step updates several
    accumulators: a B-row load serves every row, an A scalar every column tile.
    Called until nothing changes (column tiles first, then rows around them).
    Returns factor -> number of loops marked."""

    marked: dict[int, int] = {}

    def visit(op):
        for o in child_ops(op):
            if o.name == "scf.for" and not any(isinstance(r.type, ir.VectorType) for r in o.results):
                acc = _acc_loop_inside(o)
                if acc is not None:
                    mid = _single_loop(o)
                    direct = mid == acc
                    # around the k loop, or rows around a column loop that cannot be jammed
                    # (further): a jammable column loop is jammed first, its rows in the
                    # next round. A conv as a matmul of 8 rows by 34 column tiles of 32 on
                    # t1-small jams tiles by 2, then 2 rows around the 17 pairs; with the
                    # pairs left around the k loop each row reloads every B row (50% vector).
                    acc_regs, load_regs = _acc_registers(acc, vlen), _load_registers(acc, vlen)
                    k = _short_k(acc, dlen)
                    if k:  # unrolled: an A row beside each accumulator, the B rows of all K steps
                        acc_regs, load_regs = 2 * acc_regs, k * load_regs
                    stuck = direct or _column_jam_of(mid, o, acc, acc_regs, load_regs, dlen) == 1
                    if stuck and _writes_vary_with(o, acc):
                        varying = _loads_vary_with(o, acc)
                        f = _jam_factor(_trip_count(o), acc_regs, load_regs, varying)
                        if direct and varying and op.name == "scf.for":
                            f = _column_jam_of(o, op, acc, acc_regs, load_regs, dlen)
                        if f > 1:
                            o.attributes[JAM_ATTR] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), f)
                            marked[f] = marked.get(f, 0) + 1
                            continue
                    if direct:
                        continue
            visit(o)

    with module.context:
        visit(module.operation)
    return marked


# Scalar operands (A elements) one unrolled k step may load ahead of its vfmaccs:
# past the f register file they spill.
F_OPERANDS = 16


def mark_accumulator_loops(module, vlen: int, dlen: int) -> dict[int, int]:
    """Tag every loop carrying vector accumulators with its unroll factor: ACC_UNROLL,
    less when many jammed rows would each load an A scalar per step; all K steps of a
    short k loop (``_short_k``) whose accumulators, A rows and B rows fit the registers.
    Returns factor -> loops marked."""

    marked: dict[int, int] = {}

    def visit(op):
        for o in child_ops(op):
            if o.name == "scf.for":
                accs = sum(1 for r in o.results if isinstance(r.type, ir.VectorType))
                if accs:
                    # A scalars one step loads (one per jammed row; column tiles share them)
                    scalars = sum(1 for b in walk_ops(o) if b.name == "memref.load") or accs
                    # and the B rows of the unrolled steps must fit beside the accumulators
                    room = (VECTOR_REGS - _acc_registers(o, vlen)) // max(1, _load_registers(o, vlen))
                    f = max(1, min(ACC_UNROLL, F_OPERANDS // scalars, room))
                    trips = _trip_count(o)
                    k = _short_k(o, dlen)
                    if k and 2 * _acc_registers(o, vlen) + k * _load_registers(o, vlen) <= VECTOR_REGS:
                        f = k
                    # a factor dividing the trip count leaves no remainder loop
                    exact = [d for d in range(f, 1, -1) if trips and trips % d == 0]
                    f = exact[0] if exact else f
                    if f > 1:
                        o.attributes[UNROLL_ATTR] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), f)
                        marked[f] = marked.get(f, 0) + 1
            visit(o)

    with module.context:
        visit(module.operation)
    return marked


# Innermost scalar loops around vector work (rows of an elementwise op, pooling
# rows) are unrolled by up to this much: addresses become immediates and the
# loop's own increments and branch are paid once per several vector rows.
ROW_UNROLL = 4
# ... unless the body already holds more vector ops than this (a fully unrolled short
# k loop: bmm 8x8x8's 64 FMAs and 64 splats a batch; four copies are 1 100 words
# against the core's 256-word instruction cache)
ROW_BODY_MAX = 96


ROW_ATTR = "cosim_rows"


def mark_row_loops(module) -> dict[int, int]:
    """Tag innermost loops (no nested loop, no vector results) that contain vector
    ops with the largest of ROW_UNROLL, 2 dividing their trip count."""

    marked: dict[int, int] = {}

    def visit(op):
        for o in child_ops(op):
            if o.name != "scf.for":
                visit(o)
                continue
            body = [b.operation for b in o.regions[0].blocks[0].operations]
            if any(b.name == "scf.for" for b in body):
                visit(o)
                continue
            if any(isinstance(r.type, ir.VectorType) for r in o.results):
                continue
            if not any(b.name.startswith("vector.") for b in body):
                continue
            if sum(1 for b in walk_ops(o) if b.name.startswith("vector.")) > ROW_BODY_MAX:
                continue  # its increments and branch are amortized; copies only outgrow the I-cache
            trips = _trip_count(o)
            for f in (ROW_UNROLL, 2):
                if trips and trips % f == 0:
                    o.attributes[ROW_ATTR] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), f)
                    marked[f] = marked.get(f, 0) + 1
                    break

    with module.context:
        visit(module.operation)
    return marked


def unroll_and_jam(module, vlen: int, dlen: int) -> int:
    """Two rounds of unroll-and-jam (``mark_jam_loops``): column tiles, then the rows
    around them, each followed by canonicalize,cse. Returns how many loops were jammed."""

    jammed = 0
    for _round in range(2):  # column tiles, then the rows around them
        snapshot = module.operation.get_asm()
        marked = mark_jam_loops(module, vlen, dlen)
        try:
            for factor in marked:
                script = loop_transform_script(f"{JAM_ATTR} = {factor} : i64", "unroll_and_jam", factor)
                run_transform(module, script)
        except Exception:  # a loop MLIR cannot jam: keep the round's input (correct, less blocked)
            restore(module, snapshot)
            break
        jammed += sum(marked.values())
        # A jammed loop keeps its mark: the next round's script would jam it again
        # (a conv's 17 remaining column-tile pairs by 2: MLIR refused, and the rows
        # around them were not jammed either).
        drop_attribute(module, JAM_ATTR)
        passes("canonicalize,cse")(module)
        if not marked:
            break
    return jammed


def unroll_accumulator_loops(module, vlen: int, dlen: int) -> int:
    """Unroll the loops that carry vector accumulators (``mark_accumulator_loops``).
    Returns how many."""

    marked = mark_accumulator_loops(module, vlen, dlen)
    for factor in marked:
        run_transform(module, loop_transform_script(f"{UNROLL_ATTR} = {factor} : i64", "unroll", factor))
    return sum(marked.values())


def unroll_row_loops(module) -> int:
    """Unroll innermost vector loops by ROW_UNROLL or 2 (``mark_row_loops``). Returns how many."""

    marked = mark_row_loops(module)
    for factor in marked:
        run_transform(module, loop_transform_script(f"{ROW_ATTR} = {factor} : i64", "unroll", factor))
    return sum(marked.values())
