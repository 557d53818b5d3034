"""The tensor state walks, reads and costs exactly like the numpy state, over thousands of random trees.

Random legal walks of whole batches (seeded random trees, projective and not, 1 to 16 words)
move a :class:`TensorState` and a :class:`BatchState` in lockstep: after every step both must
hold the same configurations, legal masks, final flags, arcs per legal move and feature rows
(children included); the Goldberg–Nivre costs must be the numpy ones, and the static oracle's
tensor costs those of :class:`parsing_core.oracles.static.StaticOracle`, configuration by
configuration.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
import torch

import parsing_core as pc
from parsing_core.model.batched_costs import batched_costs
from parsing_core.model.state import BatchState
from parsing_core.model.tensor_oracles import tensor_costs
from parsing_core.model.tensor_state import TensorState, supports
from parsing_core.trees import is_projective
from tests.strategies import random_tree, variant_id

LABELS = ("nsubj", "obj", "root")
VARIANTS = [("arc-standard", {}), ("arc-standard", {"single_root": True}), ("arc-eager", {}),
            ("arc-hybrid", {}), ("arc-hybrid", {"root_last": True})]


def projective_tree(rnd: random.Random, n: int, root_last: bool = False) -> tuple[int, ...]:
    """A random projective tree over n tokens (ROOT first, or last): a span's tokens hang from
    one of them, r, and the spans left and right of r from r or from the span's own head."""
    heads = [0] * (n + 2)

    def attach(lo: int, hi: int, head: int) -> None:
        if lo <= hi:
            r = rnd.randint(lo, hi)
            heads[r] = head
            attach(lo, r - 1, rnd.choice([head, r]))
            attach(r + 1, hi, rnd.choice([head, r]))

    attach(1, n, n + 1 if root_last else 0)
    return tuple(0 if h == n + 1 else h for h in heads[1:n + 1])


def forest(rnd: random.Random, size: int, root_last: bool = False, projective: bool = False,
           single_root: bool = False) -> list[pc.Sentence]:
    """``size`` random trees of 1 to 16 words (projective only, with one root each, if asked)."""
    out: list[pc.Sentence] = []
    while len(out) < size:
        n = rnd.randint(1, 16)
        heads = projective_tree(rnd, n, root_last) if projective else random_tree(rnd, n, None, root_last)
        if not single_root or heads.count(0) == 1:
            out.append(pc.Sentence.from_heads([f"w{i}" for i in range(len(heads))], heads))
    assert not projective or all(is_projective(g.gold_heads, root_last) for g in out)
    return out


def gold_heads(golds: list[pc.Sentence], cap: int) -> np.ndarray:
    heads = np.full((len(golds), cap), -1)
    for i, g in enumerate(golds):
        heads[i, 1:g.n + 1] = g.gold_heads
    return heads


def same_reading(numpy_state: BatchState, tensor_state: TensorState) -> np.ndarray:
    """Both states hold the same configurations (σ, β, arcs, outer dependents) and read alike
    (legal masks, final flags, arcs of the legal moves, feature rows); the legal mask."""
    sl, ql = numpy_state.sl, numpy_state.ql
    assert np.array_equal(tensor_state.sl.numpy(), sl) and np.array_equal(tensor_state.ql.numpy(), ql)
    cols = np.arange(numpy_state.stack.shape[1])[None, :]
    assert np.array_equal(np.where(cols < sl[:, None], tensor_state.stack.numpy(), -2),
                          np.where(cols < sl[:, None], numpy_state.stack, -2))
    assert np.array_equal(np.where(cols < ql[:, None], tensor_state.queue.numpy(), -2),
                          np.where(cols < ql[:, None], numpy_state.queue, -2))
    for field in ("heads", "labels", "leftmost", "rightmost"):
        assert np.array_equal(getattr(tensor_state, field).numpy(), getattr(numpy_state, field)), field
    mask = numpy_state.legal_mask()
    assert np.array_equal(tensor_state.legal_mask().numpy(), mask)
    assert np.array_equal(tensor_state.terminal().numpy(), numpy_state.terminal())
    for children in (False, True):
        assert np.array_equal(tensor_state.feature_rows(20, 999, children).numpy(),
                              numpy_state.feature_rows(20, 999, children))
    for mine, theirs in zip(tensor_state.arcs(), numpy_state.arcs()):
        assert np.array_equal(np.where(mask, mine.numpy(), -1), np.where(mask, theirs, -1))
    return mask


