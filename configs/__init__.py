"""SoC configurations: the single source of truth for every layer.

Each ``configs/<name>.toml`` describes one SoC (core, accelerator, memory map,
memory model, simulation limits). :func:`load_soc` turns a name or a path into a
typed, validated :class:`SocConfig` that the compiler, the runtime builder, the
RTL build and the ISS all read. Nothing else in the project restates these
numbers.
"""

from __future__ import annotations

import hashlib
import os
import re
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

CONFIG_DIR = Path(__file__).resolve().parent

# Extra directories searched for ``<name>.toml`` (os.pathsep separated).
SEARCH_PATH_ENV = "COSIM_CONFIG_PATH"


class ConfigError(ValueError):
    """A config name, file or field is wrong; the message says how to fix it."""


@dataclass(frozen=True)
class MemoryMap:
    mmio_base: int
    mmio_size: int
    exit_offset: int
    uart_tx_offset: int
    profile_offset: int
    scalar_base: int
    scalar_size: int
    ddr_base: int
    ddr_size: int
    sram_base: int
    sram_size: int
    # Trap report registers (the lead's MMIO extension); defaults so config files need not list them.
    trap_cause_offset: int = 0x18
    trap_epc_offset: int = 0x20
    trap_tval_offset: int = 0x28

    @property
    def exit_addr(self) -> int:
        return self.mmio_base + self.exit_offset

    @property
    def uart_tx_addr(self) -> int:
        return self.mmio_base + self.uart_tx_offset

    @property
    def profile_addr(self) -> int:
        return self.mmio_base + self.profile_offset

    @property
    def trap_cause_addr(self) -> int:
        return self.mmio_base + self.trap_cause_offset

    @property
    def trap_epc_addr(self) -> int:
        return self.mmio_base + self.trap_epc_offset

    @property
    def trap_tval_addr(self) -> int:
        return self.mmio_base + self.trap_tval_offset

    @property
    def mmio_offsets(self) -> tuple[int, ...]:
        """EXIT, UART_TX, PROFILE, TRAP_CAUSE, TRAP_EPC, TRAP_TVAL: the order in which
        the test bench's +mmio_offsets plusarg and the Spike plugin take them."""
        return (
            self.exit_offset,
            self.uart_tx_offset,
            self.profile_offset,
            self.trap_cause_offset,
            self.trap_epc_offset,
            self.trap_tval_offset,
        )

    def regions(self) -> dict[str, tuple[int, int]]:
        """Memory regions (not MMIO) as name -> (base, size)."""
        return {
            "SCALAR": (self.scalar_base, self.scalar_size),
            "DDR": (self.ddr_base, self.ddr_size),
            "SRAM": (self.sram_base, self.sram_size),
        }

    def region_of(self, addr: int, size: int = 1) -> str | None:
        """Name of the region holding [addr, addr+size), or None."""
        for name, (base, length) in self.regions().items():
            if base <= addr and addr + size <= base + length:
                return name
        return None


@dataclass(frozen=True)
class NoAccelerator:
    kind: Literal["none"] = "none"


@dataclass(frozen=True)
class VectorUnit:
    vlen: int
    dlen: int
    elen: int = 32
    kind: Literal["vector"] = "vector"

    @property
    def lanes(self) -> int:
        return self.dlen // 32


@dataclass(frozen=True)
class GemminiUnit:
    """A Gemmini v0.7-style systolic array (DESIGN.md, Gemmini unit).

    Sizes in KiB; ``sp_banks``/``acc_banks`` split them into banks of rows
    (a scratchpad row is DIM input elements, an accumulator row DIM int32).
    ``dma_bytes`` is the DMA port's width (16 = Gemmini's 128-bit bus),
    ``dma_max_bytes`` the largest request (64, which sets MAX_BLOCK_LEN);
    ``loop_conv`` says whether loop_conv_ws (funct 15..21) exists.
    :mod:`sim.gemmini.params` derives every other number from these."""

    dim: int
    scratchpad_kib: int
    accumulator_kib: int
    dataflows: tuple[str, ...]
    dma_bytes: int
    sp_banks: int = 4
    acc_banks: int = 2
    dma_max_bytes: int = 64
    loop_conv: bool = True
    input_type: str = "int8"
    acc_type: str = "int32"
    kind: Literal["gemmini"] = "gemmini"


