"""Transcendentals to f32 polynomials, so no kernel ever calls libm.

MLIR's ``math-expand-ops`` already rewrites tanh (via exp), rsqrt (1/sqrt) and a
few more; the polynomial-approximation patterns are not registered in our MLIR
Python build, so ``exp`` and ``erf`` are expanded here, on scalar or vector f32
operands, before vectorization (so the expansions vectorize with the op around them).

- exp: Cody-Waite range reduction x = k*ln2 + r (|r| <= ln2/2), a degree-7
  Taylor polynomial of e^r (relative error < 1e-8 on that interval), then
  scaling by 2^k built in the exponent bits as two normal factors 2^(k>>1) and
  2^(k-(k>>1)), so results that overflow become inf and those in the subnormal
  range round once, as in eager PyTorch. Inputs are clamped to [-104, 89]
  (beyond them exp is 0 or inf in f32; -inf and +inf land there too) and a NaN
  input gives NaN.
- erf: Abramowitz & Stegun 7.1.26 (absolute error <= 1.5e-7 in exact arithmetic,
  4.1e-7 measured in f32 over [-6, 6]) on |x|, sign copied back.
- log: x = 2^e * m with m in [sqrt(1/2), sqrt(2)) from the exponent bits
  (subnormals scaled by 2^23 first), then log(m) = f - f^2/2 + f^3 P(f) with
  f = m - 1 and Cephes' degree-8 ``logf`` coefficients, plus e*ln2 in two
  parts. 0 gives -inf, negatives and NaN give NaN, +inf stays +inf.
- log1p: log(u) * x / (u - 1) with u = 1 + x (x itself where u rounds to 1),
  which keeps log1p's accuracy for small x.
- sin, cos: x = k pi/2 + r with pi/2 in three parts (Cody-Waite), Cephes'
  sinf/cosf polynomials on |r| <= pi/4, the quadrant k mod 4 picks +-sin r or
  +-cos r. Measured against PyTorch: <= 2 ULP for |x| <= 1000, absolute error
  < 1e-6 up to 65536 (beyond it the reduction loses bits; past 2^30 k no longer
  fits). inf and NaN give NaN, sin(-0.0) = -0.0.
- floor and ceil: truncation through an integer for |x| < 2^23
  (larger floats are integers already), one down (floor) or up (ceil) where
  truncation went the other way; the sign is copied back (-0.0, ceil(-0.5)).
"""

from __future__ import annotations

from torch_mlir import ir

from compiler.errors import CompileError, short_location

# What MLIR's math-expand-ops rewrites for us (the ``math-expand-ops`` pass, before this
# module's): all it knows but ceil, whose expansion loses the sign of a -0.0 result
# (ceil(-0.5)); this module does ceil.
MLIR_EXPANDED = "ctlz,tan,sinh,cosh,asinh,acosh,atanh,tanh,fma,exp2,powf,roundeven,round,rsqrt,fpowi"

NATIVE_MATH = {"math.sqrt", "math.absf", "math.absi", "math.copysign", "math.fma"}

LOG2E = 1.4426950408889634
LN2_HI = 0.693359375
LN2_LO = -2.12194440e-4
EXP_LO, EXP_HI = -104.0, 89.0  # exp(-104) rounds to 0 and exp(89) to inf in f32
ERF_P = 0.3275911
ERF_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)
SQRT2 = 1.4142135623730951
# Cephes logf: P(f), highest degree first
LOG_P = (
    7.0376836292e-2,
    -1.1514610310e-1,
    1.1676998740e-1,
    -1.2420140846e-1,
    1.4249322787e-1,
    -1.6668057665e-1,
    2.0000714765e-1,
    -2.4999993993e-1,
    3.3333331174e-1,
)
MIN_NORMAL = 1.1754943508222875e-38
# pi/2 in three parts (Cody-Waite); the first two have few enough bits that
# k * part is exact for |k| < 2^16, i.e. |x| < ~1e5
PIO2 = (1.5703125, 4.837512969970703125e-4, 7.54978995489188216e-8)
TWO_OVER_PI = 0.6366197723675814
TRIG_EXACT = 65536.0  # |x| below which the reduction is accurate (k * part exact)
TRIG_MAX = 1073741824.0  # 2^30: k still fits an i32 (larger |x|: sin/cos of 0, documented)
# Cephes sinf / cosf on [-pi/4, pi/4]: highest degree first
SIN_P = (-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1)
COS_P = (2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2)
TWO_23 = 8388608.0


