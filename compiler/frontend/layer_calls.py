"""Import of the quantized layer ops (``torch.ops.cosim_q.*``) as calls of per-layer functions.

torch-mlir's FX importer has no lowering for a custom op: it imports ``cosim_q.linear``
as ``torch.operator "torch.cosim_q.linear"``, which the torch-to-linalg conversion
refuses. Here each such operator becomes a ``func.call`` of a private, bodiless function
of its own (``@cosim_q_linear_0``), with the op's tensor operands as arguments and its
other arguments (scale, relu, stride, ...) as attributes of that function::

    func.func private @cosim_q_linear_0(tensor<7x13xi8>, tensor<5x13xi8>, tensor<5xi32>) -> tensor<7x5xi8>
        attributes {cosim_q.op = "linear", cosim_q.operands = ["x", "w", "bias"],
                    cosim_q.scale = 2.5e-01 : f64, cosim_q.relu = true, cosim_q.layer = "fc1"}

``cosim_q.layer`` is the layer's name: its module path, which the quantizer puts in each node's
``meta["custom"]`` (:mod:`compiler.frontend.profile_regions` reads it, in import order).

The call crosses bufferization like any call (memref arguments, the result an
out-parameter); a backend that maps the op (``compiler.gemmini``) gives the function
its body. torch-mlir's linalg pipeline is run as it is, without its final contract
check (which knows no ``func.call``); :func:`compiler.frontend.importer._check_lowerable`
still checks every op of the result.
"""

from __future__ import annotations

from torch_mlir import ir, passmanager
from torch_mlir.dialects import func as func_d

from compiler.errors import CompileError

NAMESPACE = "cosim_q"
# The backend's own layer op (a convolution in Gemmini's NHWC/HWIO layouts, for loop_conv_ws).
OWN_NAMESPACE = "cosim_gemmini"
PREFIXES = {f"torch.{NAMESPACE}.": NAMESPACE, f"torch.{OWN_NAMESPACE}.": OWN_NAMESPACE}
# The attribute names on a layer function.
OP_ATTR = f"{NAMESPACE}.op"
OPERANDS_ATTR = f"{NAMESPACE}.operands"
LAYER_ATTR = f"{NAMESPACE}.layer"  # the layer's name: its module path (layer1.0.conv1)
LAYER_PREFIX = f"{NAMESPACE}_"  # every layer function's symbol starts so
_CONTRACT_CHECK = "torch-verify-linalg-on-tensors-backend-contract"
# The ops that stay layer calls (a backend maps them); the others are decomposed at import.
LAYER_OPS = ("matmul", "linear", "bmm", "add")


def has_layer_ops(ep) -> bool:
    """Whether an exported program holds a cosim_q node."""
    return any(n.op == "call_function" and getattr(n.target, "namespace", None) == NAMESPACE for n in ep.graph.nodes)


def _schema_names(namespace: str, op: str) -> list[str]:
    import torch

    return [a.name for a in getattr(getattr(torch.ops, namespace), op).default._schema.arguments]


def has_pooled_convs(ep) -> bool:
    """Whether an exported program holds a cosim_q.conv2d_pool node (a conv with its max pool)."""
    return any(n.op == "call_function" and str(n.target).startswith(f"{NAMESPACE}.conv2d_pool") for n in ep.graph.nodes)


def has_conv_layers(ep) -> bool:
    """Whether an exported program holds a cosim_q.conv2d node."""
    return any(n.op == "call_function" and str(n.target).startswith(f"{NAMESPACE}.conv2d") for n in ep.graph.nodes)


_OWN_LIB = None


