"""Output-stationary (OS) matmuls: when the plan takes OS, and the instruction sequence it issues.

loop_ws is weight-stationary only, so an OS layer is issued by the core, block by block: per
output block (batch, i, j) of DIM x DIM, the bias row (mvin3, DRAM stride 0) into an accumulator
slot, then chains of DIM-wide K blocks, each a ``preload`` (no D: garbage; C: the slot, adding
to it) followed by ``compute_preloaded`` and ``compute_accumulated`` of A and B blocks held in
the scratchpad, then one ``mvout`` through the scale unit (requantization, ReLU). A's row panel
(all of K) is moved in once per block row; B's blocks once per layer when they fit beside it,
else B's column panel once per output block.

**The 20-bit rule.** In OS the PEs sum in Gemmini's 20-bit mesh output type (``PE.scala``; the
model ``sim/gemmini/model.py`` and the RTL wrap there, then saturate the shift-out to 20 bits),
while the reference sums in int32. A chain's sum of ``L`` int8 products is at most
``L x 128 x 128`` in magnitude, so a chain may cover at most ``OS_CHAIN_K = 31`` K elements
(31 x 2^14 < 2^19): then no sum can wrap or saturate, and the chains' results add up in the
32-bit accumulator (with the bias) as the reference's int32 does. A chain is ``31 // DIM`` K
blocks; DIM >= 32 cannot run OS exactly and takes WS.

**The choice** (``dataflow = "auto"``): the estimated cycles of both, in one unit (DMA beats of
``dma_bytes``, the array's DIM cycles a block, core cycles a command):

- WS (loop_ws): DMA beats of the loop_ws plan, ``LOOP_COST_BEATS`` a loop, and the array's fill
  and drain (2 x DIM) a loop;
- OS: DMA beats of the panels above, ``ISSUE_CYCLES`` a command the core issues (the instruction
  and its address arithmetic), and ``OS_CHAIN_DIMS`` x DIM a chain (fill, drain and the waits
  between output blocks that issuing from the core leaves exposed).

The array's DIM cycles a block are the same in both and left out. OS wins where a layer is a few
blocks (loop_ws's start cost dominates); a larger layer keeps loop_ws, whose commands the unit
generates by itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir

from compiler.gemmini.plan_values import blocks, i64
from compiler.targets import GemminiTarget

# Largest K elements one OS chain may sum in the PEs' 20-bit registers without wrapping (see above).
OS_CHAIN_K = ((1 << 19) - 1) // (128 * 128)
ISSUE_CYCLES = 6  # core cycles a core-issued Gemmini command costs: the RoCC instruction and its addresses
# Cycles a preload/compute chain costs, in DIMs: the array's fill and drain (2 x DIM) plus the preload's
# wait for the mesh to flush the previous output block and the mvout's wait for this one's drain, which
# the core-issued sequence cannot hide (checked on six shapes on the gemmini-dim16 RTL: README).
OS_CHAIN_DIMS = 5
DATAFLOWS = ("auto", "WS", "OS")


@dataclass(frozen=True)
class OsPlan:
    """C[M, N] = requant(A[M, K] @ B[K, N] + bias) per batch, block by block in OS."""

    m: int
    n: int
    k: int
    batch: int
    dim: int
    max_block_len: int
    b_resident: bool  # all of B's blocks stay in the scratchpad for the whole batch
    bias: bool
    a_buffers: int = 1  # A's row panels alternate between this many scratchpad buffers
    b_buffers: int = 1  # B's resident blocks (by batch) or column panels (by output block) likewise

    @property
    def blocks(self) -> tuple[int, int, int]:
        return blocks(self.m, self.dim), blocks(self.n, self.dim), blocks(self.k, self.dim)

    @property
    def chain_blocks(self) -> int:
        """K blocks a chain sums in the PEs (the 20-bit rule)."""
        return max(1, OS_CHAIN_K // self.dim)

    @property
    def chains(self) -> int:
        """Chains an output block takes."""
        return blocks(self.blocks[2], self.chain_blocks)

    @property
    def a_rows(self) -> int:
        """Scratchpad rows of one A row panel (one buffer)."""
        return self.blocks[2] * self.dim

    @property
    def b_rows(self) -> int:
        """Scratchpad rows of one B buffer: all of B's blocks, or one column panel."""
        return self.blocks[2] * self.dim * (self.blocks[1] if self.b_resident else 1)

    @property
    def b_base(self) -> int:
        """Scratchpad row of B's first buffer (after A's buffers)."""
        return self.a_buffers * self.a_rows

    @property
    def sp_rows_used(self) -> int:
        return self.a_buffers * self.a_rows + self.b_buffers * self.b_rows

    def b_row(self, j: int, kk: int) -> int:
        """Scratchpad row of B's block (kk, j), relative to its buffer's first row."""
        bk = self.blocks[2]
        return ((j * bk if self.b_resident else 0) + kk) * self.dim

    def commands(self) -> int:
        bi, bj, bk = self.blocks
        a_mvins = blocks(bk, self.max_block_len)
        b_mvins = bk * bj if self.b_resident else bk * bj * bi
        per_block = int(self.bias) + self.chains + bk + 1  # mvin3, preloads, computes, mvout
        return self.batch * (bi * a_mvins + b_mvins + bi * bj * per_block)

    def dma_bytes(self) -> int:
        bi = self.blocks[0]
        b = self.k * self.n * (1 if self.b_resident else bi)
        bias = 4 * self.n * self.dim * bi if self.bias else 0
        return self.batch * (self.m * self.k + b + bias + self.m * self.n)

    def cost(self, g: GemminiTarget) -> float:
        bi, bj, _bk = self.blocks
        fill_drain = OS_CHAIN_DIMS * self.dim * self.chains * bi * bj * self.batch
        return self.dma_bytes() / g.dma_bytes + ISSUE_CYCLES * self.commands() + fill_drain

    def describe(self) -> str:
        b = "B resident per batch" if self.b_resident else "B panel per output block"
        return (
            f"per output block: {'mvin3 bias, ' if self.bias else ''}{self.chains} chain(s) of <= "
            f"{self.chain_blocks} K blocks (preload C + computes), mvout; A panel per block row "
            f"({self.a_buffers} buffer(s)), {b} ({self.b_buffers} buffer(s))"
        )


