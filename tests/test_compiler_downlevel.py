"""compiler.llvm.downlevel: every LLVM 24 construct it rewrites, and what it must leave alone."""

import struct

import pytest

from compiler.llvm.downlevel import downlevel


def f32_as_double_hex(x: float) -> str:
    f = struct.unpack(">f", struct.pack(">f", x))[0]
    return "0x" + struct.pack(">d", f).hex().upper()


def test_hex_float_f32_becomes_double_hex():
    out = downlevel("  ret float f0x3F800000\n")
    assert out == "  ret float 0x3FF0000000000000\n"


def test_hex_float_f64_keeps_bits():
    assert "0x3FF0000000000000" in downlevel("  ret double f0x3FF0000000000000")


def test_shortest_decimal_float_is_spelled_exactly():
    out = downlevel("  %4 = fdiv float %3, 1.41421354")
    assert out == f"  %4 = fdiv float %3, {f32_as_double_hex(1.41421354)}"


def test_decimal_in_splat_and_vector_constants():
    out = downlevel("  %v = fmul <4 x float> %a, splat (float 0.1)")
    assert f32_as_double_hex(0.1) in out and "0.1)" not in out
    out = downlevel("  store <2 x float> <float 0.1, float -2.5e-01>, ptr %p")
    assert f32_as_double_hex(0.1) in out and f32_as_double_hex(-0.25) in out


def test_double_decimals_and_integers_untouched():
    line = "  %x = fadd double %a, 0.1\n  %y = add i32 %b, 10\n  %z = getelementptr i8, ptr %p, i32 4"
    out = downlevel(line)
    assert "double %a, 0.1" in out and "i32 %b, 10" in out and "i32 4" in out


@pytest.mark.parametrize(
    "src, want",
    [
        ("%g = getelementptr inbounds nuw float, ptr %p, i32 1", "%g = getelementptr inbounds float, ptr %p, i32 1"),
        ("%g = getelementptr nuw float, ptr %p, i32 1", "%g = getelementptr float, ptr %p, i32 1"),
        ("%g = getelementptr nusw nuw i8, ptr %p, i32 1", "%g = getelementptr i8, ptr %p, i32 1"),
        ("%b = zext nneg i32 %a to i64", "%b = zext i32 %a to i64"),
        ("%b = uitofp nneg i32 %a to float", "%b = uitofp i32 %a to float"),
        ("%c = icmp samesign ult i32 %a, %b", "%c = icmp ult i32 %a, %b"),
        ("declare void @f(ptr captures(none), ptr)", "declare void @f(ptr nocapture, ptr)"),
        ("declare void @f(ptr captures(address) %x)", "declare void @f(ptr %x)"),
    ],
)
def test_flags(src, want):
    assert downlevel(src) == want


@pytest.mark.parametrize(
    "src, want",
    [
        ("float +qnan", "float 0x7FF8000000000000"),
        ("float -qnan", "float 0xFFF8000000000000"),
        ("float +inf", "float 0x7FF0000000000000"),
        ("float -inf", "float 0xFFF0000000000000"),
        ("float inf", "float 0x7FF0000000000000"),
        ("double -inf", "double 0xFFF0000000000000"),
    ],
)
def test_special_floats(src, want):
    assert downlevel(f"  %r = select i1 %c, {src}, float %x") == f"  %r = select i1 %c, {want}, float %x"


def test_strings_comments_and_names_untouched():
    src = '@s = constant [5 x i8] c"0.1 f\\00" ; float 0.1 nneg\n%float.1 = fadd float %x.0.5, %y'
    out = downlevel(src)
    assert 'c"0.1 f\\00"' in out and "; float 0.1 nneg" in out and "%x.0.5" in out


def test_output_compiles_with_zig(tmp_path):
    import subprocess
    import sys

    ll = tmp_path / "k.ll"
    ll.write_text(
        downlevel(
            "define float @f(ptr captures(none) %p, i32 %i) {\n"
            "  %z = zext nneg i32 %i to i64\n"
            "  %g = getelementptr inbounds nuw float, ptr %p, i64 %z\n"
            "  %v = load float, ptr %g\n"
            "  %c = icmp samesign ult i32 %i, 3\n"
            "  %w = fmul float %v, 1.41421354\n"
            "  %r = select i1 %c, float %w, float f0x3F800000\n"
            "  %q = select i1 %c, float %r, float +qnan\n"
            "  %s = select i1 %c, float %q, float -inf\n"
            "  ret float %s\n"
            "}\n"
        )
    )
    cmd = [
        sys.executable,
        "-m",
        "ziglang",
        "cc",
        "-target",
        "riscv32-freestanding-none",
        "-mcpu=generic_rv32+m+f",
        "-Wno-override-module",
        "-c",
        str(ll),
        "-o",
        str(tmp_path / "k.o"),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
