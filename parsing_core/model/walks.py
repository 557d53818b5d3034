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
from typing import Any, NamedTuple

import numpy as np
import torch
from torch import Tensor

from ..configuration import Configuration
from ..driver import max_steps
from ..errors import ParsingCoreError
from ..oracles import Costs
from ..sentence import Sentence
from .batched_costs import batched_costs
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


class Choices(NamedTuple):
    """:func:`.explore.choose` for C configurations at once: (C,) kinds and flags, (C, K) MIN(c)."""

    move: Array  # the kind each walk takes next (−1: dropped, no move has a finite cost)
    best: Array  # (C, K) the minimum-cost set
    mistaken: Array  # the model's favourite legal move is not in it
    explored: Array  # ... and the walk follows it anyway


def choose_all(costs: Array, scores: Array, legal: Array, explore: Exploration, swap: int | None) -> Choices:
    """The next moves of C training walks (costs ∞ where illegal), as :func:`.explore.choose` takes
    them one by one: ties go to the first kind, the random draws are made in row order."""
    low = costs.min(axis=1)
    best = legal & (costs == low[:, None])
    t_p = np.where(legal, scores, -np.inf).argmax(axis=1)
    t_o = np.where(best, scores, -np.inf).argmax(axis=1)
    rows = np.arange(len(costs))
    mistaken = ~best[rows, t_p]
    guard = (best[:, swap] | (t_p == swap)) if swap is not None else np.zeros(len(costs), dtype=bool)
    candidates = mistaken & ~guard & np.isfinite(costs[rows, t_p]) if explore.on else np.zeros_like(mistaken)
    explored = np.zeros_like(mistaken)
    for j in np.flatnonzero(candidates).tolist():
        explored[j] = explore.rng.random() < explore.p
    move = np.where(np.isinf(low), -1, np.where(~mistaken | explored, t_p, t_o))
    return Choices(move, best, mistaken, explored)