def plan_os(m: int, n: int, k: int, g: GemminiTarget, *, batch: int = 1, bias: bool = True) -> OsPlan | None:
    """The OS plan of a matmul, or None when its scratchpad panels do not fit.

    B resident is preferred (it moves B in once a batch); then two buffers each for A's panel and a
    resident B (where there is a next one to load: a second block row or batch), so that the mvin of
    the next panel, which writes the other buffer, need not wait for the computes reading this one;
    else one. B's column panels (one an output block) keep one buffer: two ran slower on the
    gemmini-dim4 RTL (50x201x90: 387 712 cycles against 273 301; the likely cause, not confirmed
    by the counters, is the next block's mvin2s running ahead and competing with this block's
    computes)."""
    d = g.dim
    bi, bj = blocks(m, d), blocks(n, d)
    for resident in (True, False):
        b_loads = batch if resident else batch * bi * bj
        for buffers in (2, 1):
            plan = OsPlan(
                m, n, k, batch, d, g.max_block_len, resident, bias,
                a_buffers=min(buffers, batch * bi), b_buffers=min(buffers, b_loads) if resident else 1,
            )  # fmt: skip
            if plan.sp_rows_used <= g.sp_rows:
                return plan
    return None


def ws_cost(plan, g: GemminiTarget, loop_cost_beats: int) -> float:
    """The estimate of a loop_ws plan (:class:`compiler.gemmini.plan.MatmulPlan`) in the same unit."""
    return plan.dma_bytes() / g.dma_bytes + (loop_cost_beats + 2 * g.dim) * plan.loops


def os_refusal(g: GemminiTarget, b_transposed: bool) -> str | None:
    """Why this layer cannot run OS on ``g`` (None: it can)."""
    if "OS" not in g.dataflows:
        return f"the config's dataflows are {', '.join(g.dataflows)}"
    if g.dim > OS_CHAIN_K:
        return f"DIM {g.dim} > {OS_CHAIN_K}: one K block could wrap the PEs' 20-bit sums"
    if b_transposed:
        return "B is stored transposed (a linear's weights) and OS's one transposer carries A"
    return None


def choose_dataflow(requested: str, ws_plan, geo: dict, g: GemminiTarget, loop_cost_beats: int):
    """(dataflow, OsPlan or None, reason) for a matmul layer; ``requested``: auto, WS or OS."""
    if requested not in DATAFLOWS:
        raise ValueError(f"dataflow {requested!r}: use one of {', '.join(DATAFLOWS)}")
    refused = os_refusal(g, geo["b_transposed"])
    os_plan = None
    if refused is None:
        os_plan = plan_os(geo["m"], geo["n"], geo["k"], g, batch=geo["batch"], bias=geo["bias"])
        if os_plan is None:
            refused = "A's and B's panels do not fit the scratchpad"
    ws = ws_cost(ws_plan, g, loop_cost_beats)
    if requested == "WS":
        return "WS", None, "WS forced"
    if refused is not None:
        return "WS", None, ("OS forced, but " if requested == "OS" else "OS impossible: ") + refused
    os_est = os_plan.cost(g)
    figures = f"estimate WS {ws:.0f}, OS {os_est:.0f}"
    if requested == "OS":
        return "OS", os_plan, f"OS forced ({figures})"
    if os_est < ws:
        return "OS", os_plan, f"OS cheaper ({figures})"
    return "WS", None, f"WS cheaper ({figures})"


