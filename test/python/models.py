"""Small models of the Python tests, each a factory of the form
`python -m ssdopt export` takes: () -> (model, example_inputs, loss_fn, optimizer).

Sizes are chosen so that a whole training step traces in seconds on a CPU.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, sizes=(32, 64, 64, 10)):
        super().__init__()
        self.layers = nn.ModuleList(
            nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))

    def forward(self, x):
        for layer in self.layers[:-1]:
            x = F.relu(layer(x))
        return self.layers[-1](x)


def mlp_adamw():
    torch.manual_seed(0)
    model = MLP()
    x = torch.randn(16, 32)
    y = torch.randint(0, 10, (16,))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    return model, (x, y), F.cross_entropy, optimizer


def mlp():
    """The MLP without loss or optimizer: its output summed is the loss."""
    torch.manual_seed(0)
    return MLP(), (torch.randn(16, 32),)


def mlp_rmsprop():
    """An optimizer that export does not support."""
    model = MLP()
    return model, (torch.randn(16, 32),), None, torch.optim.RMSprop(model.parameters())


class BasicBlock(nn.Module):
    """ResNet's basic block: two 3x3 convolutions with batch norm and a
    shortcut (a strided 1x1 convolution where the shape changes)."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.shortcut = nn.Sequential()
        if stride != 1 or cin != cout:
            self.shortcut = nn.Sequential(
                nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.shortcut(x))


class ResNet(nn.Module):
    def __init__(self, widths=(8, 16, 32), num_classes=10):
        super().__init__()
        self.stem = nn.Conv2d(3, widths[0], 3, 1, 1, bias=False)
        self.bn = nn.BatchNorm2d(widths[0])
        blocks, cin = [], widths[0]
        for index, width in enumerate(widths):
            blocks.append(BasicBlock(cin, width, 1 if index == 0 else 2))
            cin = width
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(cin, num_classes)

    def forward(self, x):
        x = F.relu(self.bn(self.stem(x)))
        x = self.blocks(x)
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


def resnet_sgd():
    torch.manual_seed(0)
    model = ResNet()
    x = torch.randn(4, 3, 16, 16)
    y = torch.randint(0, 10, (4,))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9,
                                weight_decay=5e-4)
    return model, (x, y), F.cross_entropy, optimizer


def gpt2_config():
    from transformers import GPT2Config

    return GPT2Config(n_layer=2, n_head=2, n_embd=64, vocab_size=256,
                      n_positions=64, use_cache=False)


def gpt2_adamw():
    """A tiny GPT-2 (random init, no download); the loss is the language
    modelling cross entropy against `labels`."""
    from transformers import GPT2LMHeadModel

    torch.manual_seed(0)
    config = gpt2_config()
    model = GPT2LMHeadModel(config)
    ids = torch.randint(0, config.vocab_size, (2, 32))

    def loss_fn(output, labels):
        logits = output.logits
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1))

    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    return model, (ids, ids), loss_fn, optimizer
