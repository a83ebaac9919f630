"""LLVM IR text: every function ``"no-builtins"``."""

from __future__ import annotations

import re


def no_builtins(text: str) -> str:
    """Mark every function ``"no-builtins"``: otherwise LLVM merges the kernels'
    (vector) stores and copy loops into calls of the runtime's scalar memset/memcpy."""
    return re.sub(r"^(define [^\n]*?)\s*\{$", r'\1 "no-builtins" {', text, flags=re.M)
