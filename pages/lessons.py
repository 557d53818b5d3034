"""Lessons: transition-based parsing step by step; each step a live board, each claim checked by the oracles.

The list shows every lesson with its length and the learner's progress; inside a lesson, Back and
Next walk its steps, and the last step ends with a one-line recap and the next lesson.  The board
is live: the learner may click moves off the lesson's path and come back with one button.  A
question comes before its explanation: the explanation, the "Look at" line, the claims and the
outlined move appear once it is answered (or the answer shown), under the question.  The lesson
and step are in the URL (``?lesson=03-static-oracles&step=3``, ``present=1`` for presenter mode),
so a link opens any step.
"""

from __future__ import annotations

import streamlit as st

from ui.lessons import progress
from ui.lessons.lesson import go, lesson_list, step_view
from ui.lessons.lesson_view import place, place_query
from ui.lessons.source import lessons
from ui.navigation import run_through_app
from ui.practice.signin import sign_in
from ui.views.safe_text import inert

PRESENTER_CSS = "<style>html { font-size: 22px; } [data-testid='stSidebar'] { font-size: 16px; }</style>"

run_through_app()
found, problems = lessons()
query = st.query_params.to_dict()
st.session_state.setdefault("lessons.presenter", query.get("present") == "1")
with st.sidebar:
    presenter = st.toggle("Presenter mode (larger type and drawing)", key="lessons.presenter")
    store, store_problem = progress.store_or_problem()
    progress.where_answers_go(sign_in(store, store_problem), store)
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
    st.markdown("Transition-based parsing, idea by idea, each step a live board whose claims the oracles "
                "check.  "
                "Open a lesson; **Back** and **Next** walk its steps, and each step opens in the stepper.  "
                "A question comes first: its explanation appears once you answer.")
    lesson_list(found, progress.answered_right())
else:
    step_view(found, next(lesson for lesson in found if lesson.id == at[0]), at[1], presenter)
