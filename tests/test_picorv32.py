"""PicoRV32 (pythondata-cpu-picorv32) through a config's [rtl] section: the C programs
print on its RTL what Spike prints for the same rv32im ELF (and what the host prints),
with cycle counts; the halt hook ends a run on an illegal instruction; [rtl] errors
are named."""

from pathlib import Path

import pytest

from configs import ConfigError, load_soc
from harness.c_programs import PROGRAM_DIR, CProgram, host_expected, run_program
from harness.toolchain import build_elf

SOC = "picorv32"
# Small programs for the default tier (about 0.05-0.8 M instructions each).
FAST = ("printf_fmt", "crc32", "muldiv64")


def _program(name: str) -> CProgram:
    return CProgram(PROGRAM_DIR / f"{name}.c", (SOC,))


def _check_rtl_matches_spike(name: str, tmp_path: Path, *, against_host: bool = True) -> None:
    program = _program(name)
    rtl = run_program(program, SOC, tmp_path / "rtl", target="rtl")
    iss = run_program(program, SOC, tmp_path / "iss", target="iss")
    if against_host:
        assert rtl["status"] == "pass", rtl.get("message")
        assert iss["status"] == "pass", iss.get("message")
        assert rtl["uart"] == host_expected(program)
    else:
        # run_program also compares with the host, whose hard float rounds differently here:
        # both RISC-V runs must reach the same verdict and (below) print the same text.
        assert rtl["status"] == iss["status"], (rtl.get("message"), iss.get("message"))
    assert rtl["uart"] == iss["uart"]
    # Cycles come from the test bench, instret from the retire hook: PicoRV32 takes
    # several cycles an instruction, and retires within a few of Spike's count.
    assert rtl["cycles_total"] > 2 * rtl["instret"] > 0
    assert abs(rtl["instret"] - iss["instret"]) <= 8


@pytest.mark.rtl
@pytest.mark.parametrize("name", FAST)
def test_program_on_picorv32_prints_what_spike_prints(name, tmp_path):
    _check_rtl_matches_spike(name, tmp_path)


@pytest.mark.slow
@pytest.mark.rtl
@pytest.mark.parametrize("name", ["sort", "linked_list", "malloc_stress"])
def test_longer_program_on_picorv32(name, tmp_path):
    _check_rtl_matches_spike(name, tmp_path)


@pytest.mark.slow
@pytest.mark.rtl
def test_float32_soft_float_on_picorv32_matches_spike(tmp_path):
    # Soft float (zig's compiler_rt __divsf3) rounds a few subnormal quotients differently from
    # IEEE hardware (the host, rv32's FPU), so this one is compared with Spike only.
    _check_rtl_matches_spike("float32", tmp_path, against_host=False)


@pytest.mark.rtl
def test_halt_hook_ends_an_illegal_instruction_as_a_trap(tmp_path):
    from sim.rtl_runner import run_rtl

    src = tmp_path / "illegal.c"
    src.write_text('int main(void) { __asm__ volatile(".word 0xffffffff"); return 0; }\n')
    elf = build_elf([src], load_soc(SOC), tmp_path / "illegal.elf")
    out = run_rtl(elf, load_soc(SOC), workdir=tmp_path)
    assert out.ending == "trap"
    assert out.cycles_total < 10_000
    # Reported at the core's PC: the illegal word itself.
    assert out.trap is not None and out.trap.instruction == 0xFFFFFFFF, out.trap


def test_runtime_without_f_has_no_float_start_up():
    crt0 = (Path(__file__).resolve().parents[1] / "baremetal" / "src" / "crt0.S").read_text()
    # The f-register start-up is guarded by the compiler's hard-float macro.
    assert "#ifdef __riscv_flen" in crt0
    assert load_soc(SOC).has_float is False and load_soc("rv32").has_float is True


@pytest.mark.parametrize(
    "rtl,words",
    [
        ('filelist = "nope.f"\ntop = "x"', "does not exist"),
        ('filelist = "picorv32/files.f"\ntop = "x"\nhooks = ["trace"]', "hooks"),
        ('filelist = "picorv32/files.f"\ntop = "1x"', "module name"),
        ('filelist = "picorv32/files.f"\ntop = "x"\ncolor = 1', "unknown key"),
    ],
)
def test_bad_rtl_section_is_named(tmp_path, rtl, words):
    configs_dir = Path(load_soc(SOC).path).parent
    text = (configs_dir / "rv32.toml").read_text().replace('name = "rv32"', 'name = "bad"')
    # A relative filelist is resolved against the config's directory: name configs/ outright.
    text += "\n[rtl]\n" + rtl.replace('"picorv32/', f'"{configs_dir}/picorv32/') + "\n"
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=words):
        load_soc(path)


def test_difftest_on_a_core_without_trace_hooks_is_refused(tmp_path):
    from harness.commands.difftest import run_difftest
    from harness.errors import CosimError

    with pytest.raises(CosimError, match="no commit trace"):
        run_difftest(tmp_path / "x.elf", SOC)
