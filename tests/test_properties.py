"""Hypothesis: random trees up to 12 tokens, random legal walks, every system."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import SYSTEM_VARIANTS, sentence, trees, variant_id

import parsing_core as pc

SYSTEMS = [pc.get_system(name, **options) for name, options in SYSTEM_VARIANTS]
IDS = [variant_id(v) for v in SYSTEM_VARIANTS]


def random_walk(system, s, rnd, oracle=None):
    """Follow random legal moves to the end; yield (configuration, move) pairs along the way."""
    c = system.initial(s)
    for _ in range(pc.driver.max_steps(system, s.n)):
        legal = system.legal(c)
        if not legal:
            return
        t = rnd.choice(legal)
        yield c, t
        c = system.apply(c, t)


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
@settings(max_examples=60, deadline=None)
@given(heads=trees(max_n=12), rnd=st.randoms(use_true_random=False))
def test_random_walks_never_crash_and_never_mutate(system, heads, rnd):
    s = sentence(heads)
    steps = 0
    for c, t in random_walk(system, s, rnd):
        before = (c.stack, c.buffer, c.heads, c.labels)
        after = system.apply(c, t)
        assert (c.stack, c.buffer, c.heads, c.labels) == before  # apply returns a new value
        assert hash(after) == hash(pc.Configuration(after.stack, after.buffer, after.heads, after.labels))
        arc = system.arc_of(c, t)
        if arc is not None:
            assert after.head_of(arc[1]) == arc[0] and c.head_of(arc[1]) is None
        for other, reason in system.reasons(c).items():
            assert (reason is None) == (other in system.legal(c))
            if reason is not None:
                with pytest.raises(pc.IllegalTransition, match="not possible"):
                    system.apply(c, other)
        steps += 1
    assert steps <= pc.driver.max_steps(system, s.n)


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
@settings(max_examples=40, deadline=None)
@given(heads=trees(max_n=12))
def test_static_oracle_rebuilds_random_trees(system, heads):
    s = sentence(heads)
    if system.why_unbuildable(s) is not None:
        with pytest.raises(pc.NotBuildable):
            pc.gold_sequence(system, s)
        return
    trace = pc.replay(system, s, pc.gold_sequence(system, s))
    assert trace.is_complete and trace.heads == heads


@pytest.mark.parametrize("system", [s for s in SYSTEMS if not s.can_swap], ids=[
    i for i, s in zip(IDS, SYSTEMS) if not s.can_swap])
@settings(max_examples=25, deadline=None)
@given(heads=trees(max_n=7), rnd=st.randoms(use_true_random=False))
def test_search_costs_are_consistent_along_random_walks(system, heads, rnd):
    """best(c) = max over moves of best(t(c)); costs are ≥ 0 and some move costs 0."""
    s = sentence(heads)
    search = pc.get_oracle(system, "search")
    for c, _ in random_walk(system, s, rnd):
        costs = search.costs(c, s)
        assert set(costs) == set(system.legal(c))
        assert min(costs.values()) == 0 and all(v >= 0 for v in costs.values())
        best = search.best(c, s)
        for move, cost in costs.items():
            after = search.best(system.apply(c, move), s)
            assert cost == (math.inf if after == -math.inf else best - after)
