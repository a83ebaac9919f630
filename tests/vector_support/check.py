"""Run an instruction sequence on the RTL harness and on the reference model and
compare everything observable: legality, completions (x results, vxsat), the
whole register file and the touched memory."""

from __future__ import annotations

import random
from dataclasses import dataclass

from . import harness
from .model import Model


@dataclass
class Geometry:
    vlen: int
    dlen: int
    memw: int
    chain: bool = True  # build the unit with Chain = 1 (row-by-row chaining)


def random_vrf(rng: random.Random, vlen: int) -> bytes:
    return bytes(rng.getrandbits(8) for _ in range(32 * vlen // 8))


def run_and_compare(
    geo: Geometry,
    vrf: bytes,
    mem: dict[int, bytes],
    issues: list[harness.Issue],
    dumps: list[tuple[int, int]],
    latency: int = 4,
) -> harness.RunResult:
    """Compare RTL and model; on a mismatch, name the first instruction that diverges."""
    try:
        return _run_and_compare(geo, vrf, mem, issues, dumps, latency)
    except AssertionError as full:
        lo, hi = 0, len(issues)  # prefix of length hi fails; find the shortest
        while hi - lo > 1:
            mid = (lo + hi) // 2
            try:
                _run_and_compare(geo, vrf, mem, issues[:mid], [], latency)
                lo = mid
            except AssertionError:
                hi = mid
        i = issues[hi - 1]
        raise AssertionError(
            f"first divergence at instruction {hi - 1}: insn {i.insn:#010x} rs1 {i.rs1:#x} rs2 {i.rs2:#x} "
            f"vtype {i.vtype:#x} vl {i.vl} vstart {i.vstart}\n{full}"
        ) from None


def _run_and_compare(
    geo: Geometry,
    vrf: bytes,
    mem: dict[int, bytes],
    issues: list[harness.Issue],
    dumps: list[tuple[int, int]],
    latency: int = 4,
) -> harness.RunResult:
    exe = harness.build(geo.vlen, geo.dlen, geo.memw, geo.chain)
    res = harness.run(exe, geo.vlen, geo.dlen, vrf, mem, issues, dumps, latency=latency)
    m = Model(geo.vlen)
    m.s.vrf[:] = vrf
    for a, data in mem.items():
        for k, b in enumerate(data):
            m.s.mem[a + k] = b
    expected_cmp = []
    for seq, i in enumerate(issues):
        before = bytes(m.s.vrf)
        out = m.execute(i.insn, i.rs1, i.rs2, i.vtype, i.vl, i.vstart, i.frs1, i.frm, i.vxrm)
        legal = out is not None
        assert res.accepted.get(seq) == legal, (
            f"issue {seq} insn {i.insn:#010x} vtype {i.vtype:#x} vl {i.vl} vstart {i.vstart}: "
            f"RTL says {'legal' if res.accepted.get(seq) else 'illegal'}, model {'legal' if legal else 'illegal'}"
        )
        if legal:
            expected_cmp.append((seq, out, before))
    assert [c.seq for c in res.completions] == [s & 0xFF for s, _, _ in expected_cmp], "completion order"
    for c, (seq, out, _) in zip(res.completions, expected_cmp, strict=True):
        i = issues[seq]
        if "x" in out:
            assert c.x_we and c.wdata == out["x"] and c.rd == (i.insn >> 7) & 31, (
                f"issue {seq} insn {i.insn:#010x}: x result {c.wdata:#x}, expected {out['x']:#x}"
            )
        else:
            assert not c.x_we
        if "f" in out:
            assert c.f_we and c.wdata == out["f"], f"issue {seq} insn {i.insn:#010x}: f result {c.wdata:#x}"
        else:
            assert not c.f_we
        assert c.fflags == out.get("fflags", 0), (
            f"issue {seq} insn {i.insn:#010x}: fflags {c.fflags:#x}, expected {out.get('fflags', 0):#x}"
        )
        assert c.vxsat == bool(out.get("vxsat", False)), f"issue {seq} insn {i.insn:#010x}: vxsat {c.vxsat}"
        assert not c.exc
    if res.vrf != bytes(m.s.vrf):
        vlenb = geo.vlen // 8
        bad = [r for r in range(32) if res.vrf[r * vlenb : (r + 1) * vlenb] != m.s.vrf[r * vlenb : (r + 1) * vlenb]]
        r = bad[0]
        raise AssertionError(
            f"VRF mismatch in v{bad} (after {len(issues)} instructions: "
            + ", ".join(f"{i.insn:#010x}/vt{i.vtype:#x}/vl{i.vl}/vs{i.vstart}" for i in issues)
            + ")\n"
            f"v{r} RTL   {res.vrf[r * vlenb : (r + 1) * vlenb][::-1].hex()}\n"
            f"v{r} model {bytes(m.s.vrf[r * vlenb : (r + 1) * vlenb])[::-1].hex()}"
        )
    if res.mem != m.s.mem:
        diff = sorted(a for a in set(res.mem) | set(m.s.mem) if res.mem.get(a) != m.s.mem.get(a))
        a = diff[0]
        raise AssertionError(
            f"memory differs at {len(diff)} bytes, first {a:#x}: RTL {res.mem.get(a)} "
            f"model {m.s.mem.get(a)} (instructions: "
            + ", ".join(f"{i.insn:#010x}/vt{i.vtype:#x}/vl{i.vl}" for i in issues)
            + ")"
        )
    for a, n in dumps:
        exp = bytes(m.s.mem.get(a + k, 0) for k in range(n))
        assert res.dumps[a] == exp, f"memory at {a:#x}: RTL {res.dumps[a].hex()} model {exp.hex()}"
    return res
