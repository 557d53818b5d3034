"""Training walks on the batched state: the same walk as :class:`.explore.Walker`, fewer Python steps.

:class:`.explore.Walker` asks every configuration of a batch, one by one, for its legal
moves, its key positions and the gold labels of its arc moves.  :class:`BatchedWalker` reads
all of those off a :class:`.state.BatchState` in a few array operations per step; what stays
per configuration is what is truly per configuration: the oracle's costs (oracles are
functions of one configuration and its gold tree), the choice among the minimum-cost moves
(:func:`.explore.choose`, with its random draws in the same order) and the configuration the
oracle reads next (the move's ``effect``, as the one-sentence path applies it).

The :class:`.explore.Supervision` it returns is the old walker's, row for row
(``tests/test_batched_training.py``), so a fixed seed gives the same losses on both paths.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import torch
from torch import Tensor

from ..configuration import Configuration
from ..driver import max_steps
from ..errors import ParsingCoreError
from ..sentence import Sentence
from .explore import Exploration, Supervision, Walker, choose
from .features import ARC_KINDS
from .rules import Array
from .state import BatchState


class GoldArrays:
    """The gold heads (B, cap) and gold label ids (B, cap) of a batch, −1 where there are none."""

    def __init__(self, golds: Sequence[Sentence], cap: int, label_id: Callable[[str | None], int | None]
                 ) -> None:
        self.heads = np.full((len(golds), cap), -1, dtype=np.int64)
        self.labels = np.full((len(golds), cap), -1, dtype=np.int64)
        for i, g in enumerate(golds):
            self.heads[i, 1:g.n + 1] = g.gold_heads
            if g.labels is not None:
                self.labels[i, 1:g.n + 1] = [-1 if (x := label_id(lab)) is None else x for lab in g.labels]


class BatchedWalker(Walker):
    """A :class:`.explore.Walker` whose bookkeeping is done for the whole batch at once."""

    def walk_batch(self, golds: Sequence[Sentence], width: int, children: bool, table: Tensor,
                   explore: Exploration) -> Supervision:
        """Walk the batch ``golds`` (the table's sentences, ``width`` rows each) to the end."""
        state = BatchState(self.system, [g.n for g in golds])
        gold = GoldArrays(golds, state.stack.shape[1], self.vocab.label_id)
        configs = [self.system.initial(g) for g in golds]
        active = np.flatnonzero(~state.terminal())
        sup, limit, steps = Supervision(), max_steps(self.system, max(g.n for g in golds)), 0
        while len(active):
            if steps > limit:
                raise ParsingCoreError(f"a training walk did not finish after {limit} steps")
            layout = (width, len(golds) * width, children)
            kinds = self.batch_step(state, configs, active, golds, gold, layout, table, explore, sup)
            state.apply(kinds)
            moved = active[kinds[active] >= 0]
            active = moved[~state.terminal()[moved]]
            steps += 1
        return sup

    def batch_step(self, state: BatchState, configs: list[Configuration], active: Array,
                   golds: Sequence[Sentence], gold: GoldArrays, layout: tuple[int, int, bool], table: Tensor,
                   explore: Exploration, sup: Supervision) -> Array:
        """One step for every active row: (B,) the kind each row takes (−1: none, or dropped)."""
        mask = state.legal_mask()
        rows = state.feature_rows(*layout)
        labels = self.gold_label_rows(state, mask, gold)
        choosing = active[mask[active].sum(axis=1) > 1]
        scores: dict[int, list[float]] = {}
        if len(choosing):
            with torch.no_grad():
                moves, _ = self.network.score(table, torch.from_numpy(rows[choosing]).to(table.device))
            scores = dict(zip(choosing.tolist(), moves.tolist()))
        kinds = np.full(state.size, -1, dtype=np.int64)
        for i in active.tolist():
            legal = mask[i]
            if i in scores:
                kinds[i] = self.choose_row(configs, i, golds[i], legal, rows[i], scores[i], labels[i],
                                           explore, sup)
            else:
                kinds[i] = int(np.flatnonzero(legal)[0])
                if labels[i]:
                    self.add_mask_row(rows[i], legal, None, labels[i], sup)
            if kinds[i] >= 0:
                move = self.system.move(self.space.kinds[kinds[i]])
                configs[i] = move.effect(configs[i], None)
        return kinds

    def choose_row(self, configs: list[Configuration], i: int, gold: Sentence, legal: Array, row: Array,
                   scores: list[float], labels: list[tuple[int, int]], explore: Exploration,
                   sup: Supervision) -> int:
        """Ask the oracle about row i, record what it teaches; the kind it takes (−1: dropped)."""
        try:
            costs = self.oracle(i).teaching_costs(configs[i], gold)
        except ParsingCoreError:  # e.g. TooLongForSearch: leave this sentence out
            costs = {}
        if not costs or math.isinf(min(costs.values())):
            sup.dropped += 1
            return -1
        choice = choose(costs, scores, self.space, explore, self.system.can_swap)
        self.add_mask_row(row, legal, self.space.mask(tuple(choice.best)), labels, sup)
        sup.errors += choice.mistaken
        sup.explored += choice.explored
        return self.space.index[choice.move.kind]

    def add_mask_row(self, row: Array, legal: Array, best: list[bool] | None, labels: list[tuple[int, int]],
                     sup: Supervision) -> None:
        """:meth:`.explore.Walker.add_row`, from the batch's arrays."""
        sup.rows.append(row.tolist())
        sup.legal.append(legal.tolist())
        sup.best.append(best or [False] * len(legal))
        sup.choice.append(best is not None)
        sup.steps += best is not None
        sup.label_at.extend((len(sup.rows) - 1, slot, label) for slot, label in labels)

    def gold_label_rows(self, state: BatchState, mask: Array, gold: GoldArrays
                        ) -> list[list[tuple[int, int]]]:
        """For each row, (arc kind, gold label) of each legal arc move that builds a gold arc."""
        out: list[list[tuple[int, int]]] = [[] for _ in range(state.size)]
        if not self.network.n_labels:
            return out
        heads, deps = state.arcs()
        for slot, kind in enumerate(ARC_KINDS):
            k = self.space.index.get(kind)
            if k is None:
                continue
            dep = np.maximum(deps[:, k], 0)
            label = gold.labels[state.rows, dep]
            hit = mask[:, k] & (deps[:, k] > 0) & (gold.heads[state.rows, dep] == heads[:, k]) & (label >= 0)
            for i in np.flatnonzero(hit).tolist():
                out[i].append((slot, int(label[i])))
        return out
