"""The glossary's claims about costs (``parsing_core``'s docstring), checked by brute force on small trees.

A gold arc is *reachable* from c when some final configuration reachable from c holds it.  The
glossary says a cost is the number of gold arcs a move makes unreachable exactly in the
arc-decomposable systems with a projective gold tree, and not elsewhere.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from strategies import all_trees, sentence

import parsing_core as pc
from parsing_core.trees import is_projective

Arc = pc.Arc

DECOMPOSABLE = [("arc-eager", {}), ("arc-eager-corrected", {}), ("arc-hybrid", {}),
                ("arc-hybrid", {"root_last": True})]
NOT_DECOMPOSABLE = [("arc-standard", {}), ("arc-standard", {"single_root": True}), ("arc-hybrid-swap", {}),
                    ("arc-standard-swap", {})]


def reachable(system: pc.TransitionSystem, gold: pc.Sentence) -> Callable[[pc.Configuration], frozenset[Arc]]:
    """The gold arcs some final configuration reachable from c holds (memoised over the whole parse)."""
    gold_arcs = {(gold.head(d), d) for d in range(1, gold.n + 1)}
    memo: dict[pc.Configuration, frozenset[Arc]] = {}

    def reach(c: pc.Configuration) -> frozenset[Arc]:
        if c not in memo:
            arcs: set[Arc] = set()
            if system.is_terminal(c):
                arcs = {(h, d) for d, h in enumerate(c.heads, 1) if h is not None} & gold_arcs
            for t in system.legal(c):
                arcs |= reach(system.apply(c, t))
            memo[c] = frozenset(arcs)
        return memo[c]

    return reach


Move = tuple[pc.Configuration, pc.Transition]


def mismatches(system: pc.TransitionSystem, gold: pc.Sentence) -> list[Move]:
    """Every (c, t) of a parse of ``gold`` whose finite cost is not the number of arcs t makes unreachable."""
    reach, oracle = reachable(system, gold), pc.get_oracle(system, "search")
    found: list[Move] = []
    seen: set[pc.Configuration] = set()
    todo = [system.initial(gold)]
    while todo:
        c = todo.pop()
        if c in seen:
            continue
        seen.add(c)
        for t, cost in oracle.costs(c, gold).items():
            after = system.apply(c, t)
            todo.append(after)
            if cost != math.inf and cost != len(reach(c) - reach(after)):
                found.append((c, t))
    return found


def test_the_glossary_says_when_a_cost_counts_lost_arcs() -> None:
    doc = " ".join((pc.__doc__ or "").split())
    entry = doc[doc.index("oracle Knows the gold tree"):doc.index(" trace The configurations")]
    assert "best(t(c)), the gold arcs a move makes unreachable" not in entry  # the old, false definition
    assert "arc-decomposable" in entry and "projective gold tree" in entry and "Elsewhere" in entry


@pytest.mark.parametrize(("name", "options"), DECOMPOSABLE, ids=lambda v: str(v))
def test_with_a_projective_gold_tree_a_cost_counts_arcs_made_unreachable(name: str, options: dict) -> None:
    system = pc.get_system(name, **options)
    for n in (1, 2, 3, 4):
        for heads in all_trees(n):
            if is_projective(heads, system.root_last):
                assert mismatches(system, sentence(heads)) == [], heads


@pytest.mark.parametrize(("name", "options"), NOT_DECOMPOSABLE, ids=lambda v: str(v))
def test_elsewhere_a_cost_is_no_count_of_lost_arcs(name: str, options: dict) -> None:
    system = pc.get_system(name, **options)
    trees = [h for h in all_trees(3) if is_projective(h) and (not options or h.count(0) == 1)]
    assert any(mismatches(system, sentence(heads)) for heads in trees)


@pytest.mark.parametrize(("name", "options"), DECOMPOSABLE, ids=lambda v: str(v))
def test_a_non_projective_gold_tree_breaks_the_count(name: str, options: dict) -> None:
    system = pc.get_system(name, **options)
    trees = [h for h in all_trees(4) if not is_projective(h, system.root_last)]
    assert any(mismatches(system, sentence(heads)) for heads in trees[:10])


def test_the_glossary_example_loses_no_arc_on_its_own_and_still_costs() -> None:
    s, system = pc.default_sentence(), pc.get_system("arc-standard")
    c = pc.replay(system, s, ["SH", "SH", "LA", "SH"]).final
    shift = pc.Transition("SH")
    reach = reachable(system, s)
    assert reach(system.apply(c, shift)) == reach(c) == {(h, d) for d, h in enumerate(s.heads, 1)}
    assert pc.get_oracle(system, "search").costs(c, s)[shift] == 1
