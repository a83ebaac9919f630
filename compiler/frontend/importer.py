"""Frontend: a PyTorch module/callable (or a linalg/tosa ``.mlir`` file) to
linalg-on-tensors MLIR with one public function ``@forward``.

Weights never become IR literals: the module's parameters and buffers are lifted
to leading arguments of ``forward`` (through ``torch.func.functional_call``), so
the program builder can place their bytes in the ELF's data sections. The
returned :class:`Imported` lists every argument (role ``input`` or ``weight``,
shape, dtype, values) and every output in the order of ``forward``'s signature.
"""

from __future__ import annotations

import json
import re
import types
from collections.abc import Callable
from pathlib import Path

import numpy as np
from torch_mlir import ir, passmanager

from compiler.errors import CompileError, short_location
from compiler.frontend.import_fixups import (
    apply_fold,
    drop_zero_divisor_asserts,
    fold_weight_transposes,
    narrow_scalar_compares,
)
from compiler.frontend.imported import Imported, TensorSpec, module_text, outputs_of, parse_tensor_type
from compiler.frontend.layer_calls import has_conv_layers, has_layer_ops, has_pooled_convs, import_with_layer_calls
from compiler.frontend.torch_decompositions import SCALAR_TOO, WINDOW_OPS
from compiler.frontend.torch_decompositions import table as window_decompositions

# Element types the targets handle (no D extension: float64 is rejected; no Zvfh: no f16).
SUPPORTED_DTYPES = ("float32", "int32", "int64", "int16", "int8", "uint8", "bool")


# Dialects that may appear in the imported module (anything else cannot be lowered).
LOWERABLE_DIALECTS = {"builtin", "func", "arith", "math", "linalg", "tensor", "bufferization"}


# torch-mlir's run-time checks (an embedding's index bounds): on a failure the
# program prints the message and aborts (exit code 134), which the run reports.
LOWERABLE_OPS = {"cf.assert", "llvm.inline_asm"}  # the latter: per-layer PROFILE markers (profile_regions)


# ---------------------------------------------------------------------------
# PyTorch


def _torch():
    import torch

    return torch


def _named_forward(fn):
    """torch.export records only stack frames named ``forward``, so the lines of a
    plain function or lambda would be missing from op locations (and our error
    messages): call a copy of it whose code object is named ``forward``."""
    if not isinstance(fn, types.FunctionType):
        return fn
    code = fn.__code__.replace(co_name="forward", co_qualname="forward")
    g = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    g.__kwdefaults__ = fn.__kwdefaults__
    return g


