"""The frame every random program shares: ``main`` saves the callee-saved registers,
installs its own trap handler (which resumes after the trapping instruction) and
restores the runtime's ``mtvec`` and registers before returning 0."""

from __future__ import annotations

from dataclasses import dataclass

SAVED = (1, 8, 9, *range(18, 28))  # ra, s0..s11
FSAVED = (8, 9, *range(18, 28))  # fs0..fs11


@dataclass(frozen=True)
class Frame:
    xlen: int

    @property
    def _r(self) -> int:
        return self.xlen // 8

    @property
    def _mtvec_slot(self) -> int:  # the runtime's mtvec, restored on return
        return len(SAVED) * self._r + len(FSAVED) * 4

    @property
    def size(self) -> int:
        return (self._mtvec_slot + self._r + 15) // 16 * 16

    def enter(self, trap_label: str) -> list[str]:
        store = "sd" if self.xlen == 64 else "sw"
        out = [f"  addi sp, sp, -{self.size}"]
        out += [f"  {store} x{reg}, {i * self._r}(sp)" for i, reg in enumerate(SAVED)]
        out += [f"  fsw f{reg}, {len(SAVED) * self._r + i * 4}(sp)" for i, reg in enumerate(FSAVED)]
        out += [f"  la x5, {trap_label}", "  csrrw x5, mtvec, x5", f"  {store} x5, {self._mtvec_slot}(sp)"]
        return out

    def leave(self) -> list[str]:
        load = "ld" if self.xlen == 64 else "lw"
        out = [f"  {load} x5, {self._mtvec_slot}(sp)", "  csrw mtvec, x5"]
        out += [f"  {load} x{reg}, {i * self._r}(sp)" for i, reg in enumerate(SAVED)]
        out += [f"  flw f{reg}, {len(SAVED) * self._r + i * 4}(sp)" for i, reg in enumerate(FSAVED)]
        out += [f"  addi sp, sp, {self.size}", "  li a0, 0", "  ret"]
        return out


def trap_handler(label: str, reads: tuple[str, ...] = ()) -> list[str]:
    """Resume after the trapping instruction; x31 is borrowed through mscratch. ``reads``
    are CSRs read into x31 first, so the difftest compares them (e.g. mcause, mtval)."""
    return [
        "# trap handler: resume after the trapping instruction; x31 is borrowed through mscratch",
        "  .balign 4",
        f"{label}:",
        "  csrrw x31, mscratch, x31",
        *[f"  csrr x31, {csr}" for csr in reads],
        "  csrr x31, mepc",
        "  addi x31, x31, 4",
        "  csrw mepc, x31",
        "  csrrw x31, mscratch, x31",
        "  mret",
    ]
