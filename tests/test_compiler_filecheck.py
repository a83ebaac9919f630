"""IR in, IR out: one pass alone on a checked-in input, its output matched by FileCheck.

Each ``tests/compiler_filecheck/<pass>.mlir`` starts with its RUN line (which runs
as written from the checkout: ``python -m compiler.replay PASS --target S
--no-locations FILE | filecheck FILE``), says what program the input came from
(the IR before that pass, as ``--dump-ir`` writes it in ``passes/``), and holds the
CHECK lines. An ``llvm-ir`` pass works on text, so its file's comment lines pass through
to its output: its checks are anchored (``{{^}}define``) so that they never match them. Here the
pass runs in-process (``compiler.replay.replay``) and the
``filecheck`` of the dev dependencies matches its output.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.passes import PASSES
from compiler.replay import load_target, replay

HERE = Path(__file__).resolve().parent
CASES = sorted((HERE / "compiler_filecheck").glob("*.mlir"))
RUN = re.compile(r"^// RUN: python -m compiler\.replay (\S+) --target (\S+) --no-locations %s \| filecheck %s$", re.M)


def _filecheck(check_file: Path, text: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "filecheck", str(check_file)], input=text, capture_output=True, text=True
    )


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_pass_ir_in_ir_out(path):
    text = path.read_text()
    m = RUN.search(text)
    assert m, f"{path.name}: no RUN line"
    name, soc = m.groups()
    assert name == path.stem and name in PASSES, name
    out = replay(name, load_target(soc), text, locations=False)
    proc = _filecheck(path, out)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # the checks are about the pass: its input alone does not satisfy them
    assert _filecheck(path, text.split("\n\n", 2)[-1]).returncode != 0, f"{path.name}: the input passes the checks"


def test_every_pass_has_a_filecheck_test():
    """Every registered pass has its IR-in/IR-out test: a new pass needs one (compiler/README.md, "Adding a pass")."""
    covered = {p.stem for p in CASES}
    missing = set(PASSES) - covered
    assert not missing, f"passes without tests/compiler_filecheck/<pass>.mlir: {sorted(missing)}"
    assert covered <= set(PASSES), f"tests of unregistered passes: {sorted(covered - set(PASSES))}"
