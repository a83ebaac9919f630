"""Runtime behaviour on Spike: start-up state, heap and sbrk limits, PROFILE stamps,
trap reports, exit codes, SRAM sections and memory dumps, generated files."""

from __future__ import annotations

import re
import struct
import textwrap

import pytest

from configs import load_soc
from harness.elfcheck import ElfImage
from harness.iss import run_iss
from harness.toolchain import build_elf, mcpu, render_linker_script, render_mmio_header, target_flags
from sim.spike import Dump, pair_profile

pytestmark = pytest.mark.iss


def run_c(tmp_path, soc, code, *, name="prog", extra=(), **iss_kwargs):
    src = tmp_path / f"{name}.c"
    src.write_text(textwrap.dedent(code))
    sources = [src]
    for fname, text in extra:
        p = tmp_path / fname
        p.write_text(textwrap.dedent(text))
        sources.append(p)
    soc = load_soc(soc)
    elf = build_elf(sources, soc, tmp_path / f"{name}-{soc.name}.elf")
    outcome, result = run_iss(elf, soc, **iss_kwargs)
    return elf, outcome, result


def values(uart):
    """name=value pairs printed by a test program (values in any int base)."""
    return {k: int(v, 0) for k, v in re.findall(r"(\w+)=(-?(?:0x)?[0-9a-fA-F]+)", uart)}


# ---------------------------------------------------------------- generated files


def test_mcpu_and_target_from_config():
    assert mcpu(load_soc("t1-small")) == "generic_rv32+m+f+zicsr+zve32f+zvl256b"
    assert mcpu(load_soc("rv64")) == "generic_rv64+m+f+zicsr"
    assert target_flags(load_soc("rv64"))[:2] == ["-target", "riscv64-freestanding-none"]
    assert "-mabi=ilp32f" in target_flags(load_soc("t1-blastoise"))


def test_header_and_linker_script_follow_the_config(tmp_path):
    text = load_soc("rv32").path.read_text()
    text = text.replace('name = "rv32"', 'name = "rv32-moved"').replace("0x4000_0000", "0x5000_0000", 1)
    text = text.replace("ddr_size = 0x8000_0000", "ddr_size = 0x1000_0000")
    cfg_path = tmp_path / "rv32-moved.toml"
    cfg_path.write_text(text)
    soc = load_soc(cfg_path)
    header = render_mmio_header(soc)
    assert "#define COSIM_DDR_BASE 0x50000000" in header
    assert "#define COSIM_MMIO_TRAP_EPC 0x10000020" in header
    assert "@" not in header
    assert "DDR (rw)     : ORIGIN = 0x50000000, LENGTH = 0x10000000" in render_linker_script(soc)
    # The program's heap really starts in the moved DDR, on a Spike built from the same config.
    _, outcome, _ = run_c(
        tmp_path,
        soc,
        """
        #include <stdio.h>
        #include <stdlib.h>
        #include <cosim.h>
        int main(void) {
          char *p = malloc(100);
          printf("heap=0x%lx ddr=0x%lx end=0x%lx\\n", (unsigned long)p, (unsigned long)COSIM_DDR_BASE,
                 (unsigned long)COSIM_DDR_BASE + COSIM_DDR_SIZE);
          return 0;
        }
        """,
    )
    v = values(outcome.uart)
    assert v["ddr"] == 0x5000_0000 and v["end"] == 0x6000_0000
    assert 0x5000_0000 <= v["heap"] < 0x5000_1000


# ---------------------------------------------------------------- start-up


