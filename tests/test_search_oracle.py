"""The exhaustive-search oracle against the optimal sets and costs stated in the seeds."""

from __future__ import annotations

import functools
import itertools
import math
import random

import pytest
from strategies import SYSTEM_VARIANTS, all_trees, sentence, variant_id

import parsing_core as pc
from parsing_core.oracles.search import SearchOracle

HE_SENT = pc.Sentence.from_heads("He sent her a letter .".split(), [2, 0, 2, 5, 2, 2],
                                 ["nsubj", "root", "iobj", "det", "obj", "punct"])
DRIVE = pc.Sentence.from_heads("Drive your friend home".split(), [0, 3, 1, 1])
SEND = pc.Sentence.from_heads("Send him a flower".split(), [0, 1, 4, 1])
FOUND = pc.Sentence.from_heads("found best example ever".split(), [0, 3, 1, 2])


def costs_after(name, sentence, moves, options=None):
    system = pc.get_system(name, **(options or {}))
    c = pc.replay(system, sentence, pc.parse_sequence(moves)).final
    return {str(t): v for t, v in pc.get_oracle(system, "search").costs(c, sentence).items()}


def optimal_after(name, sentence, moves):
    system = pc.get_system(name)
    c = pc.replay(system, sentence, pc.parse_sequence(moves)).final
    return {str(t) for t in pc.get_oracle(system, "search").optimal(c, sentence)}


def test_seed_000_table_1_error_state_optimal_moves_are_la_and_sh():
    """After the wrong SH of 'her': LA (Table 3) and SH (Table 4) both still reach 5 of 6 arcs."""
    assert optimal_after("arc-eager", HE_SENT, "SH LA RA SH") == {"LA", "SH"}
    assert costs_after("arc-eager", HE_SENT, "SH LA RA SH") == {"SH": 0, "LA": 0, "RA": 1}


def test_seed_000_after_ra_her_optimal_moves_are_sh_and_re():
    """After RA her, both the static sequence (SH) and the eager-reduce one (RE) are optimal."""
    assert optimal_after("arc-eager", HE_SENT, "SH LA RA RA") == {"SH", "RE"}


# Spec §5.3: the lecture's exercise, costs of every legal move along the static sequence.
DRIVE_COSTS = [
    ("", {"SH": 0}),
    ("SH", {"SH": 0, "LA": 3}),
    ("SH SH", {"SH": 2, "LA": 0, "RA": 1}),
    ("SH SH LA", {"SH": 0, "LA": 3}),
    ("SH SH LA SH", {"SH": 1, "LA": 1, "RA": 0}),
    ("SH SH LA SH RA", {"SH": 0, "LA": 2}),
    ("SH SH LA SH RA SH", {"LA": 1, "RA": 0}),
    ("SH SH LA SH RA SH RA", {"LA": 0}),
    ("SH SH SH", {"SH": 1, "LA": 0, "RA": 0}),  # after the erroneous SHIFT of 'friend'
]


@pytest.mark.parametrize(("moves", "expected"), DRIVE_COSTS)
def test_drive_your_friend_home_costs(moves, expected):
    assert costs_after("arc-hybrid", DRIVE, moves, {"root_last": True}) == expected


def test_drive_your_friend_home_root_first():
    assert costs_after("arc-hybrid", DRIVE, "SH") == {"SH": 0, "LA": 3, "RA": 2}


def test_send_him_a_flower_has_two_optimal_moves():
    assert costs_after("arc-hybrid", SEND, "SH SH", {"root_last": True}) == {"SH": 0, "LA": 1, "RA": 0}


def test_found_best_example_ever_exact_costs_make_useless_swaps_free():
    """Spec §5.5 / pitfall P17: the exact cost of SW is 0 here although no swap is needed."""
    got = costs_after("arc-hybrid-swap", FOUND, "SH SH", {"root_last": True})
    assert got == {"SH": 0, "LA": 1, "RA": 2, "SW": 0}


def test_corrected_arc_eager_recovers_from_nederhofs_table_5():
    """Plain arc-eager strands token 1 after SH RA RA; with reduce_correct every move stays finite."""
    system = pc.get_system("arc-eager-corrected")
    chain = pc.Sentence.from_heads(["a", "b", "c"], [0, 1, 2])
    search = pc.get_oracle(system, "search")
    c = pc.replay(system, chain, pc.parse_sequence("SH RA RA")).final
    assert all(not math.isinf(v) for v in search.costs(c, chain).values())
    assert search.best(c, chain) == 3


