"""Configs derived from a base file by changing parameters (sweeps, benches).

:func:`derive_soc` rewrites the base TOML's text: the parameter's line in its
section, every field that depends on it (``vlen`` -> ``march``'s ``zvlNb``) and
``name`` (the base name with each change appended: ``t1-small-vlen256-dlen64``),
writes it into a directory of the caller's (a results folder, never ``configs/``)
and loads it through :func:`configs.load_soc`'s strict checks. Comments and every
other line stay as they are, so a derived file reads like the base.
"""

from __future__ import annotations

import re
from pathlib import Path

from configs import CONFIG_DIR, ConfigError, SocConfig, load_soc

# Sweepable parameters: name -> (section, key). Section "" is the top level.
PARAMETERS = {
    "vlen": ("accelerator", "vlen"),
    "dlen": ("accelerator", "dlen"),
    "dim": ("accelerator", "dim"),
    "latency": ("memory", "latency"),
    "width_bits": ("memory", "width_bits"),
    "outstanding": ("memory", "outstanding"),
}


def _replace_in_section(text: str, section: str, key: str, value: str, path: Path) -> str:
    """Replace ``key = ...`` inside ``[section]`` (up to the next header), keeping comments."""
    lines = text.splitlines(keepends=True)
    current = ""
    for i, line in enumerate(lines):
        header = re.match(r"\s*\[([^\]]+)\]", line)
        if header:
            current = header.group(1).strip()
            continue
        m = re.match(rf"(\s*{re.escape(key)}\s*=\s*)([^#\n]*?)(\s*(#.*)?)$", line.rstrip("\n"))
        if current == section and m:
            lines[i] = m.group(1) + value + m.group(3) + ("\n" if line.endswith("\n") else "")
            return "".join(lines)
    where = f"[{section}]" if section else "the top level"
    raise ConfigError(f"{path}: has no {key} line in {where} to change; add it to the base config first")


def derived_name(base: str, changes: dict[str, int]) -> str:
    return base + "".join(f"-{k.replace('_', '')}{v}" for k, v in changes.items())


def derive_soc(base: str | Path | SocConfig, changes: dict[str, int], out_dir: Path) -> SocConfig:
    """``base`` with ``changes`` (parameter -> value), written to ``out_dir`` and loaded."""
    soc = load_soc(base)
    out_dir = Path(out_dir).resolve()
    if out_dir == CONFIG_DIR or CONFIG_DIR in out_dir.parents:
        raise ConfigError(f"derived configs go in a results folder, not under {CONFIG_DIR}")
    text = soc.path.read_text()
    for param, value in changes.items():
        if param not in PARAMETERS:
            raise ConfigError(f"unknown sweep parameter {param!r}; sweepable: {', '.join(PARAMETERS)}")
        section, key = PARAMETERS[param]
        if section == "accelerator" and not hasattr(soc.accelerator, key):
            raise ConfigError(
                f"{soc.path}: {param} is not a parameter of a {soc.accelerator.kind!r} accelerator; "
                "sweep vlen/dlen on a vector config, dim on a Gemmini config"
            )
        text = _replace_in_section(text, section, key, str(int(value)), soc.path)
        if param == "vlen":  # march names the VLEN: zvl<VLEN>b
            old = soc.march
            new = re.sub(r"_zvl\d+b", f"_zvl{int(value)}b", old)
            text = text.replace(f'march = "{old}"', f'march = "{new}"', 1)
    name = derived_name(soc.name, changes)
    text = _replace_in_section(text, "", "name", f'"{name}"', soc.path)
    if soc.rtl is not None:  # keep the filelist pointing at the base config's files
        text = _replace_in_section(text, "rtl", "filelist", f'"{soc.rtl.filelist}"', soc.path)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{name}.toml"
    path.write_text(text)
    derived = load_soc(path)
    for param, value in changes.items():
        section, key = PARAMETERS[param]
        got = getattr(derived.accelerator if section == "accelerator" else derived.memory, key)
        if got != int(value):
            raise ConfigError(f"{path}: derived {param} = {got}, wanted {value}")
    return derived
