"""Per-SoC compilation targets: what the backend must know about a config.

A :class:`Target` is derived from a :class:`configs.SocConfig` and nothing else:
the clang target flags come from ``march``/``mabi``/``xlen``, and on vector
configs the tile and vector sizes come from VLEN and the element width, so a
config with a VLEN nobody wrote a rule for works unchanged.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass

from compiler.errors import CompileError
from configs import SocConfig, load_soc

# Single-letter ISA extensions and the feature names zig's clang knows them by.
_LETTER_FEATURES = {"m": "m", "a": "a", "f": "f", "v": "v"}

# Element width of every tensor the kernels touch (f32 and i32 only: no D extension).
SEW = 32

# Widest fixed-length vector zig's LLVM 22 keeps as one register group, in
# elements (measured: a <512 x float> at VLEN 1024, 2048 and 4096 is split in
# two; a <500 x float> at VLEN 2048 became a 256 piece plus 128, 64, 32, 16 and
# 4 glued by slides: a relu of 1000 ran 38 vsetvli/vsetivli in 135 instructions).
MAX_FIXED_LANES = 256


@dataclass(frozen=True)
class VectorTarget:
    vlen: int
    dlen: int
    elen: int = 32

    def vlmax(self, lmul: int, sew: int = SEW) -> int:
        """Elements of ``sew`` bits in a register group of ``lmul`` registers."""
        return self.vlen * lmul // sew

    def tile_lanes(self, lmul: int) -> int:
        """Longest vector a tile may use at ``lmul``: VLMAX, or LLVM's widest
        fixed vector where the register group is wider (t1-blastoise at LMUL 8)."""
        return min(self.vlmax(lmul), MAX_FIXED_LANES)


@dataclass(frozen=True)
class GemminiTarget:
    """What the Gemmini backend reads from a config's ``[accelerator]`` (derived by
    :func:`sim.gemmini.params.gemmini_params`, the numbers the model and the RTL use)."""

    dim: int
    sp_rows: int
    acc_rows: int
    sp_banks: int
    acc_banks: int
    dma_bytes: int
    max_block_len: int  # DIM-wide int8 blocks one mvin/mvout moves
    max_block_len_acc: int  # DIM-wide int32 blocks one accumulator mvin moves
    dataflows: tuple[str, ...]
    loop_conv: bool


@dataclass(frozen=True)
class Target:
    soc: str
    xlen: int
    march: str
    mabi: str
    features: tuple[str, ...]
    vector: VectorTarget | None
    # Gemmini configs: the unit the backend maps quantized layers to (None: the scalar core only).
    gemmini: GemminiTarget | None = None

    def __post_init__(self) -> None:
        if isinstance(self.gemmini, dict):  # read back from a reproducer's target.json
            g = {**self.gemmini, "dataflows": tuple(self.gemmini["dataflows"])}
            object.__setattr__(self, "gemmini", GemminiTarget(**g))

    @property
    def triple(self) -> str:
        return f"riscv{self.xlen}-freestanding-none"

    @property
    def mcpu(self) -> str:
        return f"generic_rv{self.xlen}" + "".join(f"+{f}" for f in self.features)

    @property
    def index_bitwidth(self) -> int:
        # The C side builds memref descriptors with intptr_t fields: index == XLEN.
        return self.xlen

    @property
    def strategy(self) -> str:
        if self.gemmini is not None:
            return "gemmini"
        return "rvv" if self.vector else "scalar"

    def clang_flags(self) -> list[str]:
        return ["-target", self.triple, f"-mcpu={self.mcpu}", f"-mabi={self.mabi}"]

    def key(self) -> str:
        """Stable identity for caches: every field that changes generated code."""
        fields = (self.xlen, self.march, self.mabi, self.features, self.vector)
        text = repr(fields if self.gemmini is None else (*fields, self.gemmini))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def target_for(soc: SocConfig | str) -> Target:
    """The compilation target of a SoC config (name, path or loaded config)."""
    soc = load_soc(soc)
    features = []
    for ext in soc.isa_extensions:
        if ext == "i":
            continue
        if len(ext) == 1 and ext not in _LETTER_FEATURES:
            raise CompileError(
                f"{soc.name}: ISA letter {ext!r} in march {soc.march!r} is not supported by the compiler"
            )
        features.append(_LETTER_FEATURES.get(ext, ext))
    vector = None
    if soc.has_vector:
        acc = soc.accelerator
        vector = VectorTarget(vlen=acc.vlen, dlen=acc.dlen, elen=acc.elen)
    gemmini = _gemmini_target(soc) if soc.accelerator.kind == "gemmini" else None
    return Target(
        soc=soc.name,
        xlen=soc.xlen,
        march=soc.march,
        mabi=soc.mabi,
        features=tuple(features),
        vector=vector,
        gemmini=gemmini,
    )


def _gemmini_target(soc: SocConfig) -> GemminiTarget:
    # The one place the compiler reads sim/: the derived Gemmini numbers live there,
    # shared with the model, the C header generator and the RTL build.
    from sim.gemmini.params import gemmini_params

    p = gemmini_params(soc)
    return GemminiTarget(
        dim=p.dim,
        sp_rows=p.sp_rows,
        acc_rows=p.acc_rows,
        sp_banks=p.sp_banks,
        acc_banks=p.acc_banks,
        dma_bytes=p.dma_bytes,
        max_block_len=p.max_block_len,
        max_block_len_acc=p.max_block_len_acc,
        dataflows=tuple(p.dataflows),
        loop_conv=p.loop_conv,
    )


def without_gemmini(target: Target) -> Target:
    """``target`` for its core alone (a program with no layer the Gemmini backend maps)."""
    return dataclasses.replace(target, gemmini=None)


# ---------------------------------------------------------------------------
# RVV tiling plans: per linalg op, tile sizes and whether to vectorize.


@dataclass(frozen=True)
class OpShape:
    """What the strategy needs to know about one linalg op."""

    name: str  # e.g. "linalg.matmul", "linalg.generic"
    loop_ranges: tuple[int, ...]
    iterators: tuple[str, ...]  # "parallel" / "reduction" per loop
    projected_permutation: bool  # every indexing map is a projected permutation
    contraction: bool  # a multiply-accumulate over reduction loops (matmul family)
    # the innermost loop is not the innermost (contiguous) dim of some operand: a transpose
    transposed_inner: bool = False
    # most body values live at once (straight-line liveness): each is a vector register group
    live_values: int = 1


@dataclass(frozen=True)
class TilePlan:
    tile_sizes: tuple[int, ...]  # 0 = loop not tiled
    vectorize: bool
    reason: str = ""
    unroll: int = 1  # unroll factor of the innermost tile loop


def fit(extent: int, limit: int) -> int:
    """Largest power of two <= limit that divides extent.

    Full tiles keep vectors static (no masks), and power-of-two lengths map onto
    whole RVV register groups: LLVM splits a <24 x float> into 16 + 8 pieces and
    glues them with slides, which costs more than three 8-element iterations."""
    if extent <= limit:
        return extent
    return max(d for d in range(1, limit + 1) if extent % d == 0)


# A contraction's output row is split into column tiles so that one A scalar
# (an ``flw``) feeds several vfmacc: a k step of R jammed rows is R flw + Q
# B-row loads + R*Q vfmacc (+ about one address add per load). With Q = 1 every
# vfmacc.vf needs its own flw (at most half the instructions are vector); Q = 2
# and R >= 4 puts about 60% on the vector unit, Q = 3 about 70%.


def lanes(vt: VectorTarget) -> int:
    """fp32 elements the vector unit processes per cycle (DLEN / 32)."""
    return max(1, vt.dlen // SEW)


def _registers(w: int, vt: VectorTarget) -> int:
    """Registers a vector of ``w`` fp32 elements occupies (LMUL rounds up to a power of two)."""
    lmul = 1
    while lmul * vt.vlmax(1) < w:
        lmul *= 2
    return lmul


# Narrowest column tile worth a vector instruction of its own.
MIN_TILE = 4
# Register groups at least this full count as well used; among them the widest
# tile wins (fewest vector instructions per row: a Linear with one input row
# pays one B load and one vfmacc per tile and k).
MIN_FILL = 0.75


def column_tile(n: int, vt: VectorTarget) -> int:
    """Columns per vector of a contraction's output row of ``n`` columns.

    A divisor of ``n`` (full tiles, static vectors) of at most VLMAX at LMUL 4
    that leaves at least two tiles. Tiles of a register or more: the widest
    whose register group is at least MIN_FILL full (18 columns take an LMUL-4
    group of 32 slots, 12 an LMUL-2 group of 16: fuller groups leave room for
    more jammed rows), else the fullest; shorter tiles by being a multiple of the datapath width
    (``lanes``: 12 elements on 8 lanes cost as much as 16), then width, never
    narrower than ``max(2 * lanes, MIN_TILE)`` (a vfmacc.vf of one
    datapath row takes one cycle, so the core, issuing the flw and the B loads too, would
    become the bottleneck: measured on t1-blastoise's RTL, mm 16x32x24 in 3 tiles of 8
    took 32% more cycles than one vector of 24). Anything else (fewer than 8 columns,
    a prime) stays one vector (compiler.rvv.narrow_matmul_flattening takes those where it can)."""
    cap = min(vt.tile_lanes(4), n // 2)
    divisors = [w for w in range(2, cap + 1) if n % w == 0]
    if not divisors:
        return fit(n, vt.tile_lanes(4))
    whole = [w for w in divisors if w >= vt.vlmax(1)]
    if whole:
        fill = {w: w / (_registers(w, vt) * vt.vlmax(1)) for w in whole}
        full = [w for w in whole if fill[w] >= MIN_FILL]
        return max(full) if full else max(whole, key=lambda w: (fill[w], w))
    # shorter than a register: at least one datapath row and 4 elements (tiles of 2
    # would turn each k step into many tiny vfmacc), multiples of the lanes first
    short = [w for w in divisors if w >= max(2 * lanes(vt), MIN_TILE)]
    if short:
        return max(short, key=lambda w: (w % lanes(vt) == 0, w))
    return fit(n, vt.tile_lanes(4))


# A contraction with one output row (a Linear on one input) whose row fits one
# LMUL-4 vector of at least this many datapath rows stays one vector: the B rows
# stream from memory and nothing shares them, so splitting the row only splits
# each k step's load into shorter ones, each paying the memory port's latency.
# LeNet-5's three Linears on t1-blastoise (one input row; 120 columns in 3 tiles of
# 40, 5 beats a load, against one of 120): 14 255 forward cycles, 12 854 as one vector
# (``tests/test_rvv_blocking.py``).
LONG_ROW = 8


def _trailing_reductions(iterators: tuple[str, ...]) -> int:
    k = 0
    while k < len(iterators) and iterators[len(iterators) - 1 - k] == "reduction":
        k += 1
    return k


def plan_rvv(op: OpShape, vt: VectorTarget) -> TilePlan:
    """Tile sizes for one op on a vector target.

    Elementwise and reduction ops: vectorize the innermost loop with LMUL 8 register
    groups, every outer loop tiled by 1. Contractions (matmul, bmm): one output row
    segment of up to VLMAX(LMUL 4) columns per tile with k innermost by 1; after unit
    dimensions fold away each step is ``acc += a[i,k] * B[k, j:j+vl]`` (a vfmacc.vf),
    and the accumulator stays in registers across the k loop (hoisted).
    """
    n = len(op.loop_ranges)
    if n == 0:
        return TilePlan((), False, "rank-0 op")
    if not op.projected_permutation:
        return TilePlan((0,) * n, False, "indexing maps are not projected permutations (convolution/pooling window)")
    if any(r <= 0 for r in op.loop_ranges):
        return TilePlan((0,) * n, False, "dynamic or empty loop range")
    red = _trailing_reductions(op.iterators)
    if op.contraction and red and n - red >= 2 and op.iterators[n - red - 2 : n - red] == ("parallel", "parallel"):
        n_ext = op.loop_ranges[n - red - 1]
        nt = column_tile(n_ext, vt)
        if op.loop_ranges[n - red - 2] == 1 and nt < n_ext <= vt.tile_lanes(4) and n_ext >= LONG_ROW * lanes(vt):
            nt = n_ext  # one row: see LONG_ROW
        q = n_ext // nt
        outer = (1,) * (n - red - 1)
        return TilePlan(
            (*outer, nt, *(1,) * red),
            True,
            f"contraction: rows by 1, {q} column tile(s) of {nt} per A scalar, k by 1",
            1,
        )
    inner = op.loop_ranges[-1]
    if op.transposed_inner:
        # Vectors along a strided dim would be element-by-element gathers: rows of 1,
        # left to LLVM's loop vectorizer (which picks the contiguous side itself).
        return TilePlan((1,) * n, True, "transposing copy: innermost loop by 1 (LLVM vectorizes)")
    lmul = elementwise_lmul(op.live_values)
    t = fit(inner, vt.tile_lanes(lmul))
    # Outer loops by 1, reductions included (on buffers the output accumulates).
    outer = (1,) * (n - 1)
    return TilePlan((*outer, t), True, f"innermost loop by {t} elements (LMUL<={lmul}, {op.live_values} live values)")


def split_point(op: OpShape, vt: VectorTarget) -> tuple[int, int] | None:
    """(loop, extent of its first part) for an op whose full tiles would be too narrow.

    Tiles divide their loop (static vectors, no masks), so an extent without a
    useful divisor above VLMAX got tiles of a few elements: a Linear with N = 59
    on t1-small ran one-element vfmacc.vf, 258 293 instructions against rv32's
    307 835. Split there into a multiple of VLMAX and the rest (59 = 32 + 27), and
    each part gets its own plan. Only parallel loops are split: the contraction's
    column loop, an elementwise op's innermost loop."""
    n = len(op.loop_ranges)
    if n == 0 or not op.projected_permutation or any(r <= 0 for r in op.loop_ranges):
        return None
    red = _trailing_reductions(op.iterators)
    if op.contraction and red and n - red >= 2 and op.iterators[n - red - 2 : n - red] == ("parallel", "parallel"):
        loop, limit = n - red - 1, vt.tile_lanes(4)
        extent = op.loop_ranges[loop]
        narrow = column_tile(extent, vt) < max(2 * lanes(vt), MIN_TILE)
    elif op.transposed_inner or op.iterators[-1] != "parallel":
        return None
    else:
        loop, limit = n - 1, vt.tile_lanes(elementwise_lmul(op.live_values))
        extent = op.loop_ranges[loop]
        narrow = fit(extent, limit) < limit // 4
    if extent <= limit or not narrow:
        return None
    return loop, extent - extent % limit


# Vector registers an elementwise body's live values may fill (v0 is the mask
# register; the rest is slack for LLVM's scheduler).
LIVE_BUDGET = 24


def elementwise_lmul(live_values: int) -> int:
    """Widest LMUL (8, 4, 2, 1) whose register groups hold every live value of the
    body. LMUL 8 leaves four groups: a polynomial expansion (gelu's erf and exp)
    spilled whole groups there (t1-small gelu 5x36: 35 ``vl8r``, half the
    instructions scalar address arithmetic; at LMUL 2 no spill, 12% fewer cycles)."""
    for lmul in (8, 4, 2):
        if live_values * lmul <= LIVE_BUDGET:
            return lmul
    return 1
