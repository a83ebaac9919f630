"""The RTL SoC runs the same ELFs as Spike: same UART text, traps, timeouts,
dumps, profile regions, deterministic cycles, a commit trace the difftest accepts.

Builds are shared through the Verilator cache (one per config); programs are
built once per module.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from configs import load_soc
from harness.toolchain import build_elf
from sim.rtl_runner import run_rtl
from sim.spike.runner import run_spike

pytestmark = pytest.mark.rtl

REPO = Path(__file__).resolve().parents[1]
SOCS = ("rv32", "rv64")

BASIC_C = r"""
#include <stdio.h>
#include <stdint.h>
#include <cosim.h>

volatile uint32_t result[16];

static uint32_t mix(uint32_t x) { x ^= x >> 13; x *= 0x5bd1e995u; return x ^ (x >> 15); }

int main(void) {
  uint64_t acc = 1;
  profile_start(5);
  for (uint32_t i = 0; i < 16; ++i) {
    result[i] = mix(i * 2654435761u) / (i + 3) + (uint32_t)(acc % 1000003u);
    acc = acc * 6364136223846793005ull + result[i];
  }
  profile_stop(5);
  long q = -7 / 2, r = -7 % 2;
  printf("basic %ld %ld %08x %lu\n", q, r, (unsigned)result[15], (unsigned long)(acc & 0xffff));
  return 0;
}
"""

ILLEGAL_C = r"""
#include <stdio.h>
int main(void) {
  printf("before\n");
  __asm__ volatile("csrr a0, 0x7c0" ::: "a0");   /* no such CSR: illegal instruction */
  printf("after\n");
  return 0;
}
"""

MISALIGNED_C = r"""
#include <stdio.h>
#include <stdint.h>
volatile uint8_t buf[16] = {1, 2, 3, 4, 5, 6, 7, 8};
int main(void) {
  volatile uint32_t *p = (volatile uint32_t *)(buf + 1);
  printf("load %u\n", (unsigned)*p);
  return 0;
}
"""

SPIN_C = r"""
int main(void) {
  volatile unsigned x = 0;
  for (;;) x++;
}
"""

FAIL_C = r"""
#include <stdio.h>
int main(void) { printf("failing\n"); return 3; }
"""


def _build(tmp: Path, name: str, text: str, soc: str) -> Path:
    src = tmp / f"{name}.c"
    src.write_text(text)
    return build_elf([src], soc, tmp / f"{name}-{soc}.elf")


@pytest.fixture(scope="module")
def elves(tmp_path_factory) -> dict[tuple[str, str], Path]:
    tmp = tmp_path_factory.mktemp("rtl-progs")
    progs = {"basic": BASIC_C, "illegal": ILLEGAL_C, "misaligned": MISALIGNED_C, "spin": SPIN_C, "fail": FAIL_C}
    out = {(n, s): _build(tmp, n, t, s) for n, t in progs.items() for s in SOCS}
    for s in SOCS:
        for prog in ("float32", "muldiv64"):
            out[(prog, s)] = build_elf([REPO / "tests" / "programs" / f"{prog}.c"], s, tmp / f"{prog}-{s}.elf")
    return out


@pytest.mark.parametrize("soc", SOCS)
def test_basic_matches_spike_and_is_deterministic(elves, soc, tmp_path):
    elf = elves[("basic", soc)]
    spike = run_spike(elf, soc)
    first = run_rtl(elf, soc)
    second = run_rtl(elf, soc)
    assert first.ending == "exit" and first.exit_code == 0, first.message
    assert first.uart == spike.uart
    assert first.uart.startswith("basic -3 -1 ")
    assert first.cycles_total == second.cycles_total > first.instret > 100
    assert first.instret == second.instret
    # Profile region 5 is measured in cycles and lies inside the run.
    (region,) = [p for p in first.profile if p.region == 5]
    assert 0 < region.start < region.stop < first.cycles_total
    assert region.cycles > 16 * 10
    assert first.sim_cycles_per_s and first.sim_cycles_per_s > 0
    assert first.rtl_hash and len(first.rtl_hash) == 16


@pytest.mark.slow
@pytest.mark.parametrize("soc", SOCS)
@pytest.mark.parametrize("prog", ["float32", "muldiv64"])
def test_runtime_programs_print_what_spike_prints(elves, soc, prog):
    elf = elves[(prog, soc)]
    rtl = run_rtl(elf, soc)
    spike = run_spike(elf, soc)
    assert rtl.ending == "exit", rtl.message
    assert rtl.exit_code == spike.exit_code == 0
    assert rtl.uart == spike.uart
    assert rtl.instret == pytest.approx(spike.instret, abs=8)  # Spike's boot ROM adds a few


@pytest.mark.parametrize("soc", SOCS)
def test_illegal_instruction_traps_with_pc(elves, soc):
    elf = elves[("illegal", soc)]
    rtl = run_rtl(elf, soc)
    spike = run_spike(elf, soc)
    assert rtl.ending == "trap", rtl.message
    assert rtl.trap.cause == 2 and rtl.trap.description == "illegal instruction"
    assert rtl.trap.instruction == 0x7C002573  # csrrs a0, 0x7c0, zero
    assert rtl.trap.tval == 0x7C002573  # mtval holds the instruction bits, as on Spike
    assert (rtl.trap.cause, rtl.trap.pc, rtl.trap.tval) == (spike.trap.cause, spike.trap.pc, spike.trap.tval)
    assert rtl.uart.startswith("before\n") and "after" not in rtl.uart


@pytest.mark.parametrize("soc", SOCS)
def test_misaligned_load_traps_like_spike(elves, soc):
    elf = elves[("misaligned", soc)]
    rtl = run_rtl(elf, soc)
    spike = run_spike(elf, soc)
    assert spike.ending == "trap" and spike.trap.cause == 4
    assert rtl.ending == "trap" and rtl.trap.cause == 4
    assert (rtl.trap.pc, rtl.trap.tval) == (spike.trap.pc, spike.trap.tval)
    assert rtl.trap.tval % 4 == 1


def test_spin_ends_as_timeout_naming_pc_and_cycle(elves):
    rtl = run_rtl(elves[("spin", "rv32")], "rv32", max_cycles=20_000)
    assert rtl.ending == "timeout"
    m = re.search(r"pc 0x([0-9a-f]{8}), cycle (\d+)", rtl.message)
    assert m, rtl.message
    assert int(m.group(2)) == 20_000 - 1 == rtl.cycles_total
    assert 0x2000_0000 <= int(m.group(1), 16) < 0x4000_0000
    assert "cycle limit" in rtl.message


def test_watchdog_fires_when_nothing_retires(elves):
    # With a watchdog shorter than one instruction's fetch latency nothing can retire in time.
    rtl = run_rtl(elves[("basic", "rv32")], "rv32", watchdog_cycles=3)
    assert rtl.ending == "timeout"
    assert "watchdog" in rtl.message and re.search(r"pc 0x[0-9a-f]{8}, cycle \d+", rtl.message)


def test_dumps_read_the_backing_store_after_exit(elves, tmp_path):
    from elftools.elf.elffile import ELFFile

    elf = elves[("basic", "rv32")]
    with open(elf, "rb") as f:
        sym = ELFFile(f).get_section_by_name(".symtab").get_symbol_by_name("result")[0]
    addr = sym["st_value"]
    rtl = run_rtl(elf, "rv32", dumps=[(addr, 64)])
    data = rtl.dumps[addr]
    words = [int.from_bytes(data[i : i + 4], "little") for i in range(0, 64, 4)]
    assert rtl.uart.split()[3] == f"{words[15]:08x}"
    assert len(set(words)) > 8  # really the computed array, not zeros


@pytest.mark.parametrize("soc", ["rv32", pytest.param("rv64", marks=pytest.mark.slow)])
def test_commit_trace_format(elves, soc, tmp_path):
    trace = tmp_path / "t.trace"
    rtl = run_rtl(elves[("basic", soc)], soc, trace=trace)
    lines = trace.read_text().splitlines()
    assert len(lines) == rtl.instret
    d = load_soc(soc).xlen // 4
    line_re = re.compile(
        rf"^0x[0-9a-f]{{{d}}} \(0x[0-9a-f]{{8}}\)"
        rf"( x([1-9]|[12]\d|3[01]) 0x[0-9a-f]{{{d}}}| f\d+ 0x[0-9a-f]+| c\d+_\w+ 0x[0-9a-f]{{{d}}}"
        rf"| mem 0x[0-9a-f]{{{d}}}( 0x[0-9a-f]+)?)*$"
    )
    bad = [ln for ln in lines if not line_re.match(ln)]
    assert not bad, bad[:5]
    stores = [ln for ln in lines if re.search(r" mem 0x\w+ 0x\w+$", ln)]
    assert stores and any(len(ln.split()[-1]) == 10 for ln in stores)  # sw data: 8 hex digits


@pytest.mark.parametrize(("soc", "prog"), [("rv32", "basic"), pytest.param("rv64", "muldiv64", marks=pytest.mark.slow)])
def test_difftest_clean_and_fault_injection_named(elves, soc, prog):
    from harness.commands.difftest import run_difftest

    elf = elves[(prog, soc)]
    clean = run_difftest(elf, soc)
    assert clean.ok, clean.result.summary()
    # Corrupt the destination of some register-writing instruction late in main.
    with_write = _a_register_writing_pc(elf, soc)
    bad = run_difftest(elf, soc, corrupt_pc=with_write)
    assert not bad.ok
    assert bad.result.divergence.pc == with_write


def _a_register_writing_pc(elf: Path, soc: str) -> int:
    """PC of an `addi` in main that writes a register other than sp/zero."""
    from elftools.elf.elffile import ELFFile

    from sim.disasm import disassemble

    with open(elf, "rb") as f:
        ef = ELFFile(f)
        main = ef.get_section_by_name(".symtab").get_symbol_by_name("main")[0]
        text = ef.get_section_by_name(".text")
        base = text["sh_addr"]
        data = text.data()
        start = main["st_value"]
        for pc in range(start, start + main["st_size"], 4):
            word = int.from_bytes(data[pc - base : pc - base + 4], "little")
            asm = disassemble(word, load_soc(soc).xlen)
            if re.match(r"(addi|lui|li) (a[0-7]|s[1-9]|t\d)\b", asm):
                return pc
    raise AssertionError("no register-writing instruction in main")


def test_cosim_run_cli_writes_result_and_reports(elves, tmp_path):
    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "harness", "run", *args], capture_output=True, text=True, cwd=tmp_path
        )

    ok = cli(str(elves[("basic", "rv32")]), "--soc", "rv32", "--json", "ok.json")
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("basic ")
    res = json.loads((tmp_path / "ok.json").read_text())
    from harness.results import RESULT_KEYS

    assert tuple(res)[: len(RESULT_KEYS)] == RESULT_KEYS
    assert res["target"] == "rtl" and res["status"] == "pass" and res["cycles_total"] > 0
    assert res["profile"][0]["region"] == 5 and res["profile"][0]["cycles"] > 0

    bad = cli(str(elves[("illegal", "rv64")]), "--soc", "rv64", "--json", "trap.json")
    assert bad.returncode == 1
    trap = json.loads((tmp_path / "trap.json").read_text())
    assert trap["status"] == "trap"
    assert trap["trap"]["disassembly"].startswith("csrr")
    assert "illegal instruction" in bad.stderr and "csrr" in bad.stderr

    fail = cli(str(elves[("fail", "rv32")]), "--soc", "rv32", "--json", "fail.json")
    assert fail.returncode == 1 and json.loads((tmp_path / "fail.json").read_text())["exit_code"] == 3

    missing = cli("nope.elf", "--soc", "rv32")
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    other = cli(str(elves[("basic", "rv64")]), "--soc", "rv32")
    assert other.returncode == 2


@pytest.mark.slow
def test_waves_are_written(elves, tmp_path):
    """--waves builds a traced model (its own cache entry) and writes VCD (FST with liblz4)."""
    rtl = run_rtl(elves[("basic", "rv32")], "rv32", waves=tmp_path / "w.fst")
    assert rtl.exited_ok
    (written,) = [p for p in tmp_path.iterdir() if p.suffix in (".fst", ".vcd")]
    assert written.stat().st_size > 10_000
    if written.suffix == ".vcd":
        head = written.read_text(errors="replace")[:20_000]
        assert "$timescale" in head and "clk" in head


NO_HANDLER_S = r"""
    .globl main
