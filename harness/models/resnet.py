"""ResNet-18 and its basic block in plain torch.nn (torchvision does not import with the pinned torch).

The architecture is the standard one (He et al. 2015, torchvision's ``resnet18``): a 7x7 stride-2 stem
with batch norm, ReLU and 3x3 stride-2 max pooling, four stages of two basic blocks (64, 128, 256, 512
channels; the first block of stages 2-4 halves the image with a strided 3x3 conv and a 1x1 strided
projection on the skip path), global average pooling and a linear classifier. ``randomize_batch_norm``
gives every BatchNorm non-trivial running statistics and affine parameters, so folding them into the
convolutions at quantization time is exercised rather than an identity.
"""

from __future__ import annotations

import torch
from torch import nn


class BasicBlock(nn.Module):
    """conv3x3-bn-relu-conv3x3-bn, plus the input (or its 1x1 projection when the shape changes), relu."""

    def __init__(self, cin: int, cout: int, stride: int = 1) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.downsample = None
        if stride != 1 or cin != cout:
            self.downsample = nn.Sequential(nn.Conv2d(cin, cout, 1, stride=stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        skip = x if self.downsample is None else self.downsample(x)
        return torch.relu(y + skip)


class ResNet18(nn.Module):
    def __init__(self, num_classes: int = 1000, width: int = 64) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, 7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
        stages, cin = [], width
        for i in range(4):
            cout = width * 2**i
            stages.append(nn.Sequential(BasicBlock(cin, cout, 1 if i == 0 else 2), BasicBlock(cout, cout)))
            cin = cout
        self.layer1, self.layer2, self.layer3, self.layer4 = stages
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(cin, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.maxpool(torch.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


def randomize_batch_norm(model: nn.Module, seed: int = 0) -> nn.Module:
    """Running mean/var and affine parameters of every BatchNorm2d drawn from a fixed seed (eval mode)."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                c = m.num_features
                m.running_mean.copy_(torch.randn(c, generator=g) * 0.1)
                m.running_var.copy_(torch.rand(c, generator=g) * 0.5 + 0.75)
                m.weight.copy_(torch.rand(c, generator=g) * 0.5 + 0.75)
                m.bias.copy_(torch.randn(c, generator=g) * 0.1)
    return model.eval()
