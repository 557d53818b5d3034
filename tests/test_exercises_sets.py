"""Items as values and links: ids, specs read back, sets drawn the same way twice, levels, the
teaching set's worked examples as exercises, and clear errors for what cannot be made."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pytest

import parsing_core as pc
from parsing_core.exercises import (
    CostAnswer,
    CrossingAnswer,
    ExerciseError,
    Feedback,
    Hints,
    Item,
    ItemSpec,
    SentencePool,
    StepCount,
    TableRow,
    compose,
    decode_set,
    draw,
    draw_fresh,
    encode_set,
    get_kind,
    grade,
    list_kinds,
    make_item,
    rebuild,
    sentence_key,
    sentence_level,
)
from parsing_core.exercises.derivation import optimal_derivation
from parsing_core.exercises.items import LEVELS
from parsing_core.exercises.oracle_kinds import Mistake
from parsing_core.exercises.sets import question_of
from parsing_core.exercises.tutor import arc_words, moves_count

POOL = SentencePool()
LETTER = "he-sent-her-a-letter"


def item(kind: str, sentence: str = LETTER, system: str = "arc-eager", seed: int = 0,
         level: int = 1) -> Item[Any]:
    return make_item(ItemSpec(kind, sentence, system, seed=seed, level=level), POOL.find(sentence))


def test_ids_are_short_stable_and_differ_by_every_part() -> None:
    spec = ItemSpec("next-move", LETTER, "arc-hybrid", (("root_last", True),), seed=5, level=2)
    assert spec.id == ItemSpec.parse(spec.text).id and len(spec.id) == 8
    variants = [ItemSpec("cost-of-move", LETTER, "arc-hybrid", (("root_last", True),), 5, 2),
                ItemSpec("next-move", "send-him-a-flower", "arc-hybrid", (("root_last", True),), 5, 2),
                ItemSpec("next-move", LETTER, "arc-eager", (("root_last", True),), 5, 2),
                ItemSpec("next-move", LETTER, "arc-hybrid", (), 5, 2),
                ItemSpec("next-move", LETTER, "arc-hybrid", (("root_last", True),), 6, 2),
                ItemSpec("next-move", LETTER, "arc-hybrid", (("root_last", True),), 5, 3)]
    assert len({spec.id, *(v.id for v in variants)}) == 7


def test_a_set_is_a_link_that_gives_the_same_items_in_the_same_order() -> None:
    specs = compose(["next-move", "crossing-arcs", "count-steps"], ["arc-standard", "arc-eager"], level=2,
                    count=6, seed=3, pool=POOL)
    assert len(specs) == 6 and specs == compose(["next-move", "crossing-arcs", "count-steps"],
                                                ["arc-standard", "arc-eager"], 2, 6, 3, POOL)
    link = encode_set(specs)
    assert all(c.isalnum() or c in "%-._~" for c in link)
    again = [rebuild(spec, POOL) for spec in decode_set(link)]
    assert [i.spec for i in again] == specs
    assert [i.key for i in again] == [rebuild(spec, POOL).key for spec in specs]
    other_seed = compose(["next-move"], ["arc-eager"], 2, 3, 5, POOL)
    assert compose(["next-move"], ["arc-eager"], 2, 3, 4, POOL) != other_seed


@pytest.mark.parametrize("kind", [k for k in list_kinds() if k != "predict-parser"])
def test_every_kind_draws_items_from_the_teaching_set(kind: str) -> None:
    system = "arc-standard" if kind == "approx-vs-exact" else "arc-eager"
    specs = draw(kind, system, level=3, count=2, seed=1, pool=POOL)
    assert specs, f"no {kind} item in the teaching set"
    for spec in specs:
        made = rebuild(spec, POOL)
        assert grade(made, made.key).correct


def test_levels_inject_mistakes() -> None:
    for level, most in ((1, 0), (2, 1), (3, 3)):
        made = [item("next-move", seed=seed, level=level) for seed in range(12)]
        assert all(len(i.mistakes) <= most for i in made)
        assert level == 1 or any(len(i.mistakes) >= level - 1 for i in made)
        for i in made:
            assert pc.replay(pc.get_system("arc-eager"), i.sentence, i.moves).final == i.configuration
    assert sentence_level(POOL.find("send-him-a-flower")) == 1
    assert sentence_level(POOL.find("found-best-example-ever")) == 3


def test_seed_000_shifting_her_makes_the_static_oracle_fail() -> None:
    """Seed 000: after SH LA RA, shifting *her* instead of attaching it; the static oracle then
    shifts *letter* with *her* headless on the stack, and sent → letter is lost."""
    made = item("static-fails")
    assert " ".join(map(str, made.sequence)) == "SH LA RA RA SH LA RE RA RE RA"
    feedback = grade(made, Mistake(3, pc.Transition("SH")))
    assert feedback.correct and "sent → letter" in feedback.message
    assert feedback.arcs == {(2, 5)} and feedback.moves == (pc.Transition("LA"),)
    own = grade(made, Mistake(3, pc.Transition("RA")))
    assert not own.correct and "own move" in own.message
    illegal = grade(made, Mistake(0, pc.Transition("RE")))
    assert not illegal.correct and "ROOT cannot be reduced" in illegal.message
    assert not any("no mistake" in d for d in feedback.details)  # SH there costs an arc


def test_a_mistake_that_costs_nothing_is_right_and_said_to_be_no_mistake() -> None:
    """With reduce_correct, shifting *w2* (head *w1*) costs nothing: REDUCE will attach it to *w1*
    later.  The static oracle's rules still go wrong after it, so the answer is right, and the
    feedback says that leaving its derivation, not a mistake, led it astray."""
    chain = pc.Sentence.from_heads(["w1", "w2", "w3"], [0, 1, 1])
    made = make_item(ItemSpec("static-fails", sentence_key(chain), "arc-eager-corrected"), chain)
    system = pc.get_system("arc-eager-corrected")
    before = pc.replay(system, chain, made.sequence[:1]).final
    assert pc.get_oracle(system, "search").costs(before, chain)[pc.Transition("SH")] == 0
    feedback = grade(made, Mistake(1, pc.Transition("SH")))
    assert feedback.correct and any("SHIFT was no mistake" in d for d in feedback.details), feedback


def test_whole_derivation_accepts_any_optimal_sequence_and_stops_at_the_first_costly_move() -> None:
    made = item("whole-derivation")
    eager_reduce = pc.parse_sequence("SH LA RA RA RE SH LA RA RE RA")  # her reduced early: same tree
    assert eager_reduce != made.key and grade(made, eager_reduce).correct
    shifted_her = pc.parse_sequence("SH LA RA SH")
    feedback = grade(made, shifted_her)
    assert not feedback.correct and feedback.message.startswith("Stopped at move 4")
    assert "sent → her" in feedback.message and feedback.credit == pytest.approx(3 / 10)
    unfinished = grade(made, made.key[:4])
    assert not unfinished.correct and "6 to go" in unfinished.message


def test_trace_table_grades_cell_by_cell() -> None:
    made = item("trace-table", seed=2)
    key = made.key
    half = grade(made, TableRow(key.stack, key.buffer, None if key.arc else (1, 2)))
    assert half.credit == pytest.approx(2 / 3) and half.details[0].startswith("The new arc is")


def test_count_steps_for_arc_standard_is_2n() -> None:
    made = item("count-steps", system="arc-standard")
    assert made.key == StepCount(12, 12)
    assert grade(made, StepCount(12, 13)).credit == 0.5


def test_crossing_arcs_names_the_pair() -> None:
    made = item("crossing-arcs", "found-best-example-ever")
    assert made.key.projective is False
    feedback = grade(made, CrossingAnswer(frozenset(), True))
    assert feedback.credit == 0 and "found → example and best → ever" in feedback.text


def test_what_cannot_be_made_says_why() -> None:
    with pytest.raises(ExerciseError, match="unknown exercise kind"):
        get_kind("guess-the-word")
    with pytest.raises(ExerciseError, match="level"):
        ItemSpec("next-move", LETTER, "arc-eager", level=4)
    with pytest.raises(ExerciseError, match="no sentence"):
        POOL.find("a-stale-sentence-id")
    with pytest.raises(ExerciseError, match="cannot read"):
        ItemSpec.parse("next-move/only-three-parts")
    with pytest.raises(ExerciseError, match="no approximate oracle"):
        item("approx-vs-exact", system="arc-hybrid")
    with pytest.raises(ExerciseError, match="exact for this tree"):
        item("approx-vs-exact", system="arc-eager-corrected")
    long = pc.Sentence.from_heads([f"w{i}" for i in range(1, 15)], [0, *range(1, 14)])
    with pytest.raises(ExerciseError, match="keeps to"):
        make_item(ItemSpec("next-move", "chain", "arc-standard"), long)
    with pytest.raises(ExerciseError, match="credit"):
        Feedback(True, 1.5, "", Hints("", "", ""))


def test_predict_parser_takes_a_trained_parsers_choice() -> None:
    """A real (tiny, untrained) parser plays the model: its scorer's choice is the key."""
    from parsing_core.model import ModelConfig, Parser, Vocab

    sentence = POOL.find("send-him-a-flower")
    tiny = ModelConfig(word_dim=8, lstm_dim=8, lstm_layers=1, mlp_dim=8, min_count=1)
    parser = Parser("arc-standard", Vocab.build([sentence], min_count=1), tiny)
    spec = ItemSpec("predict-parser", "send-him-a-flower", "arc-standard", (("model", "tiny"),),
                    seed=1, level=2)
    made = make_item(spec, sentence, lambda s: parser.scorer(s).choose)
    assert made.configuration is not None
    legal = pc.get_system("arc-standard").legal(made.configuration)
    assert made.key.move == parser.scorer(sentence).choose(made.configuration, legal).bare
    assert grade(made, made.key).correct


