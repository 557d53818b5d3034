"""Lessons: the seeds taught step by step; each step a live board, each claim checked by the oracles.

The list shows every lesson with its length and the learner's progress; inside a lesson, Back and
Next walk its steps.  The board is live: the learner may click moves off the lesson's path and come
back with one button.  A question is graded in place.  The lesson and step are in the URL
(``?lesson=03-static-oracles&step=3``, ``present=1`` for presenter mode), so a link opens any step.
"""

from __future__ import annotations

import urllib.parse
from dataclasses import replace

import streamlit as st

import parsing_core as pc
import parsing_core.lessons as pl
from ui.lessons import answers, demos, progress
from ui.lessons.source import item_of, lessons
from ui.navigation import run_through_app
from ui.views.cost_table import cost_frame, styled
from ui.views.lesson_view import claim_words, place, place_query, questions_of, step_state
from ui.views.safe_text import inert
from ui.views.state import default_oracle
from ui.widgets import compute
from ui.widgets.board import Board, history_buttons, move_buttons, suggested_move
from ui.widgets.picture import configuration_picture

BOARD = Board("lessons")
AT = "lessons.at"  # (lesson id, step) the board was last set for
HIGHLIGHT_CSS = "<style>.st-key-lessons-move-{kind} button {{ box-shadow: 0 0 0 3px #f2c200; }}</style>"
PRESENTER_CSS = "<style>html { font-size: 22px; } [data-testid='stSidebar'] { font-size: 16px; }</style>"


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
                          f"{len(asked & right)} answered right · seeds {', '.join(lesson.seeds)}")
            action.button("Open", key=f"lessons.open.{lesson.id}", on_click=go, args=(lesson.id,),
                          width="stretch")


def progress_note() -> None:
    if progress.signed_in() is None:
        st.caption("Progress is not kept between visits: sign in on the **Practice** page to keep it.  "
                   "Questions answered right count for this visit.")
    else:
        st.caption("Your answers are saved with your Practice progress.")


def step_board(lesson: pl.Lesson, step: pl.Step, presenter: bool, hidden: bool = False) -> None:
    """The step's board, live; the learner's moves off the path undone by one button.  ``hidden``
    (a question not answered yet): no costs, no gold arcs, no oracle move, since they give the
    answer away."""
    home = step_state(lesson, step, presenter)
    if st.session_state.get(AT) != (lesson.id, step.number) or not BOARD.started():
        BOARD.set(home)
        st.session_state[AT] = (lesson.id, step.number)
    state = BOARD.get()
    if state.presenter != presenter:
        state = replace(state, presenter=presenter)
        BOARD.set(state)
    parse = compute.Parse(state.sentence, state.system, state.options, state.labelled)
    trace = compute.trace_of(parse, state.taken())
    oracle = state.oracle or default_oracle(trace.system)
    verdicts = [compute.verdict_of(parse, state.taken(), name) for name in (oracle, state.compare) if name]
    verdict = verdicts[0]
    off_path = state.taken() != home.taken()
    if off_path:
        st.info("You are off the lesson's path.", icon=":material/alt_route:")
        st.button("Back to the lesson", key="lessons.back_to_step", on_click=BOARD.set, args=(home,),
                  type="primary", icon=":material/undo:")
    if step.highlight and not off_path:
        st.html(HIGHLIGHT_CSS.format(kind=step.highlight))
        st.caption(f"Look at **{pc.Transition(step.highlight).name}** (outlined).")
    move_buttons(BOARD, trace, None if hidden else verdict, shortcuts=False)
    no_move = trace.is_complete or hidden
    suggestion = None if no_move else suggested_move(verdict, "sbr", len(trace.transitions))
    history_buttons(BOARD, suggestion, 1.0, shortcuts=False)
    picture, costs = st.columns([1, 1] if state.compare else [3, 2], gap="medium")  # two oracles: wider table
    with picture:
        configuration_picture(parse, state.taken(), oracle, presenter, key="lessons", hidden=hidden)
    with costs:
        names = " and ".join(v.oracle for v in verdicts)
        st.markdown(f"**What {inert(names)} say{'s' * (len(verdicts) == 1)}**")
        answered = [v for v in verdicts if v.costs]
        if hidden:
            st.info("Hidden until you answer the question below: the costs, the gold arcs and the "
                    "oracle's move would give it away.", icon=":material/visibility_off:")
        elif trace.is_complete:
            st.markdown("The parse is over.")
        elif answered:
            st.table(styled(cost_frame(trace, answered)).hide(axis="index"), border="horizontal")
        for v in verdicts:
            if v.error and not trace.is_complete:
                st.warning(inert(v.error))
    query = urllib.parse.urlencode(state.to_query())
    st.markdown(f"[Open this in the stepper ↗](/stepper?{query})")


def step_view(lesson: pl.Lesson, number: int, presenter: bool) -> None:
    step = lesson.steps[number - 1]
    st.title(lesson.title)
    st.progress(number / len(lesson.steps), text=f"Step {number} of {len(lesson.steps)}")
    back, _, forward = st.columns([1, 3, 1])
    back.button("← Back", key="lessons.back", disabled=number == 1, on_click=go, args=(lesson.id, number - 1),
                width="stretch")
    forward.button("Next →", key="lessons.next", disabled=number == len(lesson.steps), on_click=go,
                   args=(lesson.id, number + 1), width="stretch", type="primary")
    with st.container(key="lessons-text"):
        st.markdown(step.text)
        if step.look:
            st.markdown(f":material/visibility: **Look at:** {step.look}")
        if step.claims:
            claims = "; ".join(inert(claim_words(c)) for c in step.claims)
            st.caption(f"Checked by the oracles: {claims}.")
    question_key = f"lessons.q.{lesson.id}.{number}"
    unanswered = step.question is not None and not answers.answered(question_key)
    step_board(lesson, step, presenter, hidden=unanswered)
    if step.demo:
        demos.DEMOS[step.demo]()
    if step.question is not None:
        item, problem = item_of(lesson.id, number)
        if item is None:
            st.warning(f"This question cannot be asked: {inert(problem)}")
        else:
            answers.question(item, question_key)
    if number == len(lesson.steps):
        st.success("End of the lesson.")
        st.button("All lessons", key="lessons.end", on_click=go, args=(None,))


# -- the page ---------------------------------------------------------------------------------------
run_through_app()
found, problems = lessons()
query = st.query_params.to_dict()
st.session_state.setdefault("lessons.presenter", query.get("present") == "1")
with st.sidebar:
    presenter = st.toggle("Presenter mode (larger type and drawing)", key="lessons.presenter")
    progress_note()
    st.button("All lessons", key="lessons.list", on_click=go, args=(None,))
if presenter:
    st.html(PRESENTER_CSS)
    st.set_page_config(initial_sidebar_state="collapsed")

for problem in problems:
    st.error(f"A lesson file could not be loaded: {inert(str(problem))}", icon=":material/error:")
at = place(query, found)
wanted = place_query(*at, presenter) if at else ({"present": "1"} if presenter else {})
if query != wanted:
    st.query_params.from_dict(wanted)
if at is None:
    st.title("Lessons")
    st.markdown("The ideas of the seeds in order, each step a live board whose claims the oracles check.  "
                "Open a lesson; **Back** and **Next** walk its steps, and each step opens in the stepper.")
    lesson_list(found, progress.answered_right())
else:
    step_view(next(lesson for lesson in found if lesson.id == at[0]), at[1], presenter)
