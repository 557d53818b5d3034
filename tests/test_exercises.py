"""Every exercise kind, over random trees and short treebank sentences: the oracle's own answer
scores full marks, a wrong answer does not, feedback names the arcs the search oracle agrees
are lost, and the same spec makes the same item.

Random trees come from the oracle audit's generator (half of them crossing), over every system
variant; treebank sentences are the short ones of en_lines dev and la_perseus train (skipped
when the data directory lacks them).
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest

import parsing_core as pc
from parsing_core.driver import Choose
from parsing_core.exercises import (
    KINDS,
    CostAnswer,
    ExerciseError,
    Item,
    ItemSpec,
    SentencePool,
    TableRow,
    crossing_pairs,
    get_kind,
    grade,
    list_kinds,
    make_item,
    rebuild,
    sentence_key,
)
from parsing_core.exercises import (
    draw as ex_draw,
)
from parsing_core.exercises.tree_kinds import VARIANTS
from parsing_core.exercises.tutor import arc_words
from parsing_core.experiments.audit import SYSTEM_VARIANTS, random_heads, sentence_of
from parsing_core.oracles.search import MAX_LENGTH

RANDOM_TREES = 110       # per kind, spread over the system variants
TREEBANK_SENTENCES = 40  # per treebank
TREEBANKS = [("en_lines", "dev"), ("la_perseus", "train")]


def first_legal_model(sentence: pc.Sentence) -> Choose:
    """A stand-in for a trained parser: for any sentence, always the first legal move."""
    return first_legal


def first_legal(c: pc.Configuration, legal: tuple[pc.Transition, ...]) -> pc.Transition:
    """A stand-in for a trained parser: always the first legal move."""
    return legal[0]


def random_cases(count: int, seed: int) -> list[tuple[pc.Sentence, str, tuple[tuple[str, Any], ...]]]:
    rnd = random.Random(seed)
    cases = []
    for k in range(count):
        name, options = SYSTEM_VARIANTS[k % len(SYSTEM_VARIANTS)]
        n = rnd.randint(2, 8)
        crossing = n >= 3 and rnd.random() < 0.5
        root_last = dict(options).get("root_last", False)
        cases.append((sentence_of(random_heads(rnd, n, not crossing, bool(root_last))), name, options))
    return cases


@pytest.fixture(scope="module")
def treebank_cases(data_dir: Path) -> list[tuple[pc.Sentence, str, tuple[tuple[str, Any], ...]]]:
    available = {(f.name, f.split) for f in pc.list_treebanks(data_dir)} if data_dir.is_dir() else set()
    sentences: list[pc.Sentence] = []
    for name, split in TREEBANKS:
        if (name, split) in available:
            short = [s for s in pc.load_treebank(name, split, data_dir) if s.has_gold and 3 <= s.n <= 9]
            sentences += short[:TREEBANK_SENTENCES]
    return [(s, *SYSTEM_VARIANTS[k % len(SYSTEM_VARIANTS)]) for k, s in enumerate(sentences)]


def items_of(kind: str, cases: list[tuple[pc.Sentence, str, tuple[tuple[str, Any], ...]]]) -> list[Item[Any]]:
    """The items that can be made (an exact oracle answers, there is something to ask)."""
    out = []
    for k, (sentence, system, options) in enumerate(cases):
        spec = ItemSpec(kind, sentence_key(sentence), system, options, seed=k, level=1 + k % 3)
        try:
            out.append(make_item(spec, sentence, first_legal_model))
        except ExerciseError:
            pass
    return out


def check_item(item: Item[Any]) -> None:
    kind = get_kind(item.spec.kind)
    right = grade(item, item.key)
    assert right.correct and right.credit == 1, (item.spec, right.text)
    assert item.hints.answer and item.hints.pointer and item.hints.principle
    wrong = kind.wrong(item, random.Random(item.spec.seed))
    if wrong is not None:
        feedback = grade(item, wrong)
        assert not feedback.correct and feedback.credit < 1, (item.spec, wrong, feedback.text)
        assert feedback.message


@pytest.mark.parametrize("kind", list_kinds())
def test_the_key_scores_full_marks_and_a_wrong_answer_does_not(kind: str) -> None:
    items = items_of(kind, random_cases(RANDOM_TREES, seed=len(kind)))
    assert len(items) >= 12, f"only {len(items)} {kind} items made"
    assert any(get_kind(kind).wrong(i, random.Random(0)) is not None for i in items)
    for item in items:
        check_item(item)


@pytest.mark.parametrize("kind", list_kinds())
def test_treebank_sentences(kind: str, treebank_cases: list[Any]) -> None:
    if not treebank_cases:
        pytest.skip("no en_lines dev or la_perseus train in the data directory")
    items = items_of(kind, treebank_cases)
    for item in items:
        check_item(item)
    assert items


@pytest.mark.parametrize("kind", list_kinds())
def test_generation_is_deterministic_and_rebuilds_from_the_spec(kind: str) -> None:
    cases = random_cases(24, seed=99)
    pool = SentencePool([s for s, _, _ in cases], teaching=False)
    for item in items_of(kind, cases):
        again = rebuild(ItemSpec.parse(item.spec.text), pool, first_legal_model)
        assert again == item and again.id == item.id


# -- feedback names the right arcs ---------------------------------------------------------------


def search_cost(item: Item[Any], t: pc.Transition) -> float:
    system = pc.get_system(item.spec.system, **dict(item.spec.options))
    assert item.configuration is not None
    return pc.get_oracle(system, "search").costs(item.configuration, item.sentence)[t]


@pytest.mark.parametrize("kind", ["next-move", "cost-of-move", "all-optimal"])
def test_a_costly_move_is_explained_by_arcs_the_search_confirms(kind: str) -> None:
    """The lost arcs named are gold arcs; where they are *the* arcs (no example), as many as the
    search oracle's cost; where they are an example, lost − gained is that cost."""
    checked = 0
    for item in items_of(kind, random_cases(60, seed=5)):
        system = pc.get_system(item.spec.system, **dict(item.spec.options))
        if item.sentence.n > MAX_LENGTH[system.name] or item.configuration is None:
            continue
        answer = pc.get_oracle(system, item.oracle).answer(item.configuration, item.sentence)
        for t, cost in answer.costs.items():
            why = answer.explanations[t]
            if cost == min(answer.costs.values()) or math.isinf(cost):
                continue
            assert why.lost <= item.sentence.gold_arcs
            assert why.net == search_cost(item, t) if why.example else len(why.lost) == search_cost(item, t)
            if kind == "next-move":
                feedback = grade(item, t)
                assert feedback.arcs == why.lost
                assert all(arc_words(item.sentence, a) in feedback.message for a in why.lost)
                checked += 1
    assert checked > 0 or kind != "next-move"