STARTUP = """
#include <stdint.h>
#include <stdio.h>
#include <cosim.h>
static uint32_t zeros[256];
extern char __global_pointer$[], __stack_top[];
void __cosim_trap_entry(void);
int main(void) {
  uintptr_t gp, sp, mstatus, fbits = 0, mtvec;
  __asm__ volatile("mv %0, gp" : "=r"(gp));
  __asm__ volatile("mv %0, sp" : "=r"(sp));
  __asm__ volatile("csrr %0, mstatus" : "=r"(mstatus));
  __asm__ volatile("csrr %0, mtvec" : "=r"(mtvec));
#define F(n) { uint32_t x; __asm__ volatile("fmv.x.w %0, f" #n : "=r"(x)); fbits |= x; }
  F(0) F(1) F(2) F(3) F(4) F(5) F(6) F(7) F(8) F(9) F(10) F(11) F(12) F(13) F(14) F(15)
  F(16) F(17) F(18) F(19) F(20) F(21) F(22) F(23) F(24) F(25) F(26) F(27) F(28) F(29) F(30) F(31)
  uint32_t any = 0;
  for (int i = 0; i < 256; i++) any |= zeros[i];
  printf("gp_ok=%d stack_gap=0x%lx fs=%d vs=%d fbits=0x%lx bss=%u trap_vec=%d\\n",
         gp == (uintptr_t)__global_pointer$, (unsigned long)((uintptr_t)__stack_top - sp),
         (int)((mstatus >> 13) & 3), (int)((mstatus >> 9) & 3), (unsigned long)fbits, any,
         mtvec == (uintptr_t)&__cosim_trap_entry);
  return 0;
}
"""


@pytest.mark.parametrize("soc", ["rv32", "rv64", "t1-small"])
def test_startup_state(tmp_path, soc):
    _, outcome, result = run_c(tmp_path, soc, STARTUP)
    assert result["status"] == "pass", outcome.message
    v = values(outcome.uart)
    assert v["gp_ok"] == 1
    assert 0 < v["stack_gap"] < 4096  # main runs just below the top of SCALAR
    assert v["fs"] != 0  # FP enabled
    assert v["vs"] == (0 if soc != "t1-small" else v["vs"]) and (soc != "t1-small" or v["vs"] != 0)
    assert v["fbits"] == 0  # every f register written with +0.0
    assert v["bss"] == 0
    assert v["trap_vec"] == 1


# ---------------------------------------------------------------- heap


HEAP = """
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cosim.h>
int main(void) {
  char *brk0 = sbrk(0);
  int at_start = brk0 == __heap_start;
  /* Fill the heap to its last byte in two steps, then ask for one byte more. */
  uintptr_t left = (uintptr_t)COSIM_DDR_BASE + (uintptr_t)COSIM_DDR_SIZE - (uintptr_t)brk0;
  intptr_t half = (intptr_t)(left / 2);
  int oom = sbrk(half + 1) == brk0;
  oom &= sbrk(half) == (void *)-1 && errno == ENOMEM;
  oom &= sbrk((intptr_t)(left - (uintptr_t)half - 1)) != (void *)-1;
  errno = 0;
  oom &= sbrk(1) == (void *)-1 && errno == ENOMEM;
  sbrk(-(intptr_t)(left - (uintptr_t)half - 1));
  sbrk(-(half + 1));
  oom &= sbrk(0) == brk0;
  errno = 0;
  void *r = sbrk(-16);                        /* below the heap start */
  int below = r == (void *)-1 && errno == EINVAL;
  errno = 0;
  void *huge = malloc((size_t)-1 / 2 + 1);
  int huge_null = huge == 0 && errno == ENOMEM;
  void *blocks[64];
  int n = 0;
  while (n < 64 && (blocks[n] = malloc(256u << 20)) != 0) n++;
  for (int i = 0; i < n; i++) free(blocks[i]);
  void *again = malloc(1u << 30);             /* fits only if the freed blocks merged */
  printf("at_start=%d oom=%d below=%d huge_null=%d blocks=%d merged=%d\\n", at_start, oom, below, huge_null, n,
         again != 0);
  return 0;
}
"""


@pytest.mark.parametrize("soc", ["rv32", "rv64"])
def test_sbrk_and_malloc_out_of_memory(tmp_path, soc):
    elf, outcome, result = run_c(tmp_path, soc, HEAP)
    assert result["status"] == "pass", outcome.message
    v = values(outcome.uart)
    assert v["at_start"] == v["oom"] == v["below"] == v["huge_null"] == v["merged"] == 1
    # Independently: how many 256 MiB blocks (plus a 16-byte header each) fit between the heap
    # start (from the ELF) and the end of DDR (from the config)?
    mm = load_soc(soc).memory_map
    heap_start = ElfImage(elf).symbol("__heap_start").addr
    assert v["blocks"] == (mm.ddr_base + mm.ddr_size - heap_start) // ((256 << 20) + 16)


