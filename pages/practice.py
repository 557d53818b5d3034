"""Practice: exercises whose every answer key comes from an exact oracle, with hints, mastery and
progress that lasts.

The sidebar says what to practise (one skill: an exercise kind in a transition system; a
ready-made set; the items due for review) and who is practising (a nickname, no password).  The
item is answered on the stepper's board where it is about moves, and with inputs otherwise; the
feedback is drawn on the picture.  The other views: the learner's progress, a teacher's set
composer, and a set's results.  A link ``?set=<id>`` opens a set, ``&view=results`` its results.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

import parsing_core as pc
import parsing_core.exercises as ex
from parsing_core.limits import LimitReached
from parsing_core.progress import MASTERY_RUN
from ui.navigation import run_through_app
from ui.practice import models, signin, source
from ui.practice.answering import BOARD, board_answer, graded, hints_and_help, show_feedback
from ui.practice.drawing import board_state, picture
from ui.practice.inputs import answer_input
from ui.practice.progress import Tracker, now, saving_notices
from ui.practice.sets import composer, ready_link, results
from ui.views.practice import BOARD_KINDS, OFFERED, kind_title, skill_of, skill_title
from ui.views.practice_progress import (
    READY,
    RULES,
    due_words,
    mastery_words,
    progress_figure,
    review_frame,
)
from ui.views.safe_text import inert

VIEWS = {"practice": "Practise", "progress": "My progress", "compose": "Compose a set",
         "results": "Set results"}


# -- the sidebar ----------------------------------------------------------------------------------
def choose_skill(now_source: source.Source) -> None:
    """Kind, system and level (and, to predict a parser, the finished run whose system it is)."""
    kind = st.selectbox("Kind", list(OFFERED), format_func=kind_title, key="practice.kind")
    st.session_state.setdefault("practice.system", now_source.system)
    model = (models.run_picker() or "") if ex.get_kind(kind).needs_model else ""
    trained_for = models.system_of(model) if model else None
    system = st.selectbox("System", pc.list_systems(), key="practice.system",
                          disabled=trained_for is not None)
    if trained_for is not None:
        st.caption(f"The model was trained for **{trained_for}**: its items are asked in that system.")
        system = trained_for
    level = st.radio("Level", [1, 2, 3], horizontal=True, key="practice.level")
    wanted = source.Source(kind=kind, system=system, level=int(level), model=model)
    if now_source.mode != "skill" or replace(now_source, seed=0) != wanted:
        source.put(wanted)


def choose_source(tracker: Tracker) -> None:
    """What to practise: a skill, a ready-made set, or the review queue."""
    now_source = source.get()
    due = tracker.due()
    st.header("Practise")
    modes = {"skill": "One skill", "ready": "A ready-made set", "review": f"Review ({len(due)} due)"}
    mode = st.radio("What", list(modes), format_func=modes.__getitem__, key="practice.mode",
                    index=None if now_source.mode == "set" else ["skill", "review"].index(now_source.mode)
                    if now_source.mode in ("skill", "review") else 0)
    if mode == "skill":
        choose_skill(now_source)
    elif mode == "ready":
        for title in READY:
            st.markdown(f"[{title}]({ready_link(title)})")
        st.caption("Each opens a set: the same items for everyone who opens it.")
    elif mode == "review":
        specs = tracker.specs()
        texts = tuple(specs[r.item_id].text for r in due if r.item_id in specs)
        if now_source.mode != "review" or now_source.specs[:1] != texts[:1]:
            source.put(source.Source(mode="review", specs=texts, title="Review"))
    if now_source.mode == "set":
        st.info(f"Working through the set **{inert(now_source.title)}**.")


# -- the practice view ----------------------------------------------------------------------------
def mastery_line(tracker: Tracker, skill: str) -> None:
    p = tracker.skill(skill)
    st.progress(min(1.0, (MASTERY_RUN if p.mastered else p.streak) / MASTERY_RUN),
                text=f"**{skill_title(skill)}**: {mastery_words(p)}")


def nothing_due(tracker: Tracker) -> None:
    queue = tracker.queue()
    when = f"; the next is due {due_words(queue[0].due, now())}" if queue else ""
    st.info(f"Nothing is due for review now{when}.  Missed items come back after 5 minutes.",
            icon=":material/event_available:")


def practice_view(tracker: Tracker) -> None:
    current = source.get()
    if current.mode == "review" and not current.specs:
        nothing_due(tracker)
        return
    if current.finished:
        count = len(current.specs)
        st.success(f"Set **{inert(current.title)}** finished: {count} item{'s' * (count != 1)}.")
        if current.set_id:
            st.markdown(f"Its results: [open the results](?set={current.set_id}&view=results)")
        st.button("Start again", key="practice.again", on_click=source.change, kwargs={"position": 0})
        return
    try:
        text = current.spec_text()
    except LimitReached as refusal:
        st.warning(f"No new item just now: {inert(str(refusal))}", icon=":material/hourglass_top:")
        return
    if text is None:
        if ex.get_kind(current.kind).needs_model:
            st.info("Predicting the parser needs a trained model: pick a finished run in the sidebar, or "
                    "train one on the Train page.", icon=":material/model_training:")
            return
        why = ("  An approximate oracle to compare exists only for arc-standard (thesis-approx) and "
               "arc-eager-corrected (nederhof-linear, exact on projective trees: level 3 has the others)."
               if current.kind == "approx-vs-exact" else "")
        st.warning("No item of this kind can be made in this system at this level: choose another." + why)
        return
    try:
        item = source.item_of(text)
    except ex.ExerciseError as error:
        st.warning(f"This item cannot be made any more ({inert(str(error))}): it is stale; go on with "
                   "the next.")
        st.button("Next item", key="practice.skip", on_click=lambda: source.put(source.get().another()))
        return
    if current.mode != "skill":
        st.caption(f"{inert(current.title)}: item {current.position + 1} of {len(current.specs)} "
                   f"· id {item.id}")
    if current.set_id and not tracker.saving:
        st.info("Sign in (sidebar) so that your answers count in this set's results.",
                icon=":material/login:")
    mastery = st.empty()  # filled once the answer, if any, is kept
    if st.session_state.get("practice.item") != item.id:  # a new item: its board starts afresh
        st.session_state["practice.item"] = item.id
        BOARD.set(board_state(item, tuple(str(t) for t in item.moves)))
        st.session_state.pop("practice.graded", None)
    st.markdown(f"**{kind_title(item.spec.kind)}** · {item.spec.system} · level {item.spec.level}  \n"
                f"{inert(item.prompt)}")
    moves = tuple(str(t) for t in item.moves)
    if item.spec.kind in BOARD_KINDS:
        moves = board_answer(item, tracker, current.set_id)
    else:
        answer = answer_input(item)
        if answer is not None:
            graded(item, answer, tracker, current.set_id)
    feedback = show_feedback(item)
    hints_and_help(item, tracker, current.set_id)
    with mastery.container():
        mastery_line(tracker, skill_of(item.spec))
    picture(item, BOARD.get().taken() if item.spec.kind in BOARD_KINDS else moves, feedback)
    keyed = f"the oracle **{item.oracle}**, exact for this tree" if item.oracle else "the gold tree itself"
    st.caption(f"Item id `{item.id}`; its answer key comes from {keyed}.")


# -- the other views ------------------------------------------------------------------------------
def progress_view(tracker: Tracker) -> None:
    st.markdown(RULES)
    try:
        text = source.get().spec_text()
    except LimitReached:
        text = None
    skill = skill_of(ex.ItemSpec.parse(text or "next-move/x/arc-eager/-/0/1"))
    rows = tracker.progress([skill])
    st.plotly_chart(progress_figure(rows), key="practice.chart")
    st.caption(f"One row per skill: its run of right answers without hints ({MASTERY_RUN} in a row master "
               "it, ★), and its items by review box — box 1 holds the missed ones, box 5 the well known.")
    st.subheader("Review queue")
    queue = tracker.queue()
    if not queue:
        st.caption("Nothing answered yet.")
    else:
        with st.container(key="practice-queue"):
            st.dataframe(review_frame(queue, now()), hide_index=True)
        st.caption("Most urgent first. Missed items (box 1) come back after 5 minutes; choose "
                   "**Review** in the sidebar to answer the ones due.")
    st.subheader("Export and import")
    signin.transfer(tracker)


# -- the page -------------------------------------------------------------------------------------
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
notices = st.container()  # filled last: what this run's answers did to the saving
st.session_state.setdefault("practice.view", "results" if st.query_params.get("view") == "results"
                            else "practice")
view = st.segmented_control("View", list(VIEWS), format_func=VIEWS.__getitem__, key="practice.view",
                            label_visibility="collapsed") or "practice"
if view == "practice":
    practice_view(tracker)
elif view == "progress":
    progress_view(tracker)
elif view == "compose":
    composer(tracker.store)
else:
    results(tracker.store, source.get().set_id or st.query_params.get("set"))
with notices:
    saving_notices(tracker)
