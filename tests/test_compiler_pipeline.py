"""Compiler stages: targets from configs, the named pipeline and its IR, errors with source locations."""

import re
from math import prod
from pathlib import Path

import pytest

from compiler import compile_kernel
from compiler.errors import CompileError
from compiler.pipeline import lower, stage_names
from compiler.targets import (
    LIVE_BUDGET,
    MAX_FIXED_LANES,
    OpShape,
    VectorTarget,
    column_tile,
    elementwise_lmul,
    fit,
    plan_rvv,
    split_point,
    target_for,
)
from configs import CONFIG_DIR, load_soc

torch = pytest.importorskip("torch")
from compiler.frontend import import_torch  # noqa: E402


def write_vlen_config(tmp_path: Path, vlen: int) -> Path:
    text = (CONFIG_DIR / "t1-small.toml").read_text()
    text = text.replace('name = "t1-small"', f'name = "t1-v{vlen}"').replace("vlen = 256", f"vlen = {vlen}")
    text = text.replace("zvl256b", f"zvl{vlen}b")
    p = tmp_path / f"t1-v{vlen}.toml"
    p.write_text(text)
    return p


def test_targets_from_configs(tmp_path):
    rv32 = target_for("rv32")
    assert rv32.strategy == "scalar" and rv32.index_bitwidth == 32
    assert rv32.mcpu == "generic_rv32+m+f+zicsr" and rv32.mabi == "ilp32f"
    assert target_for("rv64").index_bitwidth == 64
    small = target_for("t1-small")
    assert small.strategy == "rvv" and small.vector.vlen == 256 and "zvl256b" in small.mcpu
    v512 = target_for(write_vlen_config(tmp_path, 512))
    assert v512.vector.vlen == 512 and "zvl512b" in v512.mcpu and v512.key() != small.key()


