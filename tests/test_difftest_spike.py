"""The difftest end to end against real Spike runs (RTL side: a recorded Spike trace).

Spike runs twice: once to record a trace in the RTL trace format, once streamed
by ``cosim difftest --rtl-trace``. A clean trace must compare clean; a trace
with one corrupted record must be reported at exactly that PC. Random programs
from sim.randgen must run on Spike to EXIT 0 and difftest clean.
"""

from __future__ import annotations

import pytest

from harness.cli import main as cosim
from harness.commands.difftest import run_difftest
from harness.toolchain import build_elf
from sim.difftest.rtl_trace import format_rtl_line
from sim.difftest.spike_log import iter_spike_log
from sim.difftest.spike_stream import spike_commits
from sim.randgen import generate
from sim.spike import run_spike

pytestmark = pytest.mark.iss

XLEN = {"rv32": 32, "rv64": 64}

C_PROGRAM = r"""
#include <stdio.h>
static volatile float acc = 1.0f;
int main(void) {
    unsigned h = 2166136261u;
    for (int i = 0; i < 40; i++) {
        h = (h ^ (unsigned)i) * 16777619u;
        acc = acc * 1.5f - (float)(h & 7) / (float)(i + 1);
    }
    printf("hash %u acc %d\n", h, (int)acc);
    return 0;
}
"""


@pytest.fixture(scope="module", params=["rv32", "rv64"])
def c_elf(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"c-{request.param}")
    src = d / "prog.c"
    src.write_text(C_PROGRAM)
    return request.param, build_elf([src], request.param, d / "prog.elf")


def record_trace(elf, soc, path):
    """Spike's commits written in the RTL trace format; returns the lines."""
    with spike_commits(elf, soc) as s:
        lines = [format_rtl_line(c, XLEN[soc]) for c in iter_spike_log(s)]
    path.write_text("\n".join(lines) + "\n")
    return lines


def corrupt_first_write(lines, start, kind="x"):
    """Flip bit 0 of the first `kind` register write at or after line `start`; returns (index, pc)."""
    for i in range(start, len(lines)):
        parts = lines[i].split()
        for k in range(2, len(parts) - 1):
            if parts[k].startswith(kind) and parts[k][1:].isdigit():
                digits = len(parts[k + 1]) - 2
                parts[k + 1] = f"0x{int(parts[k + 1], 16) ^ 1:0{digits}x}"
                lines[i] = " ".join(parts)
                return i, int(parts[0], 16)
    raise AssertionError(f"no {kind} write after line {start}")


def test_spike_against_its_own_trace_is_clean(c_elf, tmp_path):
    soc, elf = c_elf
    lines = record_trace(elf, soc, tmp_path / "t.txt")
    report = run_difftest(elf, soc, rtl_trace=tmp_path / "t.txt")
    assert report.ok, report.result.summary()
    assert report.result.compared == len(lines) > 500
    assert report.spike is not None and report.spike.exited_ok


@pytest.mark.parametrize("kind", ["x", "f"])
def test_corrupted_record_is_named_by_pc(c_elf, tmp_path, kind):
    soc, elf = c_elf
    lines = record_trace(elf, soc, tmp_path / "t.txt")
    index, pc = corrupt_first_write(lines, len(lines) // 2 if kind == "x" else 0, kind)
    (tmp_path / "bad.txt").write_text("\n".join(lines) + "\n")
    report = run_difftest(elf, soc, rtl_trace=tmp_path / "bad.txt")
    d = report.result.divergence
    assert d is not None and d.what == "register"
    assert d.pc == pc and d.index == index + 1
    assert "bit 0 differs" in d.details[0]


def test_corrupted_store_is_a_memory_divergence(c_elf, tmp_path):
    soc, elf = c_elf
    lines = record_trace(elf, soc, tmp_path / "t.txt")
    i = next(i for i in range(len(lines) // 3, len(lines)) if lines[i].split()[-3:][0] == "mem")  # a store
    parts = lines[i].split()
    parts[-1] = f"0x{int(parts[-1], 16) ^ 0x80:0{len(parts[-1]) - 2}x}"
    lines[i] = " ".join(parts)
    (tmp_path / "bad.txt").write_text("\n".join(lines) + "\n")
    d = run_difftest(elf, soc, rtl_trace=tmp_path / "bad.txt").result.divergence
    assert d.what == "memory" and d.pc == int(parts[0], 16) and "store data" in d.details[0]


def test_cli_prints_verdict_and_exit_code(c_elf, tmp_path, capsys):
    soc, elf = c_elf
    lines = record_trace(elf, soc, tmp_path / "t.txt")
    assert cosim(["difftest", str(elf), "--soc", soc, "--rtl-trace", str(tmp_path / "t.txt")]) == 0
    assert f"no divergence ({len(lines)} instructions compared" in capsys.readouterr().out
    _, pc = corrupt_first_write(lines, 100)
    (tmp_path / "bad.txt").write_text("\n".join(lines) + "\n")
    assert cosim(["difftest", str(elf), "--soc", soc, "--rtl-trace", str(tmp_path / "bad.txt")]) == 1
    out = capsys.readouterr().out
    assert f"pc 0x{pc:08x}" in out and "expected" in out and "context" in out


def test_cli_errors_are_clear(c_elf, tmp_path, capsys):
    soc, elf = c_elf
    assert cosim(["difftest", str(elf), "--soc", soc, "--rtl-trace", str(tmp_path / "none.txt")]) == 2
    assert "does not exist" in capsys.readouterr().err
    (tmp_path / "junk.txt").write_text("this is not a trace\n")
    assert cosim(["difftest", str(elf), "--soc", soc, "--rtl-trace", str(tmp_path / "junk.txt")]) == 2
    assert "RTL trace line 1: not a commit" in capsys.readouterr().err
    assert cosim(["difftest", str(tmp_path / "missing.elf"), "--soc", soc]) == 2
    assert "does not exist" in capsys.readouterr().err
    other = "rv64" if soc == "rv32" else "rv32"
    assert cosim(["difftest", str(elf), "--soc", other]) == 2
    assert f"rebuild it with `cosim cc --soc {other}`" in capsys.readouterr().err


@pytest.mark.parametrize("soc", ["rv32", "rv64"])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_programs_run_to_exit_and_difftest_clean_spike_vs_spike(soc, seed, tmp_path):
    prog = generate(seed, XLEN[soc], 600)
    (tmp_path / "p.S").write_text(prog.text)
    elf = build_elf([tmp_path / "p.S"], soc, tmp_path / "p.elf")
    out = run_spike(elf, soc, max_instructions=200_000)
    assert out.exited_ok, (out.ending, out.message, out.uart)
    lines = record_trace(elf, soc, tmp_path / "t.txt")
    report = run_difftest(elf, soc, rtl_trace=tmp_path / "t.txt")
    assert report.ok, report.result.summary()
    assert report.result.compared == len(lines)
