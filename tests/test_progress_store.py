"""The progress store keeps what it is given and says clearly what it refuses.

Round trips of learners, answers, hints and sets; set results as a teacher reads them; export and
import; a store reopened (a server restart) holds the same progress; bad inputs and unusable
databases raise the store's own errors.  Each test that opens a store runs twice, on a SQLite file
and on PostgreSQL (``database_url``, ``new_database``: tests/progress_fixtures.py).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from postgres_server import free_port

from parsing_core.errors import ParsingCoreError
from server.progress import (
    BadInput,
    ClassCodeNeeded,
    Learner,
    NicknameTaken,
    StoreUnavailable,
    UnknownLearner,
    UnknownSet,
    open_store,
)

SKILL = "next-move/arc-eager"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)  # every event a second after the last
        return self.now


@pytest.fixture
def store(database_url):
    opened = open_store(database_url, clock=Clock())
    yield opened
    opened.close()


# -- learners ----------------------------------------------------------------------------------


def test_a_learner_registers_and_continues_by_nickname_and_class_code(store):
    ana = store.register("  Ana ", class_code="ling101")
    assert ana == Learner(ana.id, "Ana", "LING101")
    assert store.continue_as("ANA", "Ling101") == ana  # neither is case-sensitive
    bob = store.register("bob")
    assert store.continue_as("bob") == bob and bob.class_code == ""


def test_a_nickname_taken_in_a_class_needs_the_class_code(store):
    store.register("ana", "LING101")
    with pytest.raises(NicknameTaken, match="used in class LING101.*continue as 'Ana' with the class code"):
        store.register("Ana", "ling101")
    with pytest.raises(ClassCodeNeeded, match="give its class code"):
        store.continue_as("ana")
    with pytest.raises(UnknownLearner, match="no learner is called 'ana' in class LING102"):
        store.continue_as("ana", "LING102")
    other = store.register("ana", "LING102")  # another class, another learner
    assert other.class_code == "LING102"


def test_a_nickname_without_class_is_taken_once(store):
    store.register("Zoe")
    with pytest.raises(NicknameTaken, match="already used"):
        store.register("zoe")
    with pytest.raises(UnknownLearner, match="start as a new learner"):
        store.continue_as("zed")


@pytest.mark.parametrize("nickname, message", [
    ("", "must not be empty"), ("   ", "must not be empty"), ("x" * 41, "at most 40 characters"),
    ("a\nb", "printable"), (None, "must be text"), (7, "must be text"),
])
def test_bad_nicknames_are_refused_with_the_reason(store, nickname, message):
    with pytest.raises(BadInput, match=message):
        store.register(nickname)


def test_a_learner_of_another_store_is_refused(store):
    stranger = Learner(99, "who", "")
    with pytest.raises(UnknownLearner, match="sign in again"):
        store.record_answer(stranger, "i1", SKILL, correct=True)


# -- answers and hints -------------------------------------------------------------------------


def test_an_answer_round_trips_with_its_json(store):
    ana = store.register("ana")
    answer = {"moves": ["SH", "LA:nsubj"], "table": [[0, 1], [2]]}
    kept = store.record_answer(ana, "wd-17", "derivation/arc-standard", correct=False, credit=0.5,
                               answer=answer)
    assert store.answers(ana) == [kept]
    assert (kept.correct, kept.credit, kept.hints, kept.answer) == (False, 0.5, 0, answer)
    assert kept.at == datetime(2026, 3, 2, 9, 0, 2)  # naive UTC (registering took the first second)


def test_hints_count_for_the_next_answer_to_that_item_only(store):
    ana = store.register("ana")
    store.record_hint(ana, "i1", SKILL, rung=1)
    store.record_hint(ana, "i1", SKILL, rung=2)
    store.record_hint(ana, "i1", SKILL, rung=2)  # the same rung again (a rerun) counts once
    store.record_hint(ana, "i2", SKILL, rung=1)
    assert store.record_answer(ana, "i1", SKILL, correct=True).hints == 2
    assert store.record_answer(ana, "i1", SKILL, correct=True).hints == 0  # those hints are used up
    assert store.record_answer(ana, "i2", SKILL, correct=False).hints == 1
    assert store.record_answer(ana, "i3", SKILL, correct=True, hints=3).hints == 3  # told by the page


@pytest.mark.parametrize("kwargs, message", [
    ({"correct": "yes"}, "correct must be True or False"),
    ({"correct": True, "credit": 1.5}, "from 0 to 1"),
    ({"correct": True, "credit": float("nan")}, "from 0 to 1"),
    ({"correct": True, "hints": -1}, "whole number from 0"),
    ({"correct": True, "answer": {1, 2}}, "JSON value"),
    ({"correct": True, "answer": "x" * 30_000}, "at most 20000 characters"),
    ({"correct": True, "set_id": "nope1234"}, "no exercise set has the id 'nope1234'"),
])
def test_bad_answers_are_refused_with_the_reason(store, kwargs, message):
    ana = store.register("ana")
    with pytest.raises(ParsingCoreError, match=message):
        store.record_answer(ana, "i1", SKILL, **kwargs)
    assert store.answers(ana) == []


def test_bad_item_ids_skills_and_rungs_are_refused(store):
    ana = store.register("ana")
    with pytest.raises(BadInput, match="an item id must not be empty"):
        store.record_answer(ana, "", SKILL, correct=True)
    with pytest.raises(BadInput, match="a skill has at most 80 characters"):
        store.record_answer(ana, "i1", "s" * 81, correct=True)
    with pytest.raises(BadInput, match="rung is a whole number from 1"):
        store.record_hint(ana, "i1", SKILL, rung=0)


# -- sets --------------------------------------------------------------------------------------

SPEC = {"kinds": ["next-move", "cost"], "systems": ["arc-eager"], "level": 2, "count": 3, "seed": 7}


def test_a_set_is_found_by_its_id_and_an_unknown_id_is_a_clear_error(store):
    made = store.create_set("Monday's warm-up", SPEC, ["i1", "i2", "i3"])
    assert len(made.id) == 8 and made.id.isalnum()
    assert store.practice_set(made.id) == made
    assert store.practice_set(f" {made.id} ") == made  # a pasted link with spaces
    assert store.create_set("Monday's warm-up", SPEC).id != made.id  # same spec, a set of its own
    for bad in [made.id[:-1], "", "x" * 500, None]:
        with pytest.raises(UnknownSet, match="the link may be cut short or mistyped"):
            store.practice_set(bad)
        with pytest.raises(UnknownSet):
            store.set_results(bad)


def test_an_item_a_set_does_not_hold_is_a_stale_id(store):
    ana = store.register("ana")
    made = store.create_set("warm-up", SPEC, ["i1", "i2"])
    with pytest.raises(BadInput, match="the set '.*' has no item 'i7': the page may be older than the set"):
        store.record_answer(ana, "i7", SKILL, correct=True, set_id=made.id)
    with pytest.raises(BadInput, match="has no item 'i7'"):
        store.record_hint(ana, "i7", SKILL, rung=1, set_id=made.id)
    assert store.answers(ana) == [] and store.export_progress(ana)["hints"] == []


@pytest.mark.parametrize("title, spec, items, message", [
    ("", SPEC, [], "title must not be empty"),
    ("t", ["not", "an", "object"], [], "spec is a JSON object"),
    ("t", {"seed": object()}, [], "plain JSON"),
    ("t", SPEC, "i1", "list of item ids"),
    ("t", SPEC, ["i1", "i1"], "each item once"),
])
def test_bad_sets_are_refused(store, title, spec, items, message):
    with pytest.raises(BadInput, match=message):
        store.create_set(title, spec, items)


def class_answers_a_set(store):
    """Three learners answer a three-item set: the teacher's next-day story."""
    made = store.create_set("warm-up", SPEC, ["i1", "i2", "i3"])
    ana, bob, cem = (store.register(name, "C1") for name in ("ana", "bob", "cem"))
    store.record_answer(ana, "i1", SKILL, correct=True, answer="LA", set_id=made.id)
    store.record_answer(bob, "i1", SKILL, correct=False, answer="SH", set_id=made.id)
    store.record_hint(bob, "i1", SKILL, rung=1, set_id=made.id)
    store.record_answer(bob, "i1", SKILL, correct=False, answer="RA", set_id=made.id)
    store.record_hint(bob, "i1", SKILL, rung=2, set_id=made.id)
    store.record_answer(bob, "i1", SKILL, correct=True, answer="LA", set_id=made.id)
    store.record_answer(bob, "i1", SKILL, correct=False, answer="SH", set_id=made.id)  # after solving
    for answer in ["SH", "RA"]:
        store.record_answer(cem, "i1", SKILL, correct=False, answer=answer, set_id=made.id)
    store.record_answer(cem, "i2", SKILL, correct=True, answer=["LA", "RA"], set_id=made.id)
    store.record_answer(cem, "i2", SKILL, correct=False, answer="not in the set")  # free practice
    return made, (ana, bob, cem)


