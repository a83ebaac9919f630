"""Layer-by-layer localization: which op of a program went wrong on the device.

When a run's outputs differ from the reference, :func:`localize` compiles the same program once
more with every intermediate tensor as an extra output of ``forward`` (a debug compile), runs it,
reads them all back, and walks the program's FX graph in order: each op is run on the host on the
device's own inputs to it (the intermediate tensors read from memory) and compared with the
device's output of that op. The first op that differs is named: its layer (module path, e.g.
``layer1.0.conv1``; the quantizer's layer name on int8 programs), op, source line, shape, how
many elements differ and the first of them (index, device value, reference value).

Tolerance per op: integer tensors (every int8 layer and int8 shape op) bit for bit; float
tensors by the case's tolerance class (:mod:`harness.check`), and on an int8 program, whose float
ops (softmax, layer_norm on the core) are not ATen's bit for bit, by ``transcendental``. Ops that
only view their input (reshape, permute, slice, ...) are not read back: the host recomputes them
from the device's values, so a view folds into the op that reads it.

The debug compile differs from the program that failed (extra outputs keep intermediates in
memory): a fault it does not reproduce is reported as such (``reproduced: false``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import numpy as np

from harness.check import compare
from harness.errors import CosimError

# Ops whose output is a view of (or a copy with the same values as) their input: recomputed on the host.
VIEW_OPS = {
    "view",
    "reshape",
    "_unsafe_view",
    "permute",
    "transpose",
    "t",
    "expand",
    "slice",
    "select",
    "alias",
    "unsqueeze",
    "squeeze",
    "flatten",
    "contiguous",
    "clone",
    "detach",
}


def _op_name(target) -> str:
    name = getattr(target, "__name__", str(target))
    return name.split(".")[0]


def _label(n) -> str:
    from compiler.frontend.profile_regions import node_label

    return node_label(n)


def _produced_by(n) -> str:
    """The op a node's value comes from (an item of a tuple-valued op: that op)."""
    if getattr(n.target, "__name__", "") == "getitem" and hasattr(n.args[0], "target"):
        return f"{n.args[0].target}[{n.args[1]}]"
    return str(n.target)


def _source_line(n) -> str | None:
    frames = re.findall(r'File "([^"]+)", line (\d+)', n.meta.get("stack_trace") or "")
    user = [f for f in frames if "site-packages" not in f[0]] or frames  # the model's line, not torch's
    return f"{user[-1][0]}:{user[-1][1]}" if user else None


def graph_of(fn, inputs: tuple):
    """The FX graph to walk: the int8 program's own (a quantized case) or the float model exported."""
    import torch
    from torch import fx

    from harness.quant.flow import MetaPreserving

    if isinstance(fn, MetaPreserving):
        return fn.gm
    if isinstance(fn, fx.GraphModule):
        return fn
    from harness.quant.quantize import export_float

    return export_float(fn, inputs) if isinstance(fn, torch.nn.Module) or callable(fn) else None


def _host_values(gm, inputs: tuple) -> dict:
    """Every node's value when the graph runs on the host."""
    import torch
    from torch import fx

    values: dict = {}

    class Recorder(fx.Interpreter):
        def run_node(self, n):
            values[n] = super().run_node(n)
            return values[n]

    with torch.no_grad():
        Recorder(gm).run(*inputs)
    return values


def probes(gm, inputs: tuple) -> list:
    """The nodes whose outputs the debug compile reads back: every op with a non-empty tensor result
    that is not a view."""
    import torch

    values = _host_values(gm, inputs)
    return [
        n
        for n in gm.graph.nodes
        if n.op == "call_function"
        and _op_name(n.target) not in VIEW_OPS
        and isinstance(values.get(n), torch.Tensor)
        and values[n].numel() > 0
    ]


def debug_module(gm, probed: list):
    """A copy of ``gm`` returning its outputs followed by every probed node's value (a flat tuple);
    returns it, its number of original outputs and each probe's output index."""
    import copy

    from torch import fx

    new = copy.deepcopy(gm)
    by_name = {n.name: n for n in new.graph.nodes}
    out = next(n for n in new.graph.nodes if n.op == "output")
    originals = list(out.args[0]) if isinstance(out.args[0], (tuple, list)) else [out.args[0]]
    results = list(originals)
    index = []
    for p in probed:  # a probed node that already is an output is read from there
        node = by_name[p.name]
        if node not in results:
            results.append(node)
        index.append(results.index(node))
    new.graph.erase_node(out)
    new.graph.output(tuple(results))
    new.graph._codegen = fx.graph.CodeGen()  # flat arguments and a flat tuple of results
    new.recompile()
    return new, len(originals), index


