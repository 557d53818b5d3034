"""The exhaustive-search oracle against the optimal sets and costs stated in the seeds."""

from __future__ import annotations

import math

import pytest

import parsing_core as pc

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
