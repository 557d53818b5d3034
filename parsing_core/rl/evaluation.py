"""Judging a Q-network against the exact oracle, on its own greedy parses.

Each sentence is parsed by the greedy policy (the best legal move by Q, no exploration: the
thesis measured its dev UAS with the ε-greedy policy).  At every configuration on the way the
exact oracle says which moves are optimal, so three numbers come out:

* **agreement**: the share of configurations where the greedy move is an optimal one;
* **Q error**: the mean |Q(c, t) + cost(t; c)| over the legal moves — 0 when Q = −cost, the
  right answer under the exact reward (under the thesis's reward Q need not approach −cost);
* **UAS** of the greedy parses (punctuation included).

A greedy parse of a well-trained network stays near the gold path, where the right move is
easy to see; a dynamic oracle earns its name after mistakes.  With ``explore`` = p, each move
taken is a uniformly random legal one with probability p (the greedy move is still the one
judged), so the parse wanders off the gold path and the agreement covers the configurations
that follow errors; the UAS is then that of the wandering parses.
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
             device: torch.device, batch: int = 64, explore: float = 0.0, seed: int = 0) -> Evaluation:
    """Greedy parses of ``sentences`` judged by the exact oracle (see the module docstring);
    ``explore``: the share of random moves taken instead of the greedy ones (drawn from ``seed``)."""
    gold = usable(sentences)
    oracle = ArcStandardExactOracle(system, cached_trees=batch + 1)
    tally, walk = _Tally(), _Walk(net, system, oracle, spec, device, explore, np.random.default_rng(seed))
    for start in range(0, len(gold), batch):
        finals = walk.parses(gold[start:start + batch], tally)
        for e in finals:
            tally.correct += sum(h == g for h, g in zip(e.c.heads, e.sentence.gold_heads))
            tally.tokens += e.sentence.n
    return Evaluation(tally.agree / max(1, tally.configurations), tally.q_error / max(1, tally.moves),
                      tally.correct / max(1, tally.tokens), tally.configurations, len(gold))


@dataclass(frozen=True)
class _Walk:
    """How the judged parses move: the network, the oracle judging, the share of random moves."""

    net: nn.Module
    system: TransitionSystem
    oracle: ArcStandardExactOracle
    spec: FeatureSpec
    device: torch.device
    explore: float
    rng: np.random.Generator

    def parses(self, sentences: Sequence[Sentence], tally: _Tally) -> list[Episode]:
        """Parse the sentences in lockstep, tallying the oracle's verdicts on the greedy moves."""
        system = self.system
        episodes = [Episode(s, system.initial(s)) for s in sentences]
        while True:
            alive = [i for i, e in enumerate(episodes) if not system.is_terminal(e.c) and system.legal(e.c)]
            if not alive:
                return episodes
            seen = [observe(system, self.spec, episodes[i]) for i in alive]
            legal = np.stack([m for _, m in seen])
            q = q_values(self.net, torch.as_tensor(np.stack([x for x, _ in seen]), device=self.device))
            best = greedy(q, torch.as_tensor(legal, device=self.device)).cpu().numpy()
            wander = self.rng.random(len(best)) < self.explore
            taken = np.where(wander, np.where(legal, self.rng.random(legal.shape), -1.0).argmax(1), best)
            for i, a, b, q_row, mask in zip(alive, taken, best, q.cpu().numpy(), legal):
                e = episodes[i]
                judge(tally, cost_vector(self.oracle.costs(e.c, e.sentence)), int(b), q_row, mask)
                episodes[i] = replace(e, c=system.apply(e.c, MOVES[int(a)]),
                                      recent=remember(self.spec, e.recent, ACTIONS[int(a)]))


def judge(tally: _Tally, costs: np.ndarray, move: int, q_row: np.ndarray, legal: np.ndarray) -> None:
    """Count one configuration: is the greedy ``move`` optimal, and how far is Q from −cost?"""
    tally.agree += int(costs[move] == costs[legal].min())
    tally.configurations += 1
    tally.q_error += float(np.abs(q_row[legal] + costs[legal]).sum())
    tally.moves += int(legal.sum())
