"""The dueling Q-network (Wang et al. 2016; the thesis's Code B.4), and masking.

One hidden layer reads the features; two heads read it: a value V(s) and advantages A(s, a).
Q(s, a) = V(s) + A(s, a) − mean_a' A(s, a'): subtracting the mean makes V and A identifiable
(otherwise any constant could move between them).  Illegal moves are masked to −∞ before any
max or argmax, so they are never chosen and never bootstrapped from.

>>> import torch
>>> net = DuelingQNetwork(153, hidden=8)
>>> net(torch.zeros(2, 153)).shape
torch.Size([2, 3])
>>> masked(torch.tensor([[1.0, 5.0, 2.0]]), torch.tensor([[True, False, True]])).argmax(1).tolist()
[2]
"""

from __future__ import annotations

import torch
from torch import Tensor, nn


class DuelingQNetwork(nn.Module):
    """features (B, D) → Q (B, 3)."""

    def __init__(self, inputs: int, hidden: int = 128, actions: int = 3) -> None:
        super().__init__()
        self.inputs, self.hidden, self.actions = inputs, hidden, actions
        self.body = nn.Sequential(nn.Linear(inputs, hidden), nn.ReLU())
        self.value = nn.Linear(hidden, 1)
        self.advantage = nn.Linear(hidden, actions)

    def streams(self, x: Tensor) -> tuple[Tensor, Tensor]:
        """V (B, 1) and A (B, 3)."""
        h = self.body(x)  # (B, H)
        return self.value(h), self.advantage(h)

    def forward(self, x: Tensor) -> Tensor:
        v, a = self.streams(x)
        return v + a - a.mean(dim=1, keepdim=True)  # (B, 3)


def masked(q: Tensor, legal: Tensor) -> Tensor:
    """Q with the illegal moves at −∞."""
    return q.masked_fill(~legal, float("-inf"))


def greedy(q: Tensor, legal: Tensor) -> Tensor:
    """(B,) the best legal move of each row (rows without a legal move: 0, never used)."""
    return masked(q, legal).argmax(dim=1)


def copy_network(net: DuelingQNetwork) -> DuelingQNetwork:
    """A frozen copy (a target snapshot)."""
    twin = DuelingQNetwork(net.inputs, net.hidden, net.actions).to(next(net.parameters()).device)
    twin.load_state_dict(net.state_dict())
    twin.requires_grad_(False)
    return twin.eval()


def q_values(net: nn.Module, x: Tensor) -> Tensor:
    """Q without gradients."""
    with torch.no_grad():
        out: Tensor = net(x)
    return out
