"""Models the way model libraries write them (issue 24): non-persistent buffers, int64 ids into embeddings,
attention masks built and indexed inside forward, scaled_dot_product_attention; a BERT built by HuggingFace
transformers from a small config (random weights, nothing downloaded) and our torch.nn one, checked against
PyTorch on Spike, the transformers one on the t1 RTL too (t1-blastoise in the slow tier). The built-in ``bert``
case also runs in ``nox -s verify`` on the RTL of the default cores."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from compiler.frontend import import_torch
from compiler.hostrun import run_on_host
from harness.verify import verify

pytestmark = pytest.mark.iss


def _write_case(tmp_path, body: str) -> str:
    path = tmp_path / "case.py"
    path.write_text("import torch\nimport torch.nn.functional as F\n" + body)
    return f"{path}:make"


def test_non_persistent_buffers_import_and_compute():
    class WithBuffers(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.register_buffer("offsets", torch.arange(8, dtype=torch.float32), persistent=False)
            self.register_buffer("gain", torch.full((8,), 2.0))  # persistent

        def forward(self, x):
            return x * self.gain + self.offsets[: x.shape[-1]]

    m, x = WithBuffers(), torch.randn(3, 8)
    assert "offsets" not in m.state_dict()
    imported = import_torch(m, (x,), name="buffers")
    np.testing.assert_array_equal(run_on_host(imported)["out0"], m(x).numpy())


def test_bool_mask_gathered_inside_a_linalg_body_on_rvv(tmp_path):
    """mask[batch_index, position_index] on a bool tensor (how transformers builds its attention mask): the
    vectorized writer of the bool temporary and the scalar gather must agree on bytes."""
    spec = _write_case(
        tmp_path,
        "def make():\n"
        "    am = torch.ones(2, 16, dtype=torch.long)\n"
        "    am[0, 11:] = 0\n"
        "    am[1, :3] = 0\n"
        "    def f(am):\n"
        "        b = am.to(torch.bool)\n"
        "        i = torch.arange(16)\n"
        "        return b[torch.arange(2)[:, None, None, None], i.flip(0)[None, None, None, :]].to(torch.float32)\n"
        "    return f, (am,)\n",
    )
    r = verify(spec, "t1-small", workdir=tmp_path)
    assert r["status"] == "pass" and r["outputs"]["out0"]["mismatches"] == 0, r


@pytest.mark.parametrize("soc", ["t1-small"])
def test_builtin_bert(soc, tmp_path):
    r = verify("bert", soc, workdir=tmp_path)
    assert r["status"] == "pass", r.get("message") or r["outputs"]
    assert r["outputs"]["out0"]["mismatches"] == 0


@pytest.mark.parametrize(
    ("soc", "on"),
    [
        ("t1-small", "iss"),
        pytest.param("t1-small", "rtl", marks=pytest.mark.rtl),
        pytest.param("t1-blastoise", "rtl", marks=[pytest.mark.rtl, pytest.mark.slow]),
    ],
)
def test_transformers_bert_from_a_small_config(soc, on, tmp_path):
    spec = _write_case(
        tmp_path,
        "from transformers import BertConfig, BertModel\n"
        "class LastHidden(torch.nn.Module):\n"
        "    def __init__(self, m):\n"
        "        super().__init__()\n"
        "        self.m = m\n"
        "    def forward(self, ids, mask):\n"
        "        return self.m(input_ids=ids, attention_mask=mask).last_hidden_state\n"
        "def make():\n"
        "    torch.manual_seed(0)\n"
        "    cfg = BertConfig(vocab_size=128, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,\n"
        "                     intermediate_size=128, max_position_embeddings=32)\n"
        "    m = LastHidden(BertModel(cfg, add_pooling_layer=False).eval())\n"
        "    ids = torch.randint(0, 128, (1, 16))\n"
        "    mask = torch.ones(1, 16, dtype=torch.long)\n"
        "    mask[0, 12:] = 0\n"
        "    return m, (ids, mask)\n",
    )
    r = verify(spec, soc, on=on, workdir=tmp_path)
    assert r["status"] == "pass", r.get("message") or r["outputs"]
    assert r["outputs"]["out0"]["mismatches"] == 0