SCRATCH = """
#include <stdint.h>
#include <stdio.h>
#include <cosim.h>
static uint32_t cleared[4096] COSIM_DDRBSS;
static uint32_t scratch[65536] COSIM_DDRSCRATCH;
int main(void) {
  uint64_t at_main = read_instret();
  uint32_t any = 0;
  for (int i = 0; i < 4096; i++) any |= cleared[i];
  scratch[65535] = 7;
  printf("at_main=%llu any=%u scratch=0x%lx cleared=0x%lx last=%u\\n", (unsigned long long)at_main, any,
         (unsigned long)(uintptr_t)scratch, (unsigned long)(uintptr_t)cleared, scratch[65535]);
  return 0;
}
"""


def test_ddrscratch_is_not_cleared_and_lies_below_the_heap(tmp_path):
    """The compiler's temporaries (.ddrscratch) are not zeroed by start-up (256 KiB here
    would be 65,536 stores before main) and the heap starts after them."""
    elf, outcome, result = run_c(tmp_path, "rv32", SCRATCH)
    assert result["status"] == "pass", outcome.message
    v = values(outcome.uart)
    assert v["any"] == 0 and v["last"] == 7
    assert v["at_main"] < 4096 * 4 + 2000  # .ddrbss (4096 words) is cleared, .ddrscratch is not
    image = ElfImage(elf)
    mm = load_soc("rv32").memory_map
    assert mm.ddr_base <= v["cleared"] < v["scratch"]
    assert v["scratch"] + 4 * 65536 <= image.symbol("__heap_start").addr


# ---------------------------------------------------------------- profile stamps


PROFILE = """
#include <stdint.h>
#include <stdio.h>
#include <cosim.h>
volatile uint32_t sink;
int main(void) {
  uint64_t a = read_instret();
  profile_start(5);
  for (uint32_t i = 0; i < 5000; i++) sink += i;
  profile_start(9);
  for (uint32_t i = 0; i < 300; i++) sink ^= i;
  profile_stop(9);
  profile_stop(5);
  uint64_t b = read_instret();
  profile_start(9);
  profile_stop(9);
  uint64_t c0 = read_cycle(), c1 = read_cycle();
  printf("outer=%llu cyc_ok=%d\\n", (unsigned long long)(b - a), c1 >= c0);
  return 0;
}
"""


@pytest.mark.parametrize("soc", ["rv32", "rv64"])
def test_profile_stamps_are_exact_instret(tmp_path, soc):
    _, outcome, result = run_c(tmp_path, soc, PROFILE)
    assert result["status"] == "pass", outcome.message
    outer = values(outcome.uart)["outer"]
    regions = [(p["region"], p["cycles"]) for p in result["profile"]]
    assert [r for r, _ in regions] == [5, 9, 9]
    five, nine, empty = (c for _, c in regions)
    # Region 5 is bracketed by the program's own read_instret calls: a few instructions less.
    assert outer - 20 <= five < outer
    assert 300 * 3 <= nine < five - 5000 * 3
    assert 0 < empty <= 4  # csrr + store of the stop marker
    assert result["cycles_forward"] is None and result["cycles_total"] is None
    assert result["instret"] > outer


def test_pair_profile_nesting_and_unclosed():
    regions = pair_profile([(3, 10), (5, 12), (4, 20), (3, 25), (2, 30), (7, 40)])
    assert [(r.region, r.start, r.stop) for r in regions] == [(1, 10, None), (2, 12, 20), (1, 25, 30), (3, 40, None)]


# ---------------------------------------------------------------- traps and exit codes


TRAP_ASM = """
    .text
    .globl do_illegal, bad_insn, do_load_fault, bad_load
do_illegal:
bad_insn:
    csrr a0, 0x7c0        /* no such CSR: illegal instruction */
    ret
do_load_fault:
    li t0, 0x08000000     /* nothing is mapped here */
bad_load:
    lw a0, 0(t0)
    ret
"""

