"""ELF checks and look-ups: does an ELF fit a SoC config, where are its symbols,
which instruction word sits at a PC (for trap reports).

Uses pyelftools only; no simulator involved.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from elftools.common.exceptions import ELFError
from elftools.elf.constants import SH_FLAGS
from elftools.elf.elffile import ELFFile

from configs import SocConfig, load_soc
from harness.errors import CosimError

EM_RISCV = "EM_RISCV"

# ELF header e_flags of RISC-V (psABI): compressed code and the float ABI.
EF_RISCV_RVC = 0x1
EF_RISCV_FLOAT_ABI_MASK = 0x6
FLOAT_ABI_FLAGS = {"": 0x0, "f": 0x2, "d": 0x4, "q": 0x6}

# Symbol types (low nibble of st_info) that name code or data.
STT_NOTYPE, STT_OBJECT, STT_FUNC = 0, 1, 2


class ElfCheckError(CosimError):
    """The ELF does not fit the SoC config (wrong XLEN, section outside memory)."""


@dataclass(frozen=True)
class Section:
    name: str
    addr: int
    size: int
    loaded: bool  # has file contents (not NOBITS)


@dataclass(frozen=True)
class Symbol:
    name: str
    addr: int
    size: int


class ElfImage:
    """A parsed ELF: class, entry, allocated sections, symbols, loadable bytes."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        if not self.path.is_file():
            raise ElfCheckError(f"ELF file {str(self.path)!r} does not exist")
        try:
            with open(self.path, "rb") as f:
                elf = ELFFile(f)
                self.elfclass: int = elf.elfclass
                self.machine: str = elf["e_machine"]
                self.entry: int = elf["e_entry"]
                self.flags: int = elf["e_flags"]
                self.sections: list[Section] = [
                    Section(s.name, s["sh_addr"], s["sh_size"], s["sh_type"] != "SHT_NOBITS")
                    for s in elf.iter_sections()
                    if s["sh_flags"] & SH_FLAGS.SHF_ALLOC and s["sh_size"] > 0
                ]
                # (vaddr, bytes) of every PT_LOAD segment, to read instruction words.
                self._segments: list[tuple[int, bytes]] = [
                    (seg["p_vaddr"], seg.data()) for seg in elf.iter_segments() if seg["p_type"] == "PT_LOAD"
                ]
                # Raw tables, decoded on first use: pyelftools' per-symbol objects
                # cost about a second on a linked ELF with the runtime's symbols.
                symtab = elf.get_section_by_name(".symtab")
                self._symtab_raw = b"" if symtab is None else symtab.data()
                self._strtab = b"" if symtab is None else elf.get_section(symtab["sh_link"]).data()
                self._little = elf.little_endian
        except (ELFError, OSError, ValueError) as e:
            raise ElfCheckError(f"{self.path}: not a readable ELF file ({e}); build it with `cosim cc`") from None

    @property
    def xlen(self) -> int:
        return self.elfclass

    @cached_property
    def _symbols(self) -> dict[str, Symbol]:
        """Named function, object and untyped symbols (the first of a name wins)."""
        order = "<" if self._little else ">"
        # Elf32_Sym: name value size info other shndx; Elf64_Sym: name info other shndx value size.
        if self.elfclass == 32:
            fmt, pick = order + "IIIBBH", lambda t: (t[0], t[1], t[2], t[3])
        else:
            fmt, pick = order + "IBBHQQ", lambda t: (t[0], t[4], t[5], t[1])
        symbols: dict[str, Symbol] = {}
        for entry in struct.iter_unpack(fmt, self._symtab_raw):
            name_off, value, size, info = pick(entry)
            if name_off == 0 or info & 0xF not in (STT_NOTYPE, STT_OBJECT, STT_FUNC):
                continue
            name = self._strtab[name_off : self._strtab.index(b"\0", name_off)].decode()
            symbols.setdefault(name, Symbol(name, value, size))
        return symbols

    def symbols_with_prefix(self, prefix: str) -> dict[str, Symbol]:
        return {n: s for n, s in self._symbols.items() if n.startswith(prefix)}

    def symbol(self, name: str) -> Symbol:
        try:
            return self._symbols[name]
        except KeyError:
            raise ElfCheckError(f"{self.path}: no symbol {name!r}") from None

    def has_symbol(self, name: str) -> bool:
        return name in self._symbols

    @cached_property
    def _functions(self) -> list[Symbol]:
        return sorted((s for s in self._symbols.values() if s.size > 0), key=lambda s: s.addr)

    def symbol_at(self, addr: int) -> str | None:
        """``func+0x10`` for an address inside a sized symbol, else None."""
        best = None
        for s in self._functions:
            if s.addr <= addr < s.addr + s.size:
                best = s
        return None if best is None else (best.name if addr == best.addr else f"{best.name}+0x{addr - best.addr:x}")

    def read(self, addr: int, size: int) -> bytes | None:
        """Bytes at ``addr`` from the loadable segments, or None if not in the file."""
        for base, data in self._segments:
            if base <= addr and addr + size <= base + len(data):
                return data[addr - base : addr - base + size]
        return None

    def word_at(self, pc: int) -> int | None:
        """The 32-bit instruction word at ``pc`` (little-endian), or None."""
        raw = self.read(pc, 4)
        return None if raw is None else int.from_bytes(raw, "little")


