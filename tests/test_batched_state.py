"""The batched state walks exactly like one configuration at a time, in every system variant.

Random legal walks of whole batches: after every step, each row of the :class:`BatchState`
must be the configuration the one-sentence path reached, with the same legal moves, the
same key positions (children included), the same arcs per move and the same final test.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parsing_core as pc
from parsing_core.model.batched_costs import batched_costs
from parsing_core.model.features import MoveSpace, feature_rows, feature_tokens
from parsing_core.model.state import BatchState
from tests.strategies import SYSTEM_VARIANTS, trees, variant_id

LABELS = ("nsubj", "obj", "root")


def check_rows(system: pc.TransitionSystem, st_: BatchState, configs: list[pc.Configuration]) -> None:
    """Every row of ``st_`` is its configuration, read the batched way and the one-sentence way."""
    space = MoveSpace(system)
    mask, terminal = st_.legal_mask(), st_.terminal()
    arc_heads, arc_deps = st_.arcs()
    tokens, rows = st_.tokens(children=True), st_.feature_rows(40, 999, children=True)
    for i, c in enumerate(configs):
        assert st_.configuration(i) == c
        assert bool(terminal[i]) == system.is_terminal(c)
        assert mask[i].tolist() == space.mask(system.legal(c))
        assert tokens[i].tolist() == feature_tokens(c, children=True)
        assert rows[i].tolist() == feature_rows(c, 40 * i, 999, children=True)
        for k, kind in enumerate(space.kinds):
            if mask[i, k]:
                arc = system.arc_of(c, kind)
                assert (int(arc_heads[i, k]), int(arc_deps[i, k])) == (arc or (-1, -1))


def walk_both(system: pc.TransitionSystem, sentences: list[pc.Sentence], rnd: random.Random) -> int:
    """Random legal walks, one move per row and step, on both paths; the steps taken."""
    st_ = BatchState(system, [s.n for s in sentences], LABELS)
    configs = [system.initial(s) for s in sentences]
    steps = 0
    while True:
        check_rows(system, st_, configs)
        mask = st_.legal_mask()
        if not mask.any():
            return steps
        kinds, labels = [], []
        for i, c in enumerate(configs):
            options = np.flatnonzero(mask[i]).tolist()
            k = rnd.choice(options) if options else -1
            label = rnd.randrange(len(LABELS)) if system.labelled else -1
            kinds.append(k)
            labels.append(label)
            if k >= 0:
                t = pc.Transition(system.kinds[k], LABELS[label] if label >= 0 else None)
                configs[i] = system.apply(c, t)
        st_.apply(kinds, labels)
        steps += 1


@pytest.mark.parametrize("variant", SYSTEM_VARIANTS, ids=variant_id)
@settings(max_examples=25, deadline=None)
@given(forest=st.lists(trees(max_n=9), min_size=1, max_size=6), seed=st.integers(0, 2**16),
       labelled=st.booleans())
def test_batched_walks_match_one_sentence_walks(variant: tuple[str, dict[str, bool]],
                                                forest: list[tuple[int, ...]], seed: int,
                                                labelled: bool) -> None:
    name, options = variant
    system = pc.get_system(name, labelled=labelled, **options)
    sentences = [pc.Sentence.from_heads([f"w{i}" for i in range(len(h))], h) for h in forest]
    assert walk_both(system, sentences, random.Random(seed)) > 0


@pytest.mark.parametrize("variant", SYSTEM_VARIANTS, ids=variant_id)
def test_a_treebank_batch_walks_alike(variant: tuple[str, dict[str, bool]]) -> None:
    """Longer sentences of uneven lengths (the synthetic treebank, 30 % non-projective)."""
    from parsing_core.synthetic import synthetic_treebank

    name, options = variant
    system = pc.get_system(name, **options)
    sentences = synthetic_treebank(12, 0.3, seed=3, max_len=25)
    assert walk_both(system, sentences, random.Random(7)) >= max(s.n for s in sentences)


def test_a_system_without_batched_rules_is_refused() -> None:
    class Odd(pc.TransitionSystem):
        name = "odd"

    with pytest.raises(pc.ParsingCoreError, match="no batched rules"):
        BatchState(Odd(), [2])


DECOMPOSABLE = [("arc-eager", {}), ("arc-hybrid", {}), ("arc-hybrid", {"root_last": True})]


@pytest.mark.parametrize("variant", DECOMPOSABLE, ids=variant_id)
@settings(max_examples=25, deadline=None)
@given(forest=st.lists(trees(max_n=9), min_size=1, max_size=6), seed=st.integers(0, 2**16))
def test_batched_goldberg_nivre_costs_are_the_oracles(variant: tuple[str, dict[str, bool]],
                                                      forest: list[tuple[int, ...]], seed: int) -> None:
    """Along random walks, every legal move's batched cost is the oracle's; illegal ones cost ∞."""
    name, options = variant
    system = pc.get_system(name, **options)
    oracle, costs = pc.get_oracle(system, "goldberg-nivre"), batched_costs(name, "goldberg-nivre")
    assert costs is not None
    golds = [pc.Sentence.from_heads([f"w{i}" for i in range(len(h))], h) for h in forest]
    state, rnd = BatchState(system, [g.n for g in golds]), random.Random(seed)
    configs = [system.initial(g) for g in golds]
    heads = np.full((len(golds), state.stack.shape[1]), -1)
    for i, g in enumerate(golds):
        heads[i, 1:g.n + 1] = g.gold_heads
    while (mask := state.legal_mask()).any():
        table = costs(state, heads, mask)
        kinds = []
        for i, c in enumerate(configs):
            answer = oracle.costs(c, golds[i]) if mask[i].any() else {}
            want = {system.kinds.index(t.kind): v for t, v in answer.items()}
            assert {k: table[i, k] for k in np.flatnonzero(mask[i]).tolist()} == want
            assert np.isinf(table[i][~mask[i]]).all()
            kinds.append(rnd.choice(sorted(want)) if want else -1)
            configs[i] = system.apply(c, system.kinds[kinds[-1]]) if want else c
        state.apply(kinds)
