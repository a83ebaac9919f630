"""cocotb driver of scale_tb: applies the stimulus's vectors LANES at a time to the combinational scale units and
records every lane's output (``$GEMMINI_SCALE_STIM`` in, ``$GEMMINI_SCALE_OUT`` out; see scale_build.py)."""

import json
import os
from pathlib import Path

import cocotb
from cocotb.triggers import Timer


@cocotb.test()
async def apply_vectors(dut) -> None:
    stim = json.loads(Path(os.environ["GEMMINI_SCALE_STIM"]).read_text())
    lanes, vectors = int(stim["lanes"]), stim["vectors"]
    ys: list[int] = []
    for i in range(0, len(vectors), lanes):
        group = vectors[i : i + lanes]
        x = s = t = 0
        for lane, (xv, sv, tv) in enumerate(group):
            x |= (int(xv) & 0xFFFF_FFFF) << (32 * lane)
            s |= (int(sv) & 0xFFFF_FFFF) << (32 * lane)
            t |= (int(tv) & 1) << lane
        dut.x_i.value = x
        dut.scale_i.value = s
        dut.to_i8_i.value = t
        await Timer(1, unit="ns")
        y = int(dut.y_o.value)
        for lane in range(len(group)):
            v = (y >> (32 * lane)) & 0xFFFF_FFFF
            ys.append(v - (1 << 32) if v >> 31 else v)
    Path(os.environ["GEMMINI_SCALE_OUT"]).write_text(json.dumps(ys))
