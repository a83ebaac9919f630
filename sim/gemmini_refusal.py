"""Why the Gemmini RTL refused an instruction, in the functional model's words.

On a Gemmini SoC a refused instruction traps as on Spike: the test bench reports the refused instruction with its
PC, source registers and the unit's ``illegal_reason_o`` code, and the Gemmini instructions the unit accepted
before it; :func:`gemmini_refusal` replays those through the functional model (``sim/gemmini/model.py``, memory
reads as zeros) to get the model's own wording of the refused field, and checks it against the RTL's code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from configs import SocConfig
from sim.tb_report import TbReport

# gemmini_unit_pkg::gm_illegal_e by name: (what the RTL says it refused, a pattern the functional model's reason
# for the same instruction must match: the two name the same check, or the trap detail says they do not).
GEMMINI_ILLEGAL: dict[str, tuple[str, str]] = {
    "IllFunct": ("unknown funct (or a funct3 the funct does not take)", r"unknown funct"),
    "IllLoopConv": ("loop_conv_ws: this config has no loop_conv_ws unit (loop_conv = false)", r"no loop_conv_ws unit"),
    "IllLdId": ("config_ld: mvin id (rs1[4:3]) = 3", r"mvin id"),
    "IllCfgNorm": ("config_norm (rs1[1:0] = 3): no normalization unit", r"config_norm"),
    "IllStAct": ("config_st: activation (rs1[3:2]) > 1 needs a normalization unit", r"config_st: activation"),
    "IllExDataflow": ("config_ex: dataflow (rs1[2]) not in this config", r"config_ex: dataflow"),
    "IllExAct": ("config_ex: activation (rs1[4:3]) > 1 needs a normalization unit", r"config_ex: activation"),
    "IllExTranspose": ("config_ex: the transposes need two transposers", r"transposer"),
    "IllNormCmd": ("local address with a norm command (bits 28..26)", r"norm command"),
    "IllAccRange": ("accumulator rows outside the accumulator", r"accumulator rows .* outside"),
    "IllSpRange": ("scratchpad rows outside the scratchpad", r"scratchpad rows .* outside"),
    "IllRows": ("rows exceed DIM", r"rows = \d+ exceeds DIM"),
    "IllCols": ("cols exceed DIM", r"cols = \d+ exceeds DIM"),
    "IllBlocks": ("cols in more blocks than MAX_BLOCK_LEN(_ACC) allows", r"cols = \d+ is \d+ blocks"),
    "IllPixelRepeat": ("pixel repeats > 1 on a mvin to the accumulator", r"pixel repeats"),
    "IllPoolFull": ("pooled mvout with the full-width accumulator bit (29)", r"full-width accumulator read"),
    "IllPoolDims": ("pooled mvout without a pool size or output dims", r"needs a pool size"),
    "IllOsStride": ("OS result rows below the C address (C stride)", r"below the C address"),
    "IllDmaRange": ("DMA bytes outside the memory map", r"leaves the memory map"),
    "IllLoopBounds": ("loop_ws: pad_I/J/K not below DIM", r"loop_ws: pad_"),
    "IllLoopAct": ("loop_ws: activation (rs1[10:8]) > 1", r"loop_ws: activation"),
    "IllLoopResidual": ("loop_ws: residual add (rs2[2])", r"loop_ws: residual"),
    "IllLoopTranspose": ("loop_ws: A and B transpose together", r"loop_ws: A transpose and B transpose"),
    "IllLoopSp": ("loop_ws: A and B tiles need more than half the scratchpad minus DIM", r"loop_ws: .*scratchpad"),
    "IllLoopAcc": ("loop_ws: C tiles need more than half the accumulator", r"loop_ws: .*accumulator"),
    "IllLoopCmd": ("loop_ws: one of the commands it generates is illegal", r"."),
}
UNIT_PKG = Path(__file__).resolve().parent / "rtl" / "gemmini" / "gemmini_unit_pkg.sv"


def gemmini_illegal_names() -> dict[int, str]:
    """gm_illegal_e's codes -> names, read from gemmini_unit_pkg.sv (the unit's owner may renumber them)."""
    text = UNIT_PKG.read_text() if UNIT_PKG.is_file() else ""
    body = re.search(r"enum\s+logic\s*\[[^]]*\]\s*\{(.*?)\}\s*gm_illegal_e", text, re.S)
    return {int(v): n for n, v in re.findall(r"(\w+)\s*=\s*\d+'d(\d+)", body.group(1))} if body else {}


@dataclass
class GemminiRefusal:
    """Why the Gemmini RTL refused an instruction, in the functional model's words where it has them."""

    pc: int
    word: int
    rs1: int
    rs2: int
    code: int
    disassembly: str
    detail: str


