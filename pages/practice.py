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
from typing import Any

import streamlit as st

import parsing_core as pc
import parsing_core.exercises as ex
from parsing_core.exercises.tutor import arcs_words
from parsing_core.progress import MASTERY_RUN
from ui.navigation import run_through_app
from ui.practice import models, signin, source
from ui.practice.drawing import ASKS_CROSSING, board_state, parse_of, picture
from ui.practice.inputs import answer_input
from ui.practice.progress import Tracker, now
from ui.practice.sets import composer, ready_link, results
from ui.views.practice import (
    BOARD_KINDS,
    LOSES_ARCS,
    OFFERED,
    answer_json,
    kind_title,
    moves_markdown,
    skill_of,
    skill_title,
)
from ui.views.practice_progress import (
    READY,
    RULES,
    due_words,
    mastery_words,
    progress_figure,
    review_frame,
)
from ui.views.safe_text import inert
from ui.widgets.board import Board, history_buttons, move_buttons
from ui.widgets.compute import trace_of

BOARD = Board("practice")
VIEWS = {"practice": "Practise", "progress": "My progress", "compose": "Compose a set",
         "results": "Set results"}
HINT_NAMES = ("a pointer", "the principle", "the answer")


def feedback_key(item: ex.Item[Any]) -> str:
    return f"practice.feedback.{item.id}"


def graded(item: ex.Item[Any], answer: Any, tracker: Tracker, set_id: str | None) -> ex.Feedback:
    """Grade, keep, and remember the feedback for the item's next runs."""
    feedback = ex.grade(item, answer)
    tracker.record_answer(item, feedback, answer, set_id)
    st.session_state[feedback_key(item)] = (answer_json(item.spec.kind, answer), feedback)
    return feedback


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


def board_answer(item: ex.Item[Any], tracker: Tracker, set_id: str | None) -> tuple[str, ...]:
    """The board kinds: the move clicked (next move), the derivation so far, or a configuration walked to.
    Returns the moves whose configuration the picture shows."""
    start = tuple(str(t) for t in item.moves)
    state = BOARD.get()
    taken = state.taken()
    kind = item.spec.kind
    played = st.session_state.get("practice.graded")  # moves the oracle played ("show me"), not graded
    if kind == "next-move" and len(taken) == len(start) + 1 and taken != played:
        graded(item, pc.Transition.parse(taken[-1]), tracker, set_id)
        BOARD.set(board_state(item, start))
        taken = start
    elif kind == "whole-derivation" and taken != played and taken:
        st.session_state["practice.graded"] = taken
        feedback = ex.grade(item, tuple(pc.Transition.parse(m) for m in taken))
        if feedback.correct or not feedback.message.startswith("Every move so far"):
            graded(item, tuple(pc.Transition.parse(m) for m in taken), tracker, set_id)
            if not feedback.correct:
                taken = taken[:-1]
                BOARD.set(board_state(item, taken))
    trace = trace_of(parse_of(board_state(item, taken)), taken)
    move_buttons(BOARD, trace)
    if kind != "next-move":
        history_buttons(BOARD, None, 1.0, player="no one: find the moves yourself")
    if kind == "approx-vs-exact":
        with st.form(f"practice.disagree.{item.id}"):
            move = st.selectbox("The move whose cost the approximate oracle gets wrong here",
                                list(trace.system.kinds), format_func=lambda k: pc.Transition(k).name,
                                key=f"practice.disagree_move.{item.id}")
            if st.form_submit_button("Check this configuration", type="primary"):
                answer = ex.Disagreement(tuple(pc.Transition.parse(m) for m in taken), pc.Transition(move))
                graded(item, answer, tracker, set_id)
    return taken


def move_given(given: Any) -> str | None:
    """The move an answer gave, as text: a next move, or the move a derivation was stopped at."""
    if isinstance(given, str):
        return given
    return str(given[-1]) if isinstance(given, list) and given else None