class _Builder:
    """Creates arith/math ops before ``anchor`` with the type of ``like``."""

    def __init__(self, anchor, like) -> None:
        self.t = like.type
        self.loc = anchor.location
        self.ip = ir.InsertionPoint(anchor)
        vt = ir.VectorType(self.t) if isinstance(self.t, ir.VectorType) else None
        self.shape = list(vt.shape) if vt else None
        self.i32 = ir.IntegerType.get_signless(32)
        self.it = ir.VectorType.get(self.shape, self.i32) if vt else self.i32
        self.i1 = (
            ir.VectorType.get(self.shape, ir.IntegerType.get_signless(1)) if vt else ir.IntegerType.get_signless(1)
        )

    def _op(self, name, operands, result, attrs=None):
        op = ir.Operation.create(
            name, results=[result], operands=operands, attributes=attrs or {}, loc=self.loc, ip=self.ip
        )
        return op.result

    def const(self, value: float):
        attr = ir.FloatAttr.get(ir.F32Type.get(), value)
        if self.shape is not None:
            attr = ir.DenseElementsAttr.get_splat(self.t, attr)
        return self._op("arith.constant", [], self.t, {"value": attr})

    def iconst(self, value: int):
        attr = ir.IntegerAttr.get(self.i32, value)
        if self.shape is not None:
            attr = ir.DenseElementsAttr.get_splat(self.it, attr)
        return self._op("arith.constant", [], self.it, {"value": attr})

    def bin(self, name, a, b):
        return self._op(f"arith.{name}", [a, b], self.t)

    def add(self, a, b):
        return self.bin("addf", a, b)

    def mul(self, a, b):
        return self.bin("mulf", a, b)

    def sub(self, a, b):
        return self.bin("subf", a, b)

    def div(self, a, b):
        return self.bin("divf", a, b)

    def fma(self, a, b, c):
        return self.add(self.mul(a, b), c)

    def cmpf(self, predicate: int, a, b):
        pred = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), predicate)
        return self._op("arith.cmpf", [a, b], self.i1, {"predicate": pred})

    def olt(self, a, b):
        return self.cmpf(4, a, b)

    def isnan(self, a):
        return self.cmpf(14, a, a)  # uno: unordered

    def select(self, c, a, b):
        return self._op("arith.select", [c, a, b], self.t)


def _exp(b: _Builder, x):
    nan = b.isnan(x)
    x_in = x
    x = b.bin("maxnumf", x, b.const(EXP_LO))
    x = b.bin("minnumf", x, b.const(EXP_HI))
    t = b.mul(x, b.const(LOG2E))
    half = b.select(b.olt(t, b.const(0.0)), b.const(-0.5), b.const(0.5))
    k = b._op("arith.fptosi", [b.add(t, half)], b.it)  # round half away from zero
    kf = b._op("arith.sitofp", [k], b.t)
    r = b.sub(x, b.mul(kf, b.const(LN2_HI)))
    r = b.sub(r, b.mul(kf, b.const(LN2_LO)))
    p = b.const(1.0 / 5040)
    for c in (1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 0.5, 1.0, 1.0):
        p = b.fma(p, r, b.const(c))
    # 2^k as two normal factors (k in [-150, 128]): each half in [-75, 64]
    k1 = b._op("arith.shrsi", [k, b.iconst(1)], b.it)
    k2 = b._op("arith.subi", [k, k1], b.it)

    def pow2(e):
        bits = b._op("arith.shli", [b._op("arith.addi", [e, b.iconst(127)], b.it), b.iconst(23)], b.it)
        return b._op("arith.bitcast", [bits], b.t)

    return b.select(nan, x_in, b.mul(b.mul(p, pow2(k1)), pow2(k2)))