def test_set_results_count_solvers_hints_and_the_commonest_wrong_answer(store):
    made, _ = class_answers_a_set(store)
    first, second, third = store.set_results(made.id)
    assert [r.item_id for r in (first, second, third)] == ["i1", "i2", "i3"]
    assert (first.learners, first.solved, first.solved_without_hints, first.hints) == (3, 2, 1, (0, 2))
    assert (first.wrong_answers, first.common_wrong, first.common_wrong_count) == (5, "SH", 3)
    assert (second.learners, second.solved, second.wrong_answers, second.common_wrong) == (1, 1, 0, None)
    assert (third.learners, third.solved, third.hints, third.common_wrong_count) == (0, 0, (), 0)


def test_a_right_answer_after_the_feedback_does_not_count_as_solved_at_once(store):
    made = store.create_set("warm-up", SPEC, ["i1"])
    dan = store.register("dan", "C1")
    store.record_answer(dan, "i1", SKILL, correct=False, answer="SH", set_id=made.id)
    store.record_answer(dan, "i1", SKILL, correct=True, answer="LA", set_id=made.id)  # no hint, but a retry
    result, = store.set_results(made.id)
    assert (result.solved, result.hints, result.solved_without_hints) == (1, (0,), 0)


# -- export, import, restart -------------------------------------------------------------------


