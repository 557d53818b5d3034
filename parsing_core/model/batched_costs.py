"""Goldberg & Nivre's arc-decomposable costs for a whole batch at once (arc-eager, arc-hybrid).

:mod:`parsing_core.oracles.goldberg_nivre` counts, for one configuration, the gold arcs a
move makes unreachable: the gold links of one token x (its gold head, its gold dependents)
with some region of the stack and the buffer.  Every such count is a few array operations
over a batch: membership of each token in σ, β and their parts is a boolean (B, T) array,
and ``links(x, heads_from, deps_from)`` counts x's gold head in one region and x's gold
dependents in another, for every row at once.  ``tests/test_batched_training.py`` holds these
costs to the oracle's own, configuration by configuration.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .rules import Array
from .state import BatchState

INF = np.inf


@dataclass(frozen=True)
class Regions:
    """Which tokens lie where, row by row: (B, T) booleans (column 0 is ROOT)."""

    stack: Array  # σ, s0 included
    below: Array  # σ without s0
    s1: Array  # only s1
    buffer: Array  # b|β
    rest: Array  # β without b
    headless: Array  # stack words without a head yet


def member(tokens: Array, count: Array, width: int) -> Array:
    """(B, width) True at the tokens ``tokens[i, :count[i]]`` of each row."""
    inside = np.arange(tokens.shape[1])[None, :] < count[:, None]
    out = np.zeros((tokens.shape[0], width + 1), dtype=bool)
    out[np.arange(tokens.shape[0])[:, None], np.where(inside, tokens, width)] = True
    return out[:, :width]


def regions(st: BatchState) -> Regions:
    width, rows = st.stack.shape[1], st.rows
    stack, buffer = member(st.stack, st.sl, width), member(st.queue, st.ql, width)
    s0, s1, b0 = st.s(0), st.s(1), st.b(0)
    below, rest = stack.copy(), buffer.copy()
    below[rows, np.maximum(s0, 0)] &= s0 < 0  # σ without s0 (a token is on the stack once)
    rest[rows, np.maximum(b0, 0)] &= b0 < 0  # β without b
    only_s1 = np.zeros_like(stack)
    only_s1[rows, np.maximum(s1, 0)] = s1 >= 0
    words = np.arange(width)[None, :] > 0
    return Regions(stack, below, only_s1, buffer, rest, stack & words & (st.heads < 0))


def links(gold: Array, rows: Array, x: Array, heads_from: Array, deps_from: Array) -> Array:
    """(B,) gold arcs h → x with h in ``heads_from`` plus x → d with d in ``deps_from`` (x = −1: 0)."""
    at = np.maximum(x, 0)
    head = gold[rows, at]
    has_head = (x > 0) & (head >= 0) & heads_from[rows, np.maximum(head, 0)]
    deps = ((gold == x[:, None]) & deps_from).sum(axis=1)
    return np.where(x >= 0, has_head + deps, 0)


def hybrid_costs(st: BatchState, gold: Array, r: Regions) -> dict[str, Array]:
    """arc-hybrid (Goldberg & Nivre 2013): C(LEFT), C(RIGHT), C(SHIFT)."""
    s0, b0, rows = st.s(0), st.b(0), st.rows
    return {"LA": links(gold, rows, s0, r.s1 | r.rest, r.buffer),
            "RA": links(gold, rows, s0, r.buffer, r.buffer),
            "SH": links(gold, rows, b0, r.below, r.stack)}


def eager_costs(st: BatchState, gold: Array, r: Regions) -> dict[str, Array]:
    """arc-eager (Goldberg & Nivre 2012)."""
    s0, b0, rows = st.s(0), st.b(0), st.rows
    nothing = np.zeros_like(r.stack)
    return {"LA": links(gold, rows, s0, r.rest, r.buffer),
            "RA": links(gold, rows, b0, r.below | r.rest, r.headless),
            "RE": links(gold, rows, s0, nothing, r.buffer),
            "SH": links(gold, rows, b0, r.stack, r.headless)}


CostRule = Callable[[BatchState, Array, Regions], dict[str, Array]]
RULES: dict[tuple[str, str], CostRule] = {("arc-hybrid", "goldberg-nivre"): hybrid_costs,
                                          ("arc-eager", "goldberg-nivre"): eager_costs}


def batched_costs(system: str, oracle: str) -> Callable[[BatchState, Array, Array], Array] | None:
    """A function (state, gold heads (B, T), legal mask (B, K)) → costs (B, K), ∞ where illegal;
    None when the oracle has no batched form (it is then asked one configuration at a time)."""
    rule = RULES.get((system, oracle))
    if rule is None:
        return None

    def costs(st: BatchState, gold: Array, legal: Array) -> Array:
        by_kind = rule(st, gold, regions(st))
        table = np.stack([by_kind[k] for k in st.system.kinds], axis=1).astype(float)
        return np.where(legal, table, INF)

    return costs