def _erf(b: _Builder, x):
    ax = b._op("math.absf", [x], b.t)
    t = b.div(b.const(1.0), b.fma(ax, b.const(ERF_P), b.const(1.0)))
    poly = b.const(ERF_A[4])
    for a in reversed(ERF_A[:4]):
        poly = b.fma(poly, t, b.const(a))
    poly = b.mul(poly, t)
    neg_x2 = b.sub(b.const(0.0), b.mul(ax, ax))
    y = b.sub(b.const(1.0), b.mul(poly, _exp(b, neg_x2)))
    return b._op("math.copysign", [y, x], b.t)


def _log(b: _Builder, x):
    tiny = b.olt(x, b.const(MIN_NORMAL))  # subnormal (or <= 0: replaced below)
    xs = b.select(tiny, b.mul(x, b.const(TWO_23)), x)
    bits = b._op("arith.bitcast", [xs], b.it)
    e = b._op("arith.subi", [b._op("arith.shrui", [bits, b.iconst(23)], b.it), b.iconst(127)], b.it)
    mbits = b._op("arith.ori", [b._op("arith.andi", [bits, b.iconst(0x7FFFFF)], b.it), b.iconst(0x3F800000)], b.it)
    m = b._op("arith.bitcast", [mbits], b.t)  # [1, 2)
    ef = b.sub(b._op("arith.sitofp", [e], b.t), b.select(tiny, b.const(23.0), b.const(0.0)))
    big = b.olt(b.const(SQRT2), m)
    m = b.select(big, b.mul(m, b.const(0.5)), m)
    ef = b.add(ef, b.select(big, b.const(1.0), b.const(0.0)))
    f = b.sub(m, b.const(1.0))
    z = b.mul(f, f)
    p = b.const(LOG_P[0])
    for c in LOG_P[1:]:
        p = b.fma(p, f, b.const(c))
    y = b.mul(b.mul(f, z), p)
    y = b.fma(ef, b.const(LN2_LO), y)
    y = b.fma(z, b.const(-0.5), y)
    r = b.fma(ef, b.const(LN2_HI), b.add(f, y))
    inf = b.const(float("inf"))
    r = b.select(b.cmpf(1, x, inf), inf, r)  # oeq +inf
    r = b.select(b.cmpf(1, x, b.const(0.0)), b.const(float("-inf")), r)  # +-0
    return b.select(b.cmpf(11, x, b.const(0.0)), b.const(float("nan")), r)  # ult: < 0 or NaN


def _log1p(b: _Builder, x):
    u = b.add(b.const(1.0), x)
    d = b.sub(u, b.const(1.0))
    r = b.mul(_log(b, u), b.div(x, d))
    r = b.select(b.cmpf(1, d, b.const(0.0)), x, r)  # u rounded to 1: log1p(x) = x
    inf = b.const(float("inf"))
    return b.select(b.cmpf(1, x, inf), inf, r)


