"""Judging a Q-network against the exact oracle, on its own greedy parses.

Each sentence is parsed by the greedy policy (the best legal move by Q, no exploration: the
thesis measured its dev UAS with the ε-greedy policy).  At every configuration on the way the
exact oracle says which moves are optimal, so three numbers come out:

* **agreement**: the share of configurations where the greedy move is an optimal one;
* **Q error**: the mean |Q(c, t) + cost(t; c)| over the legal moves — 0 when Q = −cost, the
  right answer under the exact reward (under the thesis's reward Q need not approach −cost);
* **UAS** of the greedy parses (punctuation included).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import torch
from torch import nn

from ..oracles.arc_standard_exact import ArcStandardExactOracle
from ..sentence import Sentence
from ..systems import TransitionSystem
from .env import Episode, cost_vector, observe, usable
from .features import ACTIONS, MOVES, FeatureSpec, remember
from .network import greedy, q_values


@dataclass(frozen=True)
class Evaluation:
    agreement: float
    q_error: float
    uas: float
    configurations: int
    sentences: int


@dataclass
class _Tally:
    agree: int = 0
    configurations: int = 0
    q_error: float = 0.0
    moves: int = 0
    correct: int = 0
    tokens: int = 0


def evaluate(net: nn.Module, system: TransitionSystem, sentences: Sequence[Sentence], spec: FeatureSpec,
             device: torch.device, batch: int = 64) -> Evaluation:
    """Greedy parses of ``sentences`` judged by the exact oracle (see the module docstring)."""
    gold = usable(sentences)
    oracle = ArcStandardExactOracle(system, cached_trees=batch + 1)
    tally = _Tally()
    for start in range(0, len(gold), batch):
        finals = greedy_parses(net, system, oracle, gold[start:start + batch], spec, device, tally)
        for e in finals:
            tally.correct += sum(h == g for h, g in zip(e.c.heads, e.sentence.gold_heads))
            tally.tokens += e.sentence.n
    return Evaluation(tally.agree / max(1, tally.configurations), tally.q_error / max(1, tally.moves),
                      tally.correct / max(1, tally.tokens), tally.configurations, len(gold))


def greedy_parses(net: nn.Module, system: TransitionSystem, oracle: ArcStandardExactOracle,
                  sentences: Sequence[Sentence], spec: FeatureSpec, device: torch.device,
                  tally: _Tally) -> list[Episode]:
    """Parse the sentences in lockstep by the greedy policy, tallying the oracle's verdicts."""
    episodes = [Episode(s, system.initial(s)) for s in sentences]
    while True:
        alive = [i for i, e in enumerate(episodes) if not system.is_terminal(e.c) and system.legal(e.c)]
        if not alive:
            return episodes
        seen = [observe(system, spec, episodes[i]) for i in alive]
        legal = np.stack([m for _, m in seen])
        q = q_values(net, torch.as_tensor(np.stack([x for x, _ in seen]), device=device))
        moves = greedy(q, torch.as_tensor(legal, device=device)).cpu().numpy()
        q_rows = q.cpu().numpy()
        for i, a, q_row, mask in zip(alive, moves, q_rows, legal):
            e = episodes[i]
            costs = cost_vector(oracle.costs(e.c, e.sentence))
            tally.agree += int(costs[a] == costs[mask].min())
            tally.configurations += 1
            tally.q_error += float(np.abs(q_row[mask] + costs[mask]).sum())
            tally.moves += int(mask.sum())
            episodes[i] = replace(e, c=system.apply(e.c, MOVES[int(a)]),
                                  recent=remember(spec, e.recent, ACTIONS[int(a)]))
