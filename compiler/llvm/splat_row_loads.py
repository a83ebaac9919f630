"""LLVM IR text: the rows ``lane-splats`` reads as ``vp.load``.

``compiler.rvv.lane_splats`` reads a run of matrix elements along the innermost
dimension with one unit-stride vector load and splats its lanes (``vrgather.vi``).
Given a plain ``load``, LLVM's RISC-V backend folds each lane splat of it back into
a scalar load of that element feeding a ``.vf`` operand: the one memory beat
becomes one ``flw`` per lane on the core. The same load as ``llvm.vp.load`` (all
lanes, EVL = N: the same memory, the same value) is not folded. lane-splats marks
its row loads ``nontemporal`` (MLIR keeps the flag through canonicalization and
translation; nothing else in the pipeline sets it, and on these targets it changes
no instruction), and this pass rewrites exactly those loads and drops the flag.
"""

from __future__ import annotations

import re

_ELEM = {"float": "f32", "half": "f16", "bfloat": "bf16"}
_LOAD = re.compile(
    r"^(\s*%[-\w.$]+ = )load <(\d+) x (float|half|bfloat)>, ptr (%[-\w.$]+), align (\d+), !nontemporal !\d+\s*$",
    re.M,
)


def _vp_load(n: str, elem: str) -> str:
    return f"llvm.vp.load.v{n}{_ELEM[elem]}.p0"


def splat_row_loads(text: str) -> str:
    """Every ``nontemporal`` fixed-vector float load as ``llvm.vp.load`` with an all-true
    mask and EVL = its length; the intrinsics it calls are declared once."""
    used: set[tuple[str, str]] = set()

    def rewrite(m: re.Match) -> str:
        assign, n, elem, ptr, align = m.groups()
        used.add((n, elem))
        return f"{assign}call <{n} x {elem}> @{_vp_load(n, elem)}(ptr align {align} {ptr}, <{n} x i1> splat (i1 true), i32 {n})"

    out = _LOAD.sub(rewrite, text)
    decls = []
    for n, elem in sorted(used):
        name = _vp_load(n, elem)
        if not re.search(rf"^declare [^\n]*@{re.escape(name)}\(", text, re.M):
            decls.append(f"declare <{n} x {elem}> @{name}(ptr, <{n} x i1>, i32)")
    if decls:
        out = out.rstrip("\n") + "\n\n" + "\n".join(decls) + "\n"
    return out
