"""The Gemmini DMA engine RTL (sim/rtl/gemmini/gemmini_dma.sv) against an independent Python formulation of
UNIT.md's DMA contract, under cocotb with a Python model of the amem port (sim/tb/gemmini/dma_cocotb.py: as
sim/tb/tb_mem_port.sv, latency 4 and 16 outstanding as gemmini-dim4's [memory], plus random ready gaps).

Random read and write requests of 1..DmaMaxBytes bytes at random byte alignments (reads from a prefilled
region, some running into addresses the memory answers with an error; writes to a disjoint region) are
checked for: every beat the DMA issues, side by side, in order (addresses aligned to DmaBytes, exactly the
beats each request covers, byte strobes exactly the request's bytes, write data under the strobes); read
responses in request order with their tags, bytes (byte i = memory[addr + i], zero from len on) and error
flag; the memory image after all writes (only the requests' bytes changed, later writes over earlier);
``wr_done_o`` once per write, the cycle after the answer to its last beat; the ``trace_wr_*`` records. The
throughput runs measure beats and bytes per cycle with requests always queued.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from sim.gemmini.params import gemmini_params
from sim.tb.gemmini.build import ArrayBuild
from sim.tb.gemmini.dma_build import DmaParams, DmaRun, DmaStim, build_dma_tb, run_dma

pytestmark = pytest.mark.rtl

BASE = 0x8000_0000
RD_LO, WR_LO, SIZE = BASE, BASE + 0x1000, 0x2000  # reads in the first 4 KiB, writes in the second


def dim4_params() -> DmaParams:
    g = gemmini_params("gemmini-dim4")
    return DmaParams(dma_bytes=g.dma_bytes, dma_max_bytes=g.dma_max_bytes, outstanding=16)


@pytest.fixture(scope="module")
def tb() -> tuple[DmaParams, ArrayBuild]:
    p = dim4_params()
    return p, build_dma_tb(p)


def split(addr: int, n: int, db: int) -> list[int]:
    first, last = addr // db, (addr + n - 1) // db
    return [b * db for b in range(first, last + 1)]


def make_stim(p: DmaParams, rng: random.Random, n_reads: int, n_writes: int, **kw) -> DmaStim:
    image = bytes(rng.getrandbits(8) for _ in range(SIZE))
    m = p.dma_max_bytes
    reads = []
    for t in range(n_reads):
        n = rng.choice([rng.randint(1, m), m, rng.randint(1, 8), 4])
        if rng.random() < 0.05:  # straddles the end of memory (beats past it answer with an error)
            addr = BASE + SIZE - rng.randint(1, n)
        else:
            addr = RD_LO + rng.randint(0, 0x1000 - n)
        reads.append((addr, n, t & 0xFF))
    writes = []
    for _ in range(n_writes):
        n = rng.choice([rng.randint(1, m), m, rng.randint(1, 8), 4])
        addr = WR_LO + rng.randint(0, 0xE00 - n)  # leave the last beats of memory to the straddling reads
        writes.append((addr, n, bytes(rng.getrandbits(8) for _ in range(m)), rng.randint(0, 63)))
    return DmaStim(base=BASE, image=image, mem_lo=BASE, mem_hi=BASE + SIZE, reads=reads, writes=writes, **kw)


def check(p: DmaParams, s: DmaStim, r: DmaRun) -> None:
    db, mb, m = p.dma_bytes, p.port_bytes, p.dma_max_bytes
    assert r.left == [0, 0, 0], f"did not finish in {r.cycles} cycles: {r.left} (reads, writes not taken, beats)"

    def ok(beat: int) -> bool:
        w = beat & ~(mb - 1)
        return s.mem_lo <= w and w + mb <= s.mem_hi

    # beats: each side's in order, exactly the beats of its requests
    rd_beats = [b for b in r.beats if not b[2]]
    wr_beats = [b for b in r.beats if b[2]]
    assert [b[1] for b in rd_beats] == [a for addr, n, _ in s.reads for a in split(addr, n, db)]
    assert [b[1] for b in wr_beats] == [a for addr, n, _, _ in s.writes for a in split(addr, n, db)]
    k = 0
    last_wr_rsp = []
    for addr, n, data, _ in s.writes:
        for a in split(addr, n, db):
            _, _, _, be, wdata, rc = wr_beats[k]
            k += 1
            lane0 = a % mb
            want_be = 0
            for j in range(db):
                i = a + j - addr
                if 0 <= i < n:
                    want_be |= 1 << (lane0 + j)
                    got = (wdata >> (8 * (lane0 + j))) & 0xFF
                    assert got == data[i], f"write {addr:#x}+{n}: beat {a:#x} byte {j} is {got:#x}, not {data[i]:#x}"
            assert be == want_be, f"write {addr:#x}+{n}: beat {a:#x} strobes {be:#x}, not {want_be:#x}"
        last_wr_rsp.append(rc)
    # responses come in order, answered beats precede them
    assert all(b[5] > b[0] for b in r.beats)
    assert [b[5] for b in r.beats] == sorted(b[5] for b in r.beats)

    # read responses
    assert len(r.rsps) == len(s.reads)
    k = 0
    for (addr, n, tag), (rtag, rdata, rerr, rcyc) in zip(s.reads, r.rsps, strict=True):
        beats = split(addr, n, db)
        want = bytes((s.image[addr + i - s.base] if ok((addr + i) // db * db) else 0) if i < n else 0 for i in range(m))
        assert rtag == tag
        assert rdata == want, f"read {addr:#x}+{n}: got {rdata.hex()}, want {want.hex()}"
        assert rerr == int(not all(ok(b) for b in beats)), f"read {addr:#x}+{n}: err {rerr}"
        k += len(beats)
        assert rcyc > rd_beats[k - 1][5], "a read response before the answer to its last beat"

    # memory: the writes' bytes, in order, nothing else
    img = bytearray(s.image)
    for addr, n, data, _ in s.writes:
        img[addr - s.base : addr - s.base + n] = data[:n]
    assert r.image == bytes(img)

    # completions and trace
    assert r.dones == [c + 1 for c in last_wr_rsp]
    assert [t[:4] for t in r.traces] == [(a, n, d[:n] + bytes(m - n), i) for a, n, d, i in s.writes]


def stats(r: DmaRun, p: DmaParams, useful: int) -> dict[str, float]:
    first, last = r.beats[0][0], r.beats[-1][0]
    span = last - first + 1
    occ = r.occupancy[first - 1 : last]
    return {
        "beats_per_cycle": round(len(r.beats) / span, 3),
        "bytes_per_cycle": round(useful / span, 2),
        "port_bytes_per_cycle": round(len(r.beats) * p.dma_bytes / span, 2),
        "mean_in_flight": round(sum(occ) / len(occ), 2),
        "max_in_flight": max(occ),
    }


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_requests_with_gaps(tb, tmp_path: Path, seed: int, record_property) -> None:
    p, b = tb
    rng = random.Random(seed)
    s = make_stim(p, rng, 150, 150, seed=seed, p_mem_gap=0.2, p_req_gap=0.3, p_rsp_stall=0.3)
    r = run_dma(b, p, s, tmp_path)
    check(p, s, r)
    record_property("cycles", r.cycles)


def test_random_requests_no_gaps(tb, tmp_path: Path, record_property) -> None:
    p, b = tb
    s = make_stim(p, random.Random(7), 200, 200, seed=7)
    r = run_dma(b, p, s, tmp_path)
    check(p, s, r)
    st = stats(r, p, sum(n for _, n, _ in s.reads) + sum(n for _, n, _, _ in s.writes))
    for k, v in st.items():
        record_property(k, v)
    # with both queues always full the port takes a beat every cycle
    assert st["beats_per_cycle"] >= 0.95, st


def throughput(p: DmaParams, b: ArrayBuild, tmp_path: Path, n: int, reads: bool, writes: bool, latency: int = 4):
    rng = random.Random(11)
    image = bytes(rng.getrandbits(8) for _ in range(SIZE))
    m = p.dma_max_bytes
    rd = [(RD_LO + (i * n) % 0x1000, n, i & 0xFF) for i in range(200)] if reads else []
    wr = [(WR_LO + (i * n) % 0x1000, n, bytes(rng.getrandbits(8) for _ in range(m)), i & 63) for i in range(200)]
    s = DmaStim(BASE, image, BASE, BASE + SIZE, rd, wr if writes else [], latency=latency)
    r = run_dma(b, p, s, tmp_path)
    check(p, s, r)
    return stats(r, p, n * (len(s.reads) + len(s.writes)))


@pytest.mark.parametrize(
    ("n", "reads", "writes"),
    [(64, True, False), (64, False, True), (64, True, True), (4, True, False), (4, True, True), (16, True, True)],
)
def test_throughput(tb, tmp_path: Path, n: int, reads: bool, writes: bool, record_property) -> None:
    """Aligned requests of n bytes always queued: one beat a cycle (the port's limit at latency 4)."""
    p, b = tb
    st = throughput(p, b, tmp_path, n, reads, writes)
    for k, v in st.items():
        record_property(k, v)
    print(f"n={n} reads={reads} writes={writes}: {st}")
    assert st["beats_per_cycle"] >= 0.95, st


def test_latency_of_a_lone_request(tb, tmp_path: Path, record_property) -> None:
    """One request at a time, no gaps: cycles from the request handshake to its first beat, to the read response
    and to wr_done (the figures DMA.md quotes), for one-beat and five-beat requests."""
    p, b = tb
    rng = random.Random(3)
    image = bytes(rng.getrandbits(8) for _ in range(SIZE))
    figures = {}
    for n, addr in ((4, RD_LO), (64, RD_LO + 1)):
        s = DmaStim(BASE, image, BASE, BASE + SIZE, [(addr, n, 1)], [])
        r = run_dma(b, p, s, tmp_path / f"rd{n}")
        check(p, s, r)
        figures[f"read{n}_first_beat"] = r.beats[0][0] - r.rd_taken[0]
        figures[f"read{n}_response"] = r.rsps[0][3] - r.rd_taken[0]
        s = DmaStim(BASE, image, BASE, BASE + SIZE, [], [(addr + 0x1000, n, bytes(range(p.dma_max_bytes)), 2)])
        r = run_dma(b, p, s, tmp_path / f"wr{n}")
        check(p, s, r)
        figures[f"write{n}_first_beat"] = r.beats[0][0] - r.wr_taken[0]
        figures[f"write{n}_done"] = r.dones[0] - r.wr_taken[0]
    for k, v in figures.items():
        record_property(k, v)
    print(figures)
    beats = len(split(RD_LO + 1, 64, p.dma_bytes))
    # an idle splitter takes the request at its handshake: the first beat goes the next cycle, the answer comes
    # latency cycles after a beat, the response (slot) or wr_done one cycle after the last answer
    assert figures["read4_first_beat"] == figures["write4_first_beat"] == 1
    assert figures["read4_response"] == figures["write4_done"] == 1 + 4 + 1
    assert figures["read64_response"] == figures["write64_done"] == 1 + beats - 1 + 4 + 1


def test_outstanding_limit_keeps_port_full(tb, tmp_path: Path, record_property) -> None:
    """With a slow memory (latency 24) the DMA keeps all Outstanding beats in flight: the port is the limit."""
    p, b = tb
    st = throughput(p, b, tmp_path, 64, True, True, latency=24)
    for k, v in st.items():
        record_property(k, v)
    print(f"latency 24: {st}")
    assert st["max_in_flight"] == p.outstanding
    assert st["mean_in_flight"] >= 0.9 * p.outstanding, st


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(4, 16, 8, 4), (32, 128, 16, 8)])
def test_other_beat_sizes(tmp_path: Path, shape: tuple[int, int, int, int], record_property) -> None:
    """Beats narrower than the 64-bit port (DmaBytes 4: two beats a word, at lanes 0 and 4) and wider ones
    (DmaBytes 32, 256-bit port), with gaps everywhere: the same checks."""
    db, mx, out, bufs = shape
    p = DmaParams(dma_bytes=db, dma_max_bytes=mx, outstanding=out, rd_bufs=bufs)
    b = build_dma_tb(p)
    s = make_stim(p, random.Random(db), 150, 150, seed=db, p_mem_gap=0.2, p_req_gap=0.2, p_rsp_stall=0.2)
    r = run_dma(b, p, s, tmp_path)
    check(p, s, r)
    record_property("cycles", r.cycles)


