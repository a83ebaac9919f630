"""The C test programs print exactly what the same C prints on the host, on every config they name."""

import pytest

from harness.c_programs import discover, host_expected, run_program

CASES = [(p, soc) for p in discover() for soc in p.socs]


@pytest.mark.iss
@pytest.mark.parametrize("program,soc", CASES, ids=[f"{p.name}@{soc}" for p, soc in CASES])
def test_program_matches_host(program, soc, tmp_path):
    result = run_program(program, soc, tmp_path)
    expected = host_expected(program)
    assert result["uart"] == expected, result.get("message")
    assert result["exit_code"] == 0
    assert result["status"] == "pass"
    assert result["instret"] > 1000


def test_every_program_has_configs():
    programs = discover()
    assert {"sort", "crc32", "float32", "linked_list", "muldiv64", "printf_fmt"} <= {p.name for p in programs}
    assert all(p.socs for p in programs)
    assert next(p for p in programs if p.name == "vector_saxpy").socs == ("t1-small", "t1-blastoise")
