"""Training walks: the oracle and the model choose the path together; the oracle says what to learn.

Goldberg & Nivre's online training with exploration (Algorithm 3 in the oracle spec §4.1,
the thesis's Algorithm 3), for a whole batch in lockstep.  In every configuration c with
more than one legal move:

1. the oracle gives the cost of every legal move; the **minimum-cost set** MIN(c) holds the
   moves of least cost (cost 0 while the gold tree is still reachable; for a non-projective
   gold tree in a projective system there may be no 0, and MIN(c) still says what is best);
2. the model scores the legal moves: t_p = its favourite legal move, t_o = its favourite
   move of MIN(c) (spec P21: not a fixed static choice);
3. the loss of c is **−log Σ_{t ∈ MIN(c)} p(t | c)**, with p the softmax of the scores over
   the legal moves (Aufrant et al. 2018): any optimal move is right, so spurious ambiguity
   does not punish the model, and non-projective trees teach too.  Softmax is taken once,
   on the raw scores (the thesis's code applied cross-entropy to softmax outputs, a double
   softmax: digest §12.4);
4. the walk goes on with t_o, or, when exploring (regime "dynamic", epoch > k, with
   probability p), with t_p even if it is wrong: the parser then learns to recover from its
   own mistakes in the configurations they lead to.  The loss of a configuration is fixed
   *before* its move is taken; nothing is computed on the configuration after it (the
   thesis's reward on the post-action configuration, digest §12.6, is not repeated here).

Swap systems never explore into a wrong SWAP and never leave a correct one (spec §4.5):
when SW is optimal, or the model's wrong favourite is SW, the walk follows t_o.  A move
that makes every final configuration unreachable (infinite cost) is never explored.

The regimes differ only in the oracle and in exploration: "static" uses the static oracle
(its one gold move is MIN(c)), "nondeterministic" a cost oracle without exploration,
"dynamic" a cost oracle with exploration, and "imitation" (the thesis's chapter 8) the
learned DQN oracle without exploration: MIN(c) is the DQN's greedy move (its cost, max Q − Q,
is 0 there), so the parser learns to do what the DQN would.  Labels are learnt beside: whenever an arc move
is legal and builds a gold arc, the label scorer is taught that arc's gold label.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import torch
from torch import Tensor
from torch.nn import functional as F

from ..configuration import Configuration
from ..driver import max_steps
from ..errors import ParsingCoreError
from ..oracles import Oracle
from ..sentence import Sentence
from ..transition import SW, Transition
from .batch import Lockstep, flags, index_tensor
from .features import ARC_KINDS, MoveSpace
from .network import ParserNetwork
from .vocab import Vocab


@dataclass(frozen=True)
class Exploration:
    """EXPLORE_{k,p} for one epoch: ``on`` when the regime explores and the epoch is past k."""

    on: bool = False
    p: float = 0.0
    rng: random.Random = field(default_factory=lambda: random.Random(0))


@dataclass
class Supervision:
    """What one batch's walk teaches, row by row (one row per configuration that teaches)."""

    rows: list[list[int]] = field(default_factory=list)  # (S, F) feature rows
    legal: list[list[bool]] = field(default_factory=list)  # (S, K)
    best: list[list[bool]] = field(default_factory=list)  # (S, K) the minimum-cost set
    choice: list[bool] = field(default_factory=list)  # (S,) ≥ 2 legal moves: the move is taught
    label_at: list[tuple[int, int, int]] = field(default_factory=list)  # (row, arc kind, gold label)
    steps: int = 0  # configurations with a choice
    errors: int = 0  # ... where the model's favourite was not optimal
    explored: int = 0  # ... where the walk then followed it anyway
    dropped: int = 0  # sentences the oracle could not answer (e.g. too long for search)


class Choice(NamedTuple):
    move: Transition  # where the walk goes next
    best: list[Transition]  # the minimum-cost set
    mistaken: bool  # the model's favourite legal move t_p is not in it
    explored: bool  # ... and the walk follows t_p anyway


def choose(costs: dict[Transition, float], scores: Sequence[float], space: MoveSpace,
           explore: Exploration, can_swap: bool) -> Choice:
    """The next move of a training walk, and what the model got right (see the module docstring)."""
    low = min(costs.values())
    best = [t for t, v in costs.items() if v == low]
    score = {t: scores[space.index[t.kind]] for t in costs}
    t_p = max(costs, key=score.__getitem__)
    if t_p in best:
        return Choice(t_p, best, False, False)
    t_o = max(best, key=score.__getitem__)
    swap_guard = can_swap and (SW in best or t_p == SW)
    if explore.on and not swap_guard and not math.isinf(costs[t_p]) and explore.rng.random() < explore.p:
        return Choice(t_p, best, True, True)
    return Choice(t_o, best, True, False)