def test_tile_sizes_follow_vlen():
    elementwise = OpShape("linalg.generic", (64, 1024), ("parallel", "parallel"), True, False)
    for vlen in (128, 256, 512, 2048):
        plan = plan_rvv(elementwise, VectorTarget(vlen, 64))
        assert plan.vectorize and plan.tile_sizes == (1, min(1024, vlen * 8 // 32, MAX_FIXED_LANES))
    mm = OpShape("linalg.generic", (16, 96, 32), ("parallel", "parallel", "reduction"), True, True)
    assert plan_rvv(mm, VectorTarget(256, 64)).tile_sizes == (1, 32, 1)  # 3 tiles, each one LMUL-4 group
    # the row fits one vector, but two tiles (multiples of the 8 lanes) let one A scalar feed two vfmacc
    assert plan_rvv(mm, VectorTarget(2048, 256)).tile_sizes == (1, 48, 1)
    # several trailing reduction loops (k split by a reshape): all by 1; one output row of
    # 120 (15 datapath rows) stays one vector (targets.LONG_ROW), two rows get tiles of 40
    mm3 = OpShape("linalg.generic", (1, 120, 16, 5, 5), ("parallel", "parallel") + ("reduction",) * 3, True, True)
    assert plan_rvv(mm3, VectorTarget(2048, 256)).tile_sizes == (1, 120, 1, 1, 1)
    mm3b = OpShape("linalg.generic", (2, 120, 16, 5, 5), ("parallel", "parallel") + ("reduction",) * 3, True, True)
    assert plan_rvv(mm3b, VectorTarget(2048, 256)).tile_sizes == (1, 40, 1, 1, 1)
    conv = OpShape("linalg.generic", (1, 8, 8, 8, 3, 3, 3), ("parallel",) * 4 + ("reduction",) * 3, False, True)
    assert not plan_rvv(conv, VectorTarget(256, 64)).vectorize
    # an extent that fits is one vector (any length); else the largest divisor that fits
    assert fit(24, 64) == 24 and fit(7, 64) == 7 and fit(128, 64) == 64 and fit(140, 32) == 28 and fit(127, 64) == 1


def test_elementwise_lmul_follows_live_values():
    """A body with many live values (a polynomial) gets narrower register groups, so
    LLVM does not spill whole LMUL-8 groups (gelu on t1-small did: 35 vl8r)."""
    vt = VectorTarget(256, 64)
    for live, lmul in ((1, 8), (3, 8), (4, 4), (6, 4), (7, 2), (12, 2), (13, 1)):
        assert elementwise_lmul(live) == lmul
        shape = OpShape("linalg.generic", (5, 1024), ("parallel", "parallel"), True, False, live_values=live)
        assert plan_rvv(shape, vt).tile_sizes == (1, vt.vlmax(lmul))
        assert elementwise_lmul(live) * live <= LIVE_BUDGET or lmul == 1


def test_gelu_body_is_planned_without_spills(tmp_path):
    imported = import_torch(lambda x: torch.nn.functional.gelu(x), (torch.randn(5, 36),), name="gelu", source="g")
    kernel = compile_kernel(imported, "t1-small", use_cache=False, dump_dir=tmp_path)
    (entry,) = [e for e in kernel.schedule if e["op"] == 0]
    live = int(re.search(r"(\d+) live values", entry["reason"]).group(1))
    assert live >= 7 and "LMUL<=2" in entry["reason"], entry
    # the 36-element row is cut into LMUL-2 pieces (12 elements on VLEN 256)
    ll = (tmp_path / "07-llvm22.ll").read_text()
    assert "<36 x float>" not in ll and "<12 x float>" in ll


def test_column_tiles():
    small, big = VectorTarget(256, 64), VectorTarget(2048, 256)
    assert column_tile(24, small) == 12  # two LMUL-2 groups, 3/4 full
    assert column_tile(36, small) == 12  # an LMUL-2 group 3/4 full beats 18 in a 32-slot LMUL-4 group
    assert column_tile(120, small) == 30 and column_tile(896, small) == 32
    # shorter than a register: at least two datapath rows (16 on 8 lanes), multiples of the lanes first
    assert column_tile(24, big) == 24 and column_tile(96, big) == 48 and column_tile(64, big) == 32
    assert column_tile(128, big) == 64  # two whole registers
    assert column_tile(10, small) == 5 and column_tile(10, big) == 10  # no tiles under 4 elements or 8 lanes
    for n in (1, 2, 3, 4, 6, 17):  # nothing worth splitting: one vector (flatmm takes these)
        assert column_tile(n, small) == n
    for n in (24, 36, 96, 144):
        for vt in (small, big, VectorTarget(512, 128)):
            w = column_tile(n, vt)
            assert w == n or (n % w == 0 and n // w >= 2 and w <= vt.vlmax(4) and w >= 2 * vt.dlen // 32)
        assert column_tile(n, small) < n


def _matmul_shape(m: int, k: int, n: int) -> OpShape:
    return OpShape("linalg.generic", (m, n, k), ("parallel", "parallel", "reduction"), True, True)


def test_split_point_of_loops_without_a_useful_tile():
    small, big = VectorTarget(256, 64), VectorTarget(2048, 256)
    # N = 59 (prime) on VLEN 256: tiles of 1 before; 32 (two tiles of 16) + 27 (three of 9)
    assert column_tile(59, small) == 1
    assert split_point(_matmul_shape(12, 59, 59), small) == (1, 32)
    assert split_point(_matmul_shape(12, 59, 37), small) == (1, 32)
    assert split_point(_matmul_shape(12, 59, 74), small) == (1, 64)  # 74 = 2 x 37: tiles of 2
    for n in (17, 24, 27, 32, 36, 64, 120):  # one vector or a divisor of 4+ elements: no split
        assert split_point(_matmul_shape(12, 59, n), small) is None
    assert split_point(_matmul_shape(12, 59, 59), big) is None  # one vector on VLEN 2048
    # elementwise: the innermost loop by 64 (LMUL 8), 67 has no divisor but 1
    ew = OpShape("linalg.generic", (3, 67), ("parallel", "parallel"), True, False)
    assert split_point(ew, small) == (1, 64)
    assert (
        split_point(OpShape("linalg.generic", (3, 100), ("parallel", "parallel"), True, False), small) is None
    )  # tiles of 50
    # reductions and transposing copies are never split
    assert split_point(OpShape("linalg.generic", (3, 67), ("parallel", "reduction"), True, False), small) is None
    assert (
        split_point(
            OpShape("linalg.generic", (3, 67), ("parallel", "parallel"), True, False, transposed_inner=True), small
        )
        is None
    )


@pytest.mark.parametrize("k, n, rows", [(59, 59, (3, 4)), (37, 61, (2, 3)), (18, 43, (2,))])
def test_prime_widths_are_split_not_tiled_by_one(k, n, rows, tmp_path):
    """Linear layers whose N is a prime above VLMAX(LMUL 4), found by random programs:
    on t1-small they ran one-element vectors (Linear 59->59 on 3x4 rows: 258 293
    instructions, rv32 307 835; 7 832 split). Verified on Spike; the split parts'
    accumulators stay in registers (hoisted) and the kernel is mostly vector."""
    from harness.cases import Case
    from harness.vecstats import forward_mixes
    from harness.verify import verify

    torch.manual_seed(0)
    lin = torch.nn.Linear(k, n)
    x = torch.randn(*rows, k, generator=torch.Generator().manual_seed(1))
    result = verify(Case(f"lin{k}x{n}", lambda: (lin, (x,)), "reduction"), "t1-small", on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result
    tiles = [op["tile_sizes"] for op in result["compile"]["schedule"] if "reduction" in op["iterators"]]
    assert len(tiles) == 2 and all(t[-2] >= 4 for t in tiles), result["compile"]["schedule"]
    elf = next(tmp_path.rglob(f"lin{k}x{n}.elf"))
    _region, kernel = forward_mixes(elf, "t1-small")
    fmas = prod(rows) * k * n
    assert kernel.forward < fmas / 2, (kernel, fmas)  # vectors of several columns per vfmacc
    assert kernel.vector_fraction > 0.5, kernel


def test_linear_on_a_vector_writes_its_output_in_place(tmp_path):
    """nn.Linear on a 1-D input: its 1 x N matmul wrote a temporary that a
    ``collapse_shape`` then copied into the output, and MLIR does not hoist an
    accumulator whose buffer has a view, so every k step reloaded and stored it
    (t1-small, Linear(57, 39): 1 426 instructions, 645 on a 1 x 57 input). The
    matmul, fill and in-place bias add now write the output through an
    ``expand_shape`` (compiler.rewrites.output_copy_elimination): no copy, the accumulators in registers,
    and the same instructions as the 1 x 57 input, verified on Spike."""
    from harness.cases import Case
    from harness.verify import verify

    torch.manual_seed(0)
    lin = torch.nn.Linear(57, 39)
    x = torch.randn(57, generator=torch.Generator().manual_seed(1))
    counts = {}
    for name, inp in (("vec", x), ("row", x.reshape(1, 57))):
        dump = tmp_path / name
        result = verify(
            Case(f"lin_{name}", lambda inp=inp: (lin, (inp,)), "reduction"),
            "t1-small",
            on="iss",
            workdir=tmp_path / f"w{name}",
            dump_ir=dump,
        )
        assert result["status"] == "pass", result
        counts[name] = result["instret_forward"]
    buffered = (tmp_path / "vec" / "02-bufferize.mlir").read_text()
    assert "memref.copy" not in buffered and "memref.alloca" not in buffered, buffered
    schedule = (tmp_path / "vec" / "03-schedule.mlir").read_text()
    assert re.search(r"scf\.for .* iter_args\(.*\) -> \(vector<", schedule), schedule
    assert counts["vec"] <= counts["row"] * 1.02, counts


def test_collapsed_row_read_later_in_rows_keeps_its_loads(tmp_path):
    """layer_norm over 9x9 on t1-blastoise: the centred values are computed as one
    row of 81 (compiler.rvv.elementwise_collapsing) and then summed in rows of 9. Forwarded into those
    loads, the 81-element store was rebuilt element by element from spilled
    scalars (1 955 instructions; t1-small 130). A memory barrier follows the op."""
    from harness.cases import Case
    from harness.verify import verify

    torch.manual_seed(0)
    ln = torch.nn.LayerNorm([9, 9])
    x = torch.randn(9, 9, generator=torch.Generator().manual_seed(1))
    result = verify(Case("ln9x9", lambda: (ln, (x,)), "reduction"), "t1-blastoise", on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result
    assert result["instret_forward"] < 300, result["instret_forward"]


@pytest.fixture(scope="module")
def addmm_imported():
    x, w, b = torch.randn(8, 32), torch.randn(32, 16), torch.randn(16)
    return import_torch(lambda b, x, w: torch.addmm(b, x, w), (b, x, w), name="addmm")


def test_frontend_lifts_weights_to_arguments():
    lin = torch.nn.Linear(32, 16)
    imp = import_torch(lin, (torch.randn(4, 32),), name="linear")
    roles = [(a.role, a.shape) for a in imp.args]
    # nn.Linear's W^T is folded into the stored data: the weight arrives transposed
    assert roles == [("weight", (32, 16)), ("weight", (16,)), ("input", (4, 32))]
    assert (imp.args[0].data == lin.weight.detach().numpy().T).all()
    assert imp.outputs[0].shape == (4, 16)
    # weights are arguments, not literals, and nothing transposes them at run time
    assert "%arg0: tensor<32x16xf32>" in imp.mlir and "torch_tensor_16_32" not in imp.mlir
    assert "linalg.transpose" not in imp.mlir


def test_pipeline_stages_and_dumps(addmm_imported, tmp_path):
    names = stage_names(target_for("t1-small"))
    assert names == ["preprocess", "bufferize", "schedule", "to-loops", "to-llvm"]
    k = compile_kernel(addmm_imported, "t1-small", dump_dir=tmp_path)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files[:6] == [
        "00-frontend.mlir",
        "01-preprocess.mlir",
        "02-bufferize.mlir",
        "03-schedule.mlir",
        "04-to-loops.mlir",
        "05-to-llvm.mlir",
    ]
    sched = (tmp_path / "03-schedule.mlir").read_text()
    assert "vector.fma" in sched and "vector<16xf32>" in sched and "scf.for" in sched
    assert all(op["vectorized"] for op in k.schedule)
    llvm = (tmp_path / "05-to-llvm.mlir").read_text()
    assert "llvm.func @_mlir_ciface_forward" in llvm
    # index lowered to 32 bits: descriptors are (ptr, ptr, i32, [n x i32], [n x i32])
    assert "!llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)>" in llvm
    assert "i64, array" not in llvm
    assert k.object.is_file() and k.object.read_bytes()[:4] == b"\x7fELF"


def test_scalar_target_has_no_vector_ops(addmm_imported):
    low = lower(addmm_imported.mlir, target_for("rv32"))
    text = str(low.module)
    assert "vector<" not in text and "llvm.func @_mlir_ciface_forward" in text
    assert low.report.ops == []


def test_rv64_descriptors_use_i64(addmm_imported):
    text = str(lower(addmm_imported.mlir, target_for("rv64")).module)
    assert "!llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>" in text


def test_exp_and_erf_become_polynomials():
    imp = import_torch(lambda x: torch.nn.functional.gelu(torch.exp(x)), (torch.randn(4, 8),), name="g")
    low = lower(imp.mlir, target_for("rv32"))
    intrinsics = set(re.findall(r"(math\.\w+|llvm\.intr\.\w+)", str(low.module)))
    # only single-instruction helpers remain (fsgnj, fmin/fmax): no exp/erf, no libm
    assert intrinsics <= {
        "llvm.intr.copysign",
        "llvm.intr.minnum",
        "llvm.intr.maxnum",
        "llvm.intr.fabs",
        "llvm.intr.fmuladd",
        "llvm.intr.sqrt",
    }, intrinsics


def test_cache_hit(addmm_imported, tmp_path, monkeypatch):
    monkeypatch.setenv("COSIM_CACHE", str(tmp_path))
    first = compile_kernel(addmm_imported, "rv32")
    second = compile_kernel(addmm_imported, "rv32")
    assert not first.cached and second.cached and second.object == first.object


def test_float64_is_rejected_with_source_location():
    def f(x):
        return x.double() * 2

    with pytest.raises(CompileError) as e:
        import_torch(f, (torch.randn(4),), name="f64")
    assert "float64" in str(e.value) and "test_compiler_pipeline.py" in str(e.value)


def test_unsupported_op_is_named():
    with pytest.raises(CompileError) as e:
        import_torch(lambda x: torch.sort(x)[0], (torch.randn(8),), name="sort")
    assert "sort" in str(e.value) and "not supported" in str(e.value)


def test_branch_on_tensor_values_names_its_line():
    """torch.export cannot trace a Python ``if`` on a tensor's value; the error
    names the user's line and says what to write instead."""
    import inspect

    def f(x):
        if x.sum() > 0:
            return x * 2
        return x

    line = inspect.getsourcelines(f)[1] + 1
    with pytest.raises(CompileError) as e:
        import_torch(f, (torch.randn(3, 4),), name="branch")
    assert f"test_compiler_pipeline.py:{line}" in str(e.value) and "torch.where" in str(e.value), str(e.value)


def test_non_tensor_input_rejected():
    with pytest.raises(CompileError, match="torch.Tensor"):
        import_torch(lambda x: x, (3,), name="bad")


def test_large_temporaries_are_static_buffers(tmp_path):
    """conv2d's padded input and im2col rows (over promote-buffers-to-stack's 1 KiB)
    become private globals in .ddrscratch: no malloc/free inside forward."""
    torch.manual_seed(0)
    conv = torch.nn.Conv2d(3, 8, 3, stride=2, padding=1)
    imported = import_torch(conv, (torch.randn(1, 3, 16, 16),), name="conv", source="c")
    compile_kernel(imported, "t1-small", use_cache=False, dump_dir=tmp_path)
    buffered = (tmp_path / "02-bufferize.mlir").read_text()
    assert "memref.alloc(" not in buffered and "memref.dealloc" not in buffered
    assert buffered.count('memref.global "private" @__cosim_tmp') >= 2
    ll = (tmp_path / "07-llvm22.ll").read_text()
    assert "@malloc" not in ll and "@free" not in ll
    assert re.search(r'@__cosim_tmp\d+ = private global .* section "\.ddrscratch", align 64', ll), ll[:2000]


def test_short_rows_run_flat_within_live_values(tmp_path):
    """gelu on 8x64 with t1-blastoise's VLEN 2048: rows of 64 are short, so the op
    runs over the flattened 512 elements (compiler.rvv.elementwise_collapsing; flatew's flat tiles
    before it) in tiles of at most an LMUL-2 group (128) for gelu's 9 live values:
    one 512-element tile spilled LMUL-8 groups."""
    imported = import_torch(lambda x: torch.nn.functional.gelu(x), (torch.randn(8, 64),), name="gelu8", source="g")
    kernel = compile_kernel(imported, "t1-blastoise", use_cache=False, dump_dir=tmp_path)
    (op,) = kernel.schedule
    assert op["loops"] == [512] and op["vectorized"], op
    assert 64 < op["tile_sizes"][-1] <= VectorTarget(2048, 256).vlmax(2), op


def test_index_vectors_llvm_would_rebuild_are_loaded(tmp_path):
    """A gather's index pattern of few values in runs (the built-in mul's (8, 1)
    operand over 16-element rows) is read from a global table; arithmetic, periodic
    and all-distinct patterns stay constants LLVM materializes well."""
    from compiler.mlir_utils import llvm_builds_well
    from harness.verify import verify

    assert llvm_builds_well([3 * q for q in range(64)])  # strided load
    assert llvm_builds_well([q % 16 for q in range(64)])  # row broadcast
    assert llvm_builds_well([(q % 4) * 8 + q // 4 for q in range(32)])  # a transpose
    assert not llvm_builds_well([(q // 16) * 4 for q in range(256)])
    assert not llvm_builds_well([(q % 12) // 4 for q in range(48)])

    result = verify("mul", "t1-blastoise", on="iss", workdir=tmp_path, dump_ir=tmp_path / "ir")
    assert result["status"] == "pass", result
    ll = next((tmp_path / "ir").rglob("07-llvm22.ll")).read_text()
    assert re.search(r"@__cosim_idx0 = global \[256 x i32\]", ll), ll[:1500]
    # As a constant LLVM built the 256 indices from 52 merges and vsetvli switches (82 in all).
    assert result["instret_forward"] < 40


@pytest.mark.parametrize("soc", ["rv32", "t1-small"])
def test_reciprocal_of_zero_is_inf_as_in_pytorch(soc, tmp_path):
    """torch-mlir asserts a reciprocal's operand is non-zero (a cf.assert the
    targets cannot run); PyTorch returns +-inf. BatchNorm in eval mode divides too."""
    from harness.cases import Case
    from harness.verify import verify

    x = torch.randn(4, 8, generator=torch.Generator().manual_seed(0))
    x[0, :3] = torch.tensor([0.0, -0.0, 1e-30])
    bn = torch.nn.BatchNorm2d(3).eval()
    with torch.no_grad():
        bn.running_var.copy_(torch.tensor([0.5, 1.0, 2.0]))
        bn.running_mean.copy_(torch.tensor([0.1, -0.2, 0.3]))

    def f(x, y):
        return 1.0 / x + x.reciprocal(), bn(y)

    y = torch.randn(2, 3, 4, 4, generator=torch.Generator().manual_seed(1))
    # reduction class: eager BatchNorm folds the scale into one multiply-add (a few ULP apart)
    result = verify(Case("recip", lambda: (f, (x, y)), "reduction"), soc, on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result
    expected = (1.0 / x + x.reciprocal())[0, :2]
    assert torch.isinf(expected).all()  # the case really divides by zero


def test_vectors_stay_within_llvms_widest_fixed_vector(tmp_path):
    """LMUL 8 on t1-blastoise is 512 lanes, past LLVM's widest fixed vector: a relu
    of 1000 was tiled by 500 and each tile loaded in six power-of-two pieces glued
    by slides (135 instructions, 38 vsetvli). Tiles of 250 are one LMUL-4 group each."""
    from harness.cases import Case
    from harness.vecstats import forward_mixes
    from harness.verify import verify

    assert VectorTarget(2048, 256).tile_lanes(8) == MAX_FIXED_LANES == 256
    assert VectorTarget(256, 64).tile_lanes(8) == 64
    x = torch.randn(1000, generator=torch.Generator().manual_seed(0))
    result = verify(Case("relu1000", lambda: (torch.relu, (x,)), "exact"), "t1-blastoise", on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result
    region, _ = forward_mixes(next(tmp_path.rglob("*.elf")), "t1-blastoise")
    assert region.vset == 1 and region.vector == 16, region  # 4 x (vle, vmflt, vmerge, vse)


@pytest.mark.parametrize("soc", ["rv32", "t1-small"])
def test_inputs_written_in_place(soc, tmp_path):
    """A program that writes its inputs (``nn.ReLU(inplace=True)``, ``add_`` through a
    view) compiles with private copies, and the eager reference runs on copies too,
    so the ELF holds the original inputs (here the outputs depend on them twice)."""
    from harness.cases import Case
    from harness.verify import verify

    def f(x, y):
        x[1:].add_(y[1:])
        torch.nn.ReLU(inplace=True)(y)
        return x * 2.0 + y, y

    x, y = (torch.randn(4, 8, generator=torch.Generator().manual_seed(s)) for s in (0, 1))
    before = (x.clone(), y.clone())
    result = verify(Case("inplace", lambda: (f, (x, y)), "elementwise"), soc, on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result
    assert torch.equal(x, before[0]) and torch.equal(y, before[1])


def test_embedding_index_checks_run_on_the_target(tmp_path):
    """nn.Embedding carries torch-mlir's index-bounds cf.asserts: they compile to a
    check that prints the message and aborts (exit 134). In range the program
    matches PyTorch; an index patched out of range in the ELF makes it abort."""
    from elftools.elf.elffile import ELFFile

    from harness.cases import Case
    from harness.elfcheck import ElfImage
    from harness.iss import run_iss
    from harness.program import build_program
    from harness.verify import verify

    torch.manual_seed(0)
    emb = torch.nn.Embedding(10, 4)
    idx = torch.tensor([[1, 3, 9]])
    result = verify(Case("emb", lambda: (emb, (idx,)), "exact"), "rv32", on="iss", workdir=tmp_path / "ok")
    assert result["status"] == "pass", result

    imported = import_torch(emb, (idx,), name="emb", source="emb")
    program = build_program(compile_kernel(imported, "rv32", use_cache=False), load_soc("rv32"), tmp_path / "bad")
    (addr,) = [s.addr for s in ElfImage(program.elf).symbols_with_prefix("cosim_in").values() if s.size == 3 * 8]
    with open(program.elf, "r+b") as f:
        elf = ELFFile(f)
        sec = next(s for s in elf.iter_sections() if s["sh_addr"] <= addr < s["sh_addr"] + s["sh_size"])
        f.seek(sec["sh_offset"] + addr - sec["sh_addr"] + 2 * 8)  # the third index: 9 -> 12
        f.write((12).to_bytes(8, "little"))
    outcome, record = run_iss(program.elf, "rv32")
    assert record["exit_code"] == 134 and record["status"] != "pass", record
    assert "index must be smaller than dim size" in outcome.uart
    assert "abort" in record["message"] and "index must be smaller" in record["message"], record["message"]


def test_bool_temporaries_are_bytes(tmp_path):
    """A mask used by two ops is a temporary: stored as i1 it would be packed bits for
    the vector code (compiler.rewrites.bool_buffer_widening); it is an i8 buffer after bufferization."""
    keep = torch.ones(5, 7).tril().bool()

    def f(x):
        m = keep & (x > 0)
        return torch.where(m, x, -x), (x * 2.0).masked_fill(m, 0.0)

    imported = import_torch(f, (torch.randn(5, 7),), name="masks", source="masks")
    compile_kernel(imported, "t1-small", use_cache=False, dump_dir=tmp_path)
    buffered = (tmp_path / "02-bufferize.mlir").read_text()
    assert not re.search(r"memref\.alloca?\(\)[^\n]*xi1>", buffered), buffered


@pytest.mark.parametrize("soc", ["t1-small", "t1-blastoise"])
def test_index_masks_compare_in_the_index_type(soc, tmp_path):
    """torch-mlir compares triu/tril loop indices in i64; with no 64-bit vector
    elements (ELEN 32) LLVM built each mask bit by bit (tril(x, -1) of 5x11x6 on
    t1-small: 4 784 instructions, rv32 1 044). compiler.rewrites.index_compare_narrowing compares in the
    index type (391). A causal mask built inside forward verifies too."""
    from harness.cases import Case
    from harness.verify import verify

    g = torch.Generator().manual_seed(3)
    x, s = torch.randn(5, 11, 6, generator=g), torch.randn(2, 7, 7, generator=g)
    masks = Case("masks", lambda: ((lambda x: (torch.tril(x, -1) + 1.0, torch.triu(x, 2) * 2.0)), (x,)), "exact")
    result = verify(masks, soc, on="iss", workdir=tmp_path / "masks")
    assert result["status"] == "pass", result
    assert result["instret_forward"] < 1500, result["instret_forward"]

    def causal_softmax(s):
        causal = torch.ones(s.shape[-1], s.shape[-1]).tril() == 0
        return torch.softmax(s.masked_fill(causal, float("-inf")), -1)

    result = verify(Case("causal", lambda: (causal_softmax, (s,)), "transcendental"), soc, on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result

    # int64 aranges compared inside forward (not triu/tril): compiler.rewrites.index_compare_narrowing
    # compares the loop indices in the index type (t1-small 3 419 -> 200 instructions)
    def arange_mask(x):
        return x.masked_fill(torch.arange(x.shape[-1])[None, :] > torch.arange(x.shape[-2])[:, None] + 1, 0.0)

    y = torch.randn(3, 9, 10, generator=g)
    arange = Case("arange_mask", lambda: (arange_mask, (y,)), "exact")
    result = verify(arange, soc, on="iss", workdir=tmp_path / "arange")
    assert result["status"] == "pass", result
    assert result["instret_forward"] < 1000, result["instret_forward"]


@pytest.mark.parametrize("soc", ["t1-small", "t1-blastoise"])
def test_reduction_loops_around_accumulators_are_not_jammed(soc, tmp_path):
    """x.mean(dim=(0, 2)) of 8x3x5x5: dim 0's reduction loop sits around the hoisted
    row accumulators. Unrolled-and-jammed like a matmul's rows, its four copies
    started from the same loaded sums and overwrote each other: every output was
    wrong on t1-small and t1-blastoise (found by the random campaign)."""
    from harness.cases import Case
    from harness.verify import verify

    x = torch.randn(8, 3, 5, 5, generator=torch.Generator().manual_seed(795))

    def f(x):
        return x.mean(dim=(0, 2), keepdim=True), x.sum(dim=(0, 2)), x.amax(dim=(0, 3))

    result = verify(Case("mean02", lambda: (f, (x,)), "reduction"), soc, on="iss", workdir=tmp_path)
    assert result["status"] == "pass", (result.get("message"), result["outputs"])


def test_forward_data_pointers_are_noalias_on_scalar_targets(tmp_path, monkeypatch):
    """On rv32 each memref's aligned pointer is noalias in forward's LLVM IR (the
    allocated one is never dereferenced), so LLVM keeps operands in registers
    across stores: the same kernel retires fewer instructions than without the
    attribute. Vector targets keep may-alias pointers (see lowering)."""
    import dataclasses

    from compiler.passes import PASSES, PassResult
    from harness.cases import Case
    from harness.verify import verify

    g = torch.Generator().manual_seed(11)
    a, b = torch.randn(12, 20, generator=g), torch.randn(20, 16, generator=g)
    imported = import_torch(lambda a, b: a @ b, (a, b), name="mm", source="s")
    for soc, marked in (("rv32", True), ("t1-small", False)):
        compile_kernel(imported, soc, use_cache=False, dump_dir=tmp_path / soc)
        ll = (tmp_path / soc / "07-llvm22.ll").read_text()
        params = re.search(r"define void @forward\((.*?)\)", ll).group(1).split(", ")
        pointers = [p for p in params if p.startswith("ptr")]
        assert len(pointers) == 6, params
        assert all(p.startswith("ptr noalias") == marked for p in pointers[1::2]), (soc, params)
        assert not any("noalias" in p for p in pointers[0::2]), params

    case = Case("mm", lambda: ((lambda a, b: a @ b), (a, b)), "reduction")
    monkeypatch.setenv("COSIM_CACHE", str(tmp_path / "cache"))  # the two builds must not share objects
    with_noalias = verify(case, "rv32", workdir=tmp_path / "with")
    unmarked = dataclasses.replace(PASSES["data-pointer-noalias"], run=lambda module, target: PassResult())
    monkeypatch.setitem(PASSES, "data-pointer-noalias", unmarked)
    monkeypatch.setenv("COSIM_CACHE", str(tmp_path / "cache-without"))
    without = verify(case, "rv32", workdir=tmp_path / "without")
    assert with_noalias["status"] == without["status"] == "pass", (with_noalias, without)
    assert with_noalias["instret_forward"] < without["instret_forward"], (with_noalias, without)


def test_rows_jam_around_column_tiles_left_after_their_own_jam(tmp_path):
    """8 rows x 34 column tiles of 32 on t1-small: the tiles jam by 2 and 17 pairs
    remain. The column loop kept its jam mark, so the rows' round re-jammed it too,
    MLIR refused, and each row reloaded every B row (a conv 3->8 k3 on 32x32: 37 564
    instructions, 46.6% vector; RTL 258 902 cycles). Now two rows share each B load."""
    from harness.cases import Case
    from harness.verify import verify

    g = torch.Generator().manual_seed(4)
    w, x = torch.randn(8, 27, generator=g), torch.randn(27, 1088, generator=g)
    imported = import_torch(lambda w, x: w @ x, (w, x), name="mm", source="s")
    compile_kernel(imported, "t1-small", use_cache=False, dump_dir=tmp_path / "ir")
    text = (tmp_path / "ir" / "03-schedule.mlir").read_text()
    carried = [r.count("vector<32xf32>") for r in re.findall(r"iter_args\(.*?\) -> \((.*?)\)", text)]
    assert max(carried) == 4, carried  # 2 rows x 2 column tiles per k step
    result = verify(
        Case("mm", lambda: ((lambda w, x: w @ x), (w, x)), "reduction"), "t1-small", on="iss", workdir=tmp_path
    )
    assert result["status"] == "pass", result


def test_one_op_failing_to_tile_leaves_the_others_tiled(tmp_path, monkeypatch):
    """All ops are tiled in one transform-interpreter run (40 ms a run: a CIFAR-size
    CNN spent 19.8 of 22.8 s of lowering in 500 runs). If that run fails, the module
    is restored and every op is tiled alone: the failing op is reported and stays
    scalar, the others are vectorized, and the program still matches PyTorch."""
    import compiler.rvv.tiling as rvv_tiling
    from compiler.targets import TilePlan
    from harness.cases import Case
    from harness.verify import verify

    broken = []

    def plan(shape, vt):
        p = plan_rvv(shape, vt)
        if p.vectorize and not broken:  # one tile size too many: tile_using_for fails
            broken.append(shape)
            return TilePlan((*p.tile_sizes, 1), True, p.reason)
        return p

    monkeypatch.setattr(rvv_tiling, "plan_rvv", plan)
    monkeypatch.setenv("COSIM_CACHE", str(tmp_path / "cache"))
    g = torch.Generator().manual_seed(2)
    a, b = torch.randn(6, 20, generator=g), torch.randn(20, 16, generator=g)
    case = Case("mm_relu", lambda: ((lambda a, b: torch.relu(a @ b) + 1.0), (a, b)), "reduction")
    result = verify(case, "t1-small", on="iss", workdir=tmp_path / "run")
    assert result["status"] == "pass", result
    schedule = result["compile"]["schedule"]
    failed = [op for op in schedule if op["reason"].startswith("tiling failed")]
    assert len(failed) == 1 and not failed[0]["vectorized"], schedule
    assert sum(op["vectorized"] for op in schedule) >= 1, schedule


@pytest.mark.parametrize("soc", ["t1-small", "t1-blastoise"])
def test_products_summed_along_a_row_reduce_whole_vectors(soc, tmp_path):
    """``(a * v).sum(-1)`` is vectorized along its reduction: a vector.contract
    <1x64> x <64>. Lowered to outer products it was 64 one-element FMAs per row
    (64x64 on t1-small: 41 534 instructions, rv32 29 456); as a multiply and an
    ordered reduction it is a few vector instructions per row."""
    from harness.cases import Case
    from harness.verify import verify

    g = torch.Generator().manual_seed(8)
    a, v = torch.randn(64, 64, generator=g), torch.randn(64, generator=g)
    c = Case("dot_rows", lambda: ((lambda a, v: (a * v).sum(-1) + (v * a[:1]).sum(-1)), (a, v)), "reduction")
    result = verify(c, soc, on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result
    assert result["instret_forward"] < 1200, result["instret_forward"]
