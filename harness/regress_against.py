"""Run the verify suite of a source tree: this checkout, or a git revision's worktree.

Each tree runs its *own* code: ``python -m harness.verify_suite`` with the tree
as working directory and first on ``PYTHONPATH``, so its harness, compiler, sim
and configs packages shadow the editable install of this checkout (checked
before the run: the imported packages must come from the tree). The Python
environment and the build cache (``$COSIM_CACHE``, keyed by content) are shared,
so a config whose RTL and parameters did not change is not rebuilt.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from harness.errors import CosimError

PACKAGES = ("harness", "compiler", "sim", "configs")
# pytest's exit codes that still leave a complete summary: all passed, some failed.
SUITE_RAN = (0, 1)
NO_TESTS = 5


def this_tree() -> Path:
    """The source tree whose ``harness`` package is running now."""
    import harness

    return Path(harness.__file__).resolve().parents[1]


def tree_env(tree: Path) -> dict[str, str]:
    path = os.environ.get("PYTHONPATH", "")
    return dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(tree), path])))


def check_imports(tree: Path, env: dict[str, str]) -> dict[str, str]:
    """Where each package of ``tree`` is imported from when the suite runs there; an error if not from ``tree``."""
    code = "import importlib; " + "; ".join(f"print(importlib.import_module('{p}').__file__)" for p in PACKAGES)
    out = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise CosimError(f"cannot import the packages of {tree}: {out.stderr.strip().splitlines()[-1:]}")
    files = dict(zip(PACKAGES, out.stdout.split(), strict=True))
    for name, file in files.items():
        if not Path(file).resolve().is_relative_to(tree.resolve()):
            raise CosimError(
                f"running in {tree}, package {name} was imported from {file}, not from the tree; "
                "an installed copy shadows it (is dsa-cosim installed non-editable?)"
            )
    return files


def run_suite(tree: Path, results: Path, *, keyword: str | None, workers: int, label: str) -> Path:
    """Run ``tree``'s verify suite into ``results``; return its summary.json."""
    if not (tree / "harness" / "verify_suite.py").is_file():
        raise CosimError(f"{label} has no harness/verify_suite.py: it predates the verify suite, compare a later one")
    env = tree_env(tree)
    files = check_imports(tree, env)
    cmd = [sys.executable, "-m", "harness.verify_suite", "--workers", str(workers), "--results", str(results)]
    if keyword:
        cmd += ["-k", keyword]
    (results / "summary.json").unlink(missing_ok=True)  # never compare an earlier run's summary
    print(f"regress: running the suite of {label} (harness imported from {files['harness']})", flush=True)
    proc = subprocess.Popen(cmd, cwd=tree, env=env)
    try:
        code = proc.wait()
    except BaseException:  # interrupted: do not leave the suite running in a tree about to be removed
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        raise
    summary = results / "summary.json"
    if code == NO_TESTS:
        raise CosimError(f"no case of {label} matches -k {keyword!r}; see `python -m harness.verify_suite --list`")
    if code not in SUITE_RAN or not summary.is_file():
        raise CosimError(f"the verify suite of {label} did not complete (exit code {code}); its output is above")
    return summary
