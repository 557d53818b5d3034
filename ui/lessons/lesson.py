"""A lesson on the Lessons page: the list of lessons, one step (its text, its board, its question
graded in place, its explanation once answered), and the walk from step to step, each step's
place kept in the URL (``?lesson=<id>&step=<n>``, ``&present=1`` in presenter mode)."""

from __future__ import annotations

import streamlit as st

import parsing_core.lessons as pl
from ui.lessons import answers, demos
from ui.lessons.board import step_board
from ui.lessons.lesson_view import next_lesson, place_query, questions_of
from ui.lessons.source import item_of
from ui.lessons.step import explanation, footnote, lesson_end, step_text
from ui.views.safe_text import inert


def go(lesson: str | None, step: int = 1) -> None:
    """Open a lesson's step (None: the list), in the session and in the URL."""
    present = st.session_state.get("lessons.presenter", False)
    st.query_params.from_dict(place_query(lesson, step, present) if lesson else
                              ({"present": "1"} if present else {}))


def lesson_list(found: list[pl.Lesson], right: set[str]) -> None:
    """Every lesson: its title, summary, length, the questions answered right; a button to open it."""
    for number, lesson in enumerate(found, start=1):
        asked = {item.id for step in lesson.steps if step.question
                 for item in [item_of(lesson.id, step.number)[0]] if item}
        with st.container(border=True, key=f"lessons-card-{number}"):
            text, action = st.columns([4, 1], vertical_alignment="center")
            text.markdown(f"**{number}. {inert(lesson.title)}**  \n{inert(lesson.summary)}  \n"
                          f"{len(lesson.steps)} steps · {questions_of(lesson)} questions · "
                          f"{len(asked & right)} answered right")
            action.button("Open", key=f"lessons.open.{lesson.id}", on_click=go, args=(lesson.id,),
                          width="stretch")


def question(lesson: pl.Lesson, number: int, key: str) -> None:
    """The step's question, graded in place (or why it cannot be asked)."""
    item, problem = item_of(lesson.id, number)
    if item is None:
        st.warning(f"This question cannot be asked: {inert(problem)}")
    else:
        answers.question(item, key)


def walk(lesson: pl.Lesson, number: int) -> None:
    """Back and Next, on one row at any width."""
    with st.container(horizontal=True, horizontal_alignment="distribute", key="lessons-walk"):
        st.button("← Back", key="lessons.back", disabled=number == 1, on_click=go,
                  args=(lesson.id, number - 1), width=150)
        st.button("Next →", key="lessons.next", disabled=number == len(lesson.steps), on_click=go,
                  args=(lesson.id, number + 1), width=150, type="primary")


def step_view(found: list[pl.Lesson], lesson: pl.Lesson, number: int, presenter: bool) -> None:
    step = lesson.steps[number - 1]
    st.title(lesson.title)
    st.progress(number / len(lesson.steps), text=f"Step {number} of {len(lesson.steps)}")
    walk(lesson, number)
    question_key = f"lessons.q.{lesson.id}.{number}"
    revealed = step.question is None or answers.answered(question_key)
    step_text(step)
    if step.question is None:
        explanation(step)

    def ask() -> None:  # the question, and under it, once answered, its explanation
        if step.question is not None:
            question(lesson, number, question_key)
            if revealed:
                explanation(step)

    if step.shows_board:
        asked = answers.open_input(step, revealed)  # what the board must not give away
        step_board(lesson, step, presenter, asked.costs_tell, step.highlight if revealed else "",
                   aside=ask, plain=asked.about_tree)
    else:
        ask()
    if step.demo:
        demos.DEMOS[step.demo]()
    if number == len(lesson.steps):
        lesson_end(lesson, next_lesson(lesson, found), go)
    footnote(lesson, step)