Accelerator = NoAccelerator | VectorUnit | GemminiUnit


@dataclass(frozen=True)
class MemoryModel:
    latency: int
    width_bits: int
    outstanding: int


@dataclass(frozen=True)
class SimLimits:
    max_cycles: int
    watchdog_cycles: int
    verilator_flags: tuple[str, ...] = ()


# Hooks a core behind an [rtl] section may drive (sim/tb/CONTRACT.md): "retire" one
# pulse per retired instruction (instret, the watchdog, the run ends when the EXIT
# store retires), "halt" the core stopped for good (a trap it cannot take).
RTL_HOOKS = ("retire", "halt")


@dataclass(frozen=True)
class ExternalRtl:
    """A config's own RTL ([rtl] section): the files named by ``filelist`` (one path
    a line, relative to the filelist; ``{python:MODULE}`` names an installed data
    package's files), ``top`` the module that meets the test bench's contract
    (sim/tb/CONTRACT.md), ``parameters`` given to it, ``hooks`` it drives."""

    filelist: Path
    top: str
    parameters: tuple[tuple[str, int | str], ...] = ()
    hooks: tuple[str, ...] = ()


@dataclass(frozen=True)
class SocConfig:
    name: str
    description: str
    xlen: int
    march: str
    mabi: str
    accelerator: Accelerator
    memory_map: MemoryMap
    memory: MemoryModel
    sim: SimLimits
    path: Path = field(compare=False, hash=False)
    # "machine": mtvec/mstatus/mcause/mcycle/minstret (our core, Spike); "counters": only the
    # user-level cycle/instret counters (rdcycle/rdinstret): the runtime installs no trap vector.
    csrs: Literal["machine", "counters"] = "machine"
    rtl: ExternalRtl | None = None

    @property
    def has_vector(self) -> bool:
        return isinstance(self.accelerator, VectorUnit)

    @property
    def has_gemmini(self) -> bool:
        return isinstance(self.accelerator, GemminiUnit)

    @property
    def has_float(self) -> bool:
        """Hard float: F in march (a config without it builds everything soft-float)."""
        return "f" in self.march.split("_")[0][4:]

    @property
    def isa_extensions(self) -> list[str]:
        """The -march string split into extensions: ['i','m','f','zicsr',...]."""
        base, *multi = self.march.split("_")
        return [c for c in base[4:]] + multi

    def to_dict(self) -> dict:
        d = asdict(self)
        d["path"] = str(self.path)
        if self.rtl is not None:
            d["rtl"]["filelist"] = str(self.rtl.filelist)
        return d

    @property
    def config_hash(self) -> str:
        """Hash of the file's bytes: changes whenever the config changes."""
        return hashlib.sha256(self.path.read_bytes()).hexdigest()[:16]


_MARCH_RE = re.compile(r"^rv(32|64)[a-z]+(_[a-z0-9]+)*$")


def available_socs() -> list[str]:
    """Names of the configs shipped in ``configs/`` and on COSIM_CONFIG_PATH."""
    names = {p.stem for d in _search_dirs() for p in d.glob("*.toml")}
    return sorted(names)


def _search_dirs() -> list[Path]:
    extra = [Path(p) for p in os.environ.get(SEARCH_PATH_ENV, "").split(os.pathsep) if p]
    return [*extra, CONFIG_DIR]


def resolve_soc_path(name_or_path: str | os.PathLike) -> Path:
    text = str(name_or_path)
    candidate = Path(text)
    if text.endswith(".toml") or os.sep in text:
        if not candidate.is_file():
            raise ConfigError(f"SoC config file {text!r} does not exist")
        return candidate.resolve()
    for d in _search_dirs():
        p = d / f"{text}.toml"
        if p.is_file():
            return p.resolve()
    raise ConfigError(
        f"unknown SoC config {text!r}; known configs: {', '.join(available_socs())}. "
        f"Pass one of these names, a path to a .toml file, or add a directory to ${SEARCH_PATH_ENV}."
    )


