"""Which gold arcs are still reachable: ``parsing_core.oracles.reachable_gold_arcs``.

Following an exact oracle gives the gold arcs of *one* best completion: as many as the
exhaustive search says can still be had (best(c)), and — checked here by a search of its own
over the moves from c — all buildable in one parse.  An approximate oracle's arcs are still
buildable together, but may be fewer.
"""

from __future__ import annotations

import random
from collections.abc import Hashable

import pytest
from strategies import random_tree, sentence, walk_configurations

import parsing_core as pc
from parsing_core.oracles import optimal_moves, reachable_gold_arcs
from parsing_core.oracles.search import SearchOracle

Arc = pc.Arc


def buildable_together(system: pc.TransitionSystem, c: pc.Configuration, arcs: frozenset[Arc]) -> bool:
    """Is there a final configuration reachable from ``c`` holding every arc of ``arcs``?  (A plain
    memoised search: what the moves from a configuration can still add depends on its search key.)"""
    memo: dict[tuple[Hashable, frozenset[Arc]], bool] = {}

    def can(x: pc.Configuration, missing: frozenset[Arc]) -> bool:
        if system.is_terminal(x):
            return not missing
        key = (x.search_key(), missing)
        if key not in memo:
            memo[key] = any(can(after, missing - {arc}) for _, arc, after in system.successors(x))
        return memo[key]

    return can(c, arcs - c.unlabelled_arcs)


CASES = [("arc-standard", {}, "exact", None), ("arc-standard", {"single_root": True}, "exact", None),
         ("arc-eager-corrected", {}, "nederhof", None), ("arc-eager", {}, "goldberg-nivre", True),
         ("arc-hybrid", {}, "goldberg-nivre", True),
         ("arc-hybrid", {"root_last": True}, "goldberg-nivre", True),
         ("arc-hybrid-swap", {}, "search", None), ("arc-standard-swap", {}, "search", None)]


@pytest.mark.parametrize("name, options, oracle_name, projective", CASES,
                         ids=[f"{n}{'+' + '+'.join(o) if o else ''}/{x}" for n, o, x, _ in CASES])
def test_an_exact_oracle_gives_the_arcs_of_a_best_completion(name, options, oracle_name, projective):
    system = pc.get_system(name, **options)
    oracle, search = pc.get_oracle(system, oracle_name), SearchOracle(system)
    rnd, checked, short_of_gold = random.Random(5), 0, 0
    for k in range(25):
        n = rnd.randint(1, 5 if system.can_swap else 6)
        wanted = projective if projective is not None else (k % 2 == 0 if n >= 4 else None)
        s = sentence(random_tree(rnd, n, wanted, system.root_last))
        assert oracle.is_exact_for(s)
        for c in walk_configurations(system, s, rnd, 2):
            if not optimal_moves(search.costs(c, s)):
                continue  # no final configuration ahead: nothing to complete
            arcs = reachable_gold_arcs(system, oracle, c, s)
            assert len(arcs) == search.best(c, s), (s.gold_heads, c)
            assert c.unlabelled_arcs & s.gold_arcs <= arcs <= s.gold_arcs
            assert buildable_together(system, c, arcs)
            checked += 1
            short_of_gold += len(arcs) < s.n
    assert checked > 50 and short_of_gold > 10


def test_an_approximate_oracle_gives_buildable_arcs_perhaps_fewer():
    system = pc.get_system("arc-standard")
    search, rnd, fewer = SearchOracle(system), random.Random(6), 0
    for _ in range(40):
        s = sentence(random_tree(rnd, rnd.randint(2, 7)))
        for c in walk_configurations(system, s, rnd, 2):
            arcs = reachable_gold_arcs(system, "thesis-approx", c, s)
            assert len(arcs) <= search.best(c, s) and buildable_together(system, c, arcs)
            fewer += len(arcs) < search.best(c, s)
    assert fewer > 0, "the approximation never fell short: the test tells nothing"


def test_by_name_and_the_errors_of_an_oracle_that_cannot_finish():
    system = pc.get_system("arc-eager")
    gold = pc.default_sentence()
    c = pc.replay(system, gold, ["SH", "LA", "RA", "SH", "RA"]).final  # her → a: a wrong arc
    arcs = reachable_gold_arcs(system, "goldberg-nivre", c, gold)
    assert arcs == gold.gold_arcs - {(2, 3), (5, 4)}  # sent → her and a ← letter are lost
    long = sentence((0, *range(1, 15)))
    with pytest.raises(pc.ParsingCoreError, match="exact search"):
        reachable_gold_arcs(system, "search", system.initial(long), long)
    with pytest.raises(pc.ParsingCoreError, match="not arc-eager"):
        reachable_gold_arcs(system, pc.get_oracle(pc.get_system("arc-hybrid"), "search"), c, gold)