def questions_drawn(kind: str, system: str, level: int, seed: int, count: int) -> list[Item[Any]]:
    """The items "another like this" serves, one after another, in a session seeded by ``seed``."""
    served: list[ItemSpec] = []
    for _ in range(count):
        spec = draw_fresh(kind, system, level, seed, POOL, served)
        assert spec is not None, f"only {len(served)} {kind} items at level {level}"
        served.append(spec)
    return [rebuild(spec, POOL) for spec in served]


def test_another_like_this_never_asks_about_the_same_tree_again() -> None:
    """Eight crossing-arcs items in a row: eight different sentences (not just eight ids)."""
    drawn = questions_drawn("crossing-arcs", "arc-hybrid", 3, seed=20261127, count=8)
    assert len({i.spec.sentence for i in drawn}) == 8


def test_once_every_sentence_was_seen_a_new_configuration_is_asked() -> None:
    sentences = len({s.sentence for s in draw("next-move", "arc-eager", 1, 50, 1, POOL)})
    drawn = questions_drawn("next-move", "arc-eager", 1, seed=7, count=sentences + 5)
    assert len({i.spec.sentence for i in drawn[:sentences]}) == sentences
    assert len({question_of(i) for i in drawn}) == len(drawn)


def test_a_question_served_is_not_served_again_until_the_pool_is_spent() -> None:
    served: list[ItemSpec] = []
    while (spec := draw_fresh("crossing-arcs", "arc-standard", 1, 3, POOL, served)) is not None:
        served.append(spec)
    assert len(served) == len({question_of(rebuild(s, POOL)) for s in served}) >= 5


