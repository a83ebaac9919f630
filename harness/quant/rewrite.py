"""The quantizer's graph rewrite: the float aten graph, with activation scales, into the int8 graph of
cosim_q ops (:mod:`harness.quant.ops`), one pass in the float graph's order. Which ops become cosim_q
ops, which run on int8 as they are and which stay float32, and the scheme: :mod:`harness.quant.quantize`
(its module docstring), which calibrates, calls :class:`Rewriter` and packs the result."""

from __future__ import annotations

import operator

import numpy as np
import torch
from torch import fx

from harness.quant import ops
from harness.quant.calibrate import tensor_scale

aten = torch.ops.aten
q = ops.q

# Ops that move int8 values without arithmetic: the output has the input's scale.
_INT8_SHAPE_OPS = {
    aten.reshape.default,
    aten.view.default,
    aten.flatten.using_ints,
    aten.permute.default,
    aten.transpose.int,
    aten.t.default,
    aten.contiguous.default,
    aten.clone.default,
    aten.squeeze.dim,
    aten.squeeze.default,
    aten.unsqueeze.default,
    aten.expand.default,
    aten.select.int,
    aten.slice.Tensor,
    aten.dropout.default,
    aten.max_pool2d.default,
    aten.relu.default,
}
_RELUS = {aten.relu.default, aten.relu_.default}
_BATCH_NORMS = {aten.batch_norm.default, aten._native_batch_norm_legit_no_training.default}


class QuantError(ValueError):
    """A model the quantizer cannot handle (named op, reason)."""


def attribute(gm: torch.nn.Module, target: str):
    """The attribute a get_attr node's dotted ``target`` names in ``gm``."""
    obj = gm
    for part in target.split("."):
        obj = getattr(obj, part)
    return obj


def _pair(v) -> list[int]:
    return [int(v), int(v)] if isinstance(v, int) else [int(x) for x in v]


def _val(n) -> torch.Tensor | None:
    """The example value (a FakeTensor) export recorded for a node, if any."""
    v = n.meta.get("val") if isinstance(n, fx.Node) else None
    return v if isinstance(v, torch.Tensor) else None


def _module_path(n: fx.Node) -> str:
    stack = n.meta.get("nn_module_stack") or {}
    return list(stack.values())[-1][0] if stack else ""


# node.meta key (torch.export keeps ``custom`` when it re-exports the int8 program): the layer's name.
LAYER_META = "cosim_layer"


def tag_nodes(nodes: list[fx.Node], origin: fx.Node, label: str) -> None:
    """The int8 nodes built for ``origin`` carry its source line, module stack and layer name, so the
    compiler's layer calls and profile regions, and the localization, can name them."""
    for m in nodes:
        for key in ("stack_trace", "nn_module_stack"):
            if origin.meta.get(key) is not None:
                m.meta[key] = origin.meta[key]
        m.meta["custom"] = {**(m.meta.get("custom") or {}), LAYER_META: label}


def layer_of(n: fx.Node) -> str | None:
    """The layer name :func:`tag_nodes` gave a node (None: untagged)."""
    return (n.meta.get("custom") or {}).get(LAYER_META)


