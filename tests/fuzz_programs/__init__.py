"""The corpus: every ``file.py:FUNC`` spec, discovered from the modules here."""

from __future__ import annotations

import inspect
from importlib import import_module
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODULES = ("matmuls", "elementwise", "reductions", "convs", "pools", "shapes", "models")


def programs() -> list[str]:
    """``<abs path>.py:FUNC`` for every public function of every corpus module."""
    specs = []
    for name in MODULES:
        mod = import_module(f"{__name__}.{name}")
        for fname, fn in inspect.getmembers(mod, inspect.isfunction):
            if fn.__module__ == mod.__name__ and not fname.startswith("_"):
                specs.append(f"{HERE / (name + '.py')}:{fname}")
    return specs