def test_sessions_seeded_differently_start_with_different_items() -> None:
    """Seeded by learner and time: ten sessions do not all begin with the same sentence."""
    first = {draw_fresh("next-move", "arc-eager", 1, seed, POOL).sentence for seed in range(10)}
    assert len(first) >= 3
    again = draw_fresh("next-move", "arc-eager", 1, 4, POOL)
    assert again == draw_fresh("next-move", "arc-eager", 1, 4, POOL)  # reproducible from the seed


def test_a_question_about_the_whole_tree_has_one_id_in_every_session() -> None:
    """Crossing arcs on one sentence asks one question: drawn in any session, it is one item (so an
    answer to it in a later session is a review of it, not a new first answer)."""
    ids: dict[str, set[str]] = {}
    for seed in range(6):
        for spec in questions_drawn("crossing-arcs", "arc-standard", 3, seed, count=4):
            ids.setdefault(spec.spec.sentence, set()).add(spec.id)
    assert all(len(found) == 1 for found in ids.values()) and len(ids) > 4


# -- what the tutor says ---------------------------------------------------------------------------
def test_the_principle_rung_is_about_this_configuration() -> None:
    """Rung 2 says what each legal move would do to this stack and buffer, not the cost's definition."""
    made = item("next-move", seed=25)  # stack [ROOT sent], buffer [a letter .]
    principle = made.hints.principle
    assert "cost(t; c)" not in principle
    for t in pc.get_system("arc-eager").legal(made.configuration):
        assert t.name in principle
    assert "SHIFT puts a on the stack" in principle
    other = item("next-move", seed=26)
    assert principle != other.hints.principle or other.moves == made.moves


