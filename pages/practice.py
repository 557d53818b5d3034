"""Practice: exercises whose every answer key comes from an exact oracle, with hints, mastery and
progress that lasts.

The sidebar says what to practise (one skill: an exercise kind in a transition system; a
ready-made set; the items due for review) and who is practising (a nickname, no password).  The
item is answered on the stepper's board where it is about moves, and with inputs otherwise; the
feedback is drawn on the picture.  The other views: the learner's progress, a teacher's set
composer, and a set's results.  A link ``?set=<id>`` opens a set, ``&view=results`` its results.
"""

from __future__ import annotations

import streamlit as st

from ui.navigation import run_through_app
from ui.practice import signin, source
from ui.practice.item import practice_view
from ui.practice.mastery import my_progress
from ui.practice.progress import Tracker, saving_notices
from ui.practice.sets import composer, results
from ui.practice.sidebar import choose_source
from ui.views.safe_text import inert

VIEWS = {"practice": "Practise", "progress": "My progress", "compose": "Compose a set",
         "results": "Set results"}

run_through_app()
st.title("Practice")
tracker = Tracker()
source.read_link(tracker.store)
for problem in source.link_problems():
    st.warning(f"The link could not be followed completely: {inert(problem)}.")
with st.sidebar:
    choose_source(tracker)
    st.header("Who is practising")
    signin.sign_in(tracker.store, tracker.problem)
    tracker = Tracker()
source.keep_in_address(source.get())
notices = st.container()  # filled last: what this run's answers did to the saving
st.session_state.setdefault("practice.view", "results" if st.query_params.get("view") == "results"
                            else "practice")
view = st.segmented_control("View", list(VIEWS), format_func=VIEWS.__getitem__, key="practice.view",
                            label_visibility="collapsed") or "practice"
if view == "practice":
    practice_view(tracker)
elif view == "progress":
    my_progress(tracker)
elif view == "compose":
    composer(tracker.store)
else:
    results(tracker.store, source.get().set_id or st.query_params.get("set"))
with notices:
    saving_notices(tracker)
