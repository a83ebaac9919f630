"""cosim regress --against GIT_REF: the temporary worktree, whose code runs, and a real comparison."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.errors import CosimError
from harness.regress_against import check_imports, this_tree, tree_env
from harness.worktree import PREFIX, registered, remove_orphans, temporary_worktree

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]


def commit_all(repo: Path, message: str) -> None:
    subprocess.run([*GIT, "-C", str(repo), "add", "-A"], check=True)
    subprocess.run([*GIT, "-C", str(repo), "commit", "-qm", message], check=True)


@pytest.fixture
def tiny_repo(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "f.txt").write_text("one\n")
    commit_all(repo, "one")
    (repo / "f.txt").write_text("two\n")
    commit_all(repo, "two")
    return repo


def test_worktree_holds_the_revision_and_is_removed(tiny_repo):
    with temporary_worktree("HEAD~1", tiny_repo) as (path, commit):
        assert (path / "f.txt").read_text() == "one\n"
        assert len(commit) == 40 and path.name.startswith(f"{PREFIX}{os.getpid()}-")
    assert not path.exists() and registered(tiny_repo) == [tiny_repo.resolve()]
    with pytest.raises(RuntimeError), temporary_worktree("HEAD", tiny_repo) as (path, _):
        raise RuntimeError("the run failed")
    assert not path.exists() and registered(tiny_repo) == [tiny_repo.resolve()]


def test_unknown_ref(tiny_repo):
    with pytest.raises(CosimError, match="unknown git revision 'nope'"), temporary_worktree("nope", tiny_repo):
        pass


def test_worktree_removed_on_sigterm(tiny_repo, tmp_path):
    script = (
        "import sys, time; from pathlib import Path; from harness.worktree import temporary_worktree\n"
        f"with temporary_worktree('HEAD', Path({str(tiny_repo)!r})) as (p, _):\n"
        "    print(p, flush=True); time.sleep(60)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    path = Path(proc.stdout.readline().strip())
    assert path.is_dir()
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) != 0
    assert not path.exists() and registered(tiny_repo) == [tiny_repo.resolve()]


def test_orphan_of_a_killed_run_is_removed(tiny_repo, tmp_path):
    dead = subprocess.Popen(["true"])
    dead.wait()  # its pid now names no process
    orphan = tmp_path / f"{PREFIX}{dead.pid}-0000-x"
    subprocess.run(["git", "-C", str(tiny_repo), "worktree", "add", "-q", "--detach", str(orphan)], check=True)
    mine = tmp_path / f"{PREFIX}{os.getpid()}-0000-y"  # a live owner: left alone
    subprocess.run(["git", "-C", str(tiny_repo), "worktree", "add", "-q", "--detach", str(mine)], check=True)
    assert remove_orphans(tiny_repo) == [orphan]
    assert not orphan.exists() and mine.is_dir()


def test_tree_packages_shadow_the_editable_install(tmp_path):
    tree = this_tree()
    files = check_imports(tree, tree_env(tree))
    assert all(Path(f).resolve().is_relative_to(tree) for f in files.values())
    empty = tmp_path / "not-a-tree"
    empty.mkdir()  # nothing to import here: the editable install would answer, which must be refused
    with pytest.raises(CosimError, match="not from the tree"):
        check_imports(empty, tree_env(empty))


# --- the check of issue 22: one cycle of memory latency more, against the commit before ---

CASE = "mean and rv32 and rtl"  # torch:mean@rv32/rtl: the cheapest RTL case of the suite


def copy_of_this_tree(dest: Path) -> Path:
    """A throwaway git repo of this working tree (tracked and new files, not ignored ones)."""
    tree = this_tree()
    files = subprocess.run(
        ["git", "-C", str(tree), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    dest.mkdir()
    for name in filter(None, files):
        src, dst = tree / os.fsdecode(name), dest / os.fsdecode(name)
        if src.is_file():
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_bytes(src.read_bytes())
            dst.chmod(src.stat().st_mode)
    subprocess.run(["git", "init", "-q", str(dest)], check=True)
    commit_all(dest, "this tree")
    return dest


def regress_in(repo: Path, out: Path, ref: str) -> tuple[int, dict]:
    cmd = [sys.executable, "-m", "harness.cli", "regress", "--against", ref, "-k", CASE, "--out", str(out)]
    proc = subprocess.run(cmd, cwd=repo, env=tree_env(repo), capture_output=True, text=True)
    assert (out / "regress.json").is_file(), proc.stdout + proc.stderr
    return proc.returncode, {d["case"]: d for d in json.loads((out / "regress.json").read_text())}


@pytest.mark.slow
def test_against_reports_added_memory_latency(tmp_path):
    repo = copy_of_this_tree(tmp_path / "repo")
    toml = repo / "configs" / "rv32.toml"
    text = toml.read_text()
    assert "latency = 4 " in text
    toml.write_text(text.replace("latency = 4 ", "latency = 5 ", 1))
    commit_all(repo, "rv32: one cycle more memory latency")

    t0 = time.time()
    code, deltas = regress_in(repo, tmp_path / "slower", "HEAD~1")
    d = deltas["torch:mean@rv32/rtl"]
    assert code == 1 and d["kind"] == "slower", d
    assert d["cycles_delta"] > 0 and d["cycles_pct"] > 2 and d["instret_delta"] == 0
    md = (tmp_path / "slower" / "regress.md").read_text()
    assert f"| torch:mean@rv32/rtl | slower | pass | {d['cycles_before']} | {d['cycles_after']} |" in md
    # each tree ran its own configs: the revision's rv32 is not this tree's
    hashes = [
        json.loads(p.read_text())["config_hash"]
        for p in sorted((tmp_path / "slower").glob("*/cases/torch_mean_rv32_rtl/result.json"))
    ]
    assert len(hashes) == 2 and hashes[0] != hashes[1]
    assert registered(repo) == [repo.resolve()]  # the worktree is gone

    code, deltas = regress_in(repo, tmp_path / "same", "HEAD")
    d = deltas["torch:mean@rv32/rtl"]
    assert code == 0 and d["kind"] == "same" and d["cycles_delta"] == 0 and d["instret_delta"] == 0
    print(f"regress --against twice: {time.time() - t0:.0f} s")