def check_elf(path: str | os.PathLike, soc: SocConfig | str) -> ElfImage:
    """Raise :class:`ElfCheckError` unless the ELF is a RISC-V ELF of the config's
    XLEN and float ABI, without compressed code, whose allocated sections all lie
    inside SCALAR, DDR or SRAM."""
    soc = load_soc(soc)
    img = ElfImage(path)
    if img.machine != EM_RISCV:
        raise ElfCheckError(
            f"{img.path}: machine is {img.machine}, not RISC-V; build it with `cosim cc --soc {soc.name}`"
        )
    if img.xlen != soc.xlen:
        raise ElfCheckError(
            f"{img.path}: ELF is {img.xlen}-bit but SoC {soc.name!r} is RV{soc.xlen}; "
            f"rebuild it with `cosim cc --soc {soc.name}` or pick an RV{img.xlen} config"
        )
    if img.flags & EF_RISCV_RVC:
        raise ElfCheckError(
            f"{img.path}: ELF uses compressed (C) instructions, which our core does not have; "
            f"rebuild it with `cosim cc --soc {soc.name}` (t1's rv32gc ELFs need a recompile)"
        )
    abi_suffix = soc.mabi[len("ilp32") :] if soc.mabi.startswith("ilp32") else soc.mabi[len("lp64") :]
    want = FLOAT_ABI_FLAGS.get(abi_suffix.rstrip("e"))
    if want is not None and img.flags & EF_RISCV_FLOAT_ABI_MASK != want:
        have = {v: k for k, v in FLOAT_ABI_FLAGS.items()}[img.flags & EF_RISCV_FLOAT_ABI_MASK]
        raise ElfCheckError(
            f"{img.path}: ELF float ABI is {'soft' if not have else have!r} but SoC {soc.name!r} uses -mabi={soc.mabi}; "
            f"rebuild it with `cosim cc --soc {soc.name}`"
        )
    mm = soc.memory_map
    regions = ", ".join(f"{n} 0x{b:x}..0x{b + s:x}" for n, (b, s) in mm.regions().items())
    for sec in img.sections:
        if mm.region_of(sec.addr, sec.size) is None:
            raise ElfCheckError(
                f"{img.path}: section {sec.name} at 0x{sec.addr:x}..0x{sec.addr + sec.size:x} is outside the "
                f"memory map of {soc.name} ({regions}); link with the runtime's linker script (`cosim cc`)"
            )
    if mm.region_of(img.entry, 4) is None:
        raise ElfCheckError(
            f"{img.path}: entry point 0x{img.entry:x} is outside the memory map of {soc.name} ({regions})"
        )
    return img