class Walker:
    """Walks batches with an oracle, recording the :class:`Supervision`.

    Each sentence slot of a batch gets its own oracle object: oracles keep per-sentence
    caches (the exact arc-standard oracle reuses its tables from step to step), and a
    batch's sentences are interleaved step by step, which would thrash a shared cache.
    """

    def __init__(self, make_oracle: Callable[[], Oracle], space: MoveSpace, vocab: Vocab,
                 network: ParserNetwork) -> None:
        self.make_oracle, self.space, self.vocab, self.network = make_oracle, space, vocab, network
        self.oracles: list[Oracle] = [make_oracle()]
        self.system = self.oracles[0].system

    def oracle(self, slot: int) -> Oracle:
        while len(self.oracles) <= slot:
            self.oracles.append(self.make_oracle())
        return self.oracles[slot]

    def walk(self, walk: Lockstep, table: Tensor, golds: Sequence[Sentence], explore: Exploration
             ) -> Supervision:
        sup = Supervision()
        limit = max_steps(self.system, max(s.n for s in golds))
        while walk.active:
            if walk.steps > limit:
                raise ParsingCoreError(f"a training walk did not finish after {limit} steps")
            self.step(walk, table, golds, explore, sup)
            walk.advance()
        return sup

    def step(self, walk: Lockstep, table: Tensor, golds: Sequence[Sentence], explore: Exploration,
             sup: Supervision) -> None:
        """One lockstep step: one scoring call for every configuration with a choice, then the moves."""
        legal = {i: self.system.legal(walk.configs[i]) for i in walk.active}
        choosing = [i for i in walk.active if len(legal[i]) > 1]
        rows = dict(zip(choosing, walk.rows(choosing)))
        scores: dict[int, list[float]] = {}
        if choosing:
            with torch.no_grad():
                moves, _ = self.network.score(table, index_tensor(list(rows.values()), table.device))
            scores = dict(zip(choosing, moves.tolist()))
        for i in list(walk.active):
            if i in scores:
                self.choose_and_move(walk, i, golds[i], legal[i], rows[i], scores[i], explore, sup)
            else:
                self.forced_move(walk, i, golds[i], legal[i][0], sup)

    def forced_move(self, walk: Lockstep, i: int, gold: Sentence, only: Transition, sup: Supervision) -> None:
        """One legal move: nothing to choose, maybe a label to learn."""
        c = walk.configs[i]
        labels = self.gold_labels(c, gold, (only,))
        if labels:
            self.add_row(walk.rows([i])[0], (only,), None, labels, sup)
        walk.move(i, self.system.apply(c, only))

    def choose_and_move(self, walk: Lockstep, i: int, gold: Sentence, legal: tuple[Transition, ...],
                        row: list[int], scores: list[float], explore: Exploration, sup: Supervision) -> None:
        """Ask the oracle, record what this configuration teaches, take the chosen move."""
        c = walk.configs[i]
        try:
            costs = self.oracle(i).teaching_costs(c, gold)
        except ParsingCoreError:  # e.g. TooLongForSearch: leave this sentence out
            costs = {}
        if not costs or math.isinf(min(costs.values())):
            walk.stop(i)
            sup.dropped += 1
            return
        choice = choose(costs, scores, self.space, explore, self.system.can_swap)
        self.add_row(row, legal, choice.best, self.gold_labels(c, gold, legal), sup)
        sup.errors += choice.mistaken
        sup.explored += choice.explored
        walk.move(i, self.system.apply(c, choice.move))

    def add_row(self, row: list[int], legal: tuple[Transition, ...], best: list[Transition] | None,
                labels: list[tuple[int, int]], sup: Supervision) -> None:
        """One configuration that teaches its minimum-cost set (if ``best``) and gold labels."""
        sup.rows.append(row)
        sup.legal.append(self.space.mask(legal))
        sup.best.append(self.space.mask(tuple(best or ())))
        sup.choice.append(best is not None)
        sup.steps += best is not None
        sup.label_at.extend((len(sup.rows) - 1, slot, label) for slot, label in labels)

    def gold_labels(self, c: Configuration, gold: Sentence, legal: tuple[Transition, ...]
                    ) -> list[tuple[int, int]]:
        """(arc kind, gold label) for each legal arc move that builds a gold arc."""
        if not self.network.n_labels:
            return []
        out = []
        for t in legal:
            if t.kind in ARC_KINDS:
                arc = self.system.move(t.kind).arc(c)  # legal: arc_of would check it again
                label = self.vocab.label_id(gold.label(arc[1])) if arc and arc in gold.gold_arcs else None
                if label is not None:
                    out.append((ARC_KINDS.index(t.kind), label))
        return out


def supervision_loss(network: ParserNetwork, table: Tensor, sup: Supervision) -> tuple[Tensor, Tensor]:
    """(move loss, label loss), each a mean over the rows that teach it; one scoring call."""
    zero = table.new_zeros(())
    if not sup.rows:
        return zero, zero
    device = table.device
    moves, labels = network.score(table, index_tensor(sup.rows, device))  # (S, K), (S, 2, L)
    choice = flags(sup.choice, device)
    move_loss = zero
    if sup.steps:
        legal = flags(sup.legal, device)[choice]  # (S', K)
        best = flags(sup.best, device)[choice]
        logp = moves[choice].masked_fill(~legal, -math.inf).log_softmax(dim=1)
        move_loss = -logp.masked_fill(~best, -math.inf).logsumexp(dim=1).mean()
    label_loss = zero
    if sup.label_at and labels is not None:
        row, slot, gold = index_tensor(sup.label_at, device).unbind(dim=1)
        label_loss = F.cross_entropy(labels[row, slot], gold)
    return move_loss, label_loss
