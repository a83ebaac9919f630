"""Which vector instructions trap when vstart != 0: measured on Spike.

One program runs every zve32f instruction (the coverage table's representative
encoding and a vtype it is legal under, sim/rtl/vector/gen_coverage.py) once per
requested vstart, after ``vsetvl`` to that vtype with vl = VLMAX and a
``csrw vstart``. Each probe has a symbol; the trap handler reads mcause, mtval
and mepc into x31, so Spike's commit log says, per probe, whether it retired or
which trap it raised. The vset* instructions (executed by the core) are probed
too. The same ELF runs through the difftest, so the RTL must trap exactly where
Spike does.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path

from elftools.elf.elffile import ELFFile

from sim.difftest.spike_log import iter_spike_log
from sim.difftest.spike_stream import spike_commits
from sim.randgen.frame import Frame, trap_handler

ROOT = Path(__file__).resolve().parents[2]
GEN = ROOT / "sim" / "rtl" / "vector" / "gen_coverage.py"
BUF_BYTES = 8192  # covers vl8re32 and 8-field segments at VLEN 2048
TRAP_LABEL = "vstart_probe_trap"

# vset* forms (executed by the core); vd/rd t1, AVL t0 or an immediate.
VSET_FORMS = {
    "vsetvli": "vsetvli t1, x0, e32, m1, ta, ma",
    "vsetivli": "vsetivli t1, 3, e32, m1, ta, ma",
    "vsetvl": "vsetvl t1, x0, t0",
}


def coverage_table():
    """gen_coverage.table(): every zve32f instruction with a legal encoding and vtype."""
    mod = sys.modules.get("vec_gen_coverage")
    if mod is None:
        spec = importlib.util.spec_from_file_location("vec_gen_coverage", GEN)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules["vec_gen_coverage"] = mod  # dataclasses need the module registered
        spec.loader.exec_module(mod)
    return mod.table()


@dataclass(frozen=True)
class Probe:
    name: str  # mnemonic
    vstart: int
    word: int | None  # None: a vset* form, assembled from VSET_FORMS
    vtype: int

    @property
    def label(self) -> str:
        return f"vstart_probe_{self.name.replace('.', '_')}_{self.vstart}"


@dataclass(frozen=True)
class Outcome:
    """What Spike did with one probe: retired, or trapped with (mcause, mtval)."""

    retired: bool
    mcause: int | None = None
    mtval: int | None = None


def probes(vstarts: tuple[int, ...] = (0, 1), names: set[str] | None = None) -> list[Probe]:
    out = []
    for v in vstarts:
        for i in coverage_table():
            if names is None or i.name in names:
                out.append(Probe(i.name, v, i.word, i.vtype))
        for name in VSET_FORMS:
            if names is None or name in names:
                out.append(Probe(name, v, None, 0x10))
    return out


def program(items: list[Probe]) -> str:
    """Assembly of ``main`` running every probe (a0 = data buffer, a1 = stride 4, v16 = 0:
    the coverage encodings use x10 as base, x11 as stride, v16 as index register)."""
    frame = Frame(32)
    lines = [
        "  .text",
        "  .globl main",
        "main:",
        *frame.enter(TRAP_LABEL),
        "  vsetvli t1, x0, e8, m8, ta, ma",
        "  vmv.v.i v16, 0",
        "  vmv.v.i v0, 0",
    ]
    for p in items:
        lines += [
            "  la a0, vstart_probe_buf",
            "  li a1, 4",
            f"  li t0, {p.vtype}",
            "  vsetvl t1, x0, t0",
            f"  li t2, {p.vstart}",
            "  csrw vstart, t2",
            f"  .globl {p.label}",
            f"{p.label}:",
            f"  .word 0x{p.word:08x}" if p.word is not None else f"  {VSET_FORMS[p.name]}",
        ]
    lines += ["  csrwi vstart, 0", *frame.leave(), f"  .globl {TRAP_LABEL}"]
    lines += trap_handler(TRAP_LABEL, reads=("mcause", "mtval"))
    lines += ["  .data", "  .balign 64", "vstart_probe_buf:", f"  .zero {BUF_BYTES}", ""]
    return "\n".join(lines)


def symbols(elf: Path, prefix: str = "vstart_probe") -> dict[str, int]:
    """Addresses of the ELF's symbols whose names start with ``prefix``."""
    with elf.open("rb") as f:
        tab = ELFFile(f).get_section_by_name(".symtab")
        return {s.name: s["st_value"] for s in tab.iter_symbols() if s.name.startswith(prefix)}


def spike_outcomes(elf: Path, soc: str, items: list[Probe]) -> dict[Probe, Outcome]:
    """Run ``elf`` (built from :func:`program` of ``items``) on Spike; the outcome per probe."""
    sym = symbols(elf)
    by_pc = {sym[p.label]: p for p in items}
    handler = sym[TRAP_LABEL]
    # handler: csrrw (+0), csrr mcause (+4), csrr mtval (+8), csrr mepc (+12)
    cause_pc, tval_pc, epc_pc = handler + 4, handler + 8, handler + 12
    retired: set[Probe] = set()
    traps: dict[Probe, Outcome] = {}
    cause = tval = None
    with spike_commits(elf, soc) as stream:
        for c in iter_spike_log(stream):
            if c.pc in by_pc:
                retired.add(by_pc[c.pc])
            elif c.pc in (cause_pc, tval_pc, epc_pc):
                x31 = c.writes[("x", 31)]
                if c.pc == cause_pc:
                    cause = x31
                elif c.pc == tval_pc:
                    tval = x31
                elif x31 in by_pc:
                    traps[by_pc[x31]] = Outcome(False, cause, tval)
    missing = [p.label for p in items if p not in retired and p not in traps]
    if missing:
        raise AssertionError(f"Spike neither retired nor trapped on {missing[:5]} (the program did not finish?)")
    return {p: traps.get(p, Outcome(True)) for p in items}
