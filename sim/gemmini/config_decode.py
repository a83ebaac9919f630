"""config_ex / config_ld / config_st (funct 0): the fields each one sets, and the values Gemmini refuses."""

from __future__ import annotations

from sim.gemmini import isa
from sim.gemmini.numerics import f32_bits_to_float
from sim.gemmini.state import GemminiIllegal, GemminiState


class ConfigDecoder(GemminiState):
    """Writes the config registers (``ld``, ``ex``, ``st``) from a config instruction's rs1/rs2."""

    def _config(self, rs1: int, rs2: int) -> int:
        kind = rs1 & 3
        if kind == isa.CONFIG_EX:
            self._config_ex(rs1, rs2)
        elif kind == isa.CONFIG_LD:
            idx = (rs1 >> 3) & 3
            if idx > 2:
                raise GemminiIllegal(
                    f"gemmini config_ld: mvin id = {idx} (rs1[4:3]) is not 0 (mvin), 1 (mvin2) or 2 (mvin3)"
                )
            c = self.ld[idx]
            c.stride = rs2
            c.shrink = bool(rs1 >> 2 & 1)
            c.pixel_repeats = max(1, (rs1 >> 8) & 0xFF)  # 0 would wrap the repeater's counter; read as 1
            c.block_stride = (rs1 >> 16) & 0xFFFF
            c.scale = f32_bits_to_float(rs1 >> 32)
        elif kind == isa.CONFIG_ST:
            act = (rs1 >> 2) & 3
            self._check_act("config_st", act, "rs1[3:2]")
            # StoreController: stride, activation, pool stride and size always; the pooling geometry only with a
            # pool stride, orows/ocols/pool_out_dim also for a 1-D mvout (pool size without stride); a scale of
            # all ones (LoopConv's ACC_SCALE_NO_CHANGE) keeps the scale in force.
            s = self.st
            s.activation = act
            s.pool_stride = (rs1 >> 4) & 3
            s.pool_size = (rs1 >> 6) & 3
            if s.pool_stride:
                s.upad = (rs1 >> 8) & 3
                s.lpad = (rs1 >> 10) & 3
                s.porows = (rs1 >> 32) & 0xFF
                s.pocols = (rs1 >> 40) & 0xFF
            if s.pool_stride or s.pool_size:
                s.pool_out_dim = (rs1 >> 24) & 0xFF
                s.orows = (rs1 >> 48) & 0xFF
                s.ocols = (rs1 >> 56) & 0xFF
            s.stride = rs2 & 0xFFFF_FFFF
            if rs2 >> 32 != 0xFFFF_FFFF:
                s.scale = f32_bits_to_float(rs2 >> 32)
        else:
            raise GemminiIllegal("gemmini config_norm (rs1[1:0] = 3): this Gemmini has no normalization unit")
        return 0

    def _config_ex(self, rs1: int, rs2: int) -> None:
        e = self.ex
        set_only_strides = bool(rs1 >> 7 & 1)
        if not set_only_strides:
            df = (rs1 >> 2) & 1
            name = "WS" if df == isa.WS else "OS"
            if name not in self.p.dataflows:
                raise GemminiIllegal(
                    f"gemmini config_ex: dataflow = {name} (rs1[2] = {df}) is not in this config "
                    f"(dataflows {', '.join(self.p.dataflows)})"
                )
            act = (rs1 >> 3) & 3
            self._check_act("config_ex", act, "rs1[4:3]")
            a_t, b_t = bool(rs1 >> 8 & 1), bool(rs1 >> 9 & 1)
            # Gemmini has one transposer: WS transposes A and/or B itself, OS feeds A through it unless A is transposed.
            uses = (a_t if df == isa.WS else not a_t) + b_t
            if uses > 1:
                raise GemminiIllegal(
                    f"gemmini config_ex: {name} with A transpose = {int(a_t)} and B transpose = "
                    f"{int(b_t)} needs two transposers (Gemmini has one)"
                )
            e.dataflow, e.activation, e.a_transpose, e.b_transpose = df, act, a_t, b_t
            e.acc_scale = f32_bits_to_float(rs1 >> 32)
            e.shift = rs2 & 0x1F
        e.a_stride = (rs1 >> 16) & 0xFFFF
        e.c_stride = (rs2 >> 48) & 0xFFFF

    @staticmethod
    def _check_act(insn: str, act: int, where: str) -> None:
        if act not in (isa.ACT_NONE, isa.ACT_RELU):
            raise GemminiIllegal(
                f"gemmini {insn}: activation = {act} ({isa.ACTIVATION_NAMES.get(act, '?')}, {where}) "
                "needs a normalization unit this Gemmini has not; use 0 (none) or 1 (ReLU)"
            )