def walk_both(system: pc.TransitionSystem, golds: list[pc.Sentence], rnd: random.Random,
              oracle: str | None = None) -> int:
    """Random legal walks on both states (checking their costs under ``oracle``); the steps taken."""
    numpy_state = BatchState(system, [g.n for g in golds], LABELS)
    tensor_state = TensorState(system, [g.n for g in golds], "cpu", LABELS)
    heads = gold_heads(golds, numpy_state.stack.shape[1])
    steps = 0
    while (mask := same_reading(numpy_state, tensor_state)).any():
        if oracle is not None:
            check_costs(system, oracle, golds, numpy_state, tensor_state, heads, mask)
        kinds = [rnd.choice(np.flatnonzero(row).tolist()) if row.any() else -1 for row in mask]
        labels = [rnd.randrange(len(LABELS)) if system.labelled and k >= 0 else -1 for k in kinds]
        numpy_state.apply(kinds, labels)
        tensor_state.apply(torch.tensor(kinds), torch.tensor(labels))
        steps += 1
    assert tensor_state.configurations() == [numpy_state.configuration(i) for i in range(len(golds))]
    return steps


def check_costs(system: pc.TransitionSystem, oracle: str, golds: list[pc.Sentence], numpy_state: BatchState,
                tensor_state: TensorState, heads: np.ndarray, mask: np.ndarray) -> None:
    costs = tensor_costs(system.name, oracle)
    assert costs is not None
    mine = costs(tensor_state, torch.from_numpy(heads), torch.from_numpy(mask)).numpy()
    batched = batched_costs(system.name, oracle)
    if batched is not None:  # Goldberg–Nivre: the numpy path's own batched costs
        assert np.array_equal(mine, batched(numpy_state, heads, mask))
        return
    judge = pc.get_oracle(system, oracle)  # static: the numpy path asks the oracle row by row
    for i in np.flatnonzero(mask.any(axis=1)).tolist():
        answer = judge.teaching_costs(numpy_state.configuration(i), golds[i])
        want = np.full(len(system.kinds), np.inf)
        for t, v in answer.items():
            want[system.kinds.index(t.kind)] = v
        assert np.array_equal(mine[i], want), (golds[i].gold_heads, numpy_state.configuration(i))


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_tensor_walks_match_numpy_walks(variant: tuple[str, dict[str, bool]]) -> None:
    """512 random trees a variant, labelled and not, projective or not."""
    name, options = variant
    rnd = random.Random(variant_id(variant))
    for labelled in (False, True):
        system = pc.get_system(name, labelled=labelled, **options)
        for _ in range(8):
            golds = forest(rnd, 32, system.root_last, single_root=options.get("single_root", False))
            assert walk_both(system, golds, rnd) >= max(g.n for g in golds)


COSTED = [("arc-eager", {}, "goldberg-nivre"), ("arc-hybrid", {}, "goldberg-nivre"),
          ("arc-hybrid", {"root_last": True}, "goldberg-nivre"), ("arc-standard", {}, "static"),
          ("arc-eager", {}, "static"), ("arc-hybrid", {}, "static"),
          ("arc-hybrid", {"root_last": True}, "static")]


@pytest.mark.parametrize(("name", "options", "oracle"), COSTED,
                         ids=[f"{variant_id((n, o))}-{k}" for n, o, k in COSTED])
def test_tensor_costs_are_the_numpy_paths(name: str, options: dict[str, bool], oracle: str) -> None:
    """Along random walks over 256 random trees (the static oracle: projective ones, which it
    can build), every cost is the numpy path's."""
    system = pc.get_system(name, **options)
    rnd = random.Random(f"{name}{options}{oracle}")
    for _ in range(8):
        golds = forest(rnd, 32, system.root_last, projective=oracle == "static")
        assert walk_both(system, golds, rnd, oracle) > 0


def test_swap_systems_stay_on_the_numpy_state() -> None:
    assert not supports(pc.get_system("arc-hybrid-swap"))
    assert tensor_costs("arc-standard", "exact") is None  # Python by nature: the numpy path asks it
    with pytest.raises(pc.ParsingCoreError, match="no moves"):
        TensorState(pc.get_system("arc-standard-swap"), [3])
