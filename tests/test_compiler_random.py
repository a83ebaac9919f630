"""Random programs from the issue's op families (tests/random_programs.py) verify
against eager PyTorch on Spike, through the public API, on rv32, t1-small,
t1-blastoise and a VLEN-512 config; on the vector configs they retire far fewer
instructions than on rv32.

A campaign of any size: ``python tests/test_compiler_random.py FIRST COUNT
[SOC,...]`` prints one line per program and config (status, instructions in forward).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from random_programs import generate  # noqa: E402

from harness.cases import Case  # noqa: E402
from harness.verify import verify  # noqa: E402

pytestmark = pytest.mark.iss

DEFAULT_SEEDS = range(10)
SLOW_SEEDS = range(10, 70)
VECTOR_SOCS = ("t1-small", "t1-blastoise", "v512")
# A program rv32 runs in more than this many instructions in forward is big enough
# for the vector configs to cut them to at most MAX_RATIO of rv32's...
BIG = 2000
MAX_RATIO = 0.5
# ... and from this size on they never retire more than rv32 (a tril mask in i64
# took 4.6x rv32's instructions on every vector config).
SMALL = 500


def run(seed: int, soc, workdir: Path) -> dict:
    program = generate(seed)
    case = Case(program.name, lambda: (program.fn, program.inputs), program.tolerance)
    return verify(case, soc, on="iss", workdir=workdir)


def _check(seed: int, soc, workdir: Path) -> dict:
    result = run(seed, soc, workdir)
    assert result["status"] == "pass", (generate(seed).description, result.get("message"), result["outputs"])
    return result


@pytest.fixture(scope="module")
def v512(tmp_path_factory) -> Path:
    from test_vector_share import write_vlen_config

    return write_vlen_config(tmp_path_factory.mktemp("cfg"), 512)


@pytest.mark.parametrize("soc", ["t1-small", "t1-blastoise"])
@pytest.mark.parametrize("seed", DEFAULT_SEEDS)
def test_random_programs_match_pytorch(seed, soc, tmp_path):
    _check(seed, soc, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [*DEFAULT_SEEDS, *SLOW_SEEDS])
def test_random_programs_everywhere_and_vector_configs_cut_instructions(seed, v512, tmp_path):
    scalar = _check(seed, "rv32", tmp_path / "rv32")["instret_forward"]
    for soc in VECTOR_SOCS:
        vector = _check(seed, v512 if soc == "v512" else soc, tmp_path / soc)["instret_forward"]
        if scalar > BIG:
            assert vector <= MAX_RATIO * scalar, (generate(seed).description, soc, vector, scalar)
        if scalar > SMALL:
            assert vector <= scalar, (generate(seed).description, soc, vector, scalar)


def main(argv: list[str]) -> int:
    import tempfile

    first, count = int(argv[0]), int(argv[1])
    socs = argv[2].split(",") if len(argv) > 2 else ["rv32", "t1-small", "t1-blastoise"]
    for seed in range(first, first + count):
        program = generate(seed)
        for soc in socs:
            with tempfile.TemporaryDirectory() as tmp:
                try:
                    result = run(seed, soc, Path(tmp))
                    status, detail = result["status"], result.get("instret_forward")
                    if status != "pass":
                        detail = (result.get("message"), result["outputs"])
                except Exception as e:  # a campaign reports every program
                    status, detail = "ERROR", f"{type(e).__name__}: {str(e).splitlines()[0][:300] if str(e) else ''}"
            print(
                f"{seed:6d} {program.family:16s} {Path(str(soc)).stem:13s} {status:6s} {program.description} | {detail}"
            )
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
