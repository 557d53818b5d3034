"""The environment: many sentences parsed at once, one move each per step, illegal moves masked.

Each of ``slots`` episodes parses one training sentence with arc-standard.  A step takes one
action per episode (an index into SH, LA, RA, always legal: the caller picks among the legal
mask), reads its reward on the configuration *before* the move, and moves on.  An episode
ends at the final configuration (2n moves: in arc-standard every legal path has that length,
so no episode is cut short); its slot then starts the next sentence of a shuffled stream that
goes round the training set for ever.

Under the exact reward a move's reward is −cost(t; c) = best(t(c)) − best(c), with best(c)
kept from the move before: the exact oracle judges one configuration per move.  The costs of
every legal move are computed only when the trainer asks (:meth:`Environment.costs`, to
measure how often the greedy move is optimal), once per configuration.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..configuration import Configuration
from ..errors import ParsingCoreError
from ..oracles.arc_standard_exact import ArcStandardExactOracle
from ..oracles.base import Costs
from ..sentence import Sentence
from ..systems import TransitionSystem
from .features import ACTIONS, MOVES, FeatureSpec, encode, legal_mask, remember
from .rewards import REWARDS, Previous, thesis_reward

Array = np.ndarray


@dataclass(frozen=True)
class Episode:
    """One sentence being parsed: its configuration, the moves so far, the return so far."""

    sentence: Sentence
    c: Configuration
    recent: tuple[str, ...] = ()
    previous: Previous = Previous()
    gained: float = 0.0  # the undiscounted return so far
    best: float | None = None  # best(c) by the exact oracle, once known


@dataclass(frozen=True)
class Step:
    """What one step of every episode gives: transitions, and the returns of the episodes it ended."""

    states: Array  # (B, D) before the move
    actions: Array  # (B,)
    rewards: Array  # (B,)
    next_states: Array  # (B, D) after it (a final configuration's where the episode ended)
    next_masks: Array  # (B, 3) legal moves after it (none where it ended)
    done: Array  # (B,)
    returns: list[float]  # one per episode that ended


def cost_vector(costs: Costs) -> Array:
    """(3,) costs of SH, LA, RA; ∞ for an illegal move."""
    return np.array([costs.get(t, math.inf) for t in MOVES], dtype=float)


def observe(system: TransitionSystem, spec: FeatureSpec, e: Episode) -> tuple[Array, Array]:
    """The features of an episode's configuration and its legal mask."""
    legal = legal_mask(system, e.c)
    return encode(spec, e.c, e.sentence.gold_heads, e.recent, legal), legal


def sentence_stream(sentences: Sequence[Sentence], rng: random.Random) -> Iterator[Sentence]:
    """The sentences in a new random order on every pass, for ever."""
    order = list(sentences)
    while True:
        rng.shuffle(order)
        yield from order


def usable(sentences: Sequence[Sentence]) -> list[Sentence]:
    """The sentences an episode can learn from: with a gold tree and at least one word."""
    return [s for s in sentences if s.has_gold and s.n > 0]


class Environment:
    """``slots`` episodes stepped together (see the module docstring)."""

    def __init__(self, system: TransitionSystem, sentences: Sequence[Sentence], slots: int,
                 spec: FeatureSpec, reward: str, rng: random.Random) -> None:
        if reward not in REWARDS:
            raise ParsingCoreError(f"unknown reward {reward!r}; choose {', '.join(REWARDS)}")
        if system.name != "arc-standard":
            raise ParsingCoreError(f"the RL oracle is for arc-standard, not {system.name}")
        sentences = usable(sentences)
        if not sentences:
            raise ParsingCoreError("no training sentence with a gold tree")
        self.system, self.spec, self.reward = system, spec, reward
        self.oracle = ArcStandardExactOracle(system, cached_trees=slots + 1)
        self.stream = sentence_stream(sentences, rng)
        self.episodes = [self.fresh() for _ in range(slots)]
        seen = [observe(system, spec, e) for e in self.episodes]
        self.states = np.stack([x for x, _ in seen])
        self.masks = np.stack([legal for _, legal in seen])
        self._costs: list[Costs | None] = [None] * slots

    def fresh(self) -> Episode:
        sentence = next(self.stream)
        return Episode(sentence, self.system.initial(sentence))

    def costs(self) -> list[Costs]:
        """The exact costs of the legal moves in each episode's current configuration."""
        for i, e in enumerate(self.episodes):
            if self._costs[i] is None:
                self._costs[i] = self.oracle.costs(e.c, e.sentence)
        return [c for c in self._costs if c is not None]

    def step(self, actions: Array) -> Step:
        """Apply one legal action per episode; restart the episodes that end."""
        moved = [replace(e, c=self.system.apply(e.c, MOVES[int(a)]), recent=remember(self.spec, e.recent,
                                                                                     ACTIONS[int(a)]))
                 for e, a in zip(self.episodes, actions)]
        rewards = self.rewards(actions, moved)
        before = self.states.copy()
        next_states, next_masks = np.empty_like(self.states), np.zeros_like(self.masks)
        done, returns = np.zeros(len(actions), dtype=bool), []
        for i, (e, a, r) in enumerate(zip(moved, actions, rewards)):
            after = replace(e, previous=Previous(ACTIONS[int(a)], float(r)), gained=e.gained + float(r))
            next_states[i], next_masks[i] = observe(self.system, self.spec, after)
            done[i] = not next_masks[i].any()
            if done[i]:
                returns.append(after.gained)
                after = self.fresh()
                self.states[i], self.masks[i] = observe(self.system, self.spec, after)
            else:
                self.states[i], self.masks[i] = next_states[i], next_masks[i]
            self.episodes[i] = after
        self._costs = [None] * len(self.episodes)
        return Step(before, np.asarray(actions), rewards, next_states, next_masks, done, returns)

    def rewards(self, actions: Array, moved: list[Episode]) -> Array:
        """The reward of each episode's action, read on its configuration before the move
        (``moved``: the episodes after it; under the exact reward they learn their best(c))."""
        if self.reward == "thesis":
            return np.array([thesis_reward(e.c, ACTIONS[int(a)], e.sentence.gold_heads, e.previous)
                             for e, a in zip(self.episodes, actions)], dtype=np.float32)
        out = np.empty(len(actions), dtype=np.float32)
        for i, (e, after) in enumerate(zip(self.episodes, moved)):
            out[i], moved[i] = self.exact_reward(e, after)
        return out

    def exact_reward(self, e: Episode, after: Episode) -> tuple[float, Episode]:
        """−cost(t; c) = best(t(c)) − best(c), best(c) kept from the step before: one configuration
        judged per move, not every successor (the costs of all moves are asked for only when
        :meth:`costs` is called, to measure agreement)."""
        best_before = e.best if e.best is not None else self.oracle.best(e.c, e.sentence)
        best_after = self.oracle.best(after.c, after.sentence)
        return best_after - best_before, replace(after, best=best_after)
