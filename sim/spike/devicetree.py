"""Device tree for Spike, generated from a SoC config.

Spike's own device tree puts an ns16550 UART on our MMIO page and refuses a
plugin there, so we give it ours: one hart (its ``riscv,isa`` decides the ISA),
the three memory regions, a CLINT, nothing at the MMIO page. Compiled to a DTB
with the pure-Python ``fdt`` package (no dtc needed).
"""

from __future__ import annotations

from pathlib import Path

import fdt

from configs import SocConfig

CLINT_BASE = 0x0200_0000
CLINT_SIZE = 0x000C_0000


def _cells(value: int) -> str:
    return f"0x{value >> 32:x} 0x{value & 0xFFFF_FFFF:x}"


def spike_isa(soc: SocConfig) -> str:
    """The ISA string Spike gets (in the DTS and on the command line)."""
    return soc.march


def dts_text(soc: SocConfig) -> str:
    memories = "\n".join(
        f'  memory@{base:x} {{\n    device_type = "memory";\n    reg = <{_cells(base)} {_cells(size)}>;\n  }};'
        for _name, (base, size) in soc.memory_map.regions().items()
    )
    return f"""/dts-v1/;
/ {{
  #address-cells = <2>;
  #size-cells = <2>;
  compatible = "ucbbar,spike-bare-dev";
  model = "dsa-cosim,{soc.name}";
  cpus {{
    #address-cells = <1>;
    #size-cells = <0>;
    timebase-frequency = <10000000>;
    cpu@0 {{
      device_type = "cpu";
      reg = <0>;
      status = "okay";
      compatible = "riscv";
      riscv,isa = "{spike_isa(soc)}";
      clock-frequency = <1000000000>;
    }};
  }};
{memories}
  soc {{
    #address-cells = <2>;
    #size-cells = <2>;
    compatible = "ucbbar,spike-bare-soc", "simple-bus";
    ranges;
    clint@{CLINT_BASE:x} {{
      compatible = "riscv,clint0";
      reg = <{_cells(CLINT_BASE)} {_cells(CLINT_SIZE)}>;
    }};
  }};
}};
"""


def write_dtb(soc: SocConfig, path: str | Path) -> Path:
    """Compile the config's device tree to a DTB file at ``path``."""
    path = Path(path)
    path.write_bytes(fdt.parse_dts(dts_text(soc)).to_dtb(version=17))
    return path


def memory_flag(soc: SocConfig) -> str:
    """Spike's ``-m`` option for the config's memory regions."""
    regions = soc.memory_map.regions().values()
    return "-m" + ",".join(f"0x{base:x}:0x{size:x}" for base, size in regions)
