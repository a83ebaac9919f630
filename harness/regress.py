"""Compare a run's results with a baseline: status changes and cycle deltas.

A *results set* is the ``summary.json`` that ``nox -s verify`` writes: a list of
rows ``{case, soc, target, status, instret, cycles}``. Rows read next to their
``cases/<id>/result.json`` also get that run's ``config_hash`` and ``rtl_hash``,
so a baseline recorded on another config is told apart from a slowdown. A
baseline is such a file, or a git ref at which a baseline file was committed
(read with ``git show``, so no checkout is touched).
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path

from harness.errors import CosimError
from harness.results import write_json_atomic
from harness.verify_suite import case_dir

DEFAULT_BASELINE_PATH = "baselines/summary.json"

# Kinds that fail a run: a case that passed no longer does, or no longer ran at all.
CORRECTNESS_KINDS = ("regressed", "missing")
KINDS = ("regressed", "missing", "slower", "stale", "fixed", "faster", "new", "same")
# Keys copied from a case's result.json into its row (provenance of the figures).
PROVENANCE_KEYS = ("config_hash", "rtl_hash")


@dataclass
class Delta:
    case: str
    kind: str  # one of KINDS
    status_before: str | None
    status_after: str | None
    cycles_before: int | None
    cycles_after: int | None
    instret_before: int | None
    instret_after: int | None
    why: str = ""  # for stale cases: what differs between the baseline and this run

    @property
    def cycles_ratio(self) -> float | None:
        if self.cycles_before and self.cycles_after is not None:
            return self.cycles_after / self.cycles_before
        return None

    @property
    def cycles_delta(self) -> int | None:
        if self.cycles_before is None or self.cycles_after is None:
            return None
        return self.cycles_after - self.cycles_before

    @property
    def cycles_pct(self) -> float | None:
        r = self.cycles_ratio
        return None if r is None else round(100.0 * (r - 1.0), 4)

    @property
    def instret_delta(self) -> int | None:
        if self.instret_before is None or self.instret_after is None:
            return None
        return self.instret_after - self.instret_before


def parse_json(text: str, origin: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise CosimError(
            f"{origin} is not valid JSON ({e.msg} at line {e.lineno} column {e.colno}); pass a summary.json "
            "written by `nox -s verify` or `cosim regress --update-baseline`"
        ) from None


def load_results(path: str | Path) -> dict[str, dict]:
    """A summary.json, its rows completed with the provenance in the case directories beside it."""
    path = Path(path)
    if not path.is_file():
        raise CosimError(
            f"results file {path} does not exist; run `nox -s verify` first (it writes results/summary.json)"
        )
    rows = _index(parse_json(path.read_text(), str(path)), str(path))
    for case, row in rows.items():
        result = case_dir(path.parent, case) / "result.json"
        if any(k not in row for k in PROVENANCE_KEYS) and result.is_file():
            try:
                record = json.loads(result.read_text())
            except json.JSONDecodeError:
                continue  # a damaged result.json only costs the provenance, not the comparison
            for k in PROVENANCE_KEYS:
                row.setdefault(k, record.get(k))
    return rows


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
    origin = f"{spec}:{path_in_repo}"
    return _index(parse_json(out.stdout, origin), origin)


def _index(rows, origin: str) -> dict[str, dict]:
    if not isinstance(rows, list) or not all(isinstance(r, dict) and "case" in r for r in rows):
        raise CosimError(f"{origin} is not a results summary (a JSON list of rows with a 'case' key)")
    for r in rows:
        for key in ("cycles", "instret"):
            if r.get(key) is not None and not isinstance(r[key], int):
                raise CosimError(f"{origin}: case {r['case']!r} has {key} = {r[key]!r}; expected an integer or null")
    return {r["case"]: dict(r) for r in rows}


def stale_reason(before: dict, after: dict) -> str:
    """Why a baseline row does not describe the same run as ``after`` ('' if it does)."""
    for key in ("soc", "target", "config_hash"):
        b, a = before.get(key), after.get(key)
        if b is not None and a is not None and b != a:
            return f"baseline {key} {b}, now {a}"
    return ""


def compare(
    baseline: dict[str, dict],
    current: dict[str, dict],
    tolerance: float = 0.02,
    *,
    known_cases: set[str] | None = None,
    check_stale: bool = True,
) -> list[Delta]:
    """Classify every case; cycles within ``tolerance`` (relative) count as the same.

    With ``check_stale``, a case whose baseline row was recorded on another config
    (config hash, SoC or target differ) is ``stale``: its figures are not compared
    (its status still is: a pass that became a failure is ``regressed``).
    With ``known_cases`` (the case ids this tree defines), a baseline case that is
    no longer defined is ``stale`` rather than ``missing``."""
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
            if known_cases is not None and case not in known_cases:
                d.kind, d.why = "stale", "not a case of this tree (baseline from another case set)"
            else:
                d.kind = "missing"
        elif d.status_before == "pass" and d.status_after != "pass":
            d.kind = "regressed"  # correctness is compared even against a stale baseline
        elif d.status_before != "pass" and d.status_after == "pass":
            d.kind = "fixed"
        elif check_stale and (why := stale_reason(b, c)):
            d.kind, d.why = "stale", why
        elif d.cycles_ratio is not None and d.cycles_ratio > 1 + tolerance:
            d.kind = "slower"
        elif d.cycles_ratio is not None and d.cycles_ratio < 1 - tolerance:
            d.kind = "faster"
        deltas.append(d)
    return deltas


def counts(deltas: list[Delta]) -> dict[str, int]:
    return {k: sum(d.kind == k for d in deltas) for k in KINDS}


def is_regression(deltas: list[Delta], fail_on_slower: bool = True, fail_on_stale: bool = True) -> bool:
    """A stale baseline fails too (by default): its cycles vouch for nothing, so a slowdown would go unseen."""
    bad = set(CORRECTNESS_KINDS) | ({"slower"} if fail_on_slower else set()) | ({"stale"} if fail_on_stale else set())
    return any(d.kind in bad for d in deltas)


def to_json(deltas: list[Delta]) -> list[dict]:
    return [
        {
            **asdict(d),
            "cycles_ratio": d.cycles_ratio,
            "cycles_delta": d.cycles_delta,
            "cycles_pct": d.cycles_pct,
            "instret_delta": d.instret_delta,
        }
        for d in deltas
    ]


def write_baseline(current: dict[str, dict], path: str | Path) -> Path:
    """Record ``current`` (rows with their provenance) as the baseline at ``path``."""
    path = Path(path)
    write_json_atomic(path, [current[case] for case in sorted(current)])
    return path
