"""One retired instruction as either side of the difftest reports it.

Both the Spike commit-log parser and the RTL trace parser produce these, so the
comparator never looks at text. Values are plain ints; widths only matter for
stores (the access width is part of what is compared).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Register-write keys: ("x", n), ("f", n), ("v", n), ("c", csr_address).
RegKey = tuple[str, int]

CSR_FFLAGS = 0x001
CSR_FRM = 0x002
CSR_FCSR = 0x003
CSR_VXSAT = 0x009
CSR_VXRM = 0x00A
CSR_VCSR = 0x00F


@dataclass(frozen=True)
class MemAccess:
    addr: int
    data: int | None = None  # None for a load
    width: int | None = None  # bytes; known for stores (from the digits printed)

    @property
    def is_store(self) -> bool:
        return self.data is not None

    def describe(self) -> str:
        if self.data is None:
            return f"load  0x{self.addr:08x}"
        digits = 2 * (self.width or 1)
        return f"store 0x{self.addr:08x} <- 0x{self.data:0{digits}x} ({self.width} B)"


@dataclass
class Commit:
    """A retired instruction: where, what, and every architectural write it made."""

    pc: int
    insn: int
    writes: dict[RegKey, int] = field(default_factory=dict)
    csr_names: dict[int, str] = field(default_factory=dict)  # address -> name as printed
    mem: list[MemAccess] = field(default_factory=list)
    seq: int | None = None  # coprocessor sequence number (RTL side only)
    vector_meta: tuple[int, int, int] | None = None  # (sew, lmul, vl) from Spike's "e32 m1 l8"
    line_no: int = 0  # source line, for messages
    text: str = ""  # the raw line, for context output


@dataclass
class Completion:
    """A coprocessor result that arrived after its instruction retired (RTL `@<seq>` line):
    register writes, or the memory writes of a vector store (``mem`` runs of bytes)."""

    seq: int
    writes: dict[RegKey, int]
    line_no: int = 0
    text: str = ""
    mem: list[MemAccess] = field(default_factory=list)


def store_bytes(accesses: list[MemAccess]) -> dict[int, int]:
    """The bytes a list of stores leaves in memory: address -> value (later stores win)."""
    out: dict[int, int] = {}
    for m in accesses:
        if m.data is None:
            continue
        for i in range(m.width or 1):
            out[m.addr + i] = (m.data >> (8 * i)) & 0xFF
    return out


@dataclass
class TrapEvent:
    """The RTL took a trap (RTL `trap <cause> <epc> <tval>` line); Spike logs nothing for it."""

    cause: int
    epc: int
    tval: int
    line_no: int = 0
    text: str = ""


RtlItem = Commit | Completion | TrapEvent


def key_name(key: RegKey, csr_names: dict[int, str] | None = None) -> str:
    """Human name of a write key: x5, f1, v8, fflags (csr 0x001)."""
    kind, n = key
    if kind == "c":
        name = (csr_names or {}).get(n) or CSR_NAMES.get(n, "")
        return f"csr 0x{n:03x}" + (f" ({name})" if name else "")
    return f"{kind}{n}"


def normalize_writes(writes: dict[RegKey, int]) -> dict[RegKey, int]:
    """Canonical form so both sides compare equal when they mean the same state.

    - f registers: a NaN-boxed single (upper 32 bits all ones) is its low 32 bits;
      Spike prints 8 digits for FLEN 32 even on RV64, our RTL prints the boxed 64.
    - fcsr writes are split into fflags and frm, and vcsr writes into vxsat and
      vxrm, as Spike logs them.
    """
    out: dict[RegKey, int] = {}
    for (kind, n), v in writes.items():
        if kind == "f" and v >> 32 == 0xFFFF_FFFF:
            v &= 0xFFFF_FFFF
        if kind == "c" and n == CSR_FCSR:
            out[("c", CSR_FFLAGS)] = v & 0x1F
            out[("c", CSR_FRM)] = (v >> 5) & 0x7
            continue
        if kind == "c" and n == CSR_VCSR:
            out[("c", CSR_VXSAT)] = v & 0x1
            out[("c", CSR_VXRM)] = (v >> 1) & 0x3
            continue
        out[(kind, n)] = v
    return out


# Names for messages when a side printed none.
CSR_NAMES: dict[int, str] = {
    0x001: "fflags",
    0x002: "frm",
    0x003: "fcsr",
    0x008: "vstart",
    0x009: "vxsat",
    0x00A: "vxrm",
    0x00F: "vcsr",
    0x300: "mstatus",
    0x301: "misa",
    0x304: "mie",
    0x305: "mtvec",
    0x310: "mstatush",
    0x340: "mscratch",
    0x341: "mepc",
    0x342: "mcause",
    0x343: "mtval",
    0x344: "mip",
    0x7A5: "tcontrol",
    0xB00: "mcycle",
    0xB02: "minstret",
    0xB80: "mcycleh",
    0xB82: "minstreth",
    0xC00: "cycle",
    0xC01: "time",
    0xC02: "instret",
    0xC80: "cycleh",
    0xC81: "timeh",
    0xC82: "instreth",
    0xC20: "vl",
    0xC21: "vtype",
    0xC22: "vlenb",
}
