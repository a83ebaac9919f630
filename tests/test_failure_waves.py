"""Waves where an RTL case failed: a bounded dump of the cycles before the failure, never over its cap."""

from __future__ import annotations

import json
import os
import re

import pytest

from harness import failure_waves, verify_suite
from harness.cli import main as cosim
from sim.errors import SimError
from sim.waves import check_window, dump_window

# Traps on the target (no such CSR) after some work; the host run (its expected UART) skips the asm.
TRAPPING_C = r"""
#include <stdio.h>
int main(void) {
  volatile unsigned x = 0;
  for (unsigned i = 0; i < 6000; ++i) x += i;
  printf("before %u\n", x);
#ifdef __riscv
  __asm__ volatile("csrr a0, 0x7c0" ::: "a0");
#endif
  printf("after\n");
  return 0;
}
"""


def vcd_range(path, name: str = "cycle") -> tuple[int, int]:
    """First and last value of tb_top's own variable ``name`` (``cycle``, ``instret``) in a VCD file."""
    scopes: list[str] = []
    code = None
    first = last = None
    with open(path, errors="replace") as f:
        for line in f:
            parts = line.split()
            if code is None or line.startswith("$"):
                if parts[:1] == ["$scope"]:
                    scopes.append(parts[2])
                elif parts[:1] == ["$upscope"]:
                    scopes.pop()
                elif parts[:2] == ["$var", "wire"] and parts[4] == name and scopes[-1:] == ["tb_top"] and not code:
                    code = parts[3]
                continue
            if line.startswith("b") and len(parts) == 2 and parts[1] == code:
                value = int(parts[0][1:], 2)
                first = value if first is None else first
                last = value
    assert code is not None and first is not None, f"no tb_top.{name} in {path}"
    return first, last


def test_window_bounds_are_checked():
    assert check_window(100, None, window=50) == (100, 150)
    with pytest.raises(SimError, match="not after its start"):
        check_window(200, 100)
    with pytest.raises(SimError, match="negative"):
        check_window(-1, 10)


def test_only_failed_rtl_cases_with_a_cycle_count_get_waves(tmp_path):
    elf = tmp_path / "x.elf"
    elf.write_bytes(b"\x7fELF")
    trap = {"status": "trap", "cycles_total": 1234, "elf": str(elf)}
    assert failure_waves.wants_waves("rtl", trap)
    assert not failure_waves.wants_waves("iss", trap)
    assert not failure_waves.wants_waves("rtl", {**trap, "status": "pass"})
    assert not failure_waves.wants_waves("rtl", {**trap, "cycles_total": None})  # crashed before simulating


TRAP_SOURCE = """
from pathlib import Path
from harness.c_programs import CProgram, run_program
from harness.verify_suite import Case

def verify_cases():
    program = CProgram(Path(__file__).with_name("trapping.c"), ("rv32",))
    return [Case("c:trapping@rv32/rtl", "rv32", "rtl", "c-program",
                 lambda w: run_program(program, "rv32", w, target="rtl"))]
"""