def os_plan_attribute(geo: dict, plan: OsPlan, g: GemminiTarget, why: str):
    """``gemmini.plan`` of a layer that runs output-stationary (no loop_ws: WS only)."""

    s = ir.StringAttr.get
    entries = {
        "layer": s(
            f"{geo['op']} {geo['m']}x{geo['k']} @ {geo['k']}x{geo['n']}"
            + (f" x{geo['batch']}" if geo["batch"] > 1 else "")
        ),
        "dataflow": s("OS"),
        "why_dataflow": s(why),
        "hardware_loop": s("none: preload / compute / mvout issued by the core"),
        "dim": i64(g.dim),
        "mnk": ir.ArrayAttr.get([i64(v) for v in (geo["m"], geo["n"], geo["k"])]),
        "batch": i64(geo["batch"]),
        "blocks_ijk": ir.ArrayAttr.get([i64(v) for v in plan.blocks]),
        "os_sequence": s(plan.describe()),
        "os_chain_k_blocks": i64(plan.chain_blocks),
        "sp_a": s(f"rows [0, {plan.a_rows}) + a*{plan.a_rows}, a < {plan.a_buffers}: alternating by block row"),
        "sp_b": s(
            f"rows [{plan.b_base}, {plan.b_base + plan.b_rows}) + b*{plan.b_rows}, b < {plan.b_buffers}: "
            + ("alternating by batch" if plan.b_resident else "alternating by output block")
        ),
        "acc_c": s(f"rows [0, {2 * g.dim}): two slots, alternating by output block (across batches)"),
        "bias": s("mvin3 int32 into the accumulator slot, one row repeated" if geo["bias"] else "none"),
        "requant": s(
            f"config_st: scale {geo['scale']!r} (fp32) on mvout, int8 saturation" + (", ReLU" if geo["relu"] else "")
        ),
        "macs": i64(plan.m * plan.n * plan.k * plan.batch),
        "dma_bytes": i64(plan.dma_bytes()),
        "commands": i64(plan.commands()),
    }
    return ir.DictAttr.get(entries)