def first_difference(gm, inputs: tuple, probed: list, device: dict, float_tolerance: str) -> tuple[list, dict | None]:
    """Walk ``gm`` with the device's values of the probed nodes; returns (per-op checks, the first
    op that differs or None)."""
    import torch
    from torch import fx

    device_of = {p: device[i] for i, p in enumerate(probed)}
    checks: list[dict] = []
    first: dict | None = None

    class Walker(fx.Interpreter):
        def run_node(self, n):
            nonlocal first
            ref = super().run_node(n)
            if n not in device_of:
                return ref
            got = device_of[n]
            ref_np = ref.detach().contiguous().numpy()
            tol = "exact" if ref_np.dtype.kind in "iub" else float_tolerance
            metrics = compare(got.astype(ref_np.dtype) if got.dtype != ref_np.dtype else got, ref_np, tol)
            entry = {
                "layer": _label(n),
                "node": n.name,
                "op": _produced_by(n),
                "shape": list(ref_np.shape),
                "dtype": str(ref_np.dtype),
                "tolerance": tol,
                "mismatches": metrics["mismatches"],
                "max_abs_err": metrics["max_abs_err"],
            }
            checks.append(entry)
            if metrics["mismatches"] and first is None:
                bad = metrics.get("first_mismatches") or [{}]
                first = {**entry, "source": _source_line(n), "first_mismatch": bad[0]}
            # the next ops run on what the device computed
            return torch.from_numpy(np.ascontiguousarray(got).reshape(ref_np.shape).astype(ref_np.dtype))

    with torch.no_grad():
        Walker(gm).run(*inputs)
    return checks, first


def localize(
    fn,
    inputs: tuple,
    soc,
    on: str,
    out_dir: Path,
    *,
    name: str,
    float_tolerance: str,
    quantized: bool,
    elf_patch: Callable | None = None,
) -> dict:
    """The debug compile and run of ``fn(*inputs)`` (the program that ran, int8 or float) and the
    first op whose device output differs from its reference on the device's own inputs."""
    import torch

    from compiler import compile_kernel
    from compiler.frontend import import_torch
    from compiler.frontend.profile_regions import profile_markers
    from harness.program import build_program, read_outputs
    from harness.quant.flow import MetaPreserving, quiet_torch_warnings
    from harness.verify import run_on

    with quiet_torch_warnings():  # deep copies of GraphModules: torch's own deprecation notes
        gm = graph_of(fn, inputs)
        if gm is None:
            return {"done": False, "why": "the case is not a PyTorch program"}
        probed = probes(gm, inputs)
        dbg, n_out, index = debug_module(gm, probed)
    compiled = MetaPreserving(dbg) if quantized and isinstance(fn, MetaPreserving) else dbg
    with quiet_torch_warnings(), profile_markers(False):
        imported = import_torch(compiled, tuple(inputs), name=f"{name}_localize", source=f"{name} (localization)")
        kernel = compile_kernel(imported, soc)
    program = build_program(kernel, soc, out_dir / "localize", case=f"{name} (localization)")
    if elf_patch is not None:
        elf_patch(program)
    dumps = [(int(o["address"], 16), o["size"]) for o in program.outputs]
    outcome = run_on(on, program.elf, soc, dumps, out_dir / "localize")
    if not outcome.exited_ok:
        return {"done": False, "why": f"the debug run ended with {outcome.ending} (exit code {outcome.exit_code})"}
    got = read_outputs(program.manifest, outcome.dumps)
    device = [got[f"out{i}"] for i in index]
    with torch.no_grad():
        finals = gm(*inputs)
    finals = [finals] if isinstance(finals, torch.Tensor) else list(finals)
    reproduced = any(
        compare(got[f"out{i}"], f.detach().contiguous().numpy(), "exact" if quantized else float_tolerance)[
            "mismatches"
        ]
        for i, f in enumerate(finals)
    )
    checks, first = first_difference(gm, inputs, probed, device, float_tolerance)
    record = {"done": True, "reproduced": reproduced, "ops_checked": len(checks), "first_bad": first, "checks": checks}
    if first is None:
        record["why"] = "every op matched its reference on the device's own inputs" + (
            "" if reproduced else "; the debug compile did not reproduce the mismatch"
        )
    return record


def describe(loc: dict) -> str:
    """One line for result.json's message."""
    f = loc.get("first_bad")
    if not f:
        return loc.get("why", "not localized")
    m = f["first_mismatch"]
    where = f" ({f['source']})" if f.get("source") else ""
    return (
        f"first op that differs: layer {f['layer']} ({f['op']}, {f['dtype']}{f['shape']}){where}: "
        f"{f['mismatches']} elements differ, first at {m.get('index')}: device {m.get('got')}, "
        f"reference {m.get('expected')}"
    )


def flip_bit(elf: str | Path, address: int, bit: int) -> None:
    """Flip one bit of the byte at ``address`` in the ELF file (its loadable data): fault injection."""
    from elftools.elf.elffile import ELFFile

    with open(elf, "rb") as f:
        ef = ELFFile(f)
        offset = None
        for seg in ef.iter_segments():
            if seg["p_type"] == "PT_LOAD" and seg["p_vaddr"] <= address < seg["p_vaddr"] + seg["p_filesz"]:
                offset = seg["p_offset"] + address - seg["p_vaddr"]
    if offset is None:
        raise CosimError(f"address 0x{address:x} is not in a loadable segment of {elf}")
    data = bytearray(Path(elf).read_bytes())
    data[offset] ^= 1 << bit
    Path(elf).write_bytes(bytes(data))