TRAP_C = """
#include <stdio.h>
void do_illegal(void);
void do_load_fault(void);
int main(void) {
  printf("before\\n");
  if (WHICH == 0) do_illegal(); else do_load_fault();
  printf("not reached\\n");
  return 0;
}
"""


@pytest.mark.parametrize("soc", ["rv32", "rv64"])
def test_illegal_instruction_is_a_trap_with_pc_and_disassembly(tmp_path, soc):
    elf, outcome, result = run_c(tmp_path, soc, TRAP_C.replace("WHICH", "0"), extra=[("traps.S", TRAP_ASM)])
    img = ElfImage(elf)
    assert result["status"] == "trap"
    trap = result["trap"]
    assert int(trap["pc"], 16) == img.symbol("bad_insn").addr
    assert trap["cause"] == 2
    assert trap["disassembly"] in ("csrr a0, 0x7c0", "csrr a0, 1984")
    assert int(trap["instruction"], 16) == img.word_at(img.symbol("bad_insn").addr)
    assert "illegal instruction" in trap["description"]
    assert "not reached" not in outcome.uart
    assert f"mcause=0x2 (illegal instruction) mepc=0x{img.symbol('bad_insn').addr:x}" in outcome.uart


def test_load_access_fault_reports_the_address(tmp_path):
    elf, outcome, result = run_c(tmp_path, "rv64", TRAP_C.replace("WHICH", "1"), extra=[("traps.S", TRAP_ASM)])
    img = ElfImage(elf)
    assert result["status"] == "trap"
    assert result["trap"]["cause"] == 5
    assert int(result["trap"]["tval"], 16) == 0x0800_0000
    assert int(result["trap"]["pc"], 16) == img.symbol("bad_load").addr
    assert result["trap"]["disassembly"].startswith("lw a0, 0(t0)")


@pytest.mark.parametrize("code,status", [(3, "error"), (0xDEADBEEF, "pass"), (0, "pass")])
def test_exit_codes(tmp_path, code, status):
    _, outcome, result = run_c(tmp_path, "rv32", f"#include <stdlib.h>\nint main(void) {{ exit((int){code:#x}u); }}\n")
    assert result["exit_code"] == code
    assert result["status"] == status


def test_main_return_value_is_the_exit_code_and_write_checks_fd(tmp_path):
    _, outcome, result = run_c(
        tmp_path,
        "rv64",
        """
        #include <errno.h>
        #include <stdio.h>
        #include <unistd.h>
        int main(void) {
          long ok = write(1, "hi\\n", 3);
          long bad = write(7, "x", 1);
          printf("ok=%ld bad=%ld ebadf=%d\\n", ok, bad, errno == EBADF);
          return 3;
        }
        """,
    )
    assert values(outcome.uart) == {"ok": 3, "bad": -1, "ebadf": 1}
    assert outcome.uart.startswith("hi\n")
    assert result["exit_code"] == 3 and result["status"] == "error"


# ---------------------------------------------------------------- SRAM sections and dumps


def test_vdata_vbss_in_sram_and_dumped_after_exit(tmp_path):
    code = """
    #include <stdint.h>
    #include <cosim.h>
    COSIM_VDATA uint32_t table[64] = {INIT};
    COSIM_VBSS uint32_t out[64];
    int main(void) {
      for (int i = 0; i < 64; i++) out[i] = table[i] * 3u + 1u;
      return 0;
    }
    """
    init = [(i * 2654435761) & 0xFFFFFFFF for i in range(64)]
    code = code.replace("INIT", ", ".join(f"{x}u" for x in init))
    src = tmp_path / "vd.c"
    src.write_text(textwrap.dedent(code))
    elf = build_elf([src], "t1-small", tmp_path / "vd.elf")
    img = ElfImage(elf)
    sram = load_soc("t1-small").memory_map.sram_base
    out_sym, table_sym = img.symbol("out"), img.symbol("table")
    assert out_sym.addr >= sram and table_sym.addr >= sram
    outcome, result = run_iss(elf, "t1-small", dumps=[Dump(out_sym.addr, 256), Dump(table_sym.addr, 256)])
    assert result["status"] == "pass"
    got = struct.unpack("<64I", outcome.dumps[out_sym.addr])
    assert list(got) == [(x * 3 + 1) & 0xFFFFFFFF for x in init]
    assert list(struct.unpack("<64I", outcome.dumps[table_sym.addr])) == init


