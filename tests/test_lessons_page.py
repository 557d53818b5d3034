"""The Lessons page, run by AppTest: the list, and every lesson walked to its end with each question
answered right (graded in place); a move off the path and the way back; a link to a step."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

import parsing_core as pc
import parsing_core.exercises as ex
import parsing_core.lessons as pl
from server.progress import open_store
from ui.views.safe_text import inert

APP = str(Path(__file__).resolve().parent.parent / "app.py")
LESSONS, _ = pl.load_lessons(pl.lesson_files())


@pytest.fixture(autouse=True)
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A progress store of each test's own (answers are recorded there only when signed in)."""
    url = f"sqlite:///{tmp_path / 'progress.sqlite3'}"
    monkeypatch.setenv("PARSING_DATABASE_URL", url)
    return url


def open_page(**query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("pages/lessons.py")
    for name, value in query.items():
        at.query_params[name] = value
    return at.run()


def answer_right(at: AppTest, key: str, item: Any) -> None:
    """Put the item's own key into the question's widgets."""
    kind = item.spec.kind
    if kind == "next-move":
        at.radio(key=key).set_value(item.key.kind)
    elif kind == "all-optimal":
        for t in item.key:
            at.checkbox(key=f"{key}.{t.kind}").check()
    elif kind == "cost-of-move":
        at.number_input(key=key).set_value(int(item.key.cost))
    elif kind == "crossing-arcs":
        arcs = sorted(item.sentence.gold_arcs, key=lambda a: (a[1], a[0]))
        pairs = [frozenset(p) for p in itertools.combinations(arcs, 2)]
        at.multiselect(key=f"{key}.pairs").set_value([i for i, p in enumerate(pairs) if p in item.key.pairs])
        at.radio(key=f"{key}.projective").set_value("yes" if item.key.projective else "no")
    else:
        at.multiselect(key=key).set_value(sorted(item.key))


def test_the_list_shows_every_lesson_with_its_length_and_offers_to_sign_in():
    at = open_page()
    assert not at.exception
    cards = [m.value for m in at.markdown if m.value.startswith("**")]
    assert len(cards) == len(LESSONS)
    assert f"{len(LESSONS[2].steps)} steps" in cards[2] and "0 answered right" in cards[2]
    assert "seed" not in cards[2]  # provenance is a footnote of the steps
    assert at.sidebar.text_input(key="practice.nickname") is not None
    assert any("Sign in to keep your answers" in c.value for c in at.sidebar.caption)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_walk_a_lesson_to_the_end_answering_each_question_right(lesson):
    at = open_page(lesson=lesson.id, step="1")
    for step in lesson.steps:
        assert not at.exception, at.exception
        assert f"Step {step.number} of {len(lesson.steps)}" in at.get("progress")[0].proto.text
        linked = any("Open this in the stepper" in m.value for m in at.markdown)
        assert linked == step.shows_board  # a step about something else shows no board
        if step.question:
            item = pl.item_of(lesson, step, pl.Reached(lesson, step))
            key = f"lessons.q.{lesson.id}.{step.number}"
            answer_right(at, f"{key}.answer", item)
            at.run()
            at.button(key=f"{key}.check").click().run()
            assert [s.value for s in at.success][:1] and at.success[0].value.startswith("Right"), \
                [e.value for e in at.error]
        if step.number < len(lesson.steps):
            at.button(key="lessons.next").click().run()
            assert at.query_params["step"] in (str(step.number + 1), [str(step.number + 1)])
    assert any(m.value == f"**In one line.** {inert(lesson.recap)}" for m in at.markdown)


def test_the_board_goes_off_the_path_and_back_with_one_button():
    at = open_page(lesson="03-static-oracles", step="3")
    at.button(key="lessons.move.LA").click().run()
    assert any("off the lesson's path" in i.value for i in at.info)
    at.button(key="lessons.back_to_step").click().run()
    assert not any("off the lesson's path" in i.value for i in at.info)
    link = next(m.value for m in at.markdown if "Open this in the stepper" in m.value)
    assert "moves=SH.LA.RA.SH" in link and "s=he-sent-her-a-letter" in link


def test_presenter_mode_comes_from_the_link_and_carries_into_the_stepper_link():
    at = open_page(lesson="05-arc-hybrid", step="2", present="1")
    assert at.sidebar.toggle(key="lessons.presenter").value is True
    link = next(m.value for m in at.markdown if "Open this in the stepper" in m.value)
    assert "present=1" in link and "opt=root_last" in link


def test_the_training_demo_draws_both_curves_and_says_where_they_ended():
    at = open_page(lesson="09-training-with-oracles", step="5")
    at.button(key="lessons.demo.run").click().run()
    at.run()
    assert not at.exception
    ended = [c.value for c in at.caption if c.value.startswith("After the last epoch")]
    assert ended and "static" in ended[0] and "dynamic (k=1, p=0.9)" in ended[0]
    chart = at.session_state["lessons.demo.training"]
    assert list(chart.columns) == ["static", "dynamic (k=1, p=0.9)"] and len(chart) == 6
    assert chart.notna().all().all() and (chart.to_numpy() > 0).all()


def test_check_grades_the_answer_as_it_is_at_the_click() -> None:
    """A learner changes the answer and clicks Check at once (one rerun): the new answer is graded."""
    lesson = next(lesson for lesson in LESSONS if lesson.costs)
    step = next(s for s in lesson.steps if s.question and s.question.kind == "next-move")
    at = open_page(lesson=lesson.id, step=str(step.number))
    item = pl.item_of(lesson, step, pl.Reached(lesson, step))
    key = f"lessons.q.{lesson.id}.{step.number}"
    wrong = next(k for k in ("SH", "LA", "RA", "RE") if not ex.grade(item, pc.Transition(k)).correct)
    assert not at.table and any("Hidden until you answer" in i.value for i in at.info)  # no costs yet
    assert at.button(key="lessons.oracle_step").disabled
    at.button(key=f"{key}.check").click().run()  # no answer yet: asked for one, nothing graded
    assert any("Give an answer first" in i.value for i in at.info) and not at.error and not at.success
    at.radio(key=f"{key}.answer").set_value(wrong)
    at.button(key=f"{key}.check").click().run()
    assert at.error and not at.success
    assert at.table and not any("Hidden until you answer" in i.value for i in at.info)  # answered: shown
    answer_right(at, f"{key}.answer", item)  # changed, and Check clicked in the same rerun
    at.button(key=f"{key}.check").click().run()
    assert at.success and at.success[0].value.startswith("Right") and not at.error


def test_a_signed_in_learners_right_answers_are_kept_and_counted_in_the_list(database):
    store = open_store(database)
    learner = store.register("ada")
    lesson = LESSONS[0]
    step = next(s for s in lesson.steps if s.question)
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("pages/lessons.py")
    at.session_state["practice.learner"] = learner
    at.query_params["lesson"], at.query_params["step"] = lesson.id, str(step.number)
    at.run()
    assert any("saved with your Practice progress" in c.value for c in at.sidebar.caption)
    item = pl.item_of(lesson, step, pl.Reached(lesson, step))
    key = f"lessons.q.{lesson.id}.{step.number}"
    answer_right(at, f"{key}.answer", item)
    at.run()
    at.button(key=f"{key}.check").click().run()
    assert [(a.item_id, a.correct, a.skill) for a in store.answers(learner)] == [
        (item.id, True, f"next-move/{lesson.steps[0].board.system}")]
    at.button(key="lessons.list").click().run()
    card = next(m.value for m in at.markdown if m.value.startswith("**1."))
    assert "1 answered right" in card


def test_a_broken_lesson_file_is_reported_on_the_page_and_the_others_still_open(tmp_path, monkeypatch):
    folder = tmp_path / "lessons"
    folder.mkdir()
    for path in pl.lesson_files()[:2]:
        (folder / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "03-broken.toml").write_text('title = "Broken"\n[[steps]\n', encoding="utf-8")
    monkeypatch.setenv("PARSING_LESSONS_DIR", str(folder))
    at = open_page()
    shown = [e.value.replace("\\", "") for e in at.error]  # the page escapes Markdown
    assert any("03-broken.toml: cannot be read" in text for text in shown), shown
    assert len([m for m in at.markdown if m.value.startswith("**")]) == 2


def explanation_shown(at: AppTest, step: pl.Step) -> dict[str, bool]:
    """Which parts of a question step's explanation the page shows."""
    return {"after": any(m.value.strip() == step.after.strip() for m in at.markdown),
            "look": any(m.value.endswith(f"**Look at:** {inert(step.look.text)}") for m in at.markdown),
            "claims": any(c.value.startswith("Checked by the oracles") for c in at.caption),
            "highlight": any("is outlined on the board" in c.value for c in at.caption)
            or any("box-shadow" in h.proto.body for h in at.get("html"))}


def test_a_question_step_shows_its_explanation_only_once_answered():
    lesson = LESSONS[0]
    step = next(s for s in lesson.steps if s.question and s.highlight and s.claims and s.after and s.look)
    at = open_page(lesson=lesson.id, step=str(step.number))
    assert explanation_shown(at, step) == {"after": False, "look": False, "claims": False, "highlight": False}
    key = f"lessons.q.{lesson.id}.{step.number}"
    answer_right(at, f"{key}.answer", pl.item_of(lesson, step, pl.Reached(lesson, step)))
    at.button(key=f"{key}.check").click().run()
    assert explanation_shown(at, step) == {"after": True, "look": True, "claims": True, "highlight": True}


def test_show_me_gives_the_answer_and_the_explanation_and_counts_as_not_found(database):
    store = open_store(database)
    learner = store.register("grace")
    lesson = LESSONS[3]
    step = next(s for s in lesson.steps if s.question and s.question.kind == "cost-of-move")
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("pages/lessons.py")
    at.session_state["practice.learner"] = learner
    at.query_params["lesson"], at.query_params["step"] = lesson.id, str(step.number)
    at.run()
    assert not explanation_shown(at, step)["after"] and not at.table
    key = f"lessons.q.{lesson.id}.{step.number}"
    at.button(key=f"{key}.show").click().run()
    assert explanation_shown(at, step)["after"] and at.table  # the costs are shown too
    assert any(i.value.startswith("The answer:") for i in at.info)
    item = pl.item_of(lesson, step, pl.Reached(lesson, step))
    assert [(a.item_id, a.correct) for a in store.answers(learner)] == [(item.id, False)]


def test_a_lesson_ends_with_its_recap_and_the_next_lesson():
    first, second = LESSONS[0], LESSONS[1]
    at = open_page(lesson=first.id, step=str(len(first.steps)))
    assert any(m.value == f"**In one line.** {inert(first.recap)}" for m in at.markdown)
    read_more = "Read more: " + "; ".join(inert(r.citation) for r in first.references) + "."
    assert read_more in [c.value for c in at.caption]  # the texts in full, to go and read
    at.button(key="lessons.next_lesson").click().run()
    assert at.query_params["lesson"] in (second.id, [second.id])
    assert at.title[0].value == second.title
    last = open_page(lesson=LESSONS[-1].id, step=str(len(LESSONS[-1].steps)))
    assert not [b for b in last.button if b.key == "lessons.next_lesson"]


def test_sources_are_a_footnote_and_the_early_lessons_show_legal_moves_without_costs():
    lesson = LESSONS[0]
    at = open_page(lesson=lesson.id, step="1")
    assert at.main.caption[-1].value == f"Sources: {inert(lesson.sources)}."
    assert not any("seed" in m.value for m in at.markdown)
    assert any(m.value == "**Legal moves**" for m in at.markdown)
    assert list(at.table[0].value.columns) == ["legal", "builds"]  # no cost, no verdict, no oracle's name


def test_a_learner_signs_in_on_the_lessons_page_and_the_answers_are_kept(database):
    lesson = LESSONS[1]
    step = next(s for s in lesson.steps if s.question)
    at = open_page(lesson=lesson.id, step=str(step.number))
    at.sidebar.text_input(key="practice.nickname").input("ada")
    at.sidebar.button(key="practice.register").click().run()
    assert any("saved with your Practice progress" in c.value for c in at.sidebar.caption)
    key = f"lessons.q.{lesson.id}.{step.number}"
    item = pl.item_of(lesson, step, pl.Reached(lesson, step))
    answer_right(at, f"{key}.answer", item)
    at.button(key=f"{key}.check").click().run()
    store = open_store(database)
    learner = store.continue_as("ada", "")
    assert [(a.item_id, a.correct) for a in store.answers(learner)] == [(item.id, True)]


def arc_pictures(at: AppTest) -> str:
    """The arc diagrams on the page, as their SVG text."""
    return " ".join(m.value for m in at.markdown if "<svg" in m.value)


def test_a_question_about_the_tree_draws_it_plainly_until_answered():
    """A crossing mark ✕, a "gold, lost" arc or a cost would name the crossing pair (lesson 6)
    before the learner has looked for it."""
    lesson, step = next((lesson, s) for lesson in LESSONS for s in lesson.steps
                        if s.question and s.question.kind == "crossing-arcs" and s.shows_board)
    at = open_page(lesson=lesson.id, step=str(step.number))
    before = arc_pictures(at)
    assert "<svg" in before and "✕" not in before and "lost" not in before
    assert not at.table, "no table of costs before the answer"
    key = f"lessons.q.{lesson.id}.{step.number}"
    item = pl.item_of(lesson, step, pl.Reached(lesson, step))
    answer_right(at, f"{key}.answer", item)
    at.button(key=f"{key}.check").click().run()
    after = arc_pictures(at)
    assert "✕" in after or item.sentence.is_projective