class _NullMemory:
    """Main memory for the replay: reads are zeros (legality never depends on data), writes go nowhere; a range
    outside the memory map fails as Spike's MMU makes it fail (sim/gemmini/spike_bridge.SpikeMemory)."""

    def __init__(self, soc: SocConfig):
        self._regions = list(soc.memory_map.regions().values())

    def _inside(self, addr: int, size: int) -> bool:
        return any(b <= addr and addr + size <= b + s for b, s in self._regions)

    def read(self, addr: int, size: int) -> bytes:
        from sim.gemmini.model import GemminiIllegal

        if size and not self._inside(addr, size):
            raise GemminiIllegal(f"DMA read of {size} bytes at 0x{addr:x} leaves the memory map")
        return bytes(size)

    def write(self, addr: int, data: bytes) -> None:
        from sim.gemmini.model import GemminiIllegal

        if data and not self._inside(addr, len(data)):
            raise GemminiIllegal(f"DMA write of {len(data)} bytes at 0x{addr:x} leaves the memory map")


def gemmini_refusal(rep: TbReport, soc: SocConfig, pc: int) -> GemminiRefusal | None:
    """The last refusal at ``pc``, its disassembly with fields and its reason (the detail Spike gives).

    The accepted instructions before it are replayed through the functional model, then the refused one: the
    model's GemminiIllegal text (without its ``gemmini <insn>:`` prefix, as Spike's bridge strips it) is the
    detail, provided it names the same check as the RTL's illegal_reason_o. Otherwise (the model accepts it,
    refuses an earlier one, or the history was cut short) the detail is the RTL code's text, saying so."""
    import numpy as np

    from sim.gemmini.disasm import disasm_gemmini
    from sim.gemmini.isa import funct_of
    from sim.gemmini.model import GemminiIllegal, GemminiModel
    from sim.gemmini.params import gemmini_params

    hits = [r for r in rep.gemmini_refused if r[0] == pc]
    if not hits:
        return None
    rpc, word, rs1, rs2, code, accepted = hits[-1]
    name = gemmini_illegal_names().get(code, f"code {code}")
    rtl_text, pattern = GEMMINI_ILLEGAL.get(name, (f"illegal_reason_o = {name}", r"$^"))
    found = GemminiRefusal(rpc, word, rs1, rs2, code, disasm_gemmini(word, rs1, rs2), rtl_text)
    if rep.gemmini_issues_kept is not None and rep.gemmini_issues_kept < accepted:
        found.detail += f" (RTL reason {name}; the model's replay needs the {accepted} instructions before it)"
        return found
    model = GemminiModel(gemmini_params(soc), _NullMemory(soc))
    with np.errstate(all="ignore"):
        for k, (ipc, iword, irs1, irs2) in enumerate(rep.gemmini_issues[:accepted]):
            try:
                model.execute(funct_of(iword), irs1, irs2)
            except GemminiIllegal as e:
                found.detail += (
                    f" (RTL reason {name}; the functional model already refuses accepted instruction {k} "
                    f"at pc 0x{ipc:x}: {e})"
                )
                return found
        try:
            model.execute(funct_of(word), rs1, rs2)
        except GemminiIllegal as e:
            reason = re.sub(r"^gemmini( [a-z0-9_]+)?: ", "", str(e))
            if re.search(pattern, str(e)):
                found.detail = reason
            else:
                found.detail = f"{reason} [the RTL refused it for another reason: {rtl_text} ({name})]"
            return found
    found.detail += f" (RTL reason {name}; the functional model accepts this instruction)"
    return found
