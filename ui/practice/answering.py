"""Answering the item shown: on the board (a move, a derivation, a configuration walked to),
grading and keeping the answer, the feedback with the right moves marked, and the help (a hint
rung at a time, "show me", another item).

The board is :class:`~ui.widgets.board.Board` ``practice``: its own state, so the stepper's moves
are never touched; it starts afresh at each new item (the page resets it).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

import parsing_core as pc
import parsing_core.exercises as ex
from parsing_core.exercises.tutor import arcs_words
from ui.practice import source
from ui.practice.drawing import ASKS_CROSSING, board_state, parse_of
from ui.practice.progress import Tracker
from ui.views.practice import LOSES_ARCS, answer_json, moves_markdown
from ui.views.safe_text import inert
from ui.widgets.board import Board, history_buttons, move_buttons
from ui.widgets.compute import trace_of

BOARD = Board("practice")
HINT_NAMES = ("a pointer", "the principle", "the answer")


def feedback_key(item: ex.Item[Any]) -> str:
    return f"practice.feedback.{item.id}"


def graded(item: ex.Item[Any], answer: Any, tracker: Tracker, set_id: str | None) -> ex.Feedback:
    """Grade, keep, and remember the feedback for the item's next runs."""
    feedback = ex.grade(item, answer)
    tracker.record_answer(item, feedback, answer, set_id)
    st.session_state[feedback_key(item)] = (answer_json(item.spec.kind, answer), feedback)
    return feedback


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
