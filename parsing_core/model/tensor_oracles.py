"""The static oracle and Goldberg & Nivre's costs on a :class:`.tensor_state.TensorState`.

The same arithmetic as :mod:`.batched_costs` (where each count is explained) in torch, so
that a training step on a GPU asks its oracle without copying the state to the host: σ and
β become (B, T) membership masks, and each cost counts one token's gold head in one region
and its gold dependents in another.  The static oracle (:mod:`parsing_core.oracles.static`)
is its rules, each a boolean per row, tried in the rules' order: the first legal one is the
row's gold move (cost 0), every other legal move costs 1.

Where the trainer needs costs these do not give (arc-standard's exact and approximate
dynamic oracles, Nederhof's, search, the swap systems), :func:`tensor_costs` answers None
and the trainer walks on the numpy state.  ``tests/test_tensor_walks.py`` holds every cost
to the numpy and the one-configuration oracles.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch import Tensor

from .tensor_state import TensorState, at

INF = float("inf")
Costs = Callable[[TensorState, Tensor, Tensor], Tensor]  # (state, gold heads (B, T), legal (B, K)) → (B, K)


def member(tokens: Tensor, count: Tensor, width: int) -> Tensor:
    """(B, width) True at the tokens ``tokens[i, :count[i]]`` of each row."""
    inside = torch.arange(tokens.shape[1], device=tokens.device)[None, :] < count[:, None]
    out = torch.zeros((tokens.shape[0], width + 1), dtype=torch.bool, device=tokens.device)
    return out.scatter_(1, torch.where(inside, tokens, width), True)[:, :width]


def only(tokens: Tensor, width: int) -> Tensor:
    """(B, width) True at each row's one token (nowhere where it is −1)."""
    return torch.arange(width, device=tokens.device)[None, :] == tokens[:, None]


def links(gold: Tensor, x: Tensor, heads_from: Tensor, deps_from: Tensor) -> Tensor:
    """(B,) gold arcs h → x with h in ``heads_from`` plus x → d with d in ``deps_from`` (x = −1: 0)."""
    head = at(gold, x)
    has_head = (x > 0) & (head >= 0) & at(heads_from, head)
    deps = ((gold == x[:, None]) & deps_from).sum(dim=1)
    return torch.where(x >= 0, has_head.long() + deps, 0)


def hybrid_costs(st: TensorState, gold: Tensor) -> dict[str, Tensor]:
    """arc-hybrid: LA loses s0's links to s1 and β (its head) and to the buffer (its dependents)."""
    width = gold.shape[1]
    s0, b0 = st.s(0), st.b(0)
    stack, buffer = member(st.stack, st.sl, width), member(st.queue, st.ql, width)
    below, rest = stack & ~only(s0, width), buffer & ~only(b0, width)
    return {"LA": links(gold, s0, only(st.s(1), width) | rest, buffer),
            "RA": links(gold, s0, buffer, buffer),
            "SH": links(gold, b0, below, stack)}


def eager_costs(st: TensorState, gold: Tensor) -> dict[str, Tensor]:
    """arc-eager: as :func:`.batched_costs.eager_costs`."""
    width = gold.shape[1]
    s0, b0 = st.s(0), st.b(0)
    stack, buffer = member(st.stack, st.sl, width), member(st.queue, st.ql, width)
    below, rest = stack & ~only(s0, width), buffer & ~only(b0, width)
    words = torch.arange(width, device=gold.device)[None, :] > 0
    headless = stack & words & (st.heads < 0)
    return {"LA": links(gold, s0, rest, buffer),
            "RA": links(gold, b0, below | rest, headless),
            "RE": links(gold, s0, torch.zeros_like(stack), buffer),
            "SH": links(gold, b0, stack, headless)}


# -- the static oracle: each rule a (B,) boolean, in the order the rules are tried ----------------------
def complete(st: TensorState, gold: Tensor, token: Tensor) -> Tensor:
    """(B,) has ``token`` received all its gold dependents (−1: False)?"""
    mine = gold == token[:, None]
    return (token >= 0) & ((mine & (st.heads == token[:, None])).sum(dim=1) == mine.sum(dim=1))


def standard_rules(st: TensorState, gold: Tensor) -> list[tuple[str, Tensor]]:
    s0, s1 = st.s(0), st.s(1)
    both = (s0 >= 0) & (s1 >= 0)
    return [("LA", both & (s1 != 0) & (at(gold, s1) == s0) & complete(st, gold, s1)),
            ("RA", both & (s0 != 0) & (at(gold, s0) == s1) & complete(st, gold, s0))]


def eager_rules(st: TensorState, gold: Tensor) -> list[tuple[str, Tensor]]:
    i, j = st.s(0), st.b(0)
    both = (i >= 0) & (j >= 0)
    head_j = at(gold, j)
    cols = torch.arange(gold.shape[1], device=gold.device)[None, :]
    left_dep = ((gold == j[:, None]) & (cols >= 1) & (cols < i[:, None])).any(dim=1)
    reduce = st.has_head(i) & (((head_j >= 0) & (head_j < i)) | left_dep)
    return [("LA", both & (i != 0) & (at(gold, i) == j)), ("RA", both & (head_j == i)), ("RE", both & reduce),
            ("RE", j < 0)]  # the last: no buffer left (only the corrected system gets there)


def hybrid_rules(st: TensorState, gold: Tensor) -> list[tuple[str, Tensor]]:
    s0, s1, b0 = st.s(0), st.s(1), st.b(0)
    ready = (s0 > 0) & complete(st, gold, s0)
    head = at(gold, s0)
    return [("LA", ready & (b0 >= 0) & (head == b0)), ("RA", ready & (s1 >= 0) & (head == s1))]


STATIC_RULES = {"arc-standard": standard_rules, "arc-eager": eager_rules, "arc-hybrid": hybrid_rules}


def static_costs(st: TensorState, gold: Tensor, legal: Tensor) -> Tensor:
    """(B, K): 0 for the first rule whose move is legal (SH when none; else the first legal
    move), 1 for the other legal moves, ∞ for the illegal ones."""
    kinds = st.system.kinds
    rules = [*STATIC_RULES[st.system.name](st, gold), ("SH", torch.ones_like(legal[:, 0]))]
    move = legal.long().argmax(dim=1)  # no rule's move legal: the first legal move
    for kind, fires in reversed(rules):  # the earliest rule written last, so that it wins
        k = kinds.index(kind)
        move = torch.where(fires & legal[:, k], k, move)
    costs = torch.where(torch.arange(len(kinds), device=legal.device)[None, :] == move[:, None], 0.0, 1.0)
    return costs.masked_fill(~legal, INF)


def decomposed(rule: Callable[[TensorState, Tensor], dict[str, Tensor]]) -> Costs:
    def costs(st: TensorState, gold: Tensor, legal: Tensor) -> Tensor:
        by_kind = rule(st, gold)
        table = torch.stack([by_kind[k] for k in st.system.kinds], dim=1).float()
        return table.masked_fill(~legal, INF)

    return costs


COSTS: dict[tuple[str, str], Costs] = {
    ("arc-hybrid", "goldberg-nivre"): decomposed(hybrid_costs),
    ("arc-eager", "goldberg-nivre"): decomposed(eager_costs),
    **{(system, "static"): static_costs for system in STATIC_RULES},
}


def tensor_costs(system: str, oracle: str) -> Costs | None:
    """A function (state, gold heads (B, T), legal (B, K)) → costs (B, K), ∞ where illegal; None
    where the oracle has no tensor form (the trainer then walks on the numpy state)."""
    return COSTS.get((system, oracle))
