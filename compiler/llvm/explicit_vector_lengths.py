"""Arithmetic on non-power-of-two vectors as VP intrinsics with an explicit length.

LLVM's RISC-V backend lowers a ``<13 x float>`` load or store at VL 13 (it must
not touch memory past the vector) but widens the arithmetic to the register type
``<16 x float>`` and runs it at VL 16, so every loop mixing the two switches VL
twice per step: a matmul row of 39 outputs in three tiles of 13 spent 8
instructions per k step, two of them ``vsetivli`` (Linear(57, 39) on t1-small:
352 of 1 426 instructions were ``vsetivli``). Written as the same operation's VP
intrinsic with an all-true mask and EVL N (``llvm.vp.fadd.v13f32(a, b, mask,
13)``), the arithmetic runs at VL N too and one ``vsetivli`` serves the loop.

The rewrite keeps the meaning exactly: a VP op with an all-true mask and EVL
equal to the vector length computes every lane as the plain op does (the lanes
past EVL exist only in the widened register, never in the IR's type);
``fmuladd`` becomes ``vp.fma``, the fused form the backend picks for it anyway
(``vfmacc``). Fast-math flags move to the call (an ``fcmp``'s are dropped: a
call returning a mask may not carry them; they only ever allowed
optimizations). Only fixed vectors whose length is not a power of two are
rewritten, and only these instructions: ``fadd fsub fmul fdiv fneg``, ``fcmp``,
``select`` with a vector condition, and calls of ``llvm.fmuladd``, ``llvm.fma``,
``llvm.maxnum``, ``llvm.minnum``, ``llvm.maximum``, ``llvm.minimum``,
``llvm.fabs``, ``llvm.sqrt``; and one memory access: an all-true
``llvm.masked.gather`` of floats whose addresses are a vector GEP with evenly
stepped constant indices (a strided slice, ``compiler.rvv.strided_gathers``)
becomes ``llvm.experimental.vp.strided.load`` with EVL N. LLVM recognizes the
constant stride only on power-of-two vectors: it emits LeNet-5's pooling reads of
14 and 5 elements as indexed loads (``vluxei32``, the index vector built per row,
each index row walked by the unit's fault check), and the strided load as one
``vlse32`` each. Everything else (other memory, shuffles, integer ops,
reductions) is left to LLVM, and so is a vector longer than an LMUL-4 register
group or than LLVM's widest fixed vector (``targets.MAX_FIXED_LANES``): LLVM splits such VP ops into power-of-two parts with a VL switch between
them (random program 53, ``-relu(x)`` in tiles of 384 on t1-blastoise: 743
instructions as VP ops, 616 as plain ones; program 11, a permute in tiles of 288:
219 against 194).
"""

from __future__ import annotations

import re

from compiler.targets import MAX_FIXED_LANES

_CALLS = {
    "fmuladd": "fma",
    "fma": "fma",
    "maxnum": "maxnum",
    "minnum": "minnum",
    "maximum": "maximum",
    "minimum": "minimum",
    "fabs": "fabs",
    "sqrt": "sqrt",
}
_FMF = r"(?:(?:fast|nnan|ninf|nsz|arcp|contract|afn|reassoc)\s+)*"
_VEC = r"<(\d+) x (half|bfloat|float|i1|i8|i16|i32|i64)>"
_FLOAT_VEC = r"<(\d+) x (half|bfloat|float)>"
_ASSIGN = r"^(\s*%[-\w.$]+ = )"
_BINARY = re.compile(_ASSIGN + r"(fadd|fsub|fmul|fdiv) (" + _FMF + r")" + _FLOAT_VEC + r" (.*)$")
_FNEG = re.compile(_ASSIGN + r"fneg (" + _FMF + r")" + _FLOAT_VEC + r" (.*)$")
_FCMP = re.compile(_ASSIGN + r"fcmp (" + _FMF + r")(\w+) " + _FLOAT_VEC + r" (.*)$")
_SELECT = re.compile(_ASSIGN + r"select (" + _FMF + r")<(\d+) x i1> (.*)$")
_CALL = re.compile(
    _ASSIGN + r"(?:tail )?call (" + _FMF + r")" + _FLOAT_VEC + r" @llvm\.(\w+)\.v\d+\w+\((.*)\)\s*(#\d+)?\s*$"
)
_DECLARE = re.compile(r"^declare [^@]*@([\w.$]+)\(", flags=re.M)