def test_a_missed_optimal_move_says_why_it_is_optimal() -> None:
    made = next(m for seed in range(40) if len((m := item("all-optimal", seed=seed)).key) > 1)
    missed = sorted(made.key)[0]
    feedback = grade(made, made.key - {missed})
    [said] = [d for d in feedback.details if d.startswith(f"You missed {missed.name}")]
    assert "stays reachable" not in said, said
    assert "it builds the gold arc" in said or "within reach" in said, said


def test_punctuation_is_quoted_and_the_lost_arcs_are_said_once() -> None:
    """sent → '.' reads as an arc to a full stop, not as a sentence that stops."""
    made = next(m for seed in range(60) if (m := item("cost-of-move", seed=seed, level=2)).key.lost
                and any(d == 6 for _, d in m.key.lost))
    feedback = grade(made, CostAnswer(made.key.cost + 1, frozenset()))
    assert "'.'" in feedback.message and not any("Also lost" in d for d in feedback.details)
    assert feedback.text.count(arc_words(made.sentence, (2, 6))) == 1


def test_counts_of_moves_are_plain_english() -> None:
    made = item("whole-derivation")
    stopped = grade(made, pc.parse_sequence("SH LA RA SH"))
    assert "the optimal move is" in stopped.text or "the optimal moves are" in stopped.text
    assert "after 1 moves" not in stopped.text.lower()
    assert moves_count(1) == "1 move" and moves_count(3) == "3 moves"


@pytest.mark.parametrize("level", LEVELS)
def test_no_one_cost_answers_most_cost_questions(level: int) -> None:
    """A learner who always types the same cost must not pass: over the questions each system's
    Practice draws at a level, no cost is the answer to half of them.  (The move asked about was
    once drawn evenly from the legal moves: "1" answered 55–83 % of the questions after a mistake.)"""
    keys = [rebuild(spec, POOL).key.cost for system in ("arc-standard", "arc-eager", "arc-hybrid")
            for seed in range(4) for spec in draw("cost-of-move", system, level, 30, seed, POOL)]
    commonest, times = Counter(keys).most_common(1)[0]
    assert len(keys) > 50 and times < 0.5 * len(keys), (commonest, times, len(keys))


@pytest.mark.parametrize("level", LEVELS)
def test_questions_about_the_tree_cross_about_half_the_time_at_every_level(level: int) -> None:
    """Levels 1 and 2 once drew projective trees only: "no arcs cross" (or ticking every system)
    was always right.  Crossing and non-crossing trees now come in turn, generated ones (w1 … wn)
    where the teaching set has too few, and the one verdict earns half the credit."""
    specs = [spec for system in ("arc-standard", "arc-hybrid") for seed in range(2)
             for spec in draw("crossing-arcs", system, level, 30, seed, POOL)]
    items = [rebuild(spec, POOL) for spec in specs]
    crossing = sum(not i.sentence.is_projective for i in items)
    assert len(items) > 20 and 0.4 <= crossing / len(items) <= 0.6, (crossing, len(items))
    guessed = [grade(i, CrossingAnswer(frozenset(), True)).credit for i in items]
    assert sum(guessed) / len(guessed) <= 0.6
    assert all(i.sentence.n <= {1: 5, 2: 8, 3: 14}[level] for i in items)
    assert all(rebuild(spec, POOL).sentence == i.sentence for spec, i in zip(specs, items, strict=True))


