"""`cosim cc` and the toolchain API: builds, flags, caching, and clear errors for bad input."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from configs import load_soc
from harness.cli import main
from harness.elfcheck import ElfCheckError, ElfImage, check_elf
from harness.toolchain import (
    BASE_CFLAGS,
    LIB_SOURCES,
    RUNTIME_DIR,
    ToolchainError,
    build_elf,
    compile_object,
    runtime,
    target_flags,
    zig_cc,
)

HELLO = '#include <stdio.h>\nint main(void) { printf("hello %d\\n", VALUE); return 0; }\n'


def test_cc_builds_an_elf_that_fits_the_config(tmp_path, capsys):
    src = tmp_path / "hello.c"
    src.write_text(HELLO)
    out = tmp_path / "hello.elf"
    assert main(["cc", "--soc", "rv64", "-o", str(out), str(src), "-D", "VALUE=7", "-O", "1"]) == 0
    img = check_elf(out, "rv64")
    mm = load_soc("rv64").memory_map
    assert img.xlen == 64
    assert img.entry == img.symbol("_start").addr == mm.scalar_base
    assert {s.name for s in img.sections} >= {".text", ".rodata"}
    assert "wrote" in capsys.readouterr().err


def test_include_dirs_defines_and_mixed_sources(tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "answer.h").write_text("#define ANSWER (6 * 7)\n")
    (tmp_path / "main.c").write_text(
        '#include <stdio.h>\n#include "answer.h"\nint twice(int);\n'
        'int main(void) { printf("%d %d\\n", twice(ANSWER), BONUS); return 0; }\n'
    )
    (tmp_path / "twice.S").write_text(".globl twice\ntwice:\n  add a0, a0, a0\n  ret\n")
    obj = compile_object(tmp_path / "twice.S", "rv32", tmp_path / "twice.o")
    elf = build_elf([tmp_path / "main.c", obj], "rv32", tmp_path / "m.elf", include_dirs=[inc], defines=["BONUS=5"])
    assert ElfImage(elf).has_symbol("twice")


def test_missing_file_is_a_clear_error(tmp_path, capsys):
    assert main(["cc", "--soc", "rv32", "-o", str(tmp_path / "x.elf"), str(tmp_path / "nope.c")]) == 2
    err = capsys.readouterr().err
    assert "nope.c" in err and "does not exist" in err


def test_unknown_config_is_a_clear_error(tmp_path, capsys):
    src = tmp_path / "a.c"
    src.write_text(HELLO)
    assert main(["cc", "--soc", "rv128", "-o", str(tmp_path / "x.elf"), str(src)]) == 2
    assert "unknown SoC config 'rv128'" in capsys.readouterr().err


def test_compile_error_shows_the_compilers_message(tmp_path, capsys):
    src = tmp_path / "broken.c"
    src.write_text("int main(void) { return undefined_thing; }\n")
    out = tmp_path / "broken.elf"
    assert main(["cc", "--soc", "rv64", "-o", str(out), str(src)]) == 2
    err = capsys.readouterr().err
    assert "broken.c:1:" in err and "undefined_thing" in err
    assert not out.exists()


def test_unsupported_file_type(tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("x")
    with pytest.raises(ToolchainError, match="unsupported file type"):
        build_elf([f], "rv32", tmp_path / "x.elf")


def test_runtime_is_cached_per_config_and_warning_free(tmp_path):
    a, b = runtime("rv32"), runtime("rv32")
    assert a.directory == b.directory and a.complete()
    assert runtime("rv64").directory != a.directory
    # The runtime sources compile cleanly with every warning as an error.
    soc = load_soc("t1-small")
    for rel in LIB_SOURCES:
        cmd = [*zig_cc(), *target_flags(soc), *BASE_CFLAGS, "-O2", "-Wall", "-Wextra", "-Werror"]
        cmd += [f"-I{d}" for d in runtime(soc).include_dirs] + [
            "-c",
            str(RUNTIME_DIR / rel),
            "-o",
            str(tmp_path / "x.o"),
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr


def test_concurrent_runtime_builds_share_one_cache_entry(tmp_path):
    env = dict(os.environ, COSIM_CACHE=str(tmp_path / "cache"))
    code = "from harness.toolchain import runtime; print(runtime('rv32').directory)"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    outs = [p.communicate() for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    dirs = {o[0].strip() for o in outs}
    assert len(dirs) == 1
    entries = [p for p in (tmp_path / "cache" / "runtime").iterdir()]
    assert [e.name for e in entries] == [os.path.basename(dirs.pop())]  # no temporary directories left


def test_elf_of_the_other_xlen_is_rejected(tmp_path):
    src = tmp_path / "a.c"
    src.write_text(HELLO.replace("VALUE", "1"))
    elf = build_elf([src], "rv32", tmp_path / "a.elf")
    with pytest.raises(ElfCheckError, match="32-bit but SoC 'rv64' is RV64"):
        check_elf(elf, "rv64")


def test_sections_outside_the_memory_map_are_rejected(tmp_path):
    # Link with our own script that puts .text at 0x0100_0000, outside SCALAR/DDR/SRAM.
    src = tmp_path / "a.S"
    src.write_text(".globl _start\n_start:\n  j _start\n")
    script = tmp_path / "bad.ld"
    script.write_text("ENTRY(_start)\nSECTIONS { . = 0x01000000; .text : { *(.text) } }\n")
    elf = tmp_path / "bad.elf"
    soc = load_soc("rv32")
    subprocess.run(
        [*zig_cc(), *target_flags(soc), "-nostdlib", "-T", str(script), str(src), "-o", str(elf)], check=True
    )
    with pytest.raises(ElfCheckError, match=r"section \.text at 0x1000000.*outside the memory map"):
        check_elf(elf, soc)
    assert main(["iss", str(elf), "--soc", "rv32", "--json", str(tmp_path / "r.json")]) == 2


def test_not_an_elf(tmp_path):
    f = tmp_path / "junk.elf"
    f.write_bytes(b"not an elf at all")
    with pytest.raises(ElfCheckError, match="not a readable ELF"):
        check_elf(f, "rv32")


@pytest.mark.parametrize(
    "flags,message",
    [(["-mcpu=generic_rv32+m+f+c+zicsr"], "compressed"), (["-mabi=ilp32", "-mcpu=generic_rv32+m+zicsr"], "float ABI")],
)
def test_compressed_code_or_another_float_abi_is_rejected(tmp_path, flags, message):
    src = tmp_path / "a.S"
    src.write_text(".globl _start\n_start:\n  j _start\n")
    soc = load_soc("rv32")
    elf = tmp_path / "a.elf"
    script = tmp_path / "ok.ld"
    script.write_text("ENTRY(_start)\nSECTIONS { . = 0x20000000; .text : { *(.text) } }\n")
    cmd = [*zig_cc(), "-target", "riscv32-freestanding-none", *flags, "-nostdlib", "-T", str(script), str(src)]
    subprocess.run([*cmd, "-o", str(elf)], check=True)
    with pytest.raises(ElfCheckError, match=message):
        check_elf(elf, soc)