def _lift_parameters(fn, example_inputs: tuple):
    """Wrap ``fn`` so that its parameters and buffers are leading inputs.

    Returns (wrapper module, weight names, weight tensors)."""
    torch = _torch()
    if isinstance(fn, torch.nn.Module):
        named = list(fn.named_parameters()) + list(fn.named_buffers())
    else:
        named = []
    names = [n for n, _ in named]
    values = [t.detach().contiguous() for _, t in named]

    call = _named_forward(fn)

    class Lifted(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            # Not a registered submodule: every parameter and buffer reaches the program through ``flat``
            # (functional_call), so the exported program owns none. A registered one would put them in its
            # signature too, and torch-mlir cannot import a non-persistent buffer (``register_buffer(...,
            # persistent=False)``, as model libraries keep position ids): it has no state_dict entry.
            object.__setattr__(self, "inner", fn if isinstance(fn, torch.nn.Module) else None)
            self.written: set[int] = set()

        def forward(self, *flat):
            k = len(names)
            # bool inputs arrive as bytes (see _bool_as_bytes); inputs the program
            # writes in place (``nn.ReLU(inplace=True)``, ``x.add_(y)``) are copied
            # first, so the kernel's inputs stay read-only and its outputs are its own
            flat = tuple(
                x.ne(0) if i in bool_inputs else x.clone() if i in self.written else x for i, x in enumerate(flat)
            )
            if self.inner is None:
                out = call(*flat[k:])
            else:
                out = torch.func.functional_call(self.inner, dict(zip(names, flat[:k], strict=True)), flat[k:])
            leaves = out if isinstance(out, (tuple, list)) else (out,)
            self.bool_outputs = [isinstance(o, torch.Tensor) and o.dtype == torch.bool for o in leaves]
            return _bool_as_bytes(torch, out)

    bool_inputs = {i for i, x in enumerate([*values, *example_inputs]) if x.dtype == torch.bool}
    return Lifted().eval(), names, values


def _bool_as_bytes(torch, out):
    """Bool results as uint8 0/1. A vectorized store of an i1 vector writes packed
    bits (LLVM's ``<N x i1>``, RVV ``vsm``) where the buffer has a byte per
    element: ``x > 0.25`` on t1-small came back scrambled. Bytes hold the same
    values; the output spec keeps the dtype bool (same layout). Bool inputs are
    passed as bytes and compared with 0 inside forward for the same reason."""
    if isinstance(out, torch.Tensor):
        return out.to(torch.uint8) if out.dtype == torch.bool else out
    if isinstance(out, (tuple, list)):
        return type(out)(_bool_as_bytes(torch, o) for o in out)
    return out


def _np_dtype(t) -> str:
    return str(t.dtype).removeprefix("torch.")


_HERE = str(Path(__file__).resolve().parents[1])  # the compiler package


def _is_user_file(path: str) -> bool:
    """A stack frame of the user's program (not PyTorch's, a library's or ours)."""
    return "site-packages" not in path and "/torch/" not in path and not path.startswith(_HERE)


def _user_frame(node, fn=None) -> tuple[str, int, str] | None:
    """(file, line, function) of the innermost user frame of an FX node's stack
    trace; when the trace stops at our wrapper (a lambda or function passed in),
    the user's function definition instead."""
    trace = node.meta.get("stack_trace") or ""
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', trace)
    user = [f for f in frames if _is_user_file(f[0])]
    if user:
        path, line, func = user[-1]
        return path, int(line), func
    target = getattr(fn, "forward", fn)
    code = getattr(target, "__code__", None)
    if code is not None:
        return code.co_filename, code.co_firstlineno, code.co_name
    return None


def _where(node, fn=None) -> str:
    """``model.py:12`` (plus ``(in f)`` when only the definition of ``f`` is known)."""
    frame = _user_frame(node, fn)
    if frame is None:
        return "unknown location"
    trace = node.meta.get("stack_trace") or ""
    exact = f'File "{frame[0]}", line {frame[1]}' in trace
    return f"{frame[0]}:{frame[1]}" + ("" if exact else f" (in {frame[2]})")


def _pin_locations(ep, fn=None) -> None:
    """Reduce every node's stack trace to its user frame, so the locations torch-mlir
    puts on MLIR ops (and our messages about them) name the user's line, not our
    wrapper's or torch's."""
    for node in ep.graph.nodes:
        frame = _user_frame(node, fn)
        if frame is not None:
            node.meta["stack_trace"] = f'  File "{frame[0]}", line {frame[1]}, in {frame[2]}\n'


def _draws_random(torch, node) -> bool:
    """A seeded random op, except those that draw nothing here: dropout outside
    training (``nn.Dropout`` in eval mode) and attention without dropout."""
    tags = getattr(node.target, "tags", ()) if node.op == "call_function" else ()
    if torch.Tag.nondeterministic_seeded not in tags:
        return False
    aten = torch.ops.aten
    args, kwargs = node.args, node.kwargs
    if node.target is aten.dropout.default:
        return bool(kwargs.get("train", args[2] if len(args) > 2 else True))
    if node.target is aten.scaled_dot_product_attention.default:
        return float(kwargs.get("dropout_p", args[4] if len(args) > 4 else 0.0)) != 0.0
    return True


def _check_graph(ep, fn=None) -> None:
    """Reject what the targets cannot run, naming the op and its Python source line."""
    torch = _torch()
    for node in ep.graph.nodes:
        if _draws_random(torch, node):
            raise CompileError(
                f"{node.target} at {_where(node, fn)} draws random numbers inside forward, which the compiled "
                f"program cannot reproduce; create random tensors (and modules, whose constructors draw their "
                f"weights) outside forward and pass them in or capture them"
            )
        vals = node.meta.get("val")
        vals = vals if isinstance(vals, (tuple, list)) else [vals]
        for v in vals:
            if not isinstance(v, torch.Tensor):
                continue
            what = f"{node.target}" if node.op == "call_function" else f"input {node.name}"
            dtype = _np_dtype(v)
            if dtype not in SUPPORTED_DTYPES:
                hint = (
                    " (no D extension: use float32, e.g. model.float() and float32 inputs)"
                    if dtype == "float64"
                    else ""
                )
                raise CompileError(
                    f"{what} at {_where(node, fn)} produces {dtype}, which the targets do not support{hint}"
                )
            if any(not isinstance(d, int) for d in v.shape):
                raise CompileError(
                    f"{what} at {_where(node, fn)} has a dynamic shape {tuple(v.shape)}; only static shapes are supported "
                    f"(export without dynamic_shapes and avoid data-dependent sizes)"
                )


def _check_lowerable(module, source: str) -> None:
    """Every op in the imported module must belong to a dialect we lower."""
    bad = []

    def visit(op):
        name = op.operation.name
        if name.split(".")[0] not in LOWERABLE_DIALECTS and name not in LOWERABLE_OPS:
            bad.append((name, str(op.operation.location)))
        for region in op.operation.regions:
            for block in region.blocks:
                for inner in block.operations:
                    visit(inner)

    visit(module.operation)
    if bad:
        name, loc = bad[0]
        raise CompileError(
            f"{source}: operation {name} at {short_location(loc)} is not supported by the compiler "
            f"(it lowers only linalg, tensor, arith and math); {len(bad)} unsupported op(s) in total"
        )


def _written_inputs(torch, ep) -> set[int]:
    """Positions of the inputs an in-place op writes (directly or through a view)."""
    placeholders = [n for n in ep.graph.nodes if n.op == "placeholder"]
    written = set()
    for node in ep.graph.nodes:
        schema = getattr(node.target, "_schema", None)
        if node.op != "call_function" or schema is None or not schema.is_mutable:
            continue
        for arg, value in zip(schema.arguments, node.args, strict=False):
            while isinstance(value, torch.fx.Node) and value.op == "call_function":
                returns = getattr(value.target, "_schema", None)
                if returns is None or not returns.returns or returns.returns[0].alias_info is None:
                    break
                value = value.args[0]  # a view: the write lands in its base
            if arg.alias_info is not None and arg.alias_info.is_write and value in placeholders:
                written.add(placeholders.index(value))
    return written


def _export(torch, wrapper, flat: tuple, source: str):
    try:
        return torch.export.export(wrapper, flat, strict=False)
    except Exception as e:  # torch.export explains itself; keep its first lines
        text = str(e)
        first = "\n".join(text.strip().splitlines()[:6])
        frames = re.findall(r'File "([^"]+)", line (\d+)', text)
        user = [f for f in frames if _is_user_file(f[0])]
        where = " at {}:{}".format(*user[-1]) if user else ""
        hint = (
            " (a Python branch or size taken from a tensor's values: compute both sides and select with torch.where)"
            if "data-dependent" in text
            else ""
        )
        raise CompileError(f"{source}: torch.export failed{where}{hint}: {first}") from e


def import_torch(
    fn,
    example_inputs: tuple,
    *,
    name: str = "case",
    source: str | None = None,
    window_ops: str = "vector",
    loop_conv: bool = False,
    pool_rows: int = 0,
) -> Imported:
    """``fn(*example_inputs)`` (an ``nn.Module`` or a callable) to linalg-on-tensors.

    ``window_ops``: ``"vector"`` decomposes conv2d / max_pool2d into vectorizable
    slices (:mod:`compiler.frontend.torch_decompositions`), ``"scalar"`` only those that pay off on
    scalar code; :func:`compiler.compile_kernel` re-imports with ``"scalar"`` for
    scalar targets. ``loop_conv``: quantized convolutions (cosim_q.conv2d) as Gemmini conv loops
    instead of im2col plus linears (:mod:`compiler.frontend.layer_calls`). ``pool_rows``: the
    accumulator rows a Gemmini loop_ws owns, so that a conv's max pool (cosim_q.conv2d_pool) runs in
    the store unit where a band of its rows fits (0: the pools run on the core)."""
    torch = _torch()
    from torch_mlir import fx  # imports torch (about 3 s): only where a torch program is imported

    source = source or name
    if not isinstance(example_inputs, tuple):
        example_inputs = (example_inputs,)
    for i, x in enumerate(example_inputs):
        if not isinstance(x, torch.Tensor):
            raise CompileError(
                f"{source}: example input {i} is a {type(x).__name__}; every input must be a torch.Tensor"
            )
        if _np_dtype(x) not in SUPPORTED_DTYPES:
            raise CompileError(
                f"{source}: example input {i} has dtype {_np_dtype(x)}; supported: {', '.join(SUPPORTED_DTYPES)}"
                + (" (no D extension: pass float32 tensors)" if _np_dtype(x) == "float64" else "")
            )
    wrapper, weight_names, weights = _lift_parameters(fn, example_inputs)
    for n, w in zip(weight_names, weights, strict=True):
        if _np_dtype(w) not in SUPPORTED_DTYPES:
            raise CompileError(
                f"{source}: parameter/buffer {n!r} has dtype {_np_dtype(w)}; convert the model with .float()"
            )
    flat = tuple(
        x.contiguous().to(torch.uint8) if x.dtype == torch.bool else x.contiguous() for x in (*weights, *example_inputs)
    )
    ep = _export(torch, wrapper, flat, source)
    written = _written_inputs(torch, ep)
    if written:
        wrapper.written = written
        ep = _export(torch, wrapper, flat, source)
    _check_graph(ep, fn)
    _pin_locations(ep, fn)
    fired: list[str] = []
    try:
        table = _decompositions(fired, scalar=window_ops == "scalar")
        if has_layer_ops(ep):  # quantized layers (cosim_q): calls of per-layer functions a backend maps
            module = import_with_layer_calls(ep, table, loop_conv=loop_conv, pool_rows=pool_rows)
        else:
            module = fx.export_and_import(
                ep, output_type="linalg-on-tensors", func_name="forward", decomposition_table=table
            )
    except CompileError:
        raise
    except Exception as e:
        raise CompileError(_explain_torch_mlir_failure(source, str(e))) from e
    drop_zero_divisor_asserts(module)
    _check_lowerable(module, source)
    narrow_scalar_compares(module)
    folded = fold_weight_transposes(module, len(weights))
    weights = [apply_fold(w, folded.get(i)) for i, w in enumerate(weights)]
    args = [
        TensorSpec(f"w_{_c_ident(n)}", tuple(w.shape), _np_dtype(w), "weight", w.numpy().copy())
        for n, w in zip(weight_names, weights, strict=True)
    ]
    args += [
        TensorSpec(f"in{i}", tuple(x.shape), _np_dtype(x), "input", x.detach().contiguous().numpy().copy())
        for i, x in enumerate(example_inputs)
    ]
    outputs = outputs_of(module)
    for spec, is_bool in zip(outputs, wrapper.bool_outputs, strict=True):
        if is_bool:
            spec.dtype = "bool"  # stored as uint8 0/1 (_bool_as_bytes): the same bytes
    return Imported(
        name=name,
        mlir=module_text(module),
        args=args,
        outputs=outputs,
        source=source,
        window_decomposed=any(f in WINDOW_OPS for f in fired),
        without_window_decompositions=(
            (
                lambda: import_torch(
                    fn,
                    example_inputs,
                    name=name,
                    source=source,
                    window_ops="scalar",
                    loop_conv=loop_conv,
                    pool_rows=pool_rows,
                )
            )
            if window_ops == "vector" and any(f not in SCALAR_TOO for f in fired)
            else None
        ),
        with_loop_conv=(
            (lambda: import_torch(fn, example_inputs, name=name, source=source, window_ops=window_ops, loop_conv=True))
            if not loop_conv and has_conv_layers(ep)
            else None
        ),
        with_pool_rows=(
            _memoized(
                lambda rows: import_torch(
                    fn, example_inputs, name=name, source=source, window_ops=window_ops, pool_rows=rows
                )
            )
            if not loop_conv and not pool_rows and has_pooled_convs(ep)
            else None
        ),
    )


def _memoized(reimport: Callable[[int], Imported]) -> Callable[[int], Imported]:
    """``reimport`` run once per argument (the compiler and the harness's region table both ask for it)."""
    done: dict[int, Imported] = {}

    def get(rows: int) -> Imported:
        if rows not in done:
            done[rows] = reimport(rows)
        return done[rows]

    return get


def _var_mean_f32(x, dim=None, *, correction=None, keepdim=False):
    """var_mean in the input's precision (torch-mlir's own lowering upcasts to f64)."""
    torch = _torch()
    dims = list(range(x.dim())) if dim is None else list(dim)
    n = 1
    for d in dims:
        n *= x.shape[d]
    mean = torch.mean(x, dims, keepdim=True)
    diff = x - mean
    var = torch.sum(diff * diff, dims, keepdim=keepdim) / (n - (1 if correction is None else correction))
    return var, mean if keepdim else torch.squeeze(mean, dims)


def _var_f32(x, dim=None, *, correction=None, keepdim=False):
    return _var_mean_f32(x, dim, correction=correction, keepdim=keepdim)[0]


def _std_f32(x, dim=None, *, correction=None, keepdim=False):
    return _torch().sqrt(_var_f32(x, dim, correction=correction, keepdim=keepdim))


def _decompositions(fired: list[str], *, scalar: bool = False) -> dict:
    """torch-mlir's table, plus layer_norm through PyTorch's own decomposition and
    var_mean in f32, so no float64 (which has no hardware here) appears, plus the
    window-op decompositions of :mod:`compiler.frontend.torch_decompositions`."""
    torch = _torch()
    from torch._decomp import get_decompositions
    from torch_mlir.extras.fx_decomp_util import get_decomposition_table

    aten = torch.ops.aten
    table = dict(get_decomposition_table())
    table.update(get_decompositions([aten.native_layer_norm]))
    table[aten.var_mean.correction] = _var_mean_f32
    table[aten.var.correction] = _var_f32  # x.var(), x.std(): torch-mlir computes them in f64 too
    table[aten.std.correction] = _std_f32
    # conv2d and max_pool2d as matmul / maxima over slices (vectorizable)
    table.update(window_decompositions(fired, scalar=scalar))
    return table


def _explain_torch_mlir_failure(source: str, text: str) -> str:
    ops = re.findall(r"failed to legalize operation '([^']+)'", text)
    locs = re.findall(r'loc\("([^"]+)":(\d+)', text)
    user = [x for x in locs if "site-packages" not in x[0]]
    where = "{}:{}".format(*(user or locs)[-1]) if (user or locs) else "unknown location"
    if ops:
        return f"{source}: operation {ops[0]} at {where} cannot be lowered to linalg by torch-mlir (unsupported op)"
    lines = [ln for ln in text.splitlines() if "error" in ln.lower()][:3] or text.splitlines()[:3]
    return f"{source}: torch-mlir could not import the program (at {where}): " + " | ".join(lines)


def _c_ident(name: str) -> str:
    return re.sub(r"\W", "_", name)


# ---------------------------------------------------------------------------
# .mlir files (linalg or tosa on tensors), e.g. from buddy-mlir or t1's mlir cases.


def import_mlir_file(path: str | Path, inputs: dict | None = None, *, name: str | None = None) -> Imported:
    """A ``.mlir`` file with one public function (renamed ``forward``).

    ``inputs`` (or ``<file>.inputs.json`` beside it) describes the arguments:
    ``{"seed": 0, "args": [{"name": "x", "role": "input"|"weight", "init": "randn"|"rand"|"zeros"|"ones"|"arange"}]}``;
    shapes and dtypes come from the function's signature; missing entries are
    ``randn`` inputs.
    """

    path = Path(path)
    if not path.is_file():
        raise CompileError(f"MLIR file {str(path)!r} does not exist")
    if inputs is None:
        desc = path.with_suffix(".inputs.json")
        inputs = json.loads(desc.read_text()) if desc.is_file() else {}
    ctx = ir.Context()
    try:
        with ctx:
            module = ir.Module.parse(path.read_text())
    except Exception as e:
        raise CompileError(f"{path}: not valid MLIR: {e}") from None
    with ctx:
        funcs = [
            op
            for op in module.body.operations
            if op.operation.name == "func.func" and "sym_visibility" not in op.attributes and op.regions[0].blocks
        ]
        if len(funcs) != 1:
            raise CompileError(f"{path}: expected exactly one public func.func, found {len(funcs)}")
        funcs[0].attributes["sym_name"] = ir.StringAttr.get("forward")
        if "tosa." in str(module):
            pm = passmanager.PassManager.parse(
                "builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize)"
            )
            try:
                pm.run(module.operation)
            except Exception as e:
                raise CompileError(f"{path}: lowering tosa to linalg failed: {e}") from None
        _check_lowerable(module, str(path))
        ftype = ir.FunctionType(ir.TypeAttr(funcs[0].attributes["function_type"]).value)
        descs = inputs.get("args", [])
        rng = np.random.default_rng(inputs.get("seed", 0))
        args = []
        for i, t in enumerate(ftype.inputs):
            shape, dtype = parse_tensor_type(t)
            d = descs[i] if i < len(descs) else {}
            data = _init_array(d.get("init", "randn"), shape, dtype, rng, path)
            args.append(TensorSpec(d.get("name", f"in{i}"), shape, dtype, d.get("role", "input"), data))
        outputs = outputs_of(module)
        text = module_text(module)
    return Imported(name=name or path.stem, mlir=text, args=args, outputs=outputs, source=str(path))


def _init_array(kind: str, shape, dtype: str, rng, path) -> np.ndarray:
    if kind == "randn":
        a = rng.standard_normal(shape)
    elif kind == "rand":
        a = rng.random(shape)
    elif kind == "zeros":
        a = np.zeros(shape)
    elif kind == "ones":
        a = np.ones(shape)
    elif kind == "arange":
        a = np.arange(int(np.prod(shape))).reshape(shape)
    else:
        raise CompileError(f"{path}: unknown init {kind!r}; use randn, rand, zeros, ones or arange")
    if np.dtype(dtype).kind in "iub" and kind in ("randn", "rand"):
        a = rng.integers(-8, 8, size=shape) if dtype != "bool" else rng.integers(0, 2, size=shape)
    return np.ascontiguousarray(a.astype(dtype))
