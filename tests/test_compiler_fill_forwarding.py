"""fill-forwarding forwards a fill's constant only into loads that read filled elements.

The pass replays the nest's index arithmetic; these inputs differ in one index, so
only the replay tells them apart: a load of the row this iteration will store
(forwarded, and the fill goes) against a load of a row an earlier iteration stored
(kept, with the fill), and a load of one datapath row (kept: a one-beat reload is
cheaper than a register copy on the vector unit). The built-in cases run the pass
end to end against PyTorch.
"""

from __future__ import annotations

import pytest

from compiler.replay import load_target, replay

NEST = """
module {{
  func.func @forward(%arg0: memref<2x8xf32> {{llvm.noalias}}) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %cst = arith.constant dense<0.000000e+00> : vector<8xf32>
    %one = arith.constant dense<1.000000e+00> : vector<8xf32>
    scf.for %i = %c0 to %c2 step %c1 {{
      vector.store %cst, %arg0[%i, %c0] : memref<2x8xf32>, vector<8xf32>
    }}
    scf.for %i = %c0 to %c2 step %c1 {{
      %v = vector.load %arg0[{row}, %c0] : memref<2x8xf32>, vector<8xf32>
      %w = arith.addf %v, %one : vector<8xf32>
      vector.store %w, %arg0[%i, %c0] : memref<2x8xf32>, vector<8xf32>
    }}
    return
  }}
}}
"""


def _run(row: str, soc: str = "t1-small") -> str:
    # t1-small: 8 floats are 4 datapath rows of 64 bits
    return replay("fill-forwarding", load_target(soc), NEST.format(row=row), locations=False)


@pytest.mark.parametrize("row", ["%i", "%c1"])
def test_load_reading_only_filled_rows_takes_the_constant_and_the_fill_goes(row):
    # %i: each iteration reads the row it stores afterwards; %c1: row 1 is read in iteration 0
    # (filled) and in iteration 1 before that iteration stores it (still filled)
    out = _run(row)
    assert "vector.load" not in out
    assert out.count("vector.store") == 1  # the fill's store is gone, the nest's stays
    assert "arith.addf %cst" in out  # the load's users read the zero constant


def test_load_of_a_row_an_earlier_iteration_stored_is_kept_with_the_fill():
    # iteration 1 reads row 0, which iteration 0 stored: not the fill's value
    out = _run("%c0")
    assert "vector.load %arg0[%c0, %c0]" in out
    assert out.count("vector.store") == 2


def test_load_of_one_datapath_row_is_kept():
    # t1-blastoise: 8 floats are one 256-bit row
    out = _run("%i", soc="t1-blastoise")
    assert "vector.load %arg0[%arg1, %c0]" in out  # the printer renames %i
    assert out.count("vector.store") == 2