_SUFFIX = {"half": "f16", "bfloat": "bf16", "float": "f32"}
_BITS = {"half": 16, "bfloat": 16, "float": 32, "i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64}


def _pow2(n: int) -> bool:
    return n & (n - 1) == 0


def _mangle(n: int, elem: str) -> str:
    return f"v{n}{_SUFFIX.get(elem, elem)}"


def split_operands(text: str) -> list[str]:
    """Split at the commas outside brackets, parentheses and braces."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


def _vp_call(
    declares: dict[str, str], lhs: str, fmf: str, op: str, n: int, elem: str, ret: str, args, masked=True
) -> str:
    """``lhs call fmf ret @llvm.vp.<op>.v<n><elem>(args, [all-true mask,] EVL n)``,
    its declaration recorded; ``args`` are (type, value) pairs."""
    name = f"llvm.vp.{op}.{_mangle(n, elem)}"
    tail = [(f"<{n} x i1>", "splat (i1 true)"), ("i32", str(n))] if masked else [("i32", str(n))]
    params = [*args, *tail]
    declares[name] = f"declare {ret} @{name}({', '.join(t for t, _ in params)})"
    return f"{lhs}call {fmf}{ret} @{name}({', '.join(f'{t} {v}' for t, v in params)})"


def _rewrite_line(line: str, declares: dict[str, str], vlen: int) -> str:
    vectors = re.findall(_VEC, line)
    if (
        not vectors
        or _pow2(int(vectors[0][0]))
        or max(int(n) * _BITS[e] for n, e in vectors) > 4 * vlen
        or max(int(n) for n, _ in vectors) > MAX_FIXED_LANES  # split by LLVM all the same
    ):
        return line
    if m := _BINARY.match(line):
        lhs, op, fmf, n, elem, rest = m.groups()
        ops, ty = split_operands(rest), f"<{n} x {elem}>"
        if len(ops) != 2:
            return line
        return _vp_call(declares, lhs, fmf, op, int(n), elem, ty, [(ty, o) for o in ops])
    if m := _FNEG.match(line):
        lhs, fmf, n, elem, rest = m.groups()
        ops, ty = split_operands(rest), f"<{n} x {elem}>"
        if len(ops) != 1:
            return line
        return _vp_call(declares, lhs, fmf, "fneg", int(n), elem, ty, [(ty, ops[0])])
    if m := _FCMP.match(line):
        lhs, _fmf, pred, n, elem, rest = m.groups()
        ops, ty = split_operands(rest), f"<{n} x {elem}>"
        if len(ops) != 2:
            return line
        # no fast-math flags: LLVM allows them only on calls returning floating point
        args = [(ty, ops[0]), (ty, ops[1]), ("metadata", f'!"{pred}"')]
        return _vp_call(declares, lhs, "", "fcmp", int(n), elem, f"<{n} x i1>", args)
    if m := _SELECT.match(line):
        lhs, fmf, n, rest = m.groups()
        ops = split_operands(rest)
        if len(ops) != 3:
            return line
        typed = [re.match(r"(<\d+ x \w+>)\s+(.*)$", o) for o in ops[1:]]
        if not all(typed) or typed[0].group(1) != typed[1].group(1):
            return line
        ty = typed[0].group(1)
        args = [(f"<{n} x i1>", ops[0]), (ty, typed[0].group(2)), (ty, typed[1].group(2))]
        return _vp_call(declares, lhs, fmf, "select", int(n), ty.split(" x ")[1].rstrip(">"), ty, args, masked=False)
    if m := _CALL.match(line):
        lhs, fmf, n, elem, intrinsic, rest, _attrs = m.groups()
        ops, ty = split_operands(rest), f"<{n} x {elem}>"
        if intrinsic not in _CALLS or not all(o.startswith(ty + " ") for o in ops):
            return line
        return _vp_call(declares, lhs, fmf, _CALLS[intrinsic], int(n), elem, ty, [(ty, o[len(ty) + 1 :]) for o in ops])
    return line


_VGEP = re.compile(
    r"^\s*(%[-\w.$]+) = getelementptr (?:inbounds )?float, ptr (%[-\w.$@]+|@[-\w.$]+), <(\d+) x i32> <(.*)>\s*$"
)
_GATHER = re.compile(
    _ASSIGN
    + r"(?:tail )?call <(\d+) x float> @llvm\.masked\.gather\.v\d+f32\.v\d+p0\("
    + r"<\d+ x ptr> align 4 (%[-\w.$]+), <\d+ x i1> splat \(i1 true\), <\d+ x float> [^,()]+\)\s*$"
)


def _progressions(lines: list[str]) -> dict[str, tuple[str, int, int]]:
    """Vector GEPs of floats whose constant i32 indices step evenly: name -> (base, first, step)."""
    out = {}
    for line in lines:
        if not (m := _VGEP.match(line)):
            continue
        name, base, n, body = m.groups()
        idx = [int(v) for v in re.findall(r"i32 (-?\d+)", body)]
        if len(idx) != int(n) or len(idx) < 2:
            continue
        step = idx[1] - idx[0]
        if all(b - a == step for a, b in zip(idx, idx[1:], strict=False)):
            out[name] = (base, idx[0], step)
    return out


def _strided_gather(line: str, progressions, declares: dict[str, str], vlen: int) -> list[str] | None:
    """An all-true ``llvm.masked.gather`` of floats from evenly stepped addresses as
    ``llvm.experimental.vp.strided.load`` with EVL N (and the first address's GEP)."""
    m = _GATHER.match(line)
    if not m:
        return None
    lhs, n, ptrs = m.group(1), int(m.group(2)), m.group(3)
    if ptrs not in progressions or _pow2(n) or n * 32 > 4 * vlen or n > MAX_FIXED_LANES:
        return None
    base, first, step = progressions[ptrs]
    out = []
    if first:
        start = ptrs + ".first"
        out.append(f"  {start} = getelementptr float, ptr {base}, i32 {first}")
        base = start
    name = f"llvm.experimental.vp.strided.load.v{n}f32.p0.i32"
    declares[name] = f"declare <{n} x float> @{name}(ptr, i32, <{n} x i1>, i32)"
    out.append(
        f"{lhs}call <{n} x float> @{name}(ptr align 4 {base}, i32 {4 * step}, <{n} x i1> splat (i1 true), i32 {n})"
    )
    return out


def declared_functions(text: str) -> list[str]:
    """Names of the functions an LLVM IR module declares (``declare ... @name(``)."""
    return _DECLARE.findall(text)


def explicit_vector_lengths(text: str, vlen: int) -> str:
    """Rewrite the module docstring's instructions on non-power-of-two vectors
    that fit one register group of ``vlen``-bit registers at LMUL 4."""
    declares: dict[str, str] = {}
    source = text.splitlines()
    progressions = _progressions(source)
    lines = []
    for line in source:
        gather = _strided_gather(line, progressions, declares, vlen)
        lines.extend(gather if gather is not None else [_rewrite_line(line, declares, vlen)])
    existing = set(declared_functions(text))
    extra = [d for name, d in declares.items() if name not in existing]
    return "\n".join(lines + extra) + "\n"
