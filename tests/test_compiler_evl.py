"""compiler.llvm.explicit_vector_lengths: non-power-of-two vector arithmetic as VP intrinsics with EVL = N.

Each construct it rewrites, what it must leave alone, that zig's clang accepts
the result, and on Spike that a kernel with such vectors keeps its answer and
loses its per-step VL switches."""

import re

import pytest

from compiler.llvm.codegen import zig_cc
from compiler.llvm.explicit_vector_lengths import explicit_vector_lengths, split_operands
from compiler.targets import target_for

VLEN = 256
MASK13 = "<13 x i1> splat (i1 true), i32 13"


def one(line: str, vlen: int = VLEN) -> str:
    return explicit_vector_lengths(line, vlen).splitlines()[0]


def declarations(text: str) -> list[str]:
    return [line for line in explicit_vector_lengths(text, VLEN).splitlines() if line.startswith("declare")]


def test_operands_split_at_top_level_commas_only():
    assert split_operands("<3 x float> <float 1.0, float 2.0, float 3.0>, %b") == [
        "<3 x float> <float 1.0, float 2.0, float 3.0>",
        "%b",
    ]
    assert split_operands("%a, splat (float 0x3FF0000000000000)") == ["%a", "splat (float 0x3FF0000000000000)"]


@pytest.mark.parametrize("op", ["fadd", "fsub", "fmul", "fdiv"])
def test_binary_ops(op):
    out = one(f"  %5 = {op} contract <13 x float> %3, %4")
    assert out == f"  %5 = call contract <13 x float> @llvm.vp.{op}.v13f32(<13 x float> %3, <13 x float> %4, {MASK13})"
    (decl,) = declarations(f"  %5 = {op} <13 x float> %3, %4")
    assert decl == f"declare <13 x float> @llvm.vp.{op}.v13f32(<13 x float>, <13 x float>, <13 x i1>, i32)"


def test_constant_vector_operand_keeps_its_commas():
    out = one("  %r = fmul <3 x float> %x, <float 1.0, float 2.0, float 3.0>")
    assert "(<3 x float> %x, <3 x float> <float 1.0, float 2.0, float 3.0>, <3 x i1> splat (i1 true), i32 3)" in out


def test_fcmp_drops_fast_math_flags():
    out = one("  %c = fcmp nnan ninf oge <13 x float> %a, %b")
    assert out.startswith("  %c = call <13 x i1> @llvm.vp.fcmp.v13f32(") and 'metadata !"oge"' in out, out


def test_fneg_fcmp_select():
    assert (
        one("  %2 = fneg <13 x float> %1")
        == f"  %2 = call <13 x float> @llvm.vp.fneg.v13f32(<13 x float> %1, {MASK13})"
    )
    assert one("  %c = fcmp olt <13 x float> %a, zeroinitializer") == (
        f'  %c = call <13 x i1> @llvm.vp.fcmp.v13f32(<13 x float> %a, <13 x float> zeroinitializer, metadata !"olt", {MASK13})'
    )
    assert one("  %s = select <13 x i1> %c, <13 x float> zeroinitializer, <13 x float> %a") == (
        "  %s = call <13 x float> @llvm.vp.select.v13f32(<13 x i1> %c, <13 x float> zeroinitializer, <13 x float> %a, i32 13)"
    )


@pytest.mark.parametrize(
    ("intrinsic", "vp", "arity"),
    [
        ("fmuladd", "fma", 3),
        ("fma", "fma", 3),
        ("maxnum", "maxnum", 2),
        ("minimum", "minimum", 2),
        ("sqrt", "sqrt", 1),
        ("fabs", "fabs", 1),
    ],
)
def test_intrinsic_calls(intrinsic, vp, arity):
    args = ", ".join(f"<13 x float> %a{i}" for i in range(arity))
    out = one(f"  %r = call fast <13 x float> @llvm.{intrinsic}.v13f32({args})")
    assert out == f"  %r = call fast <13 x float> @llvm.vp.{vp}.v13f32({args}, {MASK13})"


