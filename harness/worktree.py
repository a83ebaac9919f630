"""A git revision checked out in a temporary worktree, removed however the run ends.

``temporary_worktree(ref)`` resolves ``ref``, adds a detached worktree for it in
the system temp directory and removes it on exit, on an exception, on Ctrl-C and
on SIGTERM/SIGHUP (turned into an exception here so the ``finally`` runs). A run
killed outright (SIGKILL) cannot clean up after itself: its worktree's directory
name carries the owning pid, and the next run removes worktrees whose owner is
dead.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from harness.errors import CosimError
from sim.build_cache import pid_alive

PREFIX = "cosim-worktree-"
_OWNER = re.compile(rf"^{PREFIX}(\d+)-")


def git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    try:
        out = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)
    except OSError as e:
        raise CosimError(f"cannot run git: {e}") from None
    if check and out.returncode != 0:
        raise CosimError(f"`git {' '.join(args)}` failed in {repo}: {out.stderr.strip() or out.stdout.strip()}")
    return out


def repo_root(start: Path | None = None) -> Path:
    out = git(start or Path.cwd(), "rev-parse", "--show-toplevel", check=False)
    if out.returncode != 0:
        raise CosimError(
            f"{start or Path.cwd()} is not inside a git checkout; `--against REF` needs one (run from the project)"
        )
    return Path(out.stdout.strip())


def resolve(repo: Path, ref: str) -> str:
    """The commit ``ref`` names, or a clear error."""
    out = git(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False)
    if out.returncode != 0 or not out.stdout.strip():
        raise CosimError(
            f"unknown git revision {ref!r} in {repo}; pass a branch, tag or commit (e.g. HEAD~1, main, a hash)"
        )
    return out.stdout.strip()


def registered(repo: Path) -> list[Path]:
    out = git(repo, "worktree", "list", "--porcelain")
    return [Path(line[len("worktree ") :]) for line in out.stdout.splitlines() if line.startswith("worktree ")]


def remove(repo: Path, path: Path) -> None:
    git(repo, "worktree", "remove", "--force", str(path), check=False)
    if path.exists():  # not registered (any more): a plain directory left behind
        shutil.rmtree(path, ignore_errors=True)
    git(repo, "worktree", "prune", check=False)


def remove_orphans(repo: Path) -> list[Path]:
    """Remove our worktrees whose owning process is gone (a run killed with SIGKILL)."""
    gone = []
    for path in registered(repo):
        m = _OWNER.match(path.name)
        if m and not pid_alive(int(m.group(1))):
            remove(repo, path)
            gone.append(path)
    return gone


class _Terminated(BaseException):
    """SIGTERM/SIGHUP, raised so that cleanup code runs."""


def _raise_terminated(signum, frame):
    raise _Terminated(f"signal {signum}")


@contextlib.contextmanager
def temporary_worktree(ref: str, repo: Path | None = None) -> Iterator[tuple[Path, str]]:
    """Yield ``(path, commit)`` of a detached worktree of ``ref``; removed on every way out."""
    repo = repo_root(repo)
    commit = resolve(repo, ref)
    remove_orphans(repo)
    path = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-{commit[:12]}-"))
    path.rmdir()  # git creates it
    old = {s: signal.signal(s, _raise_terminated) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        git(repo, "worktree", "add", "--detach", "--quiet", str(path), commit)
        yield path, commit
    except _Terminated:
        raise KeyboardInterrupt from None  # the CLI reports it as interrupted (exit 130)
    finally:
        remove(repo, path)
        for s, handler in old.items():
            signal.signal(s, handler)