def own_ops():
    """``torch.ops.cosim_gemmini``, defined on first use: ``conv2d_nhwc(x [N, H, W, C] i8, w [KH, KW, C, O]
    i8, bias?, stride, padding, dilation, scale, relu) -> [N, OH, OW, O] i8``, cosim_q.conv2d in the
    layouts loop_conv_ws reads and writes."""
    global _OWN_LIB
    import torch

    if _OWN_LIB is None and not hasattr(getattr(torch.ops, OWN_NAMESPACE), "conv2d_nhwc"):
        lib = torch.library.Library(OWN_NAMESPACE, "DEF")
        lib.define(
            "conv2d_nhwc(Tensor x, Tensor w, Tensor? bias, int[2] stride, int[2] padding, int[2] dilation,"
            " float scale, bool relu) -> Tensor"
        )

        def eager(x, w, bias, stride, padding, dilation, scale, relu):
            q = getattr(torch.ops, NAMESPACE)
            y = q.conv2d(x.permute(0, 3, 1, 2), w.permute(3, 2, 0, 1), bias, stride, padding, dilation, 1, scale, relu)
            return y.permute(0, 2, 3, 1).contiguous()

        def fake(x, w, bias, stride, padding, dilation, scale, relu):
            (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
            oh = (x.shape[1] + 2 * ph - dh * (w.shape[0] - 1) - 1) // sh + 1
            ow = (x.shape[2] + 2 * pw - dw * (w.shape[1] - 1) - 1) // sw + 1
            return x.new_empty((x.shape[0], oh, ow, w.shape[3]), dtype=torch.int8)

        lib.impl("conv2d_nhwc", eager, "CompositeExplicitAutograd")
        torch.library.register_fake(f"{OWN_NAMESPACE}::conv2d_nhwc", fake, lib=lib)
        lib.define(
            "linear_pool(Tensor x, Tensor w, Tensor? bias, float scale, bool relu, int[3] image, int kernel,"
            " int stride, int padding) -> Tensor"
        )
        lib.impl("linear_pool", _linear_pool_eager, "CompositeExplicitAutograd")
        torch.library.register_fake(f"{OWN_NAMESPACE}::linear_pool", _linear_pool_fake, lib=lib)
        _OWN_LIB = lib
    return getattr(torch.ops, OWN_NAMESPACE)


def pooled_size(size: int, kernel: int, stride: int, padding: int) -> int:
    """max_pool2d's output size along one axis (floor mode)."""
    return (size + 2 * padding - kernel) // stride + 1


def _linear_pool_eager(x, w, bias, scale, relu, image, kernel, stride, padding):
    """cosim_q.linear on the im2col rows ``(n, oh, ow)`` of ``image`` = [N, OH, OW], then the max pool over
    each image: rows ``(n, ph, pw)`` of the output channels."""
    import torch

    q = getattr(torch.ops, NAMESPACE)
    n, oh, ow = image
    y = q.linear(x, w, bias, scale, relu).reshape(n, oh, ow, -1).permute(0, 3, 1, 2)
    pooled = torch.nn.functional.max_pool2d(y, kernel, stride, padding)
    return pooled.permute(0, 2, 3, 1).reshape(-1, w.shape[0]).contiguous()


def _linear_pool_fake(x, w, bias, scale, relu, image, kernel, stride, padding):
    n, oh, ow = image
    ph, pw = pooled_size(oh, kernel, stride, padding), pooled_size(ow, kernel, stride, padding)
    return x.new_empty((n * ph * pw, w.shape[0]), dtype=x.dtype)


# Gemmini's store unit pools on mvout (config_st): window and stride up to 3 (2-bit fields), padding up to 3,
# the image's columns, the pooled rows and columns and the output's pixel pitch up to 255 (8-bit fields).
POOL_FIELD_MAX = 3
POOL_DIM_MAX = 255


def pool_foldable(image, groups, relu, kernel, stride, padding, acc_rows: int) -> str | None:
    """Why the max pool of a conv cannot run in Gemmini's store unit (None: it can). ``image``: the conv's
    output [N, OH, OW]; ``acc_rows``: accumulator rows one band of conv rows may take (half the
    accumulator: a loop_ws's share); a band of one pooled row needs ``kernel`` conv rows."""
    _, oh, ow = image
    if groups != 1:
        return "a grouped conv is one layer per group"
    if len(set(kernel)) != 1 or len(set(stride)) != 1 or len(set(padding)) != 1:
        return "the store unit pools square windows with one stride and padding"
    k, s, p = kernel[0], stride[0], padding[0]
    if not (1 <= k <= POOL_FIELD_MAX and 1 <= s <= POOL_FIELD_MAX and p <= POOL_FIELD_MAX):
        return f"window {k}, stride {s}, padding {p}: config_st's fields hold 1..{POOL_FIELD_MAX}"
    if p and not relu:
        return "the store unit counts padding pixels as zero, which is the maximum's -inf only after a ReLU"
    if max(ow, pooled_size(oh, k, s, p), pooled_size(ow, k, s, p)) > POOL_DIM_MAX:
        return f"an image side above config_st's {POOL_DIM_MAX}"
    if k * ow > acc_rows:
        return f"{k} conv rows of {ow} pixels exceed the {acc_rows} accumulator rows of a loop"
    return None


def loop_conv_legal(x, w, stride, padding, dilation, groups) -> bool:
    """What v0.7's loop_conv_ws runs: square images and kernels, one stride, padding and dilation, one group."""
    return (
        groups == 1
        and x.shape[2] == x.shape[3]
        and w.shape[2] == w.shape[3]
        and stride[0] == stride[1]
        and padding[0] == padding[1]
        and dilation[0] == dilation[1]
    )


def conv2d_as_conv_loop(x, w, bias, stride, padding, dilation, groups, scale, relu):
    """cosim_q.conv2d as Gemmini's conv loop where it can run it (else :func:`conv2d_as_linears`):
    NCHW -> NHWC and OIHW -> HWIO on the core (the weights' permute folds into the stored weights),
    one layer call, NHWC -> NCHW."""
    if not loop_conv_legal(x, w, stride, padding, dilation, groups):
        return conv2d_as_linears(x, w, bias, stride, padding, dilation, groups, scale, relu)
    xt = x.permute(0, 2, 3, 1).contiguous()
    wt = w.permute(2, 3, 1, 0).contiguous()
    y = own_ops().conv2d_nhwc(xt, wt, bias, list(stride), list(padding), list(dilation), scale, relu)
    return y.permute(0, 3, 1, 2).contiguous()


def _constant_attr(value, what: str):
    """A torch constant (float, bool, int, list of ints, none) as an MLIR attribute; None for none."""
    owner = value.owner
    name = owner.name if not isinstance(owner, ir.Block) else "block argument"
    if name == "torch.constant.none":
        return None
    if name == "torch.constant.float":
        return ir.FloatAttr.get(ir.F64Type.get(), ir.FloatAttr(owner.attributes["value"]).value)
    if name == "torch.constant.bool":
        return ir.BoolAttr.get(ir.BoolAttr(owner.attributes["value"]).value)
    if name == "torch.constant.int":
        return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), ir.IntegerAttr(owner.attributes["value"]).value)
    if name == "torch.prim.ListConstruct":
        return ir.ArrayAttr.get([_constant_attr(v, what) for v in owner.operands])
    raise CompileError(f"{what} is not a constant ({name}); the layer's parameters must be Python values")