def _sin_cos(b: _Builder, x, cosine: bool):
    """sin or cos: x = k pi/2 + r, |r| <= pi/4, then the quadrant k mod 4 picks
    +-sin(r) or +-cos(r)."""
    t = b.mul(x, b.const(TWO_OVER_PI))
    half = b.select(b.olt(t, b.const(0.0)), b.const(-0.5), b.const(0.5))
    finite = b.olt(b._op("math.absf", [x], b.t), b.const(TRIG_MAX))
    k = b._op("arith.fptosi", [b.select(finite, b.add(t, half), b.const(0.0))], b.it)  # nearest
    kf = b._op("arith.sitofp", [k], b.t)
    r = x
    for part in PIO2:
        r = b.sub(r, b.mul(kf, b.const(part)))
    z = b.mul(r, r)
    ps = b.const(SIN_P[0])
    for c in SIN_P[1:]:
        ps = b.fma(ps, z, b.const(c))
    sin_r = b.add(r, b.mul(b.mul(r, z), ps))
    pc = b.const(COS_P[0])
    for c in COS_P[1:]:
        pc = b.fma(pc, z, b.const(c))
    cos_r = b.add(b.sub(b.const(1.0), b.mul(z, b.const(0.5))), b.mul(b.mul(z, z), pc))
    q = b._op("arith.andi", [b._op("arith.addi", [k, b.iconst(1 if cosine else 0)], b.it), b.iconst(3)], b.it)

    def qis(n):
        return b._op(
            "arith.cmpi",
            [q, b.iconst(n)],
            b.i1,
            {"predicate": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 0)},
        )

    # sin(x) by quadrant: sin r, cos r, -sin r, -cos r; cos(x) = sin(x + pi/2): one quadrant on
    y = b.select(
        qis(0), sin_r, b.select(qis(1), cos_r, b.select(qis(2), b.sub(b.const(0.0), sin_r), b.sub(b.const(0.0), cos_r)))
    )
    if not cosine:
        y = b.select(b.cmpf(1, x, b.const(0.0)), x, y)  # sin(-0.0) = -0.0
    # inf and NaN give NaN
    return b.select(b.cmpf(14, b.sub(x, x), b.sub(x, x)), b.const(float("nan")), y)


def _sin(b: _Builder, x):
    return _sin_cos(b, x, cosine=False)


def _cos(b: _Builder, x):
    return _sin_cos(b, x, cosine=True)


def _integral(b: _Builder, x, up: bool):
    """floor (``up`` False) or ceil of x."""
    small = b.olt(b._op("math.absf", [x], b.t), b.const(TWO_23))  # false for NaN and inf
    t = b._op("arith.sitofp", [b._op("arith.fptosi", [b.select(small, x, b.const(0.0))], b.it)], b.t)
    if up:
        t = b.select(b.olt(t, x), b.add(t, b.const(1.0)), t)
    else:
        t = b.select(b.olt(x, t), b.sub(t, b.const(1.0)), t)
    return b.select(small, b._op("math.copysign", [t, x], b.t), x)


def _floor(b: _Builder, x):
    return _integral(b, x, up=False)


def _ceil(b: _Builder, x):
    return _integral(b, x, up=True)


EXPANSIONS = {
    "math.exp": _exp,
    "math.erf": _erf,
    "math.log": _log,
    "math.log1p": _log1p,
    "math.floor": _floor,
    "math.ceil": _ceil,
    "math.sin": _sin,
    "math.cos": _cos,
}


def expand_math(module) -> int:
    """Rewrite every f32 math op of EXPANSIONS in ``module``; returns how many.

    Raises CompileError for any other math op that has no RISC-V instruction and no
    expansion (it would otherwise become a libm call the runtime does not have)."""

    todo = []

    def visit(op):
        for region in op.regions:
            for block in region.blocks:
                for inner in block.operations:
                    name = inner.operation.name
                    if name.startswith("math."):
                        todo.append(inner.operation)
                    visit(inner.operation)

    with module.context:
        visit(module.operation)
        count = 0
        for op in todo:
            name = op.name
            if name in NATIVE_MATH:
                continue
            if name not in EXPANSIONS:
                raise CompileError(
                    f"operation {name} at {short_location(op.location)} has no polynomial expansion (supported: exp, erf, log, sin, cos, "
                    f"log1p, floor, ceil, tanh, sigmoid, rsqrt, sqrt); it would need libm, which bare-metal programs do not have"
                )
            x = op.operands[0]
            et = ir.VectorType(x.type).element_type if isinstance(x.type, ir.VectorType) else x.type
            if not isinstance(et, ir.F32Type):
                raise CompileError(
                    f"operation {name} at {short_location(op.location)} works on {et}; only f32 is supported"
                )
            b = _Builder(op, x)
            with op.location:
                new = EXPANSIONS[name](b, x)
            op.result.replace_all_uses_with(new)
            op.erase()
            count += 1
    return count