@pytest.mark.parametrize(
    "line",
    [
        "  %r = fadd <16 x float> %a, %b",  # a power of two: no VL switch to save
        "  %r = fadd <39 x float> %a, %b",  # 39 x 32 bits > LMUL 4 at VLEN 256: LLVM would split it
        "  %s = select <39 x i1> %c, <39 x float> %a, <39 x float> %b",
        "  %r = add <13 x i32> %a, %b",  # integer ops are not rewritten
        "  %l = load <13 x float>, ptr %p, align 4",
        "  store <13 x float> %v, ptr %p, align 4",
        "  %r = call float @llvm.vector.reduce.fadd.v13f32(float 0.0, <13 x float> %v)",
        "  %r = call <13 x float> @llvm.exp.v13f32(<13 x float> %v)",
        "  %s = select i1 %c, <13 x float> %a, <13 x float> %b",  # a scalar condition
        "  %r = fadd float %a, %b",
    ],
)
def test_left_alone(line):
    assert explicit_vector_lengths(line, VLEN) == line + "\n"


def test_longer_vectors_with_a_wider_register():
    assert "@llvm.vp.fadd.v39f32" in one("  %r = fadd <39 x float> %a, %b", vlen=512)


def test_existing_declarations_are_not_repeated():
    text = "  %r = fadd <13 x float> %a, %b\ndeclare <13 x float> @llvm.vp.fadd.v13f32(<13 x float>, <13 x float>, <13 x i1>, i32)"
    assert len(declarations(text)) == 1


