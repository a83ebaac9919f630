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
``llvm.fabs``, ``llvm.sqrt``. Everything else (memory, shuffles, integer ops,
reductions) is left to LLVM, and so is a vector longer than an LMUL-4 register
group: LLVM splits such VP ops into power-of-two parts with a VL switch between
them (random program 53, ``-relu(x)`` in tiles of 384 on t1-blastoise: 616 ->
743 instructions; program 11, a permute in tiles of 288: 194 -> 219).
"""

from __future__ import annotations

import re

_FP_BINARY = {"fadd", "fsub", "fmul", "fdiv"}
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
_ASSIGN = r"^(\s*%[-\w.$]+ = )"
_BINARY = re.compile(_ASSIGN + r"(fadd|fsub|fmul|fdiv) (" + _FMF + r")" + _VEC + r" (.*)$")
_FNEG = re.compile(_ASSIGN + r"fneg (" + _FMF + r")" + _VEC + r" (.*)$")
_FCMP = re.compile(_ASSIGN + r"fcmp (" + _FMF + r")(\w+) " + _VEC + r" (.*)$")
_SELECT = re.compile(_ASSIGN + r"select (" + _FMF + r")<(\d+) x i1> (.*)$")
_CALL = re.compile(_ASSIGN + r"(?:tail )?call (" + _FMF + r")" + _VEC + r" @llvm\.(\w+)\.v\d+\w+\((.*)\)\s*(#\d+)?\s*$")

_SUFFIX = {"half": "f16", "bfloat": "bf16", "float": "f32"}


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


def _mask(n: int) -> str:
    return f"<{n} x i1> splat (i1 true), i32 {n}"


_BITS = {"half": 16, "bfloat": 16, "float": 32, "i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64}


def _rewrite_line(line: str, declares: dict[str, str], vlen: int) -> str:
    vectors = re.findall(_VEC, line)
    if not vectors or _pow2(int(vectors[0][0])) or max(int(n) * _BITS[e] for n, e in vectors) > 4 * vlen:
        return line
    m = _BINARY.match(line)
    if m:
        lhs, op, fmf, n, elem, rest = m.groups()
        n = int(n)
        ops = split_operands(rest)
        if _pow2(n) or len(ops) != 2 or elem not in _SUFFIX:
            return line
        ty = f"<{n} x {elem}>"
        name = f"llvm.vp.{op}.{_mangle(n, elem)}"
        declares[name] = f"declare {ty} @{name}({ty}, {ty}, <{n} x i1>, i32)"
        return f"{lhs}call {fmf}{ty} @{name}({ty} {ops[0]}, {ty} {ops[1]}, {_mask(n)})"
    m = _FNEG.match(line)
    if m:
        lhs, fmf, n, elem, rest = m.groups()
        n = int(n)
        if _pow2(n) or elem not in _SUFFIX or len(split_operands(rest)) != 1:
            return line
        ty = f"<{n} x {elem}>"
        name = f"llvm.vp.fneg.{_mangle(n, elem)}"
        declares[name] = f"declare {ty} @{name}({ty}, <{n} x i1>, i32)"
        return f"{lhs}call {fmf}{ty} @{name}({ty} {rest.strip()}, {_mask(n)})"
    m = _FCMP.match(line)
    if m:
        lhs, fmf, pred, n, elem, rest = m.groups()
        n = int(n)
        ops = split_operands(rest)
        if _pow2(n) or len(ops) != 2 or elem not in _SUFFIX:
            return line
        ty = f"<{n} x {elem}>"
        name = f"llvm.vp.fcmp.{_mangle(n, elem)}"
        declares[name] = f"declare <{n} x i1> @{name}({ty}, {ty}, metadata, <{n} x i1>, i32)"
        # no fast-math flags: LLVM allows them only on calls returning floating point
        return f'{lhs}call <{n} x i1> @{name}({ty} {ops[0]}, {ty} {ops[1]}, metadata !"{pred}", {_mask(n)})'
    m = _SELECT.match(line)
    if m:
        lhs, fmf, n, rest = m.groups()
        n = int(n)
        ops = split_operands(rest)
        if _pow2(n) or len(ops) != 3:
            return line
        typed = [re.match(r"(<\d+ x [\w]+>|ptr)\s+(.*)$", o) for o in ops[1:]]
        if not all(typed) or typed[0].group(1) != typed[1].group(1) or typed[0].group(1) == "ptr":
            return line
        ty = typed[0].group(1)
        elem = ty.split(" x ")[1].rstrip(">")
        name = f"llvm.vp.select.{_mangle(n, elem)}"
        declares[name] = f"declare {ty} @{name}(<{n} x i1>, {ty}, {ty}, i32)"
        return f"{lhs}call {fmf}{ty} @{name}(<{n} x i1> {ops[0]}, {ops[1]}, {ops[2]}, i32 {n})"
    m = _CALL.match(line)
    if m:
        lhs, fmf, n, elem, intrinsic, args, _attrs = m.groups()
        n = int(n)
        vp = _CALLS.get(intrinsic)
        if vp is None or _pow2(n) or elem not in _SUFFIX:
            return line
        ty = f"<{n} x {elem}>"
        ops = split_operands(args)
        if not all(o.startswith(ty + " ") for o in ops):
            return line
        name = f"llvm.vp.{vp}.{_mangle(n, elem)}"
        declares[name] = f"declare {ty} @{name}({', '.join([ty] * len(ops))}, <{n} x i1>, i32)"
        return f"{lhs}call {fmf}{ty} @{name}({', '.join(ops)}, {_mask(n)})"
    return line


def explicit_vector_lengths(text: str, vlen: int) -> str:
    """Rewrite the module docstring's instructions on non-power-of-two vectors
    that fit one register group of ``vlen``-bit registers at LMUL 4."""
    declares: dict[str, str] = {}
    lines = [_rewrite_line(line, declares, vlen) for line in text.splitlines()]
    existing = set(re.findall(r"^declare [^@]*@([\w.$]+)\(", text, flags=re.M))
    extra = [d for name, d in declares.items() if name not in existing]
    return "\n".join(lines + extra) + "\n"