main:
    csrw mtvec, zero      # no trap vector: the handler fetch faults at address 0
    .word 0xffffffff      # illegal instruction
    ret
"""


def test_trap_without_handler_reports_the_first_trap(tmp_path):
    src = tmp_path / "nohandler.S"
    src.write_text(NO_HANDLER_S)
    elf = build_elf([src], "rv32", tmp_path / "nohandler.elf")
    rtl = run_rtl(elf, "rv32")
    assert rtl.ending == "trap"
    assert rtl.trap.cause == 2 and rtl.trap.instruction == 0xFFFFFFFF == rtl.trap.tval
    assert "trap vector faulted" in rtl.message


def test_simulation_finds_cocotb_libraries_of_this_environment(monkeypatch):
    """A cached build's RUNPATH names the virtualenv that built it (maybe deleted since:
    the cache is shared by every checkout), so the run puts this environment's cocotb
    libraries first on LD_LIBRARY_PATH and keeps what the user had."""
    import cocotb_tools.config

    from sim.rtl_runner import cocotb_library_path

    monkeypatch.setenv("LD_LIBRARY_PATH", "/opt/user/lib")
    first, rest = cocotb_library_path().split(":", 1)
    assert (Path(first) / "libcocotbvpi_verilator.so").is_file()
    assert Path(first) == Path(cocotb_tools.config.libs_dir)
    assert rest == "/opt/user/lib"
