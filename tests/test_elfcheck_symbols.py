"""ElfImage's own symbol-table decoder agrees with pyelftools on RV32 and RV64 ELFs."""

import pytest
from elftools.elf.elffile import ELFFile

from harness.elfcheck import ElfImage
from harness.toolchain import build_elf


@pytest.mark.parametrize("soc", ["rv32", "rv64"])
def test_symbols_match_pyelftools(tmp_path, soc):
    src = tmp_path / "p.c"
    src.write_text(
        "int cosim_table[7] = {1};\nstatic int helper(int x) { return x * 3; }\nint main(void) { return helper(cosim_table[0]) - 3; }\n"
    )
    elf = build_elf([src], soc, tmp_path / "p.elf")
    expected = {}
    with open(elf, "rb") as f:
        for s in ELFFile(f).get_section_by_name(".symtab").iter_symbols():
            if s.name and s["st_info"]["type"] in ("STT_FUNC", "STT_OBJECT", "STT_NOTYPE"):
                expected.setdefault(s.name, (s["st_value"], s["st_size"]))
    image = ElfImage(elf)
    assert {n: (s.addr, s.size) for n, s in image._symbols.items()} == expected
    assert image.symbols_with_prefix("cosim_")["cosim_table"].size == 28
    assert image.symbol_at(image.symbol("main").addr + 4) == "main+0x4"