def load_soc(name_or_path: str | os.PathLike | SocConfig) -> SocConfig:
    """Load and validate one SoC config by name (``t1-small``) or path."""
    if isinstance(name_or_path, SocConfig):
        return name_or_path
    path = resolve_soc_path(name_or_path)
    try:
        raw = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    try:
        return _parse(raw, path)
    except (KeyError, TypeError) as e:
        raise ConfigError(f"{path}: missing or malformed field {e}") from None


def _take(table: dict, cls, path: Path, section: str):
    known = set(cls.__dataclass_fields__)
    unknown = set(table) - known
    if unknown:
        raise ConfigError(f"{path}: unknown key(s) {sorted(unknown)} in [{section}]; allowed: {sorted(known)}")
    kwargs = {k: (tuple(v) if isinstance(v, list) else v) for k, v in table.items()}
    return cls(**kwargs)


def _parse(raw: dict, path: Path) -> SocConfig:
    xlen = raw["xlen"]
    if xlen not in (32, 64):
        raise ConfigError(f"{path}: xlen must be 32 or 64, not {xlen}")
    march = raw["march"]
    if not _MARCH_RE.match(march) or not march.startswith(f"rv{xlen}"):
        raise ConfigError(f"{path}: march {march!r} is not an rv{xlen} ISA string like 'rv{xlen}imf_zicsr'")
    for forbidden in ("c", "d"):
        if forbidden in march.split("_")[0][4:]:
            raise ConfigError(
                f"{path}: march {march!r} has the {forbidden.upper()} extension; our core has neither C nor D"
            )
    acc_raw = dict(raw["accelerator"])
    kind = acc_raw.get("kind")
    acc_cls = {"none": NoAccelerator, "vector": VectorUnit, "gemmini": GemminiUnit}.get(kind)
    if acc_cls is None:
        raise ConfigError(f"{path}: accelerator.kind must be none, vector or gemmini, not {kind!r}")
    acc = _take(acc_raw, acc_cls, path, "accelerator")
    if isinstance(acc, VectorUnit):
        _check_vector(acc, march, path)
    if isinstance(acc, GemminiUnit):
        if acc.dim < 2 or acc.dim & (acc.dim - 1):
            raise ConfigError(f"{path}: gemmini dim must be a power of two >= 2, not {acc.dim}")
        if xlen != 64:
            raise ConfigError(f"{path}: Gemmini sits on an RV64 core; set xlen = 64")
        _check_gemmini(acc, path)
    cfg = SocConfig(
        name=raw["name"],
        description=raw.get("description", ""),
        xlen=xlen,
        march=march,
        mabi=raw["mabi"],
        accelerator=acc,
        memory_map=_take(raw["memory_map"], MemoryMap, path, "memory_map"),
        memory=_take(raw["memory"], MemoryModel, path, "memory"),
        sim=_take(raw["sim"], SimLimits, path, "sim"),
        path=path,
        csrs=_csrs(raw, path),
        rtl=_rtl(raw["rtl"], path) if "rtl" in raw else None,
    )
    unknown = set(raw) - _TOP_KEYS
    if unknown:
        raise ConfigError(f"{path}: unknown top-level key(s) {sorted(unknown)}; allowed: {sorted(_TOP_KEYS)}")
    if cfg.name != path.stem:
        raise ConfigError(f"{path}: name = {cfg.name!r} must match the file name {path.stem!r}")
    return cfg


_TOP_KEYS = {
    "name",
    "description",
    "xlen",
    "march",
    "mabi",
    "csrs",
    "accelerator",
    "memory_map",
    "memory",
    "sim",
    "rtl",
}


def _csrs(raw: dict, path: Path) -> str:
    csrs = raw.get("csrs", "machine")
    if csrs not in ("machine", "counters"):
        raise ConfigError(f"{path}: csrs must be 'machine' or 'counters', not {csrs!r}")
    return csrs


