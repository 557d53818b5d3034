"""Every tree with up to 6 tokens, every system: the static oracle rebuilds what the system can build.

And the systems' own claim of what they can build is checked against exhaustive search
(up to 5 tokens; 4 for swap systems, whose search space is far larger): a tree is
buildable exactly when the search oracle can reach all n arcs.
"""

from __future__ import annotations

import pytest
from strategies import SYSTEM_VARIANTS, all_trees, sentence, variant_id

import parsing_core as pc

ALL_TREES = {n: list(all_trees(n)) for n in range(1, 7)}


def test_tree_counts_match_cayley():
    """(n+1)^(n-1) rooted trees on n tokens plus ROOT: the enumeration misses none."""
    assert [len(ALL_TREES[n]) for n in range(1, 7)] == [(n + 1) ** (n - 1) for n in range(1, 7)]


@pytest.mark.parametrize("variant", SYSTEM_VARIANTS, ids=variant_id)
def test_static_sequence_rebuilds_every_buildable_tree(variant):
    name, options = variant
    system = pc.get_system(name, **options)
    oracle = pc.get_oracle(system, "static")
    built = 0
    for n, trees in ALL_TREES.items():
        for heads in trees:
            s = sentence(heads)
            if system.why_unbuildable(s) is not None:
                with pytest.raises(pc.NotBuildable):
                    pc.gold_sequence(system, s)
                continue
            trace = pc.run(system, s, oracle.chooser(s))  # apply() checks every move is legal
            assert trace.is_complete and trace.heads == heads, (n, heads)
            built += 1
    if system.can_swap:
        assert built == sum(len(t) for t in ALL_TREES.values())  # swap systems build every tree
    else:
        assert built > 0


@pytest.mark.parametrize("variant", SYSTEM_VARIANTS, ids=variant_id)
def test_buildable_exactly_when_search_reaches_the_whole_tree(variant):
    name, options = variant
    system = pc.get_system(name, **options)
    search = pc.get_oracle(system, "search")
    for n in range(1, 5 if system.can_swap else 6):
        for heads in ALL_TREES[n]:
            s = sentence(heads)
            reachable = search.best(system.initial(s), s) == n
            assert reachable == (system.why_unbuildable(s) is None), heads
