"""Why a move costs: every cost oracle explains, and the explanation adds up to the cost.

* arc-decomposable oracles (Goldberg & Nivre) name *the* gold arcs a move makes unreachable:
  on projective gold trees their number is the cost;
* the others (exact arc-standard, Nederhof, search) give a witness: one best completion from
  c against one after the move, lost − gained = cost on every costly move;
* an oracle asked about a configuration of another sentence says so.
"""

from __future__ import annotations

import math
import random

import pytest
from strategies import random_tree, sentence, walk_configurations

import parsing_core as pc

# (system, options, oracle): every oracle that is exact for some trees, with a witness
WITNESSED = [
    ("arc-standard", {}, "exact"),
    ("arc-standard", {"single_root": True}, "exact"),
    ("arc-standard", {}, "search"),
    ("arc-eager-corrected", {}, "nederhof"),
    ("arc-eager-corrected", {}, "search"),
    ("arc-hybrid-swap", {}, "search"),
]


def sample(system: pc.TransitionSystem, seed: int, trees: int, max_n: int, projective: bool | None = None):
    rnd = random.Random(seed)
    for k in range(trees):
        n = rnd.randint(1, max_n)
        wanted = projective if projective is not None else (k % 2 == 0 if n >= 4 else None)
        s = sentence(random_tree(rnd, n, wanted, system.root_last))
        for c in walk_configurations(system, s, rnd, 2):
            yield s, c


@pytest.mark.parametrize("name, options, oracle_name", WITNESSED,
                         ids=[f"{n}{'+' + '+'.join(o) if o else ''}/{x}" for n, o, x in WITNESSED])
def test_witness_adds_up_to_the_cost(name, options, oracle_name):
    system = pc.get_system(name, **options)
    oracle = pc.get_oracle(system, oracle_name)
    costly = 0
    for s, c in sample(system, 1, 60, 5 if system.can_swap else 7):
        costs, why = oracle.costs(c, s), oracle.explain(c, s)
        assert set(why) == set(costs)
        least = min(costs.values())
        for t, cost in costs.items():
            assert why[t].example
            if cost == least or math.isinf(cost):
                assert not why[t].lost and not why[t].gained
            else:
                costly += 1
                assert why[t].net == cost - least, (s.gold_heads, c, t)
                assert why[t].lost, "a costly move loses something"
    assert costly > 100


@pytest.mark.parametrize("name, options",
                         [("arc-eager", {}), ("arc-hybrid", {}), ("arc-hybrid", {"root_last": True})])
def test_decomposable_oracles_name_the_lost_arcs(name, options):
    system = pc.get_system(name, **options)
    oracle = pc.get_oracle(system, "goldberg-nivre")
    for s, c in sample(system, 2, 80, 7, projective=True):
        why = oracle.explain(c, s)
        assert {t: len(e.lost) for t, e in why.items()} == oracle.costs(c, s)
        assert not any(e.example or e.gained for e in why.values())


def test_seed_000_error_state_explained():
    """"He sent her a letter ." after SH LA RA SH: RA would lose a ← letter (seed 000)."""
    s = pc.default_sentence()
    system = pc.get_system("arc-eager")
    c = pc.replay(system, s, ["SH", "LA", "RA", "SH"]).final
    why = pc.get_oracle(system, "goldberg-nivre").explain(c, s)
    assert why[pc.Transition("RA")].lost == {(5, 4)}


def test_arc_standard_shift_costs_without_losing_a_given_arc():
    """Arc-standard is not arc-decomposable: after SH no particular gold arc is lost, yet one of
    b ← a and c ← a must go.  The witness shows one such loss, as an example."""
    s = pc.Sentence.from_heads("a b c".split(), [0, 1, 1])
    system = pc.get_system("arc-standard")
    c = pc.replay(system, s, ["SH", "SH"]).final          # stack ROOT a b, buffer c
    oracle = pc.get_oracle(system, "exact")
    assert {str(t): v for t, v in oracle.costs(c, s).items()} == {"SH": 1, "LA": 3, "RA": 0}
    why = oracle.explain(c, s)
    assert why[pc.Transition("SH")].example and why[pc.Transition("SH")].net == 1
    assert why[pc.Transition("SH")].lost <= {(1, 2), (1, 3)}
    assert why[pc.Transition("LA")].lost == {(0, 1), (1, 2), (1, 3)}   # a leaves with all its arcs