@pytest.mark.parametrize("level", LEVELS)
def test_shifting_whenever_possible_does_not_answer_most_next_move_questions(level: int) -> None:
    """"SHIFT when it is legal, else the first legal move" knows nothing of the gold tree.  Drawn
    evenly among configurations, SHIFT was optimal so often that it answered more than half of
    the next-move questions; an optimal move is now drawn first, then a configuration where it is
    the one optimal move."""
    right = asked = 0
    for system in ("arc-standard", "arc-eager", "arc-hybrid"):
        legal_of = pc.get_system(system).legal
        for seed in range(4):
            for spec in draw("next-move", system, level, 30, seed, POOL):
                made = rebuild(spec, POOL)
                assert made.configuration is not None
                legal = legal_of(made.configuration)
                guess = pc.Transition("SH") if pc.Transition("SH") in legal else legal[0]
                right += grade(made, guess).correct
                asked += 1
    assert asked > 50 and right < 0.5 * asked, (right, asked)


@pytest.mark.parametrize("kind", ["next-move", "all-optimal", "cost-of-move"])
def test_no_move_question_is_asked_where_every_move_is_right(kind: str) -> None:
    """A configuration where no legal move costs anything was once served when the walks met no
    other (a third or more of the swap systems' level-3 items): any answer was right there."""
    from parsing_core.exercises.setting import costly

    checked = 0
    for system in ("arc-standard-swap", "arc-hybrid-swap", "arc-standard"):
        for spec in draw(kind, system, 3, 12, 0, POOL):
            made = rebuild(spec, POOL)
            assert made.configuration is not None
            costs = get_kind(kind).again(made).costs(made.configuration)
            assert costly(costs), (spec, costs)
            checked += 1
    assert checked > 10


def test_going_round_in_circles_earns_no_more_than_the_progress_made() -> None:
    """SWAP and SHIFT undo each other at no cost: a derivation of twenty such optimal moves once
    earned 0.9 of the credit, counted by moves played; the credit is now the part of the parse done."""
    system = pc.get_system("arc-standard-swap")
    for spec in draw("whole-derivation", "arc-standard-swap", 1, 6, 0, POOL):
        made = rebuild(spec, POOL)
        where = get_kind("whole-derivation").again(made)
        c, moves = system.initial(made.sentence), []
        while len(moves) < 30:  # SWAP whenever it is optimal, else SHIFT while it is
            costs = where.costs(c)
            t = pc.Transition("SW") if pc.Transition("SW") in costs else pc.Transition("SH")
            if costs.get(t, math.inf) > min(costs.values()):
                break
            moves.append(t)
            c = system.apply(c, t)
        still = len(optimal_derivation(where, c))
        feedback = grade(made, tuple(moves))
        assert not feedback.correct
        assert feedback.credit == pytest.approx((len(made.key) - still) / len(made.key))
        assert len(moves) <= len(made.key) or feedback.credit < 0.7


@pytest.mark.parametrize("system", ["arc-standard", "arc-hybrid"])
def test_the_move_told_in_a_trace_table_question_is_not_mostly_shift(system: str) -> None:
    """At level 1 the move told was an optimal one drawn evenly, SHIFT more than half the time, so
    that "the buffer's front onto the stack, no arc" (the prompt unread) earned most of the credit.
    A move kind is now drawn first."""
    told = [rebuild(spec, POOL).asked for seed in range(4)
            for spec in draw("trace-table", system, 1, 30, seed, POOL)]
    shifts = sum(t is not None and t.kind == "SH" for t in told)
    assert len(told) > 20 and shifts < 0.45 * len(told), (shifts, len(told))
