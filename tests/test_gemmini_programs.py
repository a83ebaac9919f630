"""Self-checking Gemmini C programs (tests/gemmini_programs/) on Spike, gemmini-dim4 and gemmini-dim16.

Each program is written against Gemmini's public C API and checks itself against
a CPU reference: it passes when it exits with code 0 (it prints each check).
``raw_insn.c`` uses only ``.insn`` encodings and prints its inputs and results as
hex; here they are recomputed with numpy. The programs in ``bad/`` must end in an
illegal-instruction trap whose message names the offending field.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from harness.toolchain import build_elf
from sim.gemmini.params import gemmini_params
from sim.spike.runner import run_spike

SOC = "gemmini-dim4"
# The programs are DIM-generic; Spike needs no build, so Gemmini's default DIM 16 costs seconds.
SOCS = ("gemmini-dim4", "gemmini-dim16")
PROG_DIR = Path(__file__).resolve().parent / "gemmini_programs"
GOOD = sorted(p.stem for p in PROG_DIR.glob("*.c") if p.stem != "raw_insn")
# Programs whose checks include computes on the array (so gemmini_macs must count them).
COMPUTING = {"matmul_ws", "matmul_os", "transpose_stride", "hazards", "zero_rows", "tiled_matmul", "conv"}
COMPUTING &= set(GOOD)
# Each bad program and the words one of which the trap message must contain.
BAD_FIELDS = {
    "bad_spad_addr": ("addr", "row", "scratchpad", "sp"),
    "bad_rows": ("rows",),
    "bad_block_len": ("cols", "block"),
    "bad_funct": ("funct",),
    "bad_activation": ("activation",),
}

pytestmark = pytest.mark.iss


@pytest.fixture(scope="session")
def gemmini_elves(tmp_path_factory) -> dict[str, Path]:
    """Build directory for the session; each ELF is built on first use, once."""
    return {"_dir": tmp_path_factory.mktemp("gemmini-programs")}


def program_elf(
    cache: dict[str, Path], name: str, sub: str = "", defines: tuple[str, ...] = (), soc: str = SOC
) -> Path:
    key = f"{soc}/{name}"
    if key not in cache:
        src = PROG_DIR / sub / f"{name}.c"
        cache[key] = build_elf([src], soc, cache["_dir"] / f"{name}-{soc}.elf", defines=defines)
    return cache[key]


def run_on_spike(elf: Path, tmp_path: Path, soc: str = SOC):
    (tmp_path / "iss").mkdir(exist_ok=True)
    return run_spike(elf, soc, workdir=tmp_path / "iss", timeout_s=120)


@pytest.mark.parametrize("soc", SOCS)
@pytest.mark.parametrize("name", GOOD)
def test_program_passes(name, soc, gemmini_elves, tmp_path):
    out = run_on_spike(program_elf(gemmini_elves, name, soc=soc), tmp_path, soc)
    assert out.ending == "exit", f"{name}: ended {out.ending}: {out.message}\n{out.uart}"
    assert out.exit_code == 0, f"{name}: exit code {out.exit_code}\n{out.uart}"
    # Every check prints "ok ..." and none prints FAIL/MISMATCH; at least one ran.
    assert "FAIL" not in out.uart and "MISMATCH" not in out.uart, out.uart
    assert re.search(r"^ok ", out.uart, re.M), out.uart
    if name in COMPUTING:
        assert out.counters.get("gemmini_macs", 0) > 0, out.counters


@pytest.mark.parametrize("name", sorted(BAD_FIELDS))
def test_bad_program_traps_naming_the_field(name, gemmini_elves, tmp_path):
    out = run_on_spike(program_elf(gemmini_elves, name, "bad"), tmp_path)
    assert "NOT TRAPPED" not in out.uart, out.uart
    assert out.ending == "trap", f"{name}: ended {out.ending} (exit {out.exit_code}): {out.message}\n{out.uart}"
    assert out.trap is not None and out.trap.cause == 2, out.trap  # illegal instruction
    msg = out.message.lower()
    assert "gemmini" in msg or "funct" in msg, out.message
    assert any(w in msg for w in BAD_FIELDS[name]), f"{name}: field not named in {out.message!r}"


def _hex(line: str) -> bytes:
    return bytes.fromhex(line.split()[1])


def _sat8(x: np.ndarray) -> np.ndarray:
    return np.clip(x, -128, 127).astype(np.int8)


def _shift_rne(x: np.ndarray, s: int) -> np.ndarray:
    """Right shift by s rounding to nearest, ties to even (integer arithmetic)."""
    x = x.astype(np.int64)
    q = x >> s
    r = x & ((1 << s) - 1)
    half = 1 << (s - 1)
    return q + ((r > half) | ((r == half) & (q & 1 == 1)))


@pytest.mark.parametrize("soc", SOCS)
def test_raw_insn_bytes_match_numpy(soc, gemmini_elves, tmp_path):
    dim = gemmini_params(soc).dim
    out = run_on_spike(program_elf(gemmini_elves, "raw_insn", defines=(f"RAW_DIM={dim}",), soc=soc), tmp_path, soc)
    assert out.exited_ok, f"{out.ending} {out.message}\n{out.uart}"
    lines = {ln.split()[0]: ln for ln in out.uart.splitlines() if ln.strip()}
    assert int(lines["dim"].split()[1]) == dim

    def mat8(key: str) -> np.ndarray:
        return np.frombuffer(_hex(lines[key]), dtype=np.int8).reshape(dim, dim).astype(np.int64)

    a, b, a2, b2, d2 = (mat8(k) for k in ("A", "B", "A2", "B2", "D2"))
    c32 = np.frombuffer(_hex(lines["C32"]), dtype="<i4").reshape(dim, dim)
    c8 = np.frombuffer(_hex(lines["C8"]), dtype=np.int8).reshape(dim, dim)
    c8os = np.frombuffer(_hex(lines["C8OS"]), dtype=np.int8).reshape(dim, dim)

    ws = a @ b
    np.testing.assert_array_equal(c32, ws, err_msg="WS full-width result")
    # mvout scale 1/16: int32 -> fp32 -> x 0.0625 -> round half to even -> saturate
    scaled = np.rint(ws.astype(np.float32) * np.float32(0.0625)).astype(np.int64)
    np.testing.assert_array_equal(c8, _sat8(scaled), err_msg="WS int8 mvout with scale 1/16")
    os_ = a2 @ b2 + d2
    np.testing.assert_array_equal(c8os, _sat8(_shift_rne(os_, 3)), err_msg="OS result, rounding shift 3, saturated")


def test_conv_through_loop_conv_on_a_config_that_has_it(gemmini_elves, tmp_path):
    """The shipped configs say loop_conv = false (the RTL has no loop_conv_ws yet); the model's loop_conv_ws and
    gemmini_conv.h's HAS_LOOP_CONV path stay covered on a config derived from gemmini-dim4 that turns it on."""
    from configs import load_soc

    src = load_soc(SOC).path.read_text()
    assert "loop_conv = false" in src
    cfg = tmp_path / "gemmini-dim4-loopconv.toml"
    cfg.write_text(
        src.replace('name = "gemmini-dim4"', 'name = "gemmini-dim4-loopconv"').replace(
            "loop_conv = false", "loop_conv = true"
        )
    )
    elf = build_elf([PROG_DIR / "conv.c"], str(cfg), tmp_path / "conv-loopconv.elf")
    (tmp_path / "iss").mkdir()
    out = run_spike(elf, str(cfg), workdir=tmp_path / "iss", timeout_s=120)
    assert out.ending == "exit" and out.exit_code == 0, f"{out.ending} {out.exit_code}: {out.message}\n{out.uart}"
    assert out.counters.get("insn_loop_conv_ws", 0) > 0, out.counters
    plain = run_on_spike(program_elf(gemmini_elves, "conv"), tmp_path)
    assert plain.exit_code == 0 and plain.counters.get("insn_loop_conv_ws", 0) == 0, plain.counters