def _rtl(table: dict, path: Path) -> ExternalRtl:
    """The [rtl] section: the filelist is resolved against the config's directory."""
    allowed = {"filelist", "top", "parameters", "hooks"}
    unknown = set(table) - allowed
    if unknown:
        raise ConfigError(f"{path}: unknown key(s) {sorted(unknown)} in [rtl]; allowed: {sorted(allowed)}")
    for key in ("filelist", "top"):
        if not isinstance(table.get(key), str) or not table[key]:
            raise ConfigError(f'{path}: [rtl] needs {key} = "..." (a filelist path and the top module\'s name)')
    filelist = (path.parent / table["filelist"]).resolve()
    if not filelist.is_file():
        raise ConfigError(f"{path}: [rtl] filelist {table['filelist']!r} does not exist (looked at {filelist})")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$]*", table["top"]):
        raise ConfigError(f"{path}: [rtl] top {table['top']!r} is not a Verilog module name")
    params = table.get("parameters", {})
    if not isinstance(params, dict) or any(
        not isinstance(v, (int, str)) or isinstance(v, bool) for v in params.values()
    ):
        raise ConfigError(f"{path}: [rtl] parameters must be a table of integers or strings (Verilog literals)")
    hooks = table.get("hooks", [])
    bad = [h for h in hooks if h not in RTL_HOOKS] if isinstance(hooks, list) else [hooks]
    if bad:
        raise ConfigError(f"{path}: [rtl] hooks {bad} unknown; a core may drive {list(RTL_HOOKS)}")
    return ExternalRtl(
        filelist=filelist, top=table["top"], parameters=tuple(sorted(params.items())), hooks=tuple(hooks)
    )


def _check_vector(v: VectorUnit, march: str, path: Path) -> None:
    def pow2(x: int) -> bool:
        return x > 0 and x & (x - 1) == 0

    if not pow2(v.vlen) or v.vlen < 64 or v.vlen > 65536:
        raise ConfigError(f"{path}: vlen must be a power of two in [64, 65536], not {v.vlen}")
    if not pow2(v.dlen) or v.dlen < 32 or v.dlen > v.vlen:
        raise ConfigError(f"{path}: dlen must be a power of two in [32, vlen], not {v.dlen}")
    if v.elen != 32:
        raise ConfigError(f"{path}: only elen = 32 (zve32f) is supported, not {v.elen}")
    exts = march.split("_")
    if "zve32f" not in exts:
        raise ConfigError(f"{path}: a vector config's march must include zve32f")
    zvl = f"zvl{v.vlen}b"
    if zvl not in exts:
        raise ConfigError(f"{path}: march must name {zvl} to match vlen = {v.vlen}")


def _check_gemmini(g: GemminiUnit, path: Path) -> None:
    def pow2(x: int) -> bool:
        return x > 0 and x & (x - 1) == 0

    if (g.input_type, g.acc_type) != ("int8", "int32"):
        raise ConfigError(
            f"{path}: only int8 inputs with an int32 accumulator are supported, not {g.input_type}/{g.acc_type}"
        )
    bad_df = set(g.dataflows) - {"WS", "OS"}
    if not g.dataflows or bad_df:
        raise ConfigError(
            f"{path}: gemmini dataflows must be a non-empty subset of ['WS', 'OS'], not {list(g.dataflows)}"
        )
    for key in ("sp_banks", "acc_banks", "dma_bytes", "dma_max_bytes"):
        if not pow2(getattr(g, key)):
            raise ConfigError(f"{path}: gemmini {key} must be a power of two, not {getattr(g, key)}")
    if g.dma_max_bytes < g.dim:
        raise ConfigError(f"{path}: gemmini dma_max_bytes ({g.dma_max_bytes}) must hold one int8 row of DIM = {g.dim}")
    sp_rows = g.scratchpad_kib * 1024 // g.dim
    acc_rows = g.accumulator_kib * 1024 // (g.dim * 4)
    if sp_rows % g.sp_banks or not pow2(sp_rows // g.sp_banks):
        raise ConfigError(
            f"{path}: scratchpad_kib = {g.scratchpad_kib} does not split into {g.sp_banks} banks of a power-of-two number of {g.dim}-byte rows"
        )
    if acc_rows % g.acc_banks or not pow2(acc_rows // g.acc_banks):
        raise ConfigError(
            f"{path}: accumulator_kib = {g.accumulator_kib} does not split into {g.acc_banks} banks of a power-of-two number of {g.dim * 4}-byte rows"
        )
    if sp_rows > 1 << 26 or acc_rows > 1 << 26:
        raise ConfigError(f"{path}: the memories are too large for Gemmini's 29-bit row field")