def test_an_illegal_move_gets_the_systems_reason() -> None:
    checked = 0
    for item in items_of("next-move", random_cases(40, seed=3)):
        system = pc.get_system(item.spec.system, **dict(item.spec.options))
        assert item.configuration is not None
        for kind in system.kinds:
            reason = system.why_illegal(item.configuration, pc.Transition(kind))
            if reason is not None:
                feedback = grade(item, pc.Transition(kind))
                assert reason in feedback.message and not feedback.correct
                checked += 1
    assert checked > 10


def test_cost_of_move_asks_for_the_arcs_only_where_they_are_exact() -> None:
    asked = 0
    for item in items_of("cost-of-move", random_cases(80, seed=11)):
        if item.key.lost is None:
            continue
        asked += 1
        assert item.spec.level > 1 and item.spec.system in ("arc-eager", "arc-hybrid")
        assert len(item.key.lost) == item.key.cost
        if item.key.lost:
            half = grade(item, CostAnswer(item.key.cost, frozenset()))
            assert not half.correct and 0.5 <= half.credit < 1
            assert all(arc_words(item.sentence, a) in half.text for a in item.key.lost)
    assert asked > 0


def test_all_optimal_gives_credit_for_the_right_ticks_not_for_the_boxes_left_empty() -> None:
    """Ticking nothing earns nothing and ticking every box the key's share of them (an empty box
    once counted as a right answer: nothing ticked earned 0.75)."""
    for item in items_of("all-optimal", random_cases(30, seed=8)):
        missing = item.key - {min(item.key)}
        feedback = grade(item, missing)
        assert feedback.credit == pytest.approx(len(missing) / len(item.key))
        assert any(d.startswith(f"You missed {min(item.key).name}") for d in feedback.details)
        system = pc.get_system(item.spec.system, **dict(item.spec.options))
        boxes = frozenset(pc.Transition(k) for k in system.kinds)
        assert grade(item, frozenset()).credit == 0
        assert grade(item, boxes).credit == pytest.approx(len(item.key) / len(boxes))