def test_rewritten_module_compiles(tmp_path):
    import subprocess

    # a k loop accumulating a <13 x float> row tile in memory (as before its hoisting), then the rest
    ir = """define void @k(ptr %x, ptr %y, ptr %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %row = mul i32 %i, 13
  %px = getelementptr float, ptr %x, i32 %row
  %a = load <13 x float>, ptr %px, align 4
  %py = getelementptr float, ptr %y, i32 %i
  %s = load float, ptr %py, align 4
  %ins = insertelement <13 x float> poison, float %s, i32 0
  %b = shufflevector <13 x float> %ins, <13 x float> poison, <13 x i32> zeroinitializer
  %acc = load <13 x float>, ptr %out, align 4
  %f = call <13 x float> @llvm.fmuladd.v13f32(<13 x float> %b, <13 x float> %a, <13 x float> %acc)
  store <13 x float> %f, ptr %out, align 4
  %i1 = add i32 %i, 1
  %done = icmp eq i32 %i1, %n
  br i1 %done, label %exit, label %loop
exit:
  %neg = fneg <13 x float> %f
  %c = fcmp nnan olt <13 x float> %neg, %a
  %sel = select <13 x i1> %c, <13 x float> %neg, <13 x float> %a
  %m = fmul contract <13 x float> %sel, <float 1.0, float 2.0, float 3.0, float 4.0, float 5.0, float 6.0, float 7.0, float 8.0, float 9.0, float 10.0, float 11.0, float 12.0, float 13.0>
  %q = call <13 x float> @llvm.maxnum.v13f32(<13 x float> %m, <13 x float> %f)
  store <13 x float> %q, ptr %out, align 4
  ret void
}
declare <13 x float> @llvm.fmuladd.v13f32(<13 x float>, <13 x float>, <13 x float>)
declare <13 x float> @llvm.maxnum.v13f32(<13 x float>, <13 x float>)
"""
    out = explicit_vector_lengths(ir, VLEN)
    assert out.count("@llvm.vp.") == 6 + 6, out  # 6 calls, 6 new declarations
    target = target_for("t1-small").clang_flags()  # VLEN 256, as VLEN above
    ll, asm = tmp_path / "k.ll", tmp_path / "k.s"
    ll.write_text(out)
    proc = subprocess.run([*zig_cc(), *target, "-O2", "-S", str(ll), "-o", str(asm)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    lengths = set(re.findall(r"^\s*vset\S*\s+zero, (\w+), e32", asm.read_text(), flags=re.M))
    assert lengths == {"13"}, lengths  # one length for loads, arithmetic and store


def test_linear_on_a_vector_keeps_one_vl_on_spike(tmp_path, monkeypatch):
    """nn.Linear(57, 39) on a 1-D input, t1-blastoise: its row of 39 is one vector
    (VLEN 2048), loaded and stored at VL 39 and, before the rewrite, multiplied at
    VL 64 (80 vset instructions in forward, 373 in all); with it 4 and 297. Both
    builds match PyTorch."""
    import dataclasses

    from compiler.passes import PASSES, PassResult
    from harness.cases import Case
    from harness.vecstats import forward_mixes
    from harness.verify import verify

    torch = pytest.importorskip("torch")
    torch.manual_seed(5)
    lin = torch.nn.Linear(57, 39)
    x = torch.randn(57, generator=torch.Generator().manual_seed(1))
    case = Case("lin57", lambda: (lin, (x,)), "reduction")
    mixes = {}
    for name in ("evl", "plain"):
        if name == "plain":
            plain = dataclasses.replace(PASSES["explicit-vector-lengths"], run=lambda module, target: PassResult())
            monkeypatch.setitem(PASSES, "explicit-vector-lengths", plain)
        monkeypatch.setenv("COSIM_CACHE", str(tmp_path / f"cache-{name}"))  # the builds must not share objects
        result = verify(case, "t1-blastoise", workdir=tmp_path / name)
        assert result["status"] == "pass", result
        mixes[name], _kernel = forward_mixes(next((tmp_path / name).rglob("*.elf")), "t1-blastoise")
    assert mixes["evl"].vset * 4 < mixes["plain"].vset, mixes
    assert mixes["evl"].forward < mixes["plain"].forward, mixes


GATHER14 = (
    "  %g = getelementptr float, ptr %b, <14 x i32> <i32 0, i32 2, i32 4, i32 6, i32 8, i32 10, i32 12, i32 14,"
    " i32 16, i32 18, i32 20, i32 22, i32 24, i32 26>\n"
    "  %r = call <14 x float> @llvm.masked.gather.v14f32.v14p0(<14 x ptr> align 4 %g,"
    " <14 x i1> splat (i1 true), <14 x float> poison)"
)
STRIDED14 = "@llvm.experimental.vp.strided.load.v14f32.p0.i32"


def test_stepped_gather_becomes_a_strided_load():
    out = explicit_vector_lengths(GATHER14, VLEN).splitlines()
    assert out[1] == (f"  %r = call <14 x float> {STRIDED14}(ptr align 4 %b, i32 8, <14 x i1> splat (i1 true), i32 14)")
    assert f"declare <14 x float> {STRIDED14}(ptr, i32, <14 x i1>, i32)" in out


def test_stepped_gather_from_a_nonzero_first_index_and_backwards():
    text = (
        "  %g = getelementptr float, ptr @t, <3 x i32> <i32 5, i32 4, i32 3>\n"
        "  %r = call <3 x float> @llvm.masked.gather.v3f32.v3p0(<3 x ptr> align 4 %g,"
        " <3 x i1> splat (i1 true), <3 x float> zeroinitializer)"
    )
    out = explicit_vector_lengths(text, VLEN).splitlines()
    assert out[1] == "  %g.first = getelementptr float, ptr @t, i32 5"
    assert "vp.strided.load.v3f32.p0.i32(ptr align 4 %g.first, i32 -4," in out[2]


@pytest.mark.parametrize(
    "text",
    [
        GATHER14.replace("i32 26>", "i32 27>"),  # uneven steps: a real gather
        GATHER14.replace("splat (i1 true)", "%mask"),  # masked
        GATHER14.replace("14", "16"),  # a power of two: LLVM emits vlse itself
    ],
)
def test_other_gathers_are_left_alone(text):
    assert "strided.load" not in explicit_vector_lengths(text, VLEN)


def test_strided_load_compiles_to_vlse(tmp_path):
    import subprocess

    ir = (
        "define void @k(ptr %b, ptr %out) {\n"
        + GATHER14
        + "\n  store <14 x float> %r, ptr %out, align 4\n  ret void\n}\n"
        + "declare <14 x float> @llvm.masked.gather.v14f32.v14p0(<14 x ptr>, <14 x i1>, <14 x float>)\n"
    )
    target = target_for("t1-small").clang_flags()
    ll, asm = tmp_path / "k.ll", tmp_path / "k.s"
    ll.write_text(explicit_vector_lengths(ir, VLEN))
    proc = subprocess.run([*zig_cc(), *target, "-O2", "-S", str(ll), "-o", str(asm)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    code = asm.read_text()
    assert re.search(r"vsetivli\s+zero, 14, e32", code) and "vlse32.v" in code and "vluxei" not in code, code
