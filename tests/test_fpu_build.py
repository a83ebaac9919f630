"""The FPU harness build cache: keyed by every input, rebuilt when an entry is bad."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from sim.tb.fpu import build


def test_cache_key_covers_rtl_harness_and_flags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copies = []
    for src in (*build.FPU_RTL_SOURCES, build.HARNESS_CPP):
        dst = tmp_path / src.name
        shutil.copy(src, dst)
        copies.append(dst)
    monkeypatch.setattr(build, "FPU_RTL_SOURCES", tuple(copies[:-1]))
    monkeypatch.setattr(build, "HARNESS_CPP", copies[-1])
    exe = build.verilator_command()
    base = build.cache_key(exe)
    assert build.cache_key(exe) == base  # deterministic

    fma = tmp_path / "fpu_fma.sv"
    fma.write_text(fma.read_text() + "\n// edit\n")
    assert build.cache_key(exe) != base

    fma.write_text(fma.read_text().replace("\n// edit\n", ""))
    assert build.cache_key(exe) == base
    copies[-1].write_text(copies[-1].read_text() + "\n")
    assert build.cache_key(exe) != base

    copies[-1].write_text(copies[-1].read_text()[:-1])
    monkeypatch.setattr(build, "VERILATOR_FLAGS", (*build.VERILATOR_FLAGS, "-DX"))
    assert build.cache_key(exe) != base


def test_missing_verilator_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(build.shutil, "which", lambda name: None)
    with pytest.raises(build.SimError, match="Verilator not found"):
        build.verilator_command()


@pytest.mark.slow
def test_corrupt_cache_entry_is_rebuilt(tmp_path: Path) -> None:
    entry = tmp_path / build.cache_key(build.verilator_command())
    entry.mkdir()
    (entry / build.BINARY).write_text("not a binary")  # not executable: a broken entry
    binary = build.build_fpu_tb(cache_root=tmp_path)
    assert binary == entry / build.BINARY
    assert os.access(binary, os.X_OK) and binary.read_bytes()[:4] == b"\x7fELF"