class Rewriter:
    """Rewrites the float graph into the int8 graph (one pass, in the float graph's order)."""

    def __init__(
        self, gm: fx.GraphModule, act_scales: dict[str, float], weight_scales: dict[str, float] | None = None
    ) -> None:
        self.src = gm
        self.act = act_scales
        self.weight_scales = weight_scales or {}  # get_attr target -> scale fixed elsewhere (a PT2E model)
        self.g = fx.Graph()
        self.root = torch.nn.Module()
        self.qv: dict[fx.Node, tuple[fx.Node, float]] = {}  # original node -> (int8 node, scale)
        self.fv: dict[fx.Node, fx.Node] = {}  # original node -> float node
        self.done: set[fx.Node] = set()  # nodes folded into an earlier op
        self.scales: dict[str, float] = {}
        self.layers: list[dict] = []
        self.float_ops: list[str] = []
        self.producer: dict[fx.Node, str] = {}  # original node -> the cosim_q op that computes it
        self._n = 0
        self._used_labels: set[str] = set()

    # ---- constants and conversions

    def buffer(self, t: torch.Tensor, hint: str) -> fx.Node:
        self._n += 1
        name = f"{hint.replace('.', '_')}_{self._n}"
        self.root.register_buffer(name, t.detach().clone().contiguous())
        return self.g.get_attr(name)

    def label(self, n: fx.Node) -> str:
        path = _module_path(n)
        lab = path if path and path not in self._used_labels else (f"{path}:{n.name}" if path else n.name)
        self._used_labels.add(lab)
        return lab

    def scale_of(self, n: fx.Node) -> float:
        if n.name not in self.act:
            raise QuantError(f"no calibration data for {n.name} ({n.target}): it produced no float32 tensor")
        return self.act[n.name]

    def as_int8(self, n: fx.Node) -> tuple[fx.Node, float]:
        if n not in self.qv:
            s = self.scale_of(n)
            self.qv[n] = (self.g.call_function(q.quantize.default, (self.float_of(n), s)), s)
        return self.qv[n]

    def float_of(self, n: fx.Node) -> fx.Node:
        if n not in self.fv:
            if n.op == "get_attr":
                self.fv[n] = self.buffer(attribute(self.src, n.target), n.target)
            else:
                qn, s = self.qv[n]
                self.fv[n] = self.g.call_function(q.dequantize.default, (qn, s))
        return self.fv[n]

    def map_float(self, a):
        return fx.node.map_arg(a, self.float_of)

    # ---- folding helpers

    def only_user(self, n: fx.Node, targets: set) -> fx.Node | None:
        users = list(n.users)
        if len(users) == 1 and users[0].op == "call_function" and users[0].target in targets:
            return users[0]
        return None

    def fold_relu(self, n: fx.Node) -> tuple[fx.Node, bool]:
        r = self.only_user(n, _RELUS)
        if r is None:
            return n, False
        self.done.add(r)
        return r, True

    def fold_max_pool(self, n: fx.Node) -> tuple[fx.Node, list[int], list[int], list[int]] | None:
        """A max_pool2d that is the only user of ``n`` (a conv's, or its ReLU's, output): it becomes part of
        the layer (cosim_q.conv2d_pool; the backend decides where it runs). Returns (the pool node, kernel,
        stride, padding); None for none, or a pool with dilation or ceil_mode."""
        p = self.only_user(n, {aten.max_pool2d.default})
        if p is None:
            return None
        kw = p.normalized_arguments(self.src, normalize_to_only_use_kwargs=True).kwargs
        kernel = _pair(kw["kernel_size"])
        stride = _pair(kw.get("stride") or kernel)
        if _pair(kw.get("dilation", 1)) != [1, 1] or kw.get("ceil_mode", False):
            return None
        self.done.add(p)
        return p, kernel, stride, _pair(kw.get("padding", 0))

    def is_activation(self, a) -> bool:
        return isinstance(a, fx.Node) and a.op != "get_attr" and (a in self.qv or _dtype(a) == torch.float32)

    # ---- op handlers; each returns True when it handled the node

    def weight_op(self, n: fx.Node) -> bool:
        if n.target not in (aten.conv2d.default, aten.linear.default):
            return False
        kw = n.normalized_arguments(self.src, normalize_to_only_use_kwargs=True).kwargs
        x, w, b = kw["input"], kw["weight"], kw.get("bias")
        if n.target is aten.conv2d.default:
            stride, padding, dilation, groups = kw["stride"], kw["padding"], kw["dilation"], kw["groups"]
        if not (isinstance(w, fx.Node) and w.op == "get_attr" and self.is_activation(x)):
            return False
        if b is not None and not (isinstance(b, fx.Node) and b.op == "get_attr"):
            return False
        wt = attribute(self.src, w.target).detach().float()
        bt = None if b is None else attribute(self.src, b.target).detach().float()
        last, bn_folded = n, False
        if n.target is aten.conv2d.default:
            bn = self.only_user(n, _BATCH_NORMS)
            if bn is not None and not _bn_training(bn):
                wt, bt = _fold_bn(self.src, bn, wt, bt)
                self.done.add(bn)
                last, bn_folded = bn, True
        last, relu = self.fold_relu(last)
        pool = self.fold_max_pool(last) if n.target is aten.conv2d.default else None
        xq, xs = self.as_int8(x)
        # a scale fixed elsewhere holds for the weights as they are, not once a BatchNorm is folded in
        ws = (None if bn_folded else self.weight_scales.get(w.target)) or tensor_scale(wt)
        wq = ops.quantize_ref(wt, ws)
        so = self.scale_of(last)
        acc_scale = xs * ws
        bias = None
        if bt is not None:
            bias = self.buffer(_quantize_bias(bt, acc_scale), f"{w.target}_bias_q")
        requant = ops.fp32(acc_scale / so)
        lab = self.label(n)
        self.scales[f"{w.target}"] = ws
        self.scales[lab] = so
        wn = self.buffer(wq, f"{w.target}_q")
        if n.target is aten.conv2d.default:
            args = (xq, wn, bias, _pair(stride), _pair(padding), _pair(dilation), int(groups), requant, relu)
            if pool is None:
                out = self.g.call_function(q.conv2d.default, args)
                op = "conv2d"
            else:
                out = self.g.call_function(q.conv2d_pool.default, (*args, *pool[1:]))
                op = "conv2d_pool"
        else:
            out = self.g.call_function(q.linear.default, (xq, wn, bias, requant, relu))
            op = "linear"
        self.layers.append({"name": lab, "op": op, "module": _module_path(n), "scale": requant, "relu": relu})
        if pool is not None:  # the pooled values keep the conv's scale (as a max pool on the core does)
            last = pool[0]
        self.qv[last] = (out, so)
        self.producer[last] = op
        return True

    def matmul_op(self, n: fx.Node) -> bool:
        if n.target not in (aten.matmul.default, aten.mm.default, aten.bmm.default):
            return False
        a, b = n.args[:2]
        const_b = isinstance(b, fx.Node) and b.op == "get_attr"  # x @ W with W a parameter: a weight
        va, vb = _val(a), _val(b)
        if va is None or vb is None or not (self.is_activation(a) and (const_b or self.is_activation(b))):
            return False
        if const_b and not (va.dim() == 2 and vb.dim() == 2):
            return False
        if va.dim() == 2 and vb.dim() == 2:
            last, relu = self.fold_relu(n)
            kind = "matmul"
        elif va.dim() == 3 and vb.dim() == 3 and va.shape[0] == vb.shape[0]:
            last, relu, kind = n, False, "bmm"
        else:
            return False
        aq, sa = self.as_int8(a)
        if const_b:
            wt = attribute(self.src, b.target).detach().float()
            sb = self.weight_scales.get(b.target) or tensor_scale(wt)
            bq = self.buffer(ops.quantize_ref(wt, sb), f"{b.target}_q")
            self.scales[b.target] = sb
        else:
            bq, sb = self.as_int8(b)
        so = self.scale_of(last)
        requant = ops.fp32(sa * sb / so)
        if kind == "matmul":
            out = self.g.call_function(q.matmul.default, (aq, bq, None, requant, relu))
        else:
            out = self.g.call_function(q.bmm.default, (aq, bq, requant))
        lab = self.label(n)
        self.scales[lab] = so
        self.layers.append({"name": lab, "op": kind, "module": _module_path(n), "scale": requant, "relu": relu})
        self.qv[last] = (out, so)
        self.producer[last] = kind
        return True

    def add_op(self, n: fx.Node) -> bool:
        if n.target not in (aten.add.Tensor, aten.add_.Tensor) or len(n.args) != 2 or n.kwargs.get("alpha", 1) != 1:
            return False
        a, b = n.args
        if n.target is aten.add_.Tensor and len(a.users) != 1:
            return False  # ``y += x`` where the old y is read again: keep the float op's in-place semantics
        va, vb = _val(a), _val(b)
        if va is None or vb is None or va.shape != vb.shape or not (self.is_activation(a) and self.is_activation(b)):
            return False
        last, relu = self.fold_relu(n)
        (aq, sa), (bq, sb) = self.as_int8(a), self.as_int8(b)
        so = self.scale_of(last)
        args = (aq, bq, ops.fp32(sa / so), ops.fp32(sb / so), relu)
        out = self.g.call_function(q.add.default, args)
        lab = self.label(n)
        self.scales[lab] = so
        self.layers.append({"name": lab, "op": "add", "module": _module_path(n), "scale": args[2], "relu": relu})
        self.qv[last] = (out, so)
        return True

    def int8_passthrough(self, n: fx.Node) -> bool:
        if n.target not in _INT8_SHAPE_OPS or not n.args or n.args[0] not in self.qv:
            return False
        if n.target is aten.max_pool2d.default and len(n.args) > 5 and n.args[5]:
            return False  # ceil_mode: keep the float semantics
        xq, s = self.qv[n.args[0]]
        out = self.g.call_function(n.target, (xq, *n.args[1:]), dict(n.kwargs))
        self.qv[n] = (out, s)
        return True

    def float_op(self, n: fx.Node) -> None:
        out = self.g.call_function(n.target, self.map_float(n.args), self.map_float(n.kwargs))
        self.fv[n] = out
        if n.target is not operator.getitem:
            self.float_ops.append(str(n.target))

    # ---- the pass

    def build(self, example_dtypes: list[torch.dtype]) -> tuple[list[float | None], list[fx.Node]]:
        input_scales: list[float | None] = []
        outputs: list[fx.Node] = []
        i = 0
        for n in self.src.graph.nodes:
            if n in self.done or n.op == "get_attr":
                continue
            if n.op == "placeholder":
                ph = self.g.placeholder(n.name)
                if example_dtypes[i] == torch.float32:
                    s = self.scale_of(n)
                    self.qv[n] = (ph, s)
                    self.scales[f"input:{n.name}"] = s
                    input_scales.append(s)
                else:
                    self.fv[n] = ph
                    input_scales.append(None)
                i += 1
            elif n.op == "call_module":
                if not n.target.startswith("_guards"):
                    raise QuantError(f"unexpected submodule call {n.target} in the exported graph")
            elif n.op == "output":
                outputs = list(fx.node.map_arg(n.args[0], lambda x: x))
            elif n.op == "call_function":
                before, layers = len(self.g.nodes), len(self.layers)
                if not (self.weight_op(n) or self.matmul_op(n) or self.add_op(n) or self.int8_passthrough(n)):
                    self.float_op(n)
                label = self.layers[-1]["name"] if len(self.layers) > layers else (_module_path(n) or n.name)
                tag_nodes(list(self.g.nodes)[before:], n, label)
            else:
                raise QuantError(f"unsupported node kind {n.op} ({n.target})")
        return input_scales, outputs