def summary(store, learner):
    """Everything the store derives for a learner, in comparable form."""
    answers = [(a.uid, a.item_id, a.skill, a.set_id, a.correct, a.credit, a.hints, a.answer, a.at)
               for a in store.answers(learner)]
    return answers, store.progress(learner), store.reviews(learner)


def test_export_then_import_into_a_fresh_store_gives_the_same_progress(store, new_database):
    made, (_, bob, _) = class_answers_a_set(store)
    store.record_hint(bob, "i9", SKILL, rung=1)  # a hint not yet used by an answer travels too
    document = json.loads(json.dumps(store.export_progress(bob)))
    other = open_store(new_database(), clock=Clock())
    twin = other.register("bob", "C1")
    other.import_progress(twin, document)
    assert summary(other, twin) == summary(store, bob)
    assert other.practice_set(made.id) == made
    assert other.export_progress(twin) == store.export_progress(bob)
    assert other.record_answer(twin, "i9", SKILL, correct=True).hints == 1
    other.close()


def test_importing_twice_changes_nothing_and_another_learners_file_is_refused(store):
    _, (ana, bob, _) = class_answers_a_set(store)
    document = store.export_progress(bob)
    before = summary(store, bob)
    store.import_progress(bob, document)
    assert summary(store, bob) == before
    with pytest.raises(BadInput, match="belongs to another learner"):
        store.import_progress(ana, document)
    assert len(store.answers(ana)) == 1


@pytest.mark.parametrize("damage, message", [
    (lambda d: d.update(format="something else"), "not a progress file of the lab"),
    (lambda d: d.update(version=2), "version 2; this lab reads version 1"),
    (lambda d: d.pop("answers"), "has no 'answers'"),
    (lambda d: d["answers"][1].update(correct="maybe"), r"answers\[1\]\.correct: correct must be True or"),
    (lambda d: d["answers"][0].update(answered_at="yesterday"), r"answers\[0\]\.answered_at"),
    (lambda d: d["answers"].append(dict(d["answers"][0])), "holds one answer or hint twice"),
    (lambda d: d["sets"].clear(), "neither in the file nor in this store"),
])
def test_a_damaged_progress_file_is_refused_whole(store, new_database, damage, message):
    _, (_, bob, _) = class_answers_a_set(store)
    document = store.export_progress(bob)
    damage(document)
    other = open_store(new_database())
    twin = other.register("bob")
    with pytest.raises(BadInput, match=message):
        other.import_progress(twin, document)
    assert other.answers(twin) == []  # all or nothing
    other.close()


def test_progress_survives_reopening_the_store(database_url):
    store = open_store(database_url, clock=Clock())
    made, (_, bob, _) = class_answers_a_set(store)
    before, results = summary(store, bob), store.set_results(made.id)
    store.close()  # the server stops ...
    again = open_store(database_url)  # ... and starts again
    bob_again = again.continue_as("bob", "C1")
    assert bob_again == bob
    assert summary(again, bob_again) == before and again.set_results(made.id) == results
    again.close()


# -- databases that cannot be used -------------------------------------------------------------


def test_a_database_that_cannot_be_opened_raises_store_unavailable(tmp_path):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"this is not a database, just bytes" * 100)
    for url in [f"sqlite:///{not_a_folder / 'progress.sqlite3'}", f"sqlite:///{garbage}", "nosuchdb://x/y",
                "not a url at all"]:
        with pytest.raises(StoreUnavailable, match="cannot be"):
            open_store(url)


def test_a_postgresql_database_that_cannot_be_reached_raises_store_unavailable(postgres_server):
    nowhere = f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/progress"  # no server listens
    for url in [postgres_server.url("no_such_database"), nowhere, "postgresql+nosuchdriver://h/d"]:
        with pytest.raises(StoreUnavailable, match="cannot be"):
            open_store(url)


def test_a_store_whose_file_goes_bad_says_progress_is_not_being_saved(tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'progress.sqlite3'}")
    ana = store.register("ana")
    store.close()
    path = tmp_path / "progress.sqlite3"
    for name in ["progress.sqlite3-wal", "progress.sqlite3-shm"]:
        (tmp_path / name).unlink(missing_ok=True)
    path.write_bytes(b"overwritten" * 1000)
    with pytest.raises(StoreUnavailable, match="progress is not being saved"):
        store.record_answer(ana, "i1", SKILL, correct=True)