class BatchedWalker(Walker):
    """A :class:`.explore.Walker` whose bookkeeping is done for the whole batch at once.

    With an oracle that has a batched form (:mod:`.batched_costs`) the costs and the choices
    are array operations too, and no configuration object is built at all.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.costs = batched_costs(self.system.name, self.oracles[0].name)
        self.swap = self.space.index.get("SW")

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
            if self.costs is not None:
                kinds = self.array_step(state, active, gold, layout, table, explore, sup)
            else:
                kinds = self.batch_step(state, configs, active, golds, gold, layout, table, explore, sup)
            state.apply(kinds)
            moved = active[kinds[active] >= 0]
            active = moved[~state.terminal()[moved]]
            steps += 1
        return sup

    def batch_step(self, state: BatchState, configs: list[Configuration], active: Array,
                   golds: Sequence[Sentence], gold: GoldArrays, layout: tuple[int, int, bool], table: Tensor,
                   explore: Exploration, sup: Supervision) -> Array:
        """One step for every active row: (B,) the kind each row takes (−1: none, or dropped).

        The network's scores are asked for first and read last.  The oracle (Python, one
        configuration at a time) finds each row's costs in between: they do not depend on the
        scores, so on a GPU they are computed while its kernels run, not after a wait for them.
        """
        mask = state.legal_mask()
        rows = state.feature_rows(*layout)
        choosing = active[mask[active].sum(axis=1) > 1]
        moves = self.ask_scores(table, rows, choosing)
        labels = self.gold_label_rows(state, mask, gold)
        choosers = choosing.tolist()
        costs = {i: self.teaching_costs(configs[i], i, golds[i]) for i in choosers}
        scores = dict(zip(choosers, moves.tolist())) if moves is not None else {}
        kinds = np.full(state.size, -1, dtype=np.int64)
        for i in active.tolist():
            legal = mask[i]
            if i in scores:
                kinds[i] = self.choose_row(costs[i], legal, rows[i], scores[i], labels[i], explore, sup)
            else:
                kinds[i] = int(np.flatnonzero(legal)[0])
                if labels[i]:
                    self.add_mask_row(rows[i], legal, None, labels[i], sup)
            if kinds[i] >= 0:
                move = self.system.move(self.space.kinds[kinds[i]])
                configs[i] = move.effect(configs[i], None)
        return kinds

    def array_step(self, state: BatchState, active: Array, gold: GoldArrays, layout: tuple[int, int, bool],
                   table: Tensor, explore: Exploration, sup: Supervision) -> Array:
        """One step with a batched oracle: costs, choices, moves and what they teach as array
        operations; as in :meth:`batch_step`, the costs are found while the device scores."""
        assert self.costs is not None
        mask = state.legal_mask()
        rows = state.feature_rows(*layout)
        choosing = active[mask[active].sum(axis=1) > 1]
        moves = self.ask_scores(table, rows, choosing)
        labels = self.gold_label_rows(state, mask, gold)
        kinds = np.full(state.size, -1, dtype=np.int64)
        kinds[active] = mask[active].argmax(axis=1)  # the only legal move, where there is one
        taught = np.array([bool(labels[i]) for i in active.tolist()], dtype=bool)  # forced: labels only
        best = np.zeros((len(active), mask.shape[1]), dtype=bool)
        chose = np.zeros(len(active), dtype=bool)
        if moves is not None:
            costs = self.costs(state, gold.heads, mask)[choosing]
            picked = choose_all(costs, moves.cpu().numpy(), mask[choosing], explore, self.swap)
            kinds[choosing] = picked.move
            at = np.searchsorted(active, choosing)  # choosing is a subsequence of active
            kept = picked.move >= 0
            sup.dropped += int((~kept).sum())
            taught[at] = kept
            chose[at[kept]] = True
            best[at[kept]] = picked.best[kept]
            sup.errors += int(picked.mistaken[kept].sum())
            sup.explored += int(picked.explored[kept].sum())
        which = active[taught]
        taught_labels = [labels[i] for i in which.tolist()]
        self.add_mask_rows(rows[which], mask[which], best[taught], chose[taught], taught_labels, sup)
        return kinds

    def ask_scores(self, table: Tensor, rows: Array, choosing: Array) -> Tensor | None:
        """The move scores (N, K) of the ``choosing`` rows' configurations, asked of the network
        (None: no row has a choice).  On a GPU they are on their way, not there yet: the step reads
        them once the oracle's work is done."""
        if not len(choosing):
            return None
        with torch.no_grad():
            return self.network.score_moves(table, torch.from_numpy(rows[choosing]).to(table.device))

    def teaching_costs(self, config: Configuration, i: int, gold: Sentence) -> Costs:
        """Row i's costs from its oracle (none: the sentence is left out, e.g. too long for search)."""
        try:
            return self.oracle(i).teaching_costs(config, gold)
        except ParsingCoreError:  # e.g. TooLongForSearch: leave this sentence out
            return {}

    def choose_row(self, costs: Costs, legal: Array, row: Array, scores: list[float],
                   labels: list[tuple[int, int]], explore: Exploration, sup: Supervision) -> int:
        """Choose row i's move from its oracle's ``costs``, record what it teaches; the kind it
        takes (−1: dropped, when the oracle gave no finite cost)."""
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
        """:meth:`.explore.Walker.add_row`, from the batch's arrays (``best`` None: nothing to choose)."""
        self.add_mask_rows(row[None], legal[None], np.array([best or [False] * len(legal)], dtype=bool),
                           np.array([best is not None]), [labels], sup)

    def add_mask_rows(self, rows: Array, legal: Array, best: Array, chose: Array,
                      labels: Sequence[list[tuple[int, int]]], sup: Supervision) -> None:
        """Several configurations that teach, one per row of each argument: feature rows (N, F),
        legal masks (N, K), minimum-cost sets (N, K), whether each taught a choice (N,), gold labels."""
        start = len(sup.rows)
        sup.rows.extend(rows.tolist())
        sup.legal.extend(legal.tolist())
        sup.best.extend(best.tolist())
        sup.choice.extend(chose.tolist())
        sup.steps += int(chose.sum())
        for n, pairs in enumerate(labels):
            sup.label_at.extend((start + n, slot, label) for slot, label in pairs)

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
