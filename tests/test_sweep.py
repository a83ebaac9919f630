"""Config sweeps: derived configs (name and dependent fields rewritten, strict checks,
never under configs/) and the sweep's table and plots from real RTL runs."""

import json

import pytest

from configs import CONFIG_DIR, ConfigError, load_soc
from configs.derive import derive_soc
from harness import sweep


def test_vlen_rewrites_name_and_march(tmp_path):
    soc = derive_soc("t1-small", {"vlen": 512, "dlen": 128}, tmp_path)
    assert soc.name == "t1-small-vlen512-dlen128"
    assert soc.accelerator.vlen == 512 and soc.accelerator.dlen == 128
    assert "zvl512b" in soc.march.split("_") and "zvl256b" not in soc.march
    assert soc.path.parent == tmp_path.resolve()
    # Loaded again by path through the same strict checks.
    assert load_soc(soc.path) == soc


def test_gemmini_dim_and_memory(tmp_path):
    soc = derive_soc("gemmini-dim4", {"dim": 8, "latency": 16}, tmp_path)
    assert (soc.accelerator.dim, soc.memory.latency) == (8, 16)
    assert soc.name == "gemmini-dim4-dim8-latency16"


def test_derived_config_that_breaks_a_check_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="dlen"):
        derive_soc("t1-small", {"dlen": 512}, tmp_path)  # dlen > vlen


def test_bad_requests_are_named(tmp_path):
    with pytest.raises(ConfigError, match="not under|results folder"):
        derive_soc("rv32", {"latency": 2}, CONFIG_DIR)
    with pytest.raises(ConfigError, match="sweepable"):
        derive_soc("rv32", {"vlan": 2}, tmp_path)
    with pytest.raises(ConfigError, match="vector config"):
        derive_soc("rv32", {"vlen": 256}, tmp_path)
    with pytest.raises(Exception, match="NAME=V1"):
        sweep.parse_param("latency")


@pytest.mark.slow
@pytest.mark.rtl
@pytest.mark.parametrize("executor", ["local", "dask"])
def test_sweep_on_picorv32_memory_latency(tmp_path, executor):
    args = ["--base", "picorv32", "--param", "latency=1,4", "--out", str(tmp_path), "--executor", executor]
    rc = sweep.main([*args, "c:printf_fmt"])
    assert rc == 0
    rows = json.loads((tmp_path / "sweep.json").read_text())["rows"]
    assert [r["latency"] for r in rows] == [1, 4] and all(r["status"] == "pass" for r in rows)
    assert rows[0]["cycles"] < rows[1]["cycles"]  # one request at a time: latency adds to every access
    assert (tmp_path / "latency.png").stat().st_size > 1000
    for r in rows:
        assert load_soc(r["config_path"]).memory.latency == r["latency"]


@pytest.mark.slow
@pytest.mark.rtl
def test_sweep_two_vlens_two_dlens(tmp_path):
    args = ["--base", "t1-small", "--param", "vlen=256,512", "--param", "dlen=64,128", "--out", str(tmp_path)]
    assert sweep.main([*args, "c:vector_saxpy"]) == 0
    rows = json.loads((tmp_path / "sweep.json").read_text())["rows"]
    assert len(rows) == 4 and all(r["status"] == "pass" and r["cycles"] for r in rows)
    assert (tmp_path / "vlen.png").is_file() and (tmp_path / "dlen.png").is_file()
    assert all(load_soc(p).path.parent == (tmp_path / "configs").resolve() for p in (r["config_path"] for r in rows))
