"""Mastery and the review queue move exactly as stated: MASTERY_RUN clean answers in a row master a
skill; Leitner's boxes bring a missed item back after BOX_WAITS[1], a known one later and later.
Each test runs on a SQLite file and on PostgreSQL (``database_url``)."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest

from server.progress import BOX_WAITS, MASTERY_RUN, open_store

SKILL = "next-move/arc-hybrid"
OTHER = "cost/arc-hybrid"


def answer(store, clock, learner, item, correct=True, hints=0, skill=SKILL):
    clock.wait(timedelta(seconds=10))
    for rung in range(1, hints + 1):
        store.record_hint(learner, item, skill, rung)
    return store.record_answer(learner, item, skill, correct=correct)


def test_the_mastery_run_is_three_as_the_page_says():
    assert MASTERY_RUN == 3


def test_a_skill_is_mastered_after_a_run_of_clean_answers(store, clock):
    ana = store.register("ana")
    assert store.skill(ana, SKILL).state == "new"
    for k in range(MASTERY_RUN - 1):
        answer(store, clock, ana, f"i{k}")
    progress = store.skill(ana, SKILL)
    assert (progress.state, progress.streak, progress.to_mastery) == ("learning", MASTERY_RUN - 1, 1)
    answer(store, clock, ana, "last")
    assert store.skill(ana, SKILL).state == "mastered" and store.skill(ana, SKILL).to_mastery == 0


@pytest.mark.parametrize("breaker", [{"correct": False}, {"hints": 1}], ids=["wrong", "hint"])
def test_a_wrong_answer_or_a_hint_starts_the_run_again(store, clock, breaker):
    ana = store.register("ana")
    for k in range(MASTERY_RUN - 1):
        answer(store, clock, ana, f"i{k}")
    answer(store, clock, ana, "x", **breaker)
    assert store.skill(ana, SKILL).streak == 0
    for k in range(MASTERY_RUN - 1):
        answer(store, clock, ana, f"j{k}")
    assert not store.skill(ana, SKILL).mastered
    answer(store, clock, ana, "j-last")
    assert store.skill(ana, SKILL).mastered


def test_mastery_is_per_skill_and_kept_once_earned(store, clock):
    ana = store.register("ana")
    for k in range(MASTERY_RUN):
        answer(store, clock, ana, f"i{k}")
        answer(store, clock, ana, f"c{k}", correct=k % 2 == 0, skill=OTHER)
    answer(store, clock, ana, "after", correct=False)
    by_skill = {p.skill: p for p in store.progress(ana)}
    mastered = by_skill[SKILL]
    assert mastered.mastered and mastered.streak == 0 and mastered.best_run == MASTERY_RUN
    assert by_skill[OTHER].state == "learning"
    assert (by_skill[OTHER].answered, by_skill[OTHER].correct) == (MASTERY_RUN, 2)
    assert list(by_skill) == sorted(by_skill)  # a chart's order
    rows = store.progress(ana, skills=[OTHER, "trace/swap", SKILL])
    assert [p.state for p in rows] == ["learning", "new", "mastered"]
    assert [p.skill for p in rows] == [OTHER, "trace/swap", SKILL]
    assert rows[1].boxes == (0, 0, 0, 0, 0) and rows[1].to_mastery == MASTERY_RUN


def box_of(store, learner, item):
    return {r.item_id: r for r in store.reviews(learner)}[item]


def test_a_missed_item_is_due_after_the_first_box_wait(store, clock):
    ana = store.register("ana")
    missed = answer(store, clock, ana, "m", correct=False)
    assert box_of(store, ana, "m").box == 1
    assert store.due_reviews(ana, missed.at.replace(tzinfo=UTC) + BOX_WAITS[1] - timedelta(seconds=1)) == []
    due = store.due_reviews(ana, missed.at.replace(tzinfo=UTC) + BOX_WAITS[1])
    assert [(r.item_id, r.box) for r in due] == [("m", 1)]


def test_right_answers_climb_the_boxes_and_a_miss_sends_the_item_back(store, clock):
    ana = store.register("ana")
    answer(store, clock, ana, "k")
    for box in range(3, 6):
        clock.wait(BOX_WAITS[box - 1])  # each answer once the item is due again: a review
        answer(store, clock, ana, "k")
        assert box_of(store, ana, "k").box == box
    clock.wait(BOX_WAITS[5])
    answer(store, clock, ana, "k")
    assert box_of(store, ana, "k").box == 5  # the last box is the last
    clock.wait(BOX_WAITS[5])
    answer(store, clock, ana, "k", hints=2)
    assert box_of(store, ana, "k").box == 5  # right after hints: stays
    answer(store, clock, ana, "k", correct=False)
    assert box_of(store, ana, "k").box == 1


def test_a_right_answer_after_a_miss_is_a_retry_kept_but_not_counted(store, clock):
    """Wrong, then right at once on the same item (the feedback named the key): streak 0, box 1,
    due five minutes after the miss, and the answer is kept."""
    ana = store.register("ana")
    missed = answer(store, clock, ana, "m", correct=False)
    right = answer(store, clock, ana, "m")
    assert [a.uid for a in store.answers(ana)] == [missed.uid, right.uid]
    progress = store.skill(ana, SKILL)
    assert (progress.streak, progress.answered, progress.correct) == (0, 2, 1)
    review = box_of(store, ana, "m")
    assert (review.box, review.due) == (1, missed.at + BOX_WAITS[1])


def test_answering_one_item_again_and_again_never_masters(store, clock):
    ana = store.register("ana")
    answer(store, clock, ana, "m", correct=False)
    for _ in range(MASTERY_RUN + 1):
        answer(store, clock, ana, "m")
    assert store.skill(ana, SKILL).streak == 0 and box_of(store, ana, "m").box == 1
    clock.wait(BOX_WAITS[1])
    answer(store, clock, ana, "m")  # due again: a review moves it up, but mastery wants new items
    assert box_of(store, ana, "m").box == 2 and store.skill(ana, SKILL).streak == 0


def test_mastery_needs_right_first_answers_on_different_items(store, clock):
    ana = store.register("ana")
    answer(store, clock, ana, "a")
    answer(store, clock, ana, "a")  # the same item again: no second step toward mastery
    answer(store, clock, ana, "b")
    assert store.skill(ana, SKILL).streak == 2 and not store.skill(ana, SKILL).mastered
    answer(store, clock, ana, "c")
    assert store.skill(ana, SKILL).mastered


def test_imported_answers_obey_the_retry_rule(store, clock, new_database):
    ana = store.register("ana")
    missed = answer(store, clock, ana, "m", correct=False)
    answer(store, clock, ana, "m")
    elsewhere = open_store(new_database(), clock=clock)
    try:
        there = elsewhere.register("ana")
        elsewhere.import_progress(there, store.export_progress(ana))
        review = {r.item_id: r for r in elsewhere.reviews(there)}["m"]
        assert (review.box, review.due) == (1, missed.at + BOX_WAITS[1])
        assert elsewhere.skill(there, SKILL).streak == 0
    finally:
        elsewhere.close()


def test_boxes_wait_longer_and_longer():
    waits = [BOX_WAITS[box] for box in sorted(BOX_WAITS)]
    assert sorted(BOX_WAITS) == [1, 2, 3, 4, 5] and waits == sorted(waits) and len(set(waits)) == 5


def test_missed_items_come_back_before_known_ones(store, clock):
    ana = store.register("ana")
    answer(store, clock, ana, "known")
    answer(store, clock, ana, "missed", correct=False)
    answer(store, clock, ana, "hinted", hints=1)
    assert store.due_reviews(ana) == []
    clock.wait(BOX_WAITS[1])
    assert [r.item_id for r in store.due_reviews(ana)] == ["missed", "hinted"]
    clock.wait(BOX_WAITS[2])
    assert [r.item_id for r in store.due_reviews(ana)] == ["missed", "hinted", "known"]
    progress = store.skill(ana, SKILL)
    assert progress.boxes == (2, 1, 0, 0, 0)


def test_review_follows_the_learner_not_the_tab(store, clock):
    """A hint taken in one tab counts for the answer sent from another (both hold the same learner)."""
    ana_in_tab_1 = store.register("ana", "C")
    ana_in_tab_2 = store.continue_as("ana", "C")
    store.record_hint(ana_in_tab_1, "t", SKILL, rung=1)
    store.record_answer(ana_in_tab_2, "t", SKILL, correct=True)
    assert box_of(store, ana_in_tab_1, "t").box == 1 and store.skill(ana_in_tab_1, SKILL).streak == 0
