"""Rules of the code's shape that a reader can check by hand (issue 21), checked here so
they stay true: a library module never imports another module's private (``_x``)
names, every port of an RTL module says what it is for, and every file the README's
Layout section names exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("harness", "sim", "compiler", "configs")


def private_imports(path: Path, root: Path = ROOT) -> list[str]:
    """``from <one of PACKAGES> import _x`` lines of one source file (a private name of another module)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] not in PACKAGES:
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{path.relative_to(root)}:{node.lineno}: from {node.module} import {alias.name}")
    return found


def test_no_private_names_imported_across_modules(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from harness.check import _hidden\nfrom harness.check import visible\nfrom os import _exit\n")
    assert private_imports(sample, tmp_path) == ["sample.py:1: from harness.check import _hidden"]
    found = [
        line
        for pkg in ("harness", "sim", "compiler")
        for p in sorted((ROOT / pkg).rglob("*.py"))
        for line in private_imports(p)
    ]
    assert not found, "\n".join(found)


def layout_paths(readme: str) -> list[str]:
    """The repository paths the README's Layout section names: every backquoted word with a '/', and
    every bare ``name.py`` / ``name.sv`` (a file in the last directory named on its line, else at the top)."""
    lines = readme.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("## Layout"))
    end = next(i for i, line in enumerate(lines) if i > start and line.startswith("## "))
    paths = []
    for line in lines[start:end]:
        last_dir = None
        for quoted in re.findall(r"`([^`]+)`", line):
            for word in re.split(r"[ ,;]+", quoted):
                word = word.strip("()")
                if "/" in word and not word.startswith(("$", "../")) and "->" not in word:
                    paths.append(word)
                    last_dir = (
                        word if word.endswith("/") or "." not in word.rsplit("/", 1)[-1] else word.rsplit("/", 1)[0]
                    )
                elif re.fullmatch(r"\w+\.(py|sv)", word):
                    beside = f"{last_dir.rstrip('/')}/{word}" if last_dir else word
                    paths.append(beside if (ROOT / beside).exists() or not (ROOT / word).exists() else word)
    return paths


def test_readme_layout_names_existing_files():
    assert layout_paths("## Layout\n| x | `sim/none/`, `a.py`; `noxfile.py` |\n## Next\n`b/c.py`") == [
        "sim/none/",
        "sim/none/a.py",
        "noxfile.py",
    ]
    paths = layout_paths((ROOT / "README.md").read_text())
    assert "harness/verify.py" in paths and "harness/report/cycles.py" in paths  # the scan reads the section
    missing = [p for p in paths if not (ROOT / p).exists()]
    assert not missing, missing


def uncommented_ports(text: str) -> list[str]:
    """The port declarations without a comment in the headers (``module`` .. ``);``) of one SystemVerilog file."""
    found, inside = [], False
    for line in text.split("\n"):
        if line.startswith("module"):
            inside = True
        elif inside and line.startswith(");"):
            inside = False
        elif inside and re.match(r"\s*(input|output|inout)\b", line) and "//" not in line:
            found.append(line.strip())
    return found


def test_every_rtl_port_is_commented():
    assert uncommented_ports("module m (\n  input logic a_i,  // in: a\n  output logic b_o\n);\n  input x;\n") == [
        "output logic b_o"
    ]
    found = [
        f"{p.relative_to(ROOT)}: {port}"
        for p in sorted((ROOT / "sim" / "rtl").rglob("*.sv"))
        for port in uncommented_ports(p.read_text())
    ]
    assert not found, "\n".join(found)