@pytest.mark.parametrize("name, oracle_name", [("arc-eager-corrected", "nederhof"), ("arc-standard", "exact"),
                                               ("arc-eager", "goldberg-nivre"), ("arc-hybrid", "search")])
def test_a_configuration_of_another_sentence_is_refused(name, oracle_name):
    system = pc.get_system(name)
    oracle = pc.get_oracle(system, oracle_name)
    short, long = sentence((0, 1)), sentence((0, 1, 2))
    c = system.initial(short)
    for ask in (oracle.costs, oracle.explain):
        with pytest.raises(pc.ParsingCoreError, match="another sentence"):
            ask(c, long)
    with pytest.raises(pc.ParsingCoreError, match="no gold tree"):
        oracle.costs(c, pc.Sentence(("x", "y")))


# -- answer: costs, explanations and gold moves at once -------------------------------------------
EVERY_ORACLE = [(name, oracle_name) for name in pc.list_systems()
                for oracle_name in pc.list_oracles(pc.get_system(name))]


@pytest.mark.parametrize("name, oracle_name", EVERY_ORACLE, ids=[f"{n}/{o}" for n, o in EVERY_ORACLE])
def test_answer_is_costs_explain_and_labelled_moves(name, oracle_name):
    system = pc.get_system(name, labelled=True)
    oracle = pc.get_oracle(system, oracle_name)
    answered = 0
    for s, c in sample(system, 3, 12, 5, projective=True):
        s = pc.Sentence(s.words, heads=s.heads, labels=tuple(f"l{h}" for h in s.gold_heads))
        answer = oracle.answer(c, s)
        assert answer.costs == oracle.costs(c, s)
        assert answer.explanations == oracle.explain(c, s)
        assert answer.labelled == {t: oracle.labelled(c, s, t) for t in answer.costs}
        assert answer.optimal == pc.oracles.optimal_moves(answer.costs)
        assert set(answer.optimal) <= set(oracle.optimal(c, s))
        answered += 1
    assert answered > 10


class Counting:
    """Counts the costs an oracle computes at one configuration (``move_costs`` calls)."""

    def __init__(self, oracle: pc.Oracle, at: pc.Configuration) -> None:
        self.calls, inner = 0, oracle.move_costs

        def move_costs(c, gold):
            self.calls += c == at
            return inner(c, gold)

        oracle.move_costs = move_costs  # type: ignore[method-assign]


COUNTED = [("arc-standard", "exact"), ("arc-standard", "search"), ("arc-eager-corrected", "nederhof"),
           ("arc-hybrid-swap", "search")]


@pytest.mark.parametrize("name, oracle_name", COUNTED)
def test_the_witness_computes_the_costs_once(name, oracle_name):
    system = pc.get_system(name)
    witnessed = 0
    for s, c in sample(system, 4, 20, 5):
        oracle = pc.get_oracle(system, oracle_name)  # fresh: no tables from the earlier configurations
        counting = Counting(oracle, c)
        answer = oracle.answer(c, s)
        assert counting.calls == 1, (s.gold_heads, c)
        witnessed += any(e.lost for e in answer.explanations.values())
        counting.calls = 0
        oracle.explain(c, s)
        assert counting.calls == 1
    assert witnessed > 5


def test_a_subclass_explains_with_the_costs_it_is_given():
    """The hook ``explanations(c, gold, costs)`` gets the costs ``answer`` computed."""
    system = pc.get_system("arc-standard")
    seen = []

    class Noting(type(pc.get_oracle(system, "exact"))):  # type: ignore[misc]
        def explanations(self, c, gold, costs):
            seen.append(costs)
            return super().explanations(c, gold, costs)

    oracle = Noting(system)
    s = pc.Sentence.from_heads("a b c".split(), [0, 1, 1])
    c = pc.replay(system, s, ["SH", "SH"]).final
    answer = oracle.answer(c, s)
    assert seen == [answer.costs] and answer.explanations[pc.Transition("SH")].net == 1


def test_the_static_oracle_answers_without_explanations():
    system, s = pc.get_system("arc-eager"), pc.default_sentence()
    answer = pc.get_oracle(system, "static").answer(system.initial(s), s)
    assert answer.explanations == {} and answer.optimal == (pc.Transition("SH"),)
    assert sorted(answer.costs.values()) == [0, 1]
