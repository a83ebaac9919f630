"""SoC configs load, validate, and reject bad input with a useful message."""

import pytest

from configs import ConfigError, GemminiUnit, VectorUnit, available_socs, load_soc

REQUIRED = ["rv32", "rv64", "t1-small", "t1-blastoise", "gemmini-dim4", "gemmini-dim16"]


def test_required_configs_exist():
    assert set(REQUIRED) <= set(available_socs())


@pytest.mark.parametrize("name", REQUIRED)
def test_each_config_loads(name):
    cfg = load_soc(name)
    assert cfg.name == name
    assert cfg.march.startswith(f"rv{cfg.xlen}")
    assert cfg.memory_map.region_of(cfg.memory_map.scalar_base) == "SCALAR"
    assert cfg.memory_map.exit_addr == 0x1000_0000
    assert cfg.memory_map.uart_tx_addr == 0x1000_0010
    assert cfg.memory_map.profile_addr == 0x1000_0014


def test_vector_parameters():
    small, big = load_soc("t1-small").accelerator, load_soc("t1-blastoise").accelerator
    assert isinstance(small, VectorUnit) and (small.vlen, small.dlen, small.lanes) == (256, 64, 2)
    assert isinstance(big, VectorUnit) and (big.vlen, big.dlen, big.lanes) == (2048, 256, 8)
    assert load_soc("t1-small").xlen == 32


def test_gemmini_parameters():
    g = load_soc("gemmini-dim16").accelerator
    assert isinstance(g, GemminiUnit)
    assert (g.dim, g.scratchpad_kib, g.accumulator_kib) == (16, 256, 64)
    assert set(g.dataflows) == {"WS", "OS"}
    assert load_soc("gemmini-dim16").xlen == 64


def test_unknown_config_names_the_known_ones():
    with pytest.raises(ConfigError, match="unknown SoC config 'nope'.*rv32"):
        load_soc("nope")


def test_config_from_path_with_new_vlen(tmp_path):
    text = load_soc("t1-small").path.read_text()
    text = text.replace('"t1-small"', '"t1-v512"').replace("zvl256b", "zvl512b").replace("vlen = 256", "vlen = 512")
    p = tmp_path / "t1-v512.toml"
    p.write_text(text)
    cfg = load_soc(p)
    assert cfg.accelerator.vlen == 512


@pytest.mark.parametrize(
    "old,new,message",
    [
        ("vlen = 256", "vlen = 300", "vlen must be a power of two"),
        ("zvl256b", "zvl512b", "must name zvl256b"),
        ("rv32imf_zicsr", "rv32imfc_zicsr", "C extension"),
        ("dlen = 64", "dlen = 64\nbogus = 1", "unknown key"),
        ('kind = "vector"', 'kind = "tensor"', "accelerator.kind"),
    ],
)
def test_bad_fields_are_named(tmp_path, old, new, message):
    text = load_soc("t1-small").path.read_text().replace(old, new, 1)
    p = tmp_path / "t1-small.toml"
    p.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_soc(p)