def show_feedback(item: ex.Item[Any]) -> ex.Feedback | None:
    said = st.session_state.get(feedback_key(item))
    if said is None:
        return None
    given, feedback = said
    text = inert(feedback.message) + "".join(f"  \n{inert(d)}" for d in feedback.details)
    if feedback.correct:
        st.success(text, icon=":material/check_circle:")
    else:
        partial = f" (partial credit {feedback.credit:.0%})" if 0 < feedback.credit < 1 else ""
        st.error(text + partial, icon=":material/cancel:")
    system = ex.get_kind(item.spec.kind).again(item).system if item.configuration is not None else None
    if system is not None and feedback.moves:
        st.markdown("The right move" + ("s" if len(feedback.moves) > 1 else "") + " here: "
                    + moves_markdown(system, feedback.moves, move_given(given)))
    if feedback.arcs and not feedback.correct and item.spec.kind in LOSES_ARCS:
        st.caption(f"Drawn dashed (lost) in the picture: {inert(arcs_words(item.sentence, feedback.arcs))}.")
    elif feedback.arcs and item.spec.kind in ASKS_CROSSING:
        st.caption("The crossing gold arcs are marked ✕ in the picture.")
    return feedback


def take_hint(item: ex.Item[Any], tracker: Tracker, set_id: str | None) -> None:
    """Callback: one rung more of the hint ladder, recorded."""
    shown = st.session_state.get(f"practice.hints_shown.{item.id}", 0) + 1
    st.session_state[f"practice.hints_shown.{item.id}"] = shown
    tracker.record_hint(item, shown, set_id)


def show_me(item: ex.Item[Any], tracker: Tracker, set_id: str | None) -> None:
    """Callback: the oracle answers (recorded as the last rung, the answer); on the board it plays."""
    tracker.record_hint(item, 3, set_id)
    st.session_state[f"practice.shown.{item.id}"] = True
    if item.spec.kind in ("next-move", "whole-derivation"):
        key = (item.key,) if item.spec.kind == "next-move" else item.key
        moves = tuple(str(t) for t in (*item.moves, *key))
        BOARD.set(board_state(item, moves))
        st.session_state["practice.graded"] = moves


def hints_and_help(item: ex.Item[Any], tracker: Tracker, set_id: str | None) -> None:
    """Hint (one rung more), Show me (the oracle plays it), Another like this."""
    shown = st.session_state.get(f"practice.hints_shown.{item.id}", 0)
    hint, show, other = st.columns(3)
    hint.button(f"Hint ({shown + 1} of 3: {HINT_NAMES[shown]})" if shown < 3 else "No more hints",
                key="practice.hint", disabled=shown >= 3, icon=":material/lightbulb:", width="stretch",
                on_click=take_hint, args=(item, tracker, set_id))
    show.button("Show me", key="practice.show", icon=":material/smart_toy:", width="stretch",
                help="The oracle answers (counts as a hint)", on_click=show_me, args=(item, tracker, set_id))
    current = source.get()
    label = ("Another like this" if current.mode == "skill" else
             "Finish the set" if current.position + 1 >= len(current.specs) else "Next item")
    other.button(label, key="practice.another", icon=":material/skip_next:", width="stretch",
                 on_click=lambda: source.put(source.get().another()))
    for rung in range(shown):
        st.info(f"**Hint {rung + 1} ({HINT_NAMES[rung]}):** {inert(item.hints.ladder[rung])}")
    if st.session_state.get(f"practice.shown.{item.id}"):
        st.info(f"**The oracle's answer:** {inert(item.hints.answer)}", icon=":material/smart_toy:")


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
    text = current.spec_text()
    if text is None:
        if ex.get_kind(current.kind).needs_model:
            st.info("Predicting the parser needs a trained model: pick a finished run in the sidebar, or "
                    "train one on the Train page.", icon=":material/model_training:")
            return
        st.warning("No item of this kind can be made in this system at this level (an approximate oracle "
                   "to compare exists only for arc-standard and arc-eager-corrected); choose another.")
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
    skill = skill_of(ex.ItemSpec.parse(source.get().spec_text() or "next-move/x/arc-eager/-/0/1"))
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
if "practice.store_problem" in st.session_state:
    st.warning(f"**Progress is not being saved:** {inert(st.session_state.pop('practice.store_problem'))}")
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
