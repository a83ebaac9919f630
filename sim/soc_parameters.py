"""tb_top's parameters from a SoC config, each checked here so that an error names the config key."""

from __future__ import annotations

from configs import GemminiUnit, SocConfig, VectorUnit
from sim import ext_rtl
from sim.errors import SimError


def soc_parameters(soc: SocConfig) -> dict[str, int | str]:
    """tb_top parameters for one SoC config (checked here, so errors name the config)."""
    width = soc.memory.width_bits
    if width < soc.xlen or width > 512 or width & (width - 1):
        raise SimError(
            f"{soc.path}: memory.width_bits = {width} is not supported by the scalar core; "
            f"use a power of two between XLEN ({soc.xlen}) and 512"
        )
    if soc.memory.latency < 1 or soc.memory.outstanding < 1:
        raise SimError(f"{soc.path}: memory.latency and memory.outstanding must be >= 1")
    acc = soc.accelerator
    accel, vlen, dlen, acc_width = 0, 128, 64, 64
    gemmini: dict[str, int] = {}
    if isinstance(acc, VectorUnit):
        accel, vlen, dlen, acc_width = 1, acc.vlen, acc.dlen, max(64, acc.dlen)
    elif isinstance(acc, GemminiUnit):
        gemmini = gemmini_parameters(soc, acc)
        accel, acc_width = 2, max(64, acc.dma_bytes * 8)
    return {
        "XLEN": soc.xlen,
        "DataW": width,
        "AccDataW": min(acc_width, 512),
        "Accel": accel,
        "VLEN": vlen,
        "DLEN": dlen,
        "MemLatency": soc.memory.latency,
        "MemOutstanding": soc.memory.outstanding,
        **gemmini,
        **memory_map_parameters(soc),
        **(ext_rtl.tb_parameters(soc) if soc.rtl is not None else {}),
    }


def _pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def gemmini_parameters(soc: SocConfig, acc: GemminiUnit) -> dict[str, int]:
    """gemmini_unit's parameters (sim/rtl/gemmini/UNIT.md) from sim/gemmini/params.py, which the model and the
    C header use too. Values the RTL cannot build, or that disagree with each other, are a SimError naming the
    config key (``accelerator.<key>``)."""
    from sim.gemmini.params import ACC_BYTES, ELEM_BYTES, gemmini_params

    def bad(key: str, why: str) -> SimError:
        return SimError(f"{soc.path}: accelerator.{key} = {getattr(acc, key)!r} {why}")

    if acc.input_type != "int8":
        raise bad("input_type", "is not supported by the Gemmini RTL (int8 inputs only)")
    if acc.acc_type != "int32":
        raise bad("acc_type", "is not supported by the Gemmini RTL (int32 accumulator only)")
    if not _pow2(acc.dim) or not 2 <= acc.dim <= 64:
        raise bad("dim", "is not supported by the Gemmini RTL; use a power of two between 2 and 64")
    flows = tuple(acc.dataflows)
    if not flows or len(set(flows)) != len(flows) or not set(flows) <= {"WS", "OS"}:
        raise bad("dataflows", 'must name each of "WS" and "OS" at most once, at least one of them')
    if acc.loop_conv:
        raise bad("loop_conv", "but the Gemmini RTL has no loop_conv_ws unit yet (issue 18); set it to false")
    if not _pow2(acc.dma_bytes) or acc.dma_bytes * 8 > 512:
        raise bad("dma_bytes", "is not supported: use a power of two up to 64 (amem port: max(64, 8 x dma_bytes) bits)")
    if acc.dma_max_bytes < acc.dim * ACC_BYTES or acc.dma_max_bytes % acc.dma_bytes:
        raise bad(
            "dma_max_bytes",
            f"must be a multiple of dma_bytes ({acc.dma_bytes}) and hold one accumulator row "
            f"(DIM x {ACC_BYTES} = {acc.dim * ACC_BYTES} bytes)",
        )
    for key, kib, row_bytes, banks_key in (
        ("scratchpad_kib", acc.scratchpad_kib, acc.dim * ELEM_BYTES, "sp_banks"),
        ("accumulator_kib", acc.accumulator_kib, acc.dim * ACC_BYTES, "acc_banks"),
    ):
        banks = getattr(acc, banks_key)
        if kib <= 0 or (kib * 1024) % row_bytes:
            raise bad(key, f"is not a whole number of rows of {row_bytes} bytes (DIM = {acc.dim})")
        if not _pow2(banks):
            raise bad(banks_key, "must be a power of two (the RTL splits rows into banks by their bits)")
        rows = kib * 1024 // row_bytes
        if rows % banks or not _pow2(rows // banks):
            raise bad(banks_key, f"does not split the {rows} rows of {key} = {kib} into banks of a power of two rows")
    p = gemmini_params(soc)
    return {
        "Dim": p.dim,
        "SpRows": p.sp_rows,
        "AccRows": p.acc_rows,
        "SpBanks": p.sp_banks,
        "AccBanks": p.acc_banks,
        "DmaBytes": p.dma_bytes,
        "DmaMaxBytes": p.dma_max_bytes,
        "MaxBlockLen": p.max_block_len,
        "MaxBlockLenAcc": p.max_block_len_acc,
        "HasWs": int(p.has_ws),
        "HasOs": int(p.has_os),
    }


def memory_map_parameters(soc: SocConfig) -> dict[str, str]:
    """The config's memory map as tb_top parameters (core and vector unit both use
    them: non-blocking scalar accesses, vector access faults). Every region must lie
    below 4 GiB (the ports carry 32-bit addresses). Values are sized Verilog literals:
    Verilator reads a bare -G number in [2^31, 2^32) as a negative 32-bit integer,
    which a 33-bit size parameter would sign-extend."""
    mm = soc.memory_map
    regions = {
        "Mmio": (mm.mmio_base, mm.mmio_size, "mmio_base/mmio_size"),
        "Mem0": (mm.scalar_base, mm.scalar_size, "scalar_base/scalar_size"),
        "Mem1": (mm.ddr_base, mm.ddr_size, "ddr_base/ddr_size"),
        "Mem2": (mm.sram_base, mm.sram_size, "sram_base/sram_size"),
    }
    out: dict[str, str] = {}
    for name, (base, size, keys) in regions.items():
        if size <= 0 or base < 0 or base + size > 1 << 32:
            raise SimError(
                f"{soc.path}: memory_map.{keys} = 0x{base:x}/0x{size:x} does not fit below 4 GiB; "
                "the RTL's ports carry 32-bit addresses"
            )
        out[f"{name}Base"] = f"32'h{base:x}"
        out[f"{name}Size"] = f"{32 if name == 'Mmio' else 33}'h{size:x}"
    return out
