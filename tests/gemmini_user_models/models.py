"""Float PyTorch programs written the way a user writes them, for `cosim verify models.py:FUNC --soc gemmini-dim4`.

Each FUNC() returns (module, example_inputs[, options]); nothing here knows about Gemmini or int8.
"""

import torch
from torch import nn
from torch.nn import functional as F


def _data(*shape, n=4, seed=7):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(*shape, generator=g),) for _ in range(n)]


class OddLinears(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(57, 39)
        self.fc2 = nn.Linear(39, 11)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


class StridedDepthwise(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 12, 3, stride=2, padding=1)
        self.dw = nn.Conv2d(12, 12, 3, padding=1, groups=12)
        self.pw = nn.Conv2d(12, 20, 1)

    def forward(self, x):
        x = F.relu(self.stem(x))
        x = F.relu(self.dw(x))
        return self.pw(x)


class Residual(nn.Module):
    def __init__(self, c=12):
        super().__init__()
        self.a = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn_a = nn.BatchNorm2d(c)
        self.b = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn_b = nn.BatchNorm2d(c)

    def forward(self, x):
        y = F.relu(self.bn_a(self.a(x)))
        return F.relu(x + self.bn_b(self.b(y)))


class SelfAttention(nn.Module):
    def __init__(self, d=24):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        w = torch.softmax(q @ k.transpose(-2, -1) / 24**0.5, dim=-1)
        return self.proj(w @ v)


class TinyClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )  # fmt: skip
        self.head = nn.Linear(16 * 4 * 4, 10)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def odd_linears():
    torch.manual_seed(1)
    data = _data(5, 57)
    return OddLinears().eval(), data[0], {"calibration": data}


def strided_depthwise():
    torch.manual_seed(2)
    data = _data(1, 3, 14, 14)
    return StridedDepthwise().eval(), data[0], {"calibration": data}


def residual():
    torch.manual_seed(3)
    m = Residual().eval()
    with torch.no_grad():
        for bn in (m.bn_a, m.bn_b):
            bn.running_mean.uniform_(-0.1, 0.1)
            bn.running_var.uniform_(0.8, 1.2)
    data = _data(1, 12, 8, 8)
    return m, data[0], {"calibration": data}


def attention():
    torch.manual_seed(4)
    data = _data(2, 10, 24)
    return SelfAttention().eval(), data[0], {"calibration": data}


def classifier():
    torch.manual_seed(5)
    data = _data(4, 1, 16, 16, n=2)
    return TinyClassifier().eval(), data[0], {"calibration": data, "top1_disagree": 0.25}
