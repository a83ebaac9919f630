"""`cosim difftest` on the real RTL: C programs and random programs compare clean
against Spike, traps pass through, and the fault-injection plusarg is named by PC.

Verilator builds come from the shared build cache (sim/verilator_build.py).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from harness.cli import main as cosim
from harness.commands.difftest import run_difftest
from harness.elfcheck import ElfImage
from harness.toolchain import build_elf
from sim.randgen import generate

pytestmark = pytest.mark.rtl

XLEN = {"rv32": 32, "rv64": 64}

C_PROGRAM = r"""
#include <stdio.h>
#include <cosim.h>
static volatile float acc = 1.0f;
volatile unsigned long elapsed;
int main(void) {
    unsigned h = 2166136261u;
    unsigned long t0 = (unsigned long)read_cycle();
    for (int i = 0; i < 60; i++) {
        h = (h ^ (unsigned)i) * 16777619u;
        acc = acc * 1.5f - (float)(h & 7) / (float)(i + 1);
    }
    unsigned long t1 = (unsigned long)read_cycle();
    elapsed = t1 - t0; /* differs between RTL and Spike */
    printf("hash %u acc %d in %lu cycles\n", h, (int)acc, elapsed);
    if (elapsed > 1000000) printf("slow\n");
    printf("done %u\n", h * 3u);
    return 0;
}
"""

ILLEGAL_C = r"""
#include <stdio.h>
int main(void) { printf("x\n"); __asm__ volatile(".word 0"); return 0; }
"""


@pytest.fixture(scope="module", params=["rv32", "rv64"])
def soc(request):
    return request.param


@pytest.fixture(scope="module")
def c_elf(soc, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"dt-rtl-{soc}")
    (d / "prog.c").write_text(C_PROGRAM)
    return build_elf([d / "prog.c"], soc, d / "prog.elf")


def test_c_program_has_no_divergence(soc, c_elf, tmp_path):
    report = run_difftest(c_elf, soc, keep_trace=tmp_path / "trace.txt")
    assert report.ok, report.result.summary()
    assert report.rtl is not None and report.rtl.exited_ok and "hash" in report.rtl.uart
    assert report.result.compared > 1000
    # The program's own cycle count differs between RTL and Spike: taken from the RTL,
    # and printing it (branches on its digits) is realigned rather than reported.
    assert report.result.copied_from_rtl >= 2


def test_fault_injection_is_named_by_pc(soc, c_elf, tmp_path, capsys):
    clean = run_difftest(c_elf, soc, keep_trace=tmp_path / "trace.txt")
    assert clean.ok
    main = ElfImage(c_elf).symbol("main")
    # The first instruction in main that writes an x register.
    pc = None
    for line in (tmp_path / "trace.txt").read_text().splitlines():
        m = re.match(r"0x([0-9a-f]+) \(0x[0-9a-f]+\) x\d+ ", line)
        if m and main.addr <= int(m.group(1), 16) < main.addr + main.size:
            pc = int(m.group(1), 16)
            break
    assert pc is not None
    rc = cosim(["difftest", str(c_elf), "--soc", soc, "--corrupt-pc", hex(pc)])
    out = capsys.readouterr().out
    assert rc == 1, out
    assert "first divergence at instruction" in out and f"pc 0x{pc:08x}" in out
    assert "bit 0 differs" in out


def test_trap_in_program_compares_through_the_handler(soc, tmp_path):
    (tmp_path / "ill.c").write_text(ILLEGAL_C)
    elf = build_elf([tmp_path / "ill.c"], soc, tmp_path / "ill.elf")
    report = run_difftest(elf, soc)
    assert report.ok, report.result.summary()
    assert report.rtl.ending == "trap" and report.result.rtl_traps == 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_program_has_no_divergence(soc, seed, tmp_path):
    prog = generate(seed, XLEN[soc], 600)
    (tmp_path / "p.S").write_text(prog.text)
    elf = build_elf([tmp_path / "p.S"], soc, tmp_path / "p.elf")
    report = run_difftest(elf, soc)
    assert report.ok, report.result.summary()
    assert report.rtl.exited_ok
    assert report.result.compared > 500
    assert 0 < report.result.rtl_traps <= prog.classes["trap"]  # traps taken and resumed from


def test_cycle_limit_ends_the_comparison_cleanly(soc, tmp_path, capsys):
    (tmp_path / "spin.c").write_text("int main(void) { volatile int x = 0; for (;;) x++; return 0; }\n")
    elf = build_elf([tmp_path / "spin.c"], soc, tmp_path / "spin.elf")
    rc = cosim(["difftest", str(elf), "--soc", soc, "--max-cycles", "20000"])
    captured = capsys.readouterr()
    assert rc == 0, captured.out
    assert "no divergence" in captured.out and "RTL: timeout" in captured.err


def test_an_unfinished_run_is_not_a_clean_difftest(soc, tmp_path, capsys):
    """A run stopped by the config's own cycle limit (or the watchdog), not by a limit the
    user asked for, fails the difftest: the comparator stops where the RTL trace ends,
    so "no divergence" alone would hide a hang."""
    from configs import CONFIG_DIR

    text = (CONFIG_DIR / f"{soc}.toml").read_text()
    text = re.sub(r"(?m)^max_cycles = .*$", "max_cycles = 20_000", text)
    cfg = tmp_path / f"{soc}.toml"
    cfg.write_text(text)
    (tmp_path / "spin.c").write_text("int main(void) { volatile int x = 0; for (;;) x++; return 0; }\n")
    elf = build_elf([tmp_path / "spin.c"], soc, tmp_path / "spin.elf")
    report = run_difftest(elf, cfg)
    assert report.rtl.ending == "timeout" and report.result.ok
    assert not report.ok and "cycle limit" in report.unfinished
    rc = cosim(["difftest", str(elf), "--soc", str(cfg)])
    assert rc == 1 and "did not finish" in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 116))
def test_long_random_program_has_no_divergence(soc, seed, tmp_path):
    prog = generate(seed, XLEN[soc], 4000)
    (tmp_path / "p.S").write_text(prog.text)
    elf = build_elf([tmp_path / "p.S"], soc, tmp_path / "p.elf")
    report = run_difftest(elf, soc)
    assert report.ok, report.result.summary()


def test_stream_mode_compares_clean(soc, c_elf, capsys):
    assert cosim(["difftest", str(c_elf), "--soc", soc, "--stream"]) == 0
    assert "no divergence" in capsys.readouterr().out


def test_stream_mode_stops_the_simulator_at_a_divergence(soc, tmp_path):
    """A spinning program with a huge cycle limit: the fault is found early and the
    simulator is stopped at once instead of running on to its limit."""
    (tmp_path / "spin.c").write_text("int main(void) { volatile int x = 0; for (;;) x++; return 0; }\n")
    elf = build_elf([tmp_path / "spin.c"], soc, tmp_path / "spin.elf")
    clean = run_difftest(elf, soc, max_cycles=5000, keep_trace=tmp_path / "t.txt")
    assert clean.ok
    main = ElfImage(elf).symbol("main")
    pcs = [
        int(m.group(1), 16)
        for m in re.finditer(r"^0x([0-9a-f]+) \(0x[0-9a-f]+\) x\d+ ", (tmp_path / "t.txt").read_text(), re.M)
    ]
    pc = next(p for p in pcs if main.addr <= p < main.addr + main.size)
    t0 = time.monotonic()
    report = run_difftest(elf, soc, max_cycles=2_000_000_000, corrupt_pc=pc, stream=True)
    assert report.result.divergence is not None and report.result.divergence.pc == pc
    assert time.monotonic() - t0 < 120  # 2e9 cycles would take far longer
    assert not _live_processes_with_arg(f"+corrupt_pc={pc:x}"), "the simulator is still running"


def _live_processes_with_arg(arg: str) -> list[int]:
    """Pids of running (not zombie) processes with ``arg`` on their command line."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if arg.encode() in (entry / "cmdline").read_bytes().split(b"\0"):
                if (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                    found.append(int(entry.name))
        except OSError:
            continue
    return found


PROGRAMS = Path(__file__).resolve().parent / "programs"


@pytest.mark.parametrize(
    "program",
    [
        "printf_fmt",
        pytest.param("crc32", marks=pytest.mark.slow),
        pytest.param("muldiv64", marks=pytest.mark.slow),
        pytest.param("float32", marks=pytest.mark.slow),
        pytest.param("sort", marks=pytest.mark.slow),
    ],
)
def test_project_c_programs_have_no_divergence(soc, program, tmp_path):
    """The runtime test programs (tests/programs), streamed: 27k-3M instructions each."""
    elf = build_elf([PROGRAMS / f"{program}.c"], soc, tmp_path / f"{program}.elf")
    report = run_difftest(elf, soc, stream=True)
    assert report.ok, report.result.summary()
    assert report.rtl is not None and report.rtl.exited_ok