def test_vector_program_uses_the_vector_unit(tmp_path):
    from harness.c_programs import PROGRAM_DIR

    src = PROGRAM_DIR / "vector_saxpy.c"
    counts = {}
    for soc in ("rv32", "t1-blastoise"):
        elf = build_elf([src], soc, tmp_path / f"vs-{soc}.elf")
        img = ElfImage(elf)
        text = next(s for s in img.sections if s.name == ".text")
        words = struct.unpack(f"<{text.size // 4}I", img.read(text.addr, text.size - text.size % 4))
        counts[soc] = sum(1 for w in words if w & 0x7F == 0x57)  # OP-V major opcode
        _, result = run_iss(elf, soc)
        assert result["status"] == "pass"
    assert counts["rv32"] == 0
    assert counts["t1-blastoise"] >= 4


# ---------------------------------------------------------------- printf vs glibc


def _random_printf_program(seed: int, count: int) -> str:
    """`count` printf calls with random flags/width/precision/length/conversion, only
    combinations whose output C defines (so glibc's output is the reference)."""
    import random

    rnd = random.Random(seed)
    int_kinds = [  # (length modifier, C cast, min, max)
        ("", "(int)", -(2**31), 2**31 - 1),
        ("hh", "(signed char)", -128, 127),
        ("h", "(short)", -(2**15), 2**15 - 1),
        ("l", "(long)", -(2**31), 2**31 - 1),  # long is 32-bit on RV32: stay in range
        ("ll", "(long long)", -(2**63), 2**63 - 1),
    ]
    lines = []
    for _ in range(count):
        conv = rnd.choice("diuxXocs")
        width = rnd.choice(["", str(rnd.randint(0, 22))])
        prec = rnd.choice(["", "", f".{rnd.randint(0, 20)}"]) if conv not in "c" else ""
        flags = ""
        if conv in "di":
            flags = "".join(rnd.sample("-0+ ", rnd.randint(0, 3)))
        elif conv in "uxXo":
            flags = "".join(rnd.sample("-0#", rnd.randint(0, 2)))
        elif conv in "cs":
            flags = rnd.choice(["", "-"])
        if conv == "s":
            word = rnd.choice(["", "a", "vector", "systolic array", "%d not a conversion"])
            arg = '"' + word + '"'
            length = ""
        elif conv == "c":
            arg, length = str(rnd.randint(33, 126)), ""
        else:
            length, cast, lo, hi = rnd.choice(int_kinds)
            v = rnd.choice([0, 1, -1, lo, hi, rnd.randint(lo, hi), rnd.randint(-1000, 1000)])
            if conv not in "di":
                cast = "(unsigned " + cast[1:] if cast != "(signed char)" else "(unsigned char)"
                v = v % (hi - lo + 1)
            arg = f"{cast}{v}{'LL' if length == 'll' else ''}"
            if length == "ll" and v == lo and conv in "di":
                arg = "(long long)(-9223372036854775807LL - 1)"
        fmt = f"%{flags}{width}{prec}{length}{conv}"
        lines.append(f'  printf("[{fmt}]\\n", {arg});')
    return "#include <stdio.h>\nint main(void) {\n" + "\n".join(lines) + "\n  return 0;\n}\n"


@pytest.mark.parametrize("soc", ["rv32", "rv64"])
def test_printf_matches_glibc_on_random_formats(tmp_path, soc):
    from harness.c_programs import CProgram, host_expected

    src = tmp_path / "fmt.c"
    src.write_text(_random_printf_program(seed=2026, count=400))
    expected = host_expected(CProgram(src, (soc,)))
    _, outcome, result = run_c(tmp_path, soc, src.read_text(), name="fmt")
    assert result["status"] == "pass"
    for i, (want, got) in enumerate(zip(expected.splitlines(), outcome.uart.splitlines(), strict=True)):
        assert got == want, f"line {i}: {src.read_text().splitlines()[i + 2].strip()}"
