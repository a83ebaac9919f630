"""Compare a run's results with a baseline: status changes and cycle deltas.

A *results set* is the ``summary.json`` that ``nox -s verify`` writes: a list of
rows ``{case, soc, target, status, instret, cycles}``. A baseline is such a file,
or a git ref at which a baseline file was committed (read with ``git show``, so
no checkout is touched).
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path

from harness.errors import CosimError

DEFAULT_BASELINE_PATH = "baselines/summary.json"


@dataclass
class Delta:
    case: str
    kind: str  # regressed | fixed | slower | faster | same | new | missing
    status_before: str | None
    status_after: str | None
    cycles_before: int | None
    cycles_after: int | None
    instret_before: int | None
    instret_after: int | None

    @property
    def cycles_ratio(self) -> float | None:
        if self.cycles_before and self.cycles_after is not None:
            return self.cycles_after / self.cycles_before
        return None


def load_results(path: str | Path) -> dict[str, dict]:
    path = Path(path)
    if not path.is_file():
        raise CosimError(
            f"results file {path} does not exist; run `nox -s verify` first (it writes results/summary.json)"
        )
    return _index(json.loads(path.read_text()), str(path))


def load_baseline(spec: str, repo: Path | None = None, path_in_repo: str = DEFAULT_BASELINE_PATH) -> dict[str, dict]:
    """``spec`` is a file, or a git ref whose tree holds ``path_in_repo``."""
    if Path(spec).is_file():
        return load_results(spec)
    try:
        out = subprocess.run(
            ["git", "show", f"{spec}:{path_in_repo}"], cwd=repo, capture_output=True, text=True, check=False
        )
    except OSError as e:
        raise CosimError(f"cannot run git to read baseline {spec!r}: {e}") from None
    if out.returncode != 0:
        raise CosimError(
            f"baseline {spec!r} is neither a file nor a git ref with {path_in_repo} "
            f"(git said: {out.stderr.strip()}); pass a summary.json file or a ref where one was committed"
        )
    return _index(json.loads(out.stdout), f"{spec}:{path_in_repo}")


def _index(rows, origin: str) -> dict[str, dict]:
    if not isinstance(rows, list) or not all(isinstance(r, dict) and "case" in r for r in rows):
        raise CosimError(f"{origin} is not a results summary (a JSON list of rows with a 'case' key)")
    return {r["case"]: r for r in rows}


def compare(baseline: dict[str, dict], current: dict[str, dict], tolerance: float = 0.02) -> list[Delta]:
    """Classify every case; cycles within ``tolerance`` (relative) count as the same."""
    deltas = []
    for case in sorted(set(baseline) | set(current)):
        b, c = baseline.get(case), current.get(case)
        d = Delta(
            case=case,
            kind="same",
            status_before=b and b.get("status"),
            status_after=c and c.get("status"),
            cycles_before=b and b.get("cycles"),
            cycles_after=c and c.get("cycles"),
            instret_before=b and b.get("instret"),
            instret_after=c and c.get("instret"),
        )
        if b is None:
            d.kind = "new"
        elif c is None:
            d.kind = "missing"
        elif d.status_before == "pass" and d.status_after != "pass":
            d.kind = "regressed"
        elif d.status_before != "pass" and d.status_after == "pass":
            d.kind = "fixed"
        elif d.cycles_ratio is not None and d.cycles_ratio > 1 + tolerance:
            d.kind = "slower"
        elif d.cycles_ratio is not None and d.cycles_ratio < 1 - tolerance:
            d.kind = "faster"
        deltas.append(d)
    return deltas


def is_regression(deltas: list[Delta], fail_on_slower: bool = True) -> bool:
    bad = {"regressed", "missing"} | ({"slower"} if fail_on_slower else set())
    return any(d.kind in bad for d in deltas)


def to_json(deltas: list[Delta]) -> list[dict]:
    return [{**asdict(d), "cycles_ratio": d.cycles_ratio} for d in deltas]