def is_layer_node(n) -> bool:
    """Whether an FX node is a layer op (it becomes a layer call)."""
    return n.op == "call_function" and getattr(n.target, "namespace", None) in (NAMESPACE, OWN_NAMESPACE)


def operators_to_calls(module, layer_names: list[str] | None = None) -> int:
    """Rewrite every ``torch.operator "torch.cosim_q.*"`` of ``module`` (raw torch dialect) into a
    call of its own private layer function; returns how many. ``layer_names``: the layers' names in
    import order (their module paths), set as each function's ``cosim_q.layer``."""
    with module.context, ir.Location.unknown(module.context):
        fwd = [o for o in module.body.operations if o.operation.name == "func.func"]
        ops = []
        for f in fwd:
            for block in f.regions[0].blocks:
                ops += [o for o in block.operations if o.operation.name == "torch.operator"]
        count = 0
        for op in ops:
            full = ir.StringAttr(op.attributes["name"]).value
            prefix = next((p for p in PREFIXES if full.startswith(p)), None)
            if prefix is None:
                continue
            kind = full.removeprefix(prefix)
            names = _schema_names(PREFIXES[prefix], kind)
            tensors, tensor_names, attrs = [], [], {OP_ATTR: ir.StringAttr.get(kind)}
            for arg_name, value in zip(names, op.operands, strict=True):
                if "vtensor" in str(value.type):
                    tensors.append(value)
                    tensor_names.append(arg_name)
                    continue
                attr = _constant_attr(value, f"cosim_q.{kind}'s {arg_name} at {op.location}")
                if attr is not None:
                    attrs[f"{NAMESPACE}.{arg_name}"] = attr
            attrs[OPERANDS_ATTR] = ir.ArrayAttr.get([ir.StringAttr.get(n) for n in tensor_names])
            if layer_names is not None and count < len(layer_names):
                attrs[LAYER_ATTR] = ir.StringAttr.get(layer_names[count])
            sym = f"{LAYER_PREFIX}{kind}_{count}"
            results = [r.type for r in op.results]
            with ir.InsertionPoint(module.body):
                decl = func_d.FuncOp(sym, ir.FunctionType.get([v.type for v in tensors], results), visibility="private")
            for k, v in attrs.items():
                decl.attributes[k] = v
            with ir.InsertionPoint(op), op.location:
                call = func_d.CallOp(results, ir.FlatSymbolRefAttr.get(sym), tensors)
            for old, new in zip(op.results, call.results, strict=True):
                old.replace_all_uses_with(new)
            op.erase()
            count += 1
    return count


