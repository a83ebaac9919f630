"""Errors of the compiler layer that the user can act on."""

from __future__ import annotations

import re


class CompileError(Exception):
    """A model cannot be compiled: names the op and its source location where known."""


def short_location(loc) -> str:
    """An MLIR location (object or text) as ``file:line`` of the innermost frame
    outside installed packages, e.g. ``model.py:12``; the text itself if it has none.

    torch-mlir prints a call site as ``callsite("callee" at "caller" ...)``: the
    first file in the text is the innermost frame."""
    text = str(loc)
    frames = re.findall(r'"([^"]+)":(\d+)', text)
    user = [f for f in frames if "site-packages" not in f[0]]
    if user or frames:
        return "{}:{}".format(*(user or frames)[0])
    return text
