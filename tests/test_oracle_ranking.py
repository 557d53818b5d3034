"""Which oracle to prefer: ``parsing_core.oracles.ranked``, read off each oracle's declarations.

* every oracle declares what it is exact for, how fast it is and whether it gives costs;
* with a gold tree: exact for it before approximate, the search oracle only where it answers
  (up to ``search.MAX_LENGTH`` tokens) and last among the exact ones, the static one last
  (left out when costs are needed);
* without one: by the claims alone, the search oracle after every oracle that answers any length;
* the UI's, the trainer's and the experiments' choices are this ranking.
"""

from __future__ import annotations

import random

import pytest
from strategies import SYSTEM_VARIANTS, random_tree, sentence, variant_id

import parsing_core as pc
from parsing_core.experiments.timing import exact_oracles
from parsing_core.model.trainer import default_oracle as training_default
from parsing_core.oracles import ORACLE_CLASSES, Oracle, ranked
from parsing_core.oracles.base import CLAIMS, SPEEDS
from parsing_core.oracles.search import MAX_LENGTH
from parsing_core.trees import is_projective
from ui.views.oracle_view import fallbacks, reference_order
from ui.views.state import default_oracle

SHORT_PROJECTIVE = sentence((2, 0, 2, 3, 4))
SHORT_CROSSING = sentence((3, 4, 0, 3, 4))  # w1 ← w3 crosses w2 ← w4
LONG_PROJECTIVE = sentence((0, *range(1, 20)))  # a chain of 20 tokens
LONG_CROSSING = sentence((3, 4, 0, 3, *range(4, 20)))

# system → (no gold, short projective, short crossing, long projective, long crossing), costs needed
EXPECTED: dict[str, tuple[list[str], ...]] = {
    "arc-standard": (["exact", "thesis-approx", "search"], ["exact", "search", "thesis-approx"],
                     ["exact", "search", "thesis-approx"], ["exact", "thesis-approx"],
                     ["exact", "thesis-approx"]),
    "arc-eager": (["goldberg-nivre", "search"], ["goldberg-nivre", "search"], ["search", "goldberg-nivre"],
                  ["goldberg-nivre"], ["goldberg-nivre"]),
    "arc-eager-corrected": (["nederhof", "nederhof-linear", "search"],
                            ["nederhof", "nederhof-linear", "search"],
                            ["nederhof", "search", "nederhof-linear"],
                            ["nederhof", "nederhof-linear"], ["nederhof", "nederhof-linear"]),
    "arc-hybrid": (["goldberg-nivre", "search"], ["goldberg-nivre", "search"], ["search", "goldberg-nivre"],
                   ["goldberg-nivre"], ["goldberg-nivre"]),
    "arc-hybrid-swap": (["static-dynamic", "search"], ["search", "static-dynamic"],
                        ["search", "static-dynamic"], ["static-dynamic"], ["static-dynamic"]),
    "arc-standard-swap": (["search"], ["search"], ["search"], [], []),
}


def test_the_sentences_are_what_their_names_say() -> None:
    assert SHORT_PROJECTIVE.is_projective and LONG_PROJECTIVE.is_projective
    assert not SHORT_CROSSING.is_projective and not LONG_CROSSING.is_projective
    assert SHORT_CROSSING.n <= min(MAX_LENGTH.values()) < max(MAX_LENGTH.values()) < LONG_CROSSING.n


@pytest.mark.parametrize("cls", ORACLE_CLASSES, ids=lambda cls: cls.name)
def test_every_oracle_declares_its_exactness_speed_and_costs(cls: type[Oracle]) -> None:
    assert cls.exact_for in CLAIMS and cls.speed in SPEEDS
    assert any("speed" in vars(k) for k in cls.__mro__ if k is not Oracle), "speed left at the default"
    assert cls.gives_costs == (cls.name != "static")