def test_labelled_moves_pay_for_a_wrong_label():
    system = pc.get_system("arc-eager", labelled=True)
    search = pc.get_oracle(system, "search")
    c = pc.replay(system, HE_SENT, pc.parse_sequence("SH")).final
    assert search.cost(c, HE_SENT, pc.Transition("LA", "nsubj")) == 0
    assert search.cost(c, HE_SENT, pc.Transition("LA", "obj")) == 1
    assert search.next(c, HE_SENT) == pc.Transition("LA", "nsubj")
    c = pc.replay(system, HE_SENT, pc.parse_sequence("SH LA RA")).final
    # RA her builds the gold arc sent → her: only the gold label is free; a non-gold arc has no label cost
    assert search.cost(c, HE_SENT, pc.Transition("RA", "obj")) == 1
    assert search.cost(c, HE_SENT, pc.Transition("RA", "iobj")) == 0


def test_refuses_long_sentences_with_a_clear_message():
    system = pc.get_system("arc-hybrid-swap")
    long = pc.Sentence.from_heads(["w"] * 30, [0] + list(range(1, 30)))
    with pytest.raises(pc.TooLongForSearch, match="up to .* tokens"):
        pc.get_oracle(system, "search").costs(system.initial(long), long)


@functools.cache  # on whole configurations (arcs included), so no reasoning about keys
def brute_best(system: pc.TransitionSystem, c: pc.Configuration, gold: pc.Sentence) -> float:
    """best(c) by the definition alone: the most gold arcs of any final configuration reachable."""
    if system.is_terminal(c):
        return len(c.unlabelled_arcs & gold.gold_arcs)
    return max((brute_best(system, after, gold) for _, _, after in system.successors(c)), default=-math.inf)


def costs_by_definition(system: pc.TransitionSystem, c: pc.Configuration, gold: pc.Sentence) -> dict:
    top = brute_best(system, c, gold)
    return {t: math.inf if (v := brute_best(system, after, gold)) == -math.inf else top - v
            for t, _, after in system.successors(c)}


def random_walk(system: pc.TransitionSystem, gold: pc.Sentence, rnd: random.Random) -> list[pc.Configuration]:
    c, walk = system.initial(gold), []
    while not system.is_terminal(c) and system.successors(c):
        walk.append(c)
        c = rnd.choice(system.successors(c))[2]
    return walk


@pytest.mark.parametrize("variant", SYSTEM_VARIANTS, ids=variant_id)
def test_costs_equal_the_definition_also_when_trees_share_the_graph_of_keys(variant):
    """One oracle asked about every tree of 1..3 tokens (4 for systems without swap), the lengths
    taken by turns, so later trees walk the graph of keys earlier ones built.  Each tree's walk
    is asked about from its end back to its middle first, and from its middle back to its start
    three trees later, when two other lengths have pushed the graph of its length out of the
    oracle (which keeps two here) but its own table is still kept.  At every configuration each cost is
    best(c) − best(t(c)) computed by brute force, ∞ at a dead end."""
    name, options = variant
    system = pc.get_system(name, **options)
    search = SearchOracle(system, lengths_kept=2)
    rnd = random.Random(7)
    by_length = [list(all_trees(n)) for n in range(1, 4 if system.can_swap else 5)]
    later: list[tuple[pc.Sentence, list[pc.Configuration]]] = []

    def check(gold: pc.Sentence, walk: list[pc.Configuration]) -> None:
        for c in walk:
            assert search.costs(c, gold) == costs_by_definition(system, c, gold), (gold.gold_heads, c)

    for heads in (t for turn in itertools.zip_longest(*by_length) for t in turn if t is not None):
        gold = sentence(heads)
        walk = random_walk(system, gold, rnd)
        check(gold, walk[len(walk) // 2:][::-1])
        later.append((gold, walk[:len(walk) // 2][::-1]))
        if len(later) > 3:
            check(*later.pop(0))
    for gold, walk in later:
        check(gold, walk)