@pytest.mark.slow
@pytest.mark.rtl
def test_trapping_case_leaves_bounded_waves_ending_at_the_failure(tmp_path, monkeypatch, capsys):
    """Through the suite (its --waves-window/--waves-cap options), then a cap below the window's size."""
    (tmp_path / "trapping.c").write_text(TRAPPING_C)
    (tmp_path / "trap_cases.py").write_text(TRAP_SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.setenv(verify_suite.SOURCES_ENV, "trap_cases:verify_cases")
    window, cap_mb = 5000, 32
    results = tmp_path / "results"
    args = ["--workers", "1", "--results", str(results), "--source", "trap_cases:verify_cases"]
    code = verify_suite.main([*args, "--waves-window", str(window), "--waves-cap", str(cap_mb)])
    monkeypatch.delenv(verify_suite.ONLY_ENV, raising=False)
    assert code == 1
    result = json.loads((verify_suite.case_dir(results, "c:trapping@rv32/rtl") / "result.json").read_text())
    assert result["status"] == "trap", result.get("message")
    end = result["cycles_total"]
    assert end > 2 * window  # the window is a part of the run, not all of it
    waves = result["waves"]
    assert (waves["from_cycle"], waves["to_cycle"]) == (end - window, end)
    assert os.path.getsize(waves["path"]) == waves["bytes"] <= cap_mb * 2**20
    if waves["format"] == "vcd":
        first, last = vcd_range(waves["path"])
        assert abs(first - (end - window)) <= 1 and abs(last - end) <= 1
    (row,) = json.loads((results / "summary.json").read_text())
    assert row["waves"] == waves and f"waves of cycles {end - window}..{end}" in capsys.readouterr().out

    # A cap below this window's size: the window is shrunk from its start, still ending at the failure.
    small = waves["bytes"] // 3
    outcome, shrunk = dump_window(
        result["elf"], "rv32", tmp_path / "small", start=end - window, stop=end, cap_bytes=small
    )
    assert outcome.ending == "trap" and outcome.cycles_total == end
    assert shrunk is not None and shrunk.bytes <= small and shrunk.attempts == 2
    assert shrunk.stop == end and end - window < shrunk.start < end
    if shrunk.format == "vcd":
        first, last = vcd_range(shrunk.path)
        assert abs(first - shrunk.start) <= 1 and abs(last - end) <= 1


@pytest.mark.slow
@pytest.mark.rtl
def test_difftest_divergence_leaves_waves_ending_at_the_diverging_instruction(tmp_path, capsys):
    from harness.commands.difftest import run_difftest
    from harness.toolchain import build_elf

    src = tmp_path / "trapping.c"
    src.write_text(TRAPPING_C.replace("csrr a0, 0x7c0", "nop"))  # runs clean; the fault is injected
    elf = build_elf([src], "rv32", tmp_path / "clean.elf")
    clean = run_difftest(elf, "rv32", keep_trace=tmp_path / "trace.txt")
    assert clean.ok
    # A register-writing instruction first retired after the loop (instruction > 10 000): its PC is corrupted.
    seen: set[str] = set()
    index = pc = None
    for n, line in enumerate((tmp_path / "trace.txt").read_text().splitlines(), 1):
        tokens = line.split()
        if n > 10_000 and tokens[0] not in seen and len(tokens) > 2 and tokens[2].startswith("x"):
            index, pc = n, tokens[0]
            break
        seen.add(tokens[0])
    assert pc is not None
    window = 3000
    args = ["difftest", str(elf), "--soc", "rv32", "--corrupt-pc", pc, "--waves", "--waves-window", str(window)]
    rc = cosim([*args, "--waves-file", str(tmp_path / "div.vcd")])
    out = capsys.readouterr()
    assert rc == 1 and f"first divergence at instruction {index} " in out.out, out.out
    m = re.search(r"waves of cycles (\d+)\.\.(\d+) \(instruction (\d+) retired in cycle (\d+)\) in (\S+) ", out.err)
    assert m, out.err
    start, stop, at, cycle, path = int(m[1]), int(m[2]), int(m[3]), int(m[4]), m[5]
    assert (at, start, stop) == (index, cycle - window, cycle + 1)
    assert os.path.getsize(path) <= 64 * 2**20
    if path.endswith(".vcd"):
        first, last = vcd_range(path)
        assert abs(first - start) <= 1 and abs(last - stop) <= 1
        assert vcd_range(path, "instret")[1] in (index, index + 1)  # the dump ends as the instruction retires

    # Any window: cosim run --waves --from C1 --to C2 dumps C1..C2 and stops the run there.
    rc = cosim(
        ["run", str(elf), "--soc", "rv32", "--json", str(tmp_path / "r.json"), "--waves"]
        + ["--from", "1000", "--to", "3000", "--waves-file", str(tmp_path / "any.vcd")]
    )
    err = capsys.readouterr().err
    assert rc == 1 and "waves of cycles 1000..3000 (the run was stopped there)" in err, err
    written = next(tmp_path.glob("any.*"))
    if written.suffix == ".vcd":
        first, last = vcd_range(written)
        assert abs(first - 1000) <= 1 and abs(last - 3000) <= 1


def test_cosim_run_window_options_need_waves(tmp_path, capsys):
    elf = tmp_path / "x.elf"
    elf.write_bytes(b"")
    assert cosim(["run", str(elf), "--soc", "rv32", "--from", "10"]) == 2
    assert "add --waves" in capsys.readouterr().err


def test_dump_format_is_read_from_the_file(tmp_path):
    from sim.waves import trace_format

    vcd, fst = tmp_path / "a.dump", tmp_path / "b.dump"
    vcd.write_text("$version Generated by VerilatedVcd $end\n$timescale 1ps $end\n")
    fst.write_bytes(bytes(8) + b"\x01" * 56)  # FST starts with its header block, type 0
    assert (trace_format(vcd), trace_format(fst)) == ("vcd", "fst")
