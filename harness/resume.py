"""``nox -s verify -- --resume``: which cases of an interrupted run already have a finished result.

A case's ``result.json`` is written atomically when the case ends (pass or not),
with a ``resume_key``: the sha256 of the ELF it ran, the RTL hash (RTL cases) and
the config hash. A result counts as finished when it has that key and every part
of it still holds: the ELF file is unchanged, the config and the RTL sources hash
as they did. Anything else (no result.json: the case was running or had not
started when the run was killed; a changed config or RTL; a rebuilt ELF) is run
again. The key does not see a change that would give a *different* ELF (compiler
or program source edits) without rebuilding it: resume a run of the same tree.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

KEY = "resume_key"


def file_sha256(path: str | Path) -> str | None:
    p = Path(path)
    if not p.is_file():
        return None
    h = hashlib.sha256()
    with open(p, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def current_config_hash(soc: str) -> str | None:
    from configs import load_soc

    try:
        return load_soc(soc).config_hash
    except Exception:  # a fake or removed config: nothing to key by
        return None


def current_rtl_hash(soc: str) -> str | None:
    from configs import load_soc
    from sim.verilator_build import rtl_hash

    try:
        return rtl_hash(load_soc(soc))
    except Exception:
        return None


def resume_key(soc: str, target: str, result: dict) -> dict:
    """The key a finished result is stored with: the hashes of its ELF, RTL and config, where known."""
    key: dict = {"config_hash": result.get("config_hash") or current_config_hash(soc)}
    if target == "rtl":
        key["rtl_hash"] = result.get("rtl_hash") or current_rtl_hash(soc)
    if result.get("elf"):
        key["elf"] = str(result["elf"])
        key["elf_sha256"] = file_sha256(result["elf"])
    return key


def finished_result(result_path: Path, soc: str, target: str) -> dict | None:
    """The stored result when it is finished and its key still holds; None when the case must run again."""
    try:
        result = json.loads(Path(result_path).read_text())
    except (OSError, ValueError):
        return None
    key = result.get(KEY)
    if not isinstance(key, dict):
        return None
    if key.get("config_hash") != current_config_hash(soc):
        return None
    if target == "rtl" and key.get("rtl_hash") != current_rtl_hash(soc):
        return None
    if "elf" in key and (key.get("elf_sha256") is None or file_sha256(key["elf"]) != key["elf_sha256"]):
        return None
    return result