def _dtype(n: fx.Node) -> torch.dtype | None:
    v = _val(n)
    return v.dtype if v is not None else None


def _bn_training(bn: fx.Node) -> bool:
    return bool(bn.args[5]) if bn.target is aten.batch_norm.default else False


def _fold_bn(gm, bn: fx.Node, w: torch.Tensor, b: torch.Tensor | None) -> tuple[torch.Tensor, torch.Tensor]:
    """Conv weights and bias with an eval-mode BatchNorm after the conv folded in."""
    if bn.target is aten.batch_norm.default:
        _, gamma, beta, mean, var, _, _, eps = bn.args[:8]
    else:  # _native_batch_norm_legit_no_training(x, weight, bias, mean, var, momentum, eps)
        _, gamma, beta, mean, var, _, eps = bn.args[:7]

    def get(a, default):
        return default if a is None else attribute(gm, a.target).detach().float()

    c = w.shape[0]
    mean_t, var_t = get(mean, torch.zeros(c)), get(var, torch.ones(c))
    gamma_t, beta_t = get(gamma, torch.ones(c)), get(beta, torch.zeros(c))
    k = gamma_t / torch.sqrt(var_t + float(eps))
    b0 = torch.zeros(c) if b is None else b
    return w * k.reshape(-1, 1, 1, 1), (b0 - mean_t) * k + beta_t


def _quantize_bias(b: torch.Tensor, scale: float) -> torch.Tensor:
    """int32 bias at the accumulator's scale x_scale * w_scale (rounded half to even, saturated)."""
    v = np.rint(b.double().numpy() / scale)
    return torch.from_numpy(np.clip(v, -(2**31), 2**31 - 1).astype(np.int32))
