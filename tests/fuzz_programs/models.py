"""Small models: MLPs, CNNs, an attention block, chains and residuals."""

import torch
import torch.nn.functional as F
from torch import nn


def _r(*shape, seed=0, scale=1.0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed)) * scale


def linear_gelu_layernorm_softmax():
    torch.manual_seed(120)
    m = nn.Sequential(nn.Linear(19, 29), nn.GELU(), nn.LayerNorm(29), nn.Softmax(dim=-1))
    return m, (_r(3, 19, seed=121),)


class _ResidualMLP(nn.Module):
    def __init__(self, d: int, h: int) -> None:
        super().__init__()
        self.up = nn.Linear(d, h)
        self.down = nn.Linear(h, d)
        self.norm = nn.LayerNorm(d)

    def forward(self, x):
        return self.norm(x + self.down(F.relu(self.up(x))))


def residual_mlp_block():
    torch.manual_seed(122)
    return _ResidualMLP(23, 47), (_r(2, 4, 23, seed=123),)


def deep_mlp_batch5():
    torch.manual_seed(124)
    m = nn.Sequential(nn.Flatten(), nn.Linear(3 * 7, 50), nn.ReLU(), nn.Linear(50, 31), nn.ReLU(), nn.Linear(31, 3))
    return m, (_r(5, 3, 7, seed=125),)


class _TinyAttention(nn.Module):
    def __init__(self, d: int) -> None:
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.out = nn.Linear(d, d)
        self.d = d

    def forward(self, x):
        q, k, v = self.qkv(x).split(self.d, dim=-1)
        att = torch.softmax(q @ k.transpose(1, 2) * (self.d**-0.5), dim=-1)
        return self.out(att @ v)


def tiny_attention():
    torch.manual_seed(126)
    return _TinyAttention(12), (_r(2, 7, 12, seed=127),)


class _SmallCNN(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, padding=1)
        self.c2 = nn.Conv2d(8, 12, 3, stride=2)
        self.fc = nn.Linear(12 * 3 * 3, 5)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.relu(self.c2(x))
        return self.fc(torch.flatten(x, 1))


def small_cnn_batch2():
    torch.manual_seed(128)
    return _SmallCNN(), (_r(2, 3, 16, 16, seed=129),)


class _LeNetClassic(nn.Module):
    """LeNet-5 on 32x32 inputs (no padding in the first conv), overlapping pools."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 6, 5),
            nn.ReLU(),
            nn.MaxPool2d(3, stride=2, padding=1),
            nn.Conv2d(6, 16, 5),
            nn.ReLU(),
            nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(
            nn.Linear(16 * 5 * 5, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10)
        )

    def forward(self, x):
        return self.classifier(self.features(x).view(x.size(0), -1))


def lenet_classic_32x32():
    torch.manual_seed(130)
    return _LeNetClassic(), (_r(1, 1, 32, 32, seed=131),)


def conv_pool_mean_head():
    # global average pooling through mean over H, W
    torch.manual_seed(132)
    conv = nn.Conv2d(2, 6, 3, padding=1)
    fc = nn.Linear(6, 4)

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv, self.fc = conv, fc

        def forward(self, x):
            y = F.max_pool2d(F.relu(self.conv(x)), 3, stride=2, ceil_mode=True)
            return self.fc(y.mean(dim=(2, 3)))

    return Net(), (_r(1, 2, 9, 9, seed=133),)


def two_outputs_logits_and_probs():
    torch.manual_seed(134)
    lin = nn.Linear(10, 6)

    def f(x):
        logits = lin(x)
        return logits, torch.softmax(logits, dim=-1)

    return f, (_r(4, 10, seed=135),)


class _InplaceResidualCNN(nn.Module):
    """The torchvision habit: ReLU(inplace=True) and ``out += identity``."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(4, 4, 3, padding=1, bias=False)
        self.conv2 = nn.Conv2d(4, 4, 3, padding=1)
        self.relu = nn.ReLU(inplace=True)

    def forward(self, x):
        out = self.relu(self.conv1(x))
        out = self.conv2(out)
        out += x
        return self.relu(out)


def inplace_residual_block():
    torch.manual_seed(136)
    return _InplaceResidualCNN(), (_r(1, 4, 6, 7, seed=137),)


def causal_masked_attention():
    def f(q, k, v):
        t = q.shape[1]
        mask = torch.ones(t, t).triu(1).bool()  # a constant, built inside forward
        s = (q @ k.transpose(-2, -1)) / 4.0
        return torch.softmax(s.masked_fill(mask, float("-inf")), dim=-1) @ v

    return f, (_r(2, 6, 16, seed=138), _r(2, 6, 16, seed=139), _r(2, 6, 16, seed=140))


def _bn_eval(c: int, seed: int) -> nn.BatchNorm2d:
    bn = nn.BatchNorm2d(c)
    with torch.no_grad():
        bn.running_mean.copy_(_r(c, seed=seed))
        bn.running_var.copy_(_r(c, seed=seed + 1).abs() + 0.5)
        bn.weight.copy_(_r(c, seed=seed + 2))
        bn.bias.copy_(_r(c, seed=seed + 3))
    return bn.eval()


def conv_bn_dropout_relu_eval():
    """An inference block as exported from a training script: BatchNorm divides
    by sqrt(var + eps) (a reciprocal), Dropout is the identity in eval mode."""
    torch.manual_seed(132)
    m = nn.Sequential(nn.Conv2d(3, 6, 3, padding=1), _bn_eval(6, 133), nn.Dropout(0.3), nn.ReLU()).eval()
    return m, (_r(1, 3, 9, 9, seed=137),), "reduction"


def depthwise_separable_block():
    """MobileNet-style: a 3x3 depthwise conv (groups = channels), then a 1x1 conv."""
    torch.manual_seed(138)
    m = nn.Sequential(
        nn.Conv2d(8, 8, 3, padding=1, groups=8), nn.ReLU(), nn.Conv2d(8, 12, 1), nn.Conv2d(12, 6, 3, groups=3)
    )
    return m, (_r(2, 8, 7, 7, seed=139),)


def sdpa_attention():
    """F.scaled_dot_product_attention (no dropout, causal)."""

    def f(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)

    return f, (_r(1, 2, 5, 8, seed=140), _r(1, 2, 5, 8, seed=141), _r(1, 2, 5, 8, seed=142)), "transcendental"


class _BagOfWords(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.emb = nn.Embedding(17, 8)
        self.fc = nn.Linear(8, 3)

    def forward(self, tokens):
        return self.fc(self.emb(tokens).mean(dim=1))


def embedding_bag_of_words():
    """nn.Embedding (int64 token ids, index-bounds checks on the target) into a linear head."""
    torch.manual_seed(143)
    return _BagOfWords(), (torch.tensor([[1, 16, 3, 3], [0, 5, 9, 12]]),), "reduction"


class _SinusoidalEncoding(nn.Module):
    """Transformer positional encoding computed in forward (sin/cos of position x frequency)."""

    def forward(self, x):
        n, d = x.shape[-2], x.shape[-1]
        pos = torch.arange(n, dtype=torch.float32).unsqueeze(1)
        freq = torch.exp(torch.arange(0, d, 2, dtype=torch.float32) * (-9.210340371976184 / d))
        angle = pos * freq
        pe = torch.stack([torch.sin(angle), torch.cos(angle)], dim=-1).reshape(n, d)
        return x + pe


def sinusoidal_positional_encoding():
    return _SinusoidalEncoding(), (_r(2, 9, 12, seed=144),), "transcendental"