@pytest.mark.parametrize("name", list(EXPECTED))
def test_ranking_by_system_and_sentence(name: str) -> None:
    system = pc.get_system(name)
    golds = (None, SHORT_PROJECTIVE, SHORT_CROSSING, LONG_PROJECTIVE, LONG_CROSSING)
    assert [ranked(system, gold) for gold in golds] == list(EXPECTED[name])
    for gold, expected in zip(golds, EXPECTED[name]):
        assert ranked(system, gold, need_costs=False) == [*expected, "static"]


def test_a_sentence_without_a_gold_tree_ranks_by_the_claims() -> None:
    system = pc.get_system("arc-eager")
    no_tree = pc.Sentence.from_heads(["a", "b"], None)
    assert ranked(system, no_tree) == ranked(system) == ["goldberg-nivre", "search"]


@pytest.mark.parametrize("variant", SYSTEM_VARIANTS, ids=variant_id)
def test_exact_before_approximate_search_last_among_exact_static_last(variant) -> None:
    name, options = variant
    system = pc.get_system(name, **options)
    rnd = random.Random(7)
    for k in range(40):
        n = rnd.randint(1, 16)
        if n <= 9:
            gold = sentence(random_tree(rnd, n, k % 2 == 0 if n >= 4 else None, system.root_last))
        else:  # a chain: long sentences are drawn fast
            gold = sentence((0, *range(1, n)))
        order = ranked(system, gold, need_costs=False)
        oracles = {o: pc.get_oracle(system, o) for o in order}
        exact = [oracles[o].is_exact_for(gold) for o in order]
        assert exact == sorted(exact, reverse=True), (gold.gold_heads, order)
        assert order[-1] == "static" and "static" not in ranked(system, gold)
        assert ("search" in order) == (gold.n <= MAX_LENGTH[system.name])
        if "search" in order:
            assert order[exact.count(True) - 1] == "search"
        projective = is_projective(gold.gold_heads, system.root_last)
        answering = {o for o in pc.list_oracles(system) if o != "search" or gold.n <= MAX_LENGTH[name]}
        assert set(order) == answering
        assert all(oracles[o].is_exact_for(gold) == (oracles[o].exact_for == "any" or
                                                     (oracles[o].exact_for == "projective" and projective))
                   for o in order)


def test_among_equally_exact_oracles_the_broader_claim_then_the_faster_comes_first() -> None:
    system = pc.get_system("arc-eager-corrected")
    # both exact on a projective tree: the one exact for every tree first, as the stepper always had
    assert ranked(system, LONG_PROJECTIVE) == ["nederhof", "nederhof-linear"]
    order = ranked(system)
    speeds = [pc.get_oracle(system, o).speed for o in order]
    assert speeds == ["cubic", "linear", "exponential"]


@pytest.mark.parametrize("name", list(EXPECTED))
def test_the_ui_and_the_experiments_choose_by_the_ranking(name: str) -> None:
    system = pc.get_system(name)
    assert default_oracle(system) == training_default(system, "dynamic") == ranked(system)[0]
    assert training_default(system, "static") == "static"
    assert exact_oracles(system) == [o for o in ranked(system) if pc.get_oracle(system, o).exact_for == "any"
                                     and o != "search"]
    for gold in (SHORT_PROJECTIVE, SHORT_CROSSING, LONG_PROJECTIVE, LONG_CROSSING):
        assert fallbacks(system, gold, "search") == [o for o in ranked(system, gold, need_costs=False)
                                                     if o != "search"]
        order = [o for o, _ in reference_order(system, gold, "static")]
        assert sorted(order) == sorted(ranked(system, gold, need_costs=False))


def test_the_stepper_finishes_with_the_preferred_oracle_first_in_its_group() -> None:
    system = pc.get_system("arc-eager-corrected")
    assert reference_order(system, SHORT_CROSSING, "search") == [
        ("search", True), ("nederhof", True), ("nederhof-linear", False), ("static", False)]
    assert reference_order(system, SHORT_CROSSING, "static") == [
        ("nederhof", True), ("search", True), ("static", False), ("nederhof-linear", False)]