def test_which_systems_gives_no_credit_for_ticking_nothing_and_little_for_everything() -> None:
    kind = KINDS["which-systems"]
    for sentence, name, options in random_cases(20, seed=9):
        item = kind.make(ItemSpec("which-systems", sentence_key(sentence), name, options), sentence)
        assert grade(item, item.key).correct and grade(item, frozenset()).credit == 0
        assert grade(item, frozenset(VARIANTS)).credit == pytest.approx(len(item.key) / len(VARIANTS))


def test_crossing_pairs_are_the_crossing_arcs() -> None:
    for sentence, _, options in random_cases(60, seed=4):
        root_last = bool(dict(options).get("root_last", False))
        pairs = crossing_pairs(sentence.gold_heads, root_last)
        assert {a for p in pairs for a in p} == sentence.crossing_arcs(root_last)
        assert all(len(p) == 2 for p in pairs)


def test_which_systems_agrees_with_the_search() -> None:
    """A system can build the tree exactly when the search finds all n gold arcs reachable."""
    kind = KINDS["which-systems"]
    for sentence, name, options in random_cases(40, seed=6):
        if sentence.n > 5:
            continue
        item = kind.make(ItemSpec("which-systems", sentence_key(sentence), name, options), sentence)
        for variant, (system_name, system_options) in VARIANTS.items():
            system = pc.get_system(system_name, **dict(system_options))
            best = pc.get_oracle(system, "search").best(system.initial(sentence), sentence)  # type: ignore[attr-defined]
            assert (variant in item.key) == (best == sentence.n), (variant, sentence.gold_heads)


def test_count_steps_is_2n_where_every_word_is_shifted_once_and_attached_once() -> None:
    for item in items_of("count-steps", random_cases(60, seed=7)):
        n = item.sentence.n
        if item.spec.system in ("arc-standard", "arc-hybrid", "arc-eager-corrected"):
            assert item.key.fewest == item.key.most == 2 * n
        elif item.spec.system == "arc-eager":
            assert n < item.key.fewest <= item.key.most <= 2 * n
        else:
            assert 2 * n <= item.key.fewest <= item.key.most
            assert (item.key.most - 2 * n) % 2 == 0


def test_predict_parser_needs_a_model_and_judges_its_choice() -> None:
    sentence = pc.default_sentence()
    spec = ItemSpec("predict-parser", sentence_key(sentence), "arc-hybrid", (("model", "first"),),
                    seed=2, level=2)
    with pytest.raises(ExerciseError, match="model"):
        make_item(spec, sentence)
    item = make_item(spec, sentence, first_legal_model)
    assert item.configuration is not None
    system = pc.get_system("arc-hybrid")
    optimal = pc.get_oracle(system, "goldberg-nivre").optimal(item.configuration, sentence)
    assert item.key.move == system.legal(item.configuration)[0]
    assert item.key.optimal == (item.key.move in optimal)


def test_the_row_before_the_move_handed_in_unchanged_earns_nothing_in_trace_table() -> None:
    """The inputs start as the row before the move: submitting them as they stand once earned 1/3
    to 2/3 (the cells the move leaves alone were counted right)."""
    for item in items_of("trace-table", random_cases(40, seed=10)):
        c = item.configuration
        assert c is not None
        assert grade(item, TableRow(c.stack, c.buffer, None)).credit == 0, item.spec
        assert grade(item, item.key).credit == 1


def test_a_next_move_question_at_level_3_has_a_wrong_answer_to_give() -> None:
    """After the last injected mistake a walk may meet only configurations where every legal move
    is optimal (the parse nearly over); more walks are tried then, so that the question can be
    missed (a quarter of these items once had a single legal move)."""
    pool = SentencePool()
    for system in ("arc-standard", "arc-eager", "arc-hybrid"):
        for seed in range(1, 5):
            for spec in ex_draw("next-move", system, 3, seed, 8, pool):
                item = make_item(spec, pool.find(spec.sentence))
                assert item.configuration is not None
                search = pc.get_oracle(pc.get_system(system), "search")
                assert max(search.costs(item.configuration, item.sentence).values()) > 0, spec