@pytest.mark.parametrize(("db", "mx", "out", "bufs"), [(16, 64, 16, 8), (4, 16, 4, 2), (8, 32, 16, 4), (32, 128, 8, 1)])
def test_lint_wall_clean_and_synthesizable(db: int, mx: int, out: int, bufs: int) -> None:
    """Verilator -Wall clean (the package's own unused parameters aside) at several beat and request sizes, and
    none of the constructs sim/rtl forbids (tests/test_rtl_lint.py)."""
    import subprocess

    from pyslang.syntax import SyntaxTree
    from test_rtl_lint import violations

    from sim.tb.gemmini.dma_build import RTL_SOURCES
    from sim.verilator_tool import ensure_verilator_on_path

    ensure_verilator_on_path()
    params = [f"-GDmaBytes={db}", f"-GDmaMaxBytes={mx}", f"-GOutstanding={out}", f"-GRdBufs={bufs}"]
    cmd = ["verilator", "--lint-only", "-Wall", "--top-module", "gemmini_dma", *params, *map(str, RTL_SOURCES)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    problems = [ln for ln in (r.stdout + r.stderr).splitlines() if ln.startswith("%") and "gemmini_dma.sv" in ln]
    assert not problems, "\n".join(problems)
    assert not [ln for ln in r.stderr.splitlines() if ln.startswith("%Error") and "Exiting due to" not in ln]
    assert not violations(SyntaxTree.fromFile(str(RTL_SOURCES[-1])))