# ---------------------------------------------------------------- the instructions
def emit_os(b, geo: dict, plan: OsPlan, bases: dict) -> None:
    """The OS sequence of a planned matmul (``b``: a :class:`compiler.gemmini.rocc.Builder` in the layer
    function; ``bases``: i64 addresses of a, b, c and bias)."""
    from compiler.gemmini import rocc

    d = plan.dim
    m, n, k = geo["m"], geo["n"], geo["k"]
    bi, bj, bk = plan.blocks
    act = rocc.ACT_RELU if geo["relu"] else 0
    # config_ex: OS, A through the transposer (its columns enter the array), scale 1.0, shift 0, C stride 1
    b.insn(rocc.CONFIG, (rocc.ONE_F32 << 32) | (1 << 16) | rocc.CONFIG_EX, 1 << 48, "config_ex OS")
    b.insn(
        rocc.CONFIG,
        (act << 2) | rocc.CONFIG_ST,
        (rocc.f32_bits(geo["scale"]) << 32) | n,
        f"config_st scale {geo['scale']!r}",
    )
    for mover, stride in ((0, k), (1, n), (2, 0)):
        rs1 = (rocc.ONE_F32 << 32) | (d << 16) | (1 << 8) | (mover << 3) | rocc.CONFIG_LD
        b.insn(rocc.CONFIG, rs1, stride, f"config_ld {'ABD'[mover]} stride {stride}")

    def buffer(seq, count: int, rows: int, base: int):
        """First scratchpad row of buffer ``seq mod count`` of ``rows`` rows from ``base``."""
        if count == 1:
            return b.c(base)
        return b.add(b.c(base), b.mul(b.rem(seq, b.c(count)), b.c(rows)))

    def b_blocks_of(b_buf, j):
        """Scratchpad row of B's block (0, j) in buffer row ``b_buf``."""
        return b.add(b_buf, b.mul(j, b.c(plan.b_row(1, 0)))) if plan.b_resident else b_buf

    def b_panel(bat, j, j_cols, b_buf) -> None:
        """B's blocks (kk, j) for every kk: one mvin2 of up to DIM rows of K each."""
        for kk in range(bk):
            rows = min(d, k - kk * d)
            src = b.add(bases["b"], b.add(b.mul(bat, b.c(k * n)), b.add(b.c(kk * d * n), b.mul(j, b.c(d)))))
            local = b.add(b_blocks_of(b_buf, j), b.c(kk * d))
            b.insn(rocc.MVIN2, src, b.ors(b.shl(b.c(rows), 48), b.shl(j_cols, 32), local), "mvin2 B block")

    def cols_of(j):
        return b.minsi(b.c(d), b.add(b.c(n), b.mul(j, b.c(-d))))

    def per_batch(ivs) -> None:
        (bat,) = ivs
        b_buf = None
        if plan.b_resident:
            b_buf = buffer(bat, plan.b_buffers, plan.b_rows, plan.b_base)
            rocc.nest(b, [bj], [], lambda jv: b_panel(bat, jv[0], cols_of(jv[0]), b_buf))
        rocc.nest(b, [bi], [], lambda iv: per_row(bat, iv[0], b_buf))

    def per_row(bat, i, b_buf) -> None:
        rows_i = b.minsi(b.c(d), b.add(b.c(m), b.mul(i, b.c(-d))))
        a_row = b.add(bases["a"], b.add(b.mul(bat, b.c(m * k)), b.mul(i, b.c(d * k))))
        row_seq = b.add(b.mul(bat, b.c(bi)), i)  # block rows in issue order, across batches
        a_buf = buffer(row_seq, plan.a_buffers, plan.a_rows, 0)
        for kk0 in range(0, bk, plan.max_block_len):  # A's row panel, up to max_block_len blocks a mvin
            cols = min(k - kk0 * d, plan.max_block_len * d)
            local = b.ors(b.shl(rows_i, 48), b.c(cols << 32), b.add(a_buf, b.c(kk0 * d)))
            b.insn(rocc.MVIN, b.add(a_row, b.c(kk0 * d)), local, "mvin A panel")
        rocc.nest(b, [bj], [], lambda jv: per_block(bat, i, jv[0], rows_i, row_seq, a_buf, b_buf))

    def per_block(bat, i, j, rows_i, row_seq, a_buf, b_buf) -> None:
        cols_j = cols_of(j)
        block_seq = b.add(b.mul(row_seq, b.c(bj)), j)  # output blocks in issue order, across batches
        slot = b.mul(b.rem(block_seq, b.c(2)), b.c(d))  # two accumulator slots, alternating
        sizes = b.ors(b.shl(rows_i, 48), b.shl(cols_j, 32))
        if not plan.b_resident:
            b_buf = buffer(block_seq, plan.b_buffers, plan.b_rows, plan.b_base)
            b_panel(bat, j, cols_j, b_buf)
        if "bias" in bases:
            src = b.add(bases["bias"], b.mul(j, b.c(4 * d)))
            b.insn(rocc.MVIN3, src, b.ors(sizes, b.c(rocc.ACC), slot), "mvin3 bias rows")
        b_blocks = b_blocks_of(b_buf, j)
        for c0 in range(0, bk, plan.chain_blocks):
            into = rocc.ACC_ACCUMULATE if ("bias" in bases or c0) else rocc.ACC
            b.insn(
                rocc.PRELOAD,
                rocc.GARBAGE_ADDR | (d << 32) | (d << 48),
                b.ors(sizes, b.c(into), slot),
                "preload C (no D)",
            )
            for kk in range(c0, min(bk, c0 + plan.chain_blocks)):
                kc = min(d, k - kk * d)
                a_op = b.ors(b.shl(rows_i, 48), b.c(kc << 32), b.add(a_buf, b.c(kk * d)))
                b_op = b.ors(b.c(kc << 48), b.shl(cols_j, 32), b.add(b_blocks, b.c(kk * d)))
                funct = rocc.COMPUTE_PRELOADED if kk == c0 else rocc.COMPUTE_ACCUMULATED
                b.insn(funct, a_op, b_op)
        dst = b.add(bases["c"], b.add(b.mul(bat, b.c(m * n)), b.add(b.mul(i, b.c(d * n)), b.mul(j, b.c(d)))))
        b.insn(rocc.MVOUT, dst, b.ors(sizes, b.c(rocc.ACC), slot), "mvout C block")

    rocc.nest(b, [geo["batch"]], [], per_batch)