def _linalg_pipeline_without_contract_check(context) -> str:
    """torch-mlir's torch-to-linalg pipeline, expanded, minus its final contract check."""
    with context:
        pm = passmanager.PassManager.parse(
            "builtin.module(torch-backend-to-linalg-on-tensors-backend-pipeline{allow-non-finites=True})"
        )
    text = str(pm)
    check = f",{_CONTRACT_CHECK}"
    if check not in text:
        raise CompileError(f"torch-mlir's linalg pipeline has no {_CONTRACT_CHECK} to leave out: {text[:200]}")
    return text.replace(check, "")


def _own_kernel(op):
    """A decomposition of ``op`` into the aten ops of its own eager kernel (the reference)."""
    import torch

    keys = torch._C.DispatchKeySet(torch._C.DispatchKey.CompositeExplicitAutograd)

    def run(*args, **kwargs):
        return op.redispatch(keys, *args, **kwargs)

    return run


def im2col(x, w, stride, padding, dilation):
    """The patches of a convolution of ``x`` (NCHW) by ``w`` (OIHW): [N, OH, OW, C, KH*KW], each the
    zero-padded input's strided, dilated slice for one filter offset."""
    import torch

    _, _, h, wd = x.shape
    _, _, kh, kw = w.shape
    (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
    oh = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    ow = (wd + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    xp = torch.nn.functional.pad(x, (pw, pw, ph, ph))
    cols = [
        xp[:, :, i * dh : i * dh + sh * (oh - 1) + 1 : sh, j * dw : j * dw + sw * (ow - 1) + 1 : sw]
        for i in range(kh)
        for j in range(kw)
    ]
    return torch.stack(cols, dim=2).permute(0, 3, 4, 1, 2)


def conv2d_as_linears(x, w, bias, stride, padding, dilation, groups, scale, relu):
    """cosim_q.conv2d as im2col on the core and one cosim_q.linear per group.

    Patches: the zero-padded input's strided, dilated slice for each filter offset, stacked
    and laid out as rows ``(n, oh, ow)`` of ``(c, kh, kw)`` (the filters' OIHW order), so the
    weights of a group are a plain [O/groups, C/groups*KH*KW] view. A linear's result rows
    are NHWC; the permute back to NCHW is a copy on the core. Exact: the same int32 sums,
    the same requantization per output element."""
    import torch

    q = getattr(torch.ops, NAMESPACE)
    n = x.shape[0]
    oc, cg, kh, kw = w.shape
    patches = im2col(x, w, stride, padding, dilation)
    oh, ow = patches.shape[1], patches.shape[2]
    og = oc // groups
    outs = []
    for g in range(groups):
        a = patches[:, :, :, g * cg : (g + 1) * cg, :].reshape(n * oh * ow, cg * kh * kw)
        wg = w[g * og : (g + 1) * og].reshape(og, cg * kh * kw)
        bg = None if bias is None else bias[g * og : (g + 1) * og]
        outs.append(q.linear(a, wg, bg, scale, relu))
    y = outs[0] if groups == 1 else torch.cat(outs, dim=1)
    return y.reshape(n, oh, ow, oc).permute(0, 3, 1, 2).contiguous()


def conv2d_pool_in_layer(acc_rows: int):
    """cosim_q.conv2d_pool as im2col on the core and one linear_pool layer (the pool on mvout) where
    :func:`pool_foldable` allows, else the conv (:func:`conv2d_as_linears`) and max_pool2d on the core."""

    def decompose(x, w, bias, stride, padding, dilation, groups, scale, relu, kernel, pool_stride, pool_padding):
        import torch

        patches = im2col(x, w, stride, padding, dilation)
        n, oh, ow = patches.shape[:3]
        why = pool_foldable((n, oh, ow), groups, relu, kernel, pool_stride, pool_padding, acc_rows)
        if why is not None:
            y = conv2d_as_linears(x, w, bias, stride, padding, dilation, groups, scale, relu)
            return torch.nn.functional.max_pool2d(y, list(kernel), list(pool_stride), list(pool_padding))
        oc = w.shape[0]
        k, s, p = kernel[0], pool_stride[0], pool_padding[0]
        rows = patches.reshape(n * oh * ow, -1)
        out = own_ops().linear_pool(rows, w.reshape(oc, -1), bias, scale, relu, [n, oh, ow], k, s, p)
        ph, pw = pooled_size(oh, k, s, p), pooled_size(ow, k, s, p)
        return out.reshape(n, ph, pw, oc).permute(0, 3, 1, 2).contiguous()

    return decompose


def conv2d_pool_on_core(loop_conv: bool):
    """cosim_q.conv2d_pool as the conv layer(s) and max_pool2d on the core."""

    def decompose(x, w, bias, stride, padding, dilation, groups, scale, relu, kernel, pool_stride, pool_padding):
        import torch

        conv = conv2d_as_conv_loop if loop_conv else conv2d_as_linears
        y = conv(x, w, bias, stride, padding, dilation, groups, scale, relu)
        return torch.nn.functional.max_pool2d(y, list(kernel), list(pool_stride), list(pool_padding))

    return decompose


def layer_decompositions(loop_conv: bool = False, pool_rows: int = 0) -> dict:
    """What becomes of each cosim_q op before import: matmul, linear, bmm and add stay (layer
    calls), conv2d becomes im2col plus linears, conv2d_pool im2col plus a linear_pool layer where
    ``pool_rows`` (accumulator rows a loop_ws owns; 0: none, the program is not for Gemmini) holds a
    band of its conv rows and the store unit can pool it (else the conv and a max_pool2d on the core),
    the rest (quantize, dequantize) the aten ops of their eager kernels, run on the core."""
    import torch

    q = getattr(torch.ops, NAMESPACE)
    names = sorted(o.split("::")[1] for o in torch._C._dispatch_get_all_op_names() if o.startswith(f"{NAMESPACE}::"))
    table = {}
    for name in names:
        if name in LAYER_OPS:
            continue
        op = getattr(q, name).default
        if name == "conv2d":
            table[op] = conv2d_as_conv_loop if loop_conv else conv2d_as_linears
        elif name == "conv2d_pool":
            table[op] = (
                conv2d_pool_in_layer(pool_rows) if pool_rows and not loop_conv else conv2d_pool_on_core(loop_conv)
            )
        else:
            table[op] = _own_kernel(op)
    return table


def import_with_layer_calls(ep, decomposition_table: dict, *, loop_conv: bool = False, pool_rows: int = 0):
    """``ep`` (an ExportedProgram holding cosim_q nodes) to linalg on tensors, each matmul, linear,
    bmm and add a call of a private layer function (:func:`layer_decompositions` for the others);
    the rest imported as :func:`torch_mlir.fx.export_and_import` does. Each layer function is
    named after its layer (``cosim_q.layer``), and with :func:`profile_markers` on (the default)
    ``forward`` marks a PROFILE region around each layer and each stretch of core work
    (:mod:`compiler.frontend.profile_regions`)."""
    from torch_mlir import fx

    from compiler.frontend import profile_regions

    own_ops()  # defined before the decompositions trace them
    table = {**decomposition_table, **layer_decompositions(loop_conv, pool_rows)}
    # Decomposed here, not by the importer, so the layer nodes can be read in the order it imports them.
    ep = ep.run_decompositions(table)
    segments = profile_regions.segments(ep, is_layer_node)
    raw = fx.export_and_import(ep, output_type="raw", func_name="forward", decomposition_table={})
    operators_to_calls(raw, [s.name for s in segments if s.where == "gemmini"])
    if profile_regions.markers_enabled():
        profile_regions.insert_markers(raw, segments, LAYER_PREFIX)
    torch_level = fx._module_lowering(False, False, fx.OutputType.TORCH, raw)
    pipeline = _linalg_pipeline_without_contract_check(torch_level.context)
    with torch_level.context:
        passmanager.PassManager.parse(pipeline).run(torch_level.operation)
    return torch_level


def has_layer_calls(mlir_text: str) -> bool:
    """Whether imported IR holds a layer function (the text of :func:`operators_to_calls`'s attribute)."""
    return f"{OP_ATTR} = " in mlir_text
