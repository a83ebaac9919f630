"""The pytest module behind ``nox -s verify``: one test per registered case.

Run through ``python -m harness.verify_suite`` (which sets the results directory,
pytest-xdist workers and the JUnit XML path); not part of the unit-test tiers.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness import executor
from harness.verify_suite import RESULTS_ENV, RESUME_ENV, collect_cases, reuse_or_run

CASES = collect_cases()


@pytest.fixture(scope="session")
def dask_futures(request):
    """With the Dask executor, every selected case is submitted once, up front (harness/executor.py)."""
    if not executor.dask_enabled():
        yield None
        return
    selected = [item.callspec.params["case"] for item in request.session.items if hasattr(item, "callspec")]
    results = Path(os.environ.get(RESULTS_ENV, "results"))
    with executor.client() as client:
        yield executor.submit_cases(client, selected, results, os.environ.get(RESUME_ENV) == "1")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case, dask_futures):
    results = Path(os.environ.get(RESULTS_ENV, "results"))
    if dask_futures is not None:
        result = dask_futures[case.id].result()
    else:
        result = reuse_or_run(case, results, resume=os.environ.get(RESUME_ENV) == "1")
    status = result.get("status")
    assert status == "pass", (
        f"{case.id}: {status}: {result.get('message') or 'exit code ' + str(result.get('exit_code'))}"
    )
