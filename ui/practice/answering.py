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
from ui.practice.drawing import board_state, parse_of
from ui.practice.items_view import input_of, kind_of, moves_markdown
from ui.practice.progress import Tracker
from ui.views.safe_text import inert
from ui.widgets.board import Board, history_buttons, move_buttons, phone_columns_css
from ui.widgets.compute import trace_of

BOARD = Board("practice")
HINT_NAMES = ("a pointer", "the principle", "the answer")
HELP = "practice-help"  # the row of Hint, Show me and Another like this
RETRY_NOTE = ("A retry: you answered this item a moment ago, so this answer is kept but counts neither "
              "toward mastery nor up the review boxes. The item comes back for review when it is due.")


def feedback_key(item: ex.Item[Any]) -> str:
    return f"practice.feedback.{item.id}"


def graded(item: ex.Item[Any], answer: Any, tracker: Tracker, set_id: str | None) -> ex.Feedback:
    """Grade, keep, and remember the feedback for the item's next runs."""
    feedback = ex.grade(item, answer)
    tracker.record_answer(item, feedback, answer, set_id)
    retry = feedback.correct and tracker.retried(item.id)
    st.session_state[feedback_key(item)] = (answer, feedback, retry)
    return feedback


def board_answer(item: ex.Item[Any], tracker: Tracker, set_id: str | None) -> tuple[str, ...]:
    """The kinds answered on the board: the move clicked, the derivation so far, or a configuration
    walked to (:data:`BOARD_INPUTS`, by the kind's widget).  Returns the moves whose configuration
    the picture shows."""
    start = tuple(str(t) for t in item.moves)
    widget = input_of(item).widget
    taken = BOARD_INPUTS[widget](item, tracker, set_id, start, BOARD.get().taken())
    trace = trace_of(parse_of(board_state(item, taken)), taken)
    move_buttons(BOARD, trace)
    if widget != "move":
        history_buttons(BOARD, None, 1.0, player="no one: find the moves yourself")
    if widget == "walk":
        walked_to(item, tracker, set_id, taken, trace.system)
    return taken


def one_move(item: ex.Item[Any], tracker: Tracker, set_id: str | None, start: tuple[str, ...],
             taken: tuple[str, ...]) -> tuple[str, ...]:
    """A next move: the first move played on the board is the answer, graded at once, and taken back."""
    played = st.session_state.get("practice.graded")  # moves the oracle played ("show me"), not graded
    if len(taken) == len(start) + 1 and taken != played:
        graded(item, pc.Transition.parse(taken[-1]), tracker, set_id)
        BOARD.set(board_state(item, start))
        return start
    return taken


def move_by_move(item: ex.Item[Any], tracker: Tracker, set_id: str | None, start: tuple[str, ...],
                 taken: tuple[str, ...]) -> tuple[str, ...]:
    """A derivation: graded at each move; a wrong move is kept as the answer and taken back."""
    played = st.session_state.get("practice.graded")
    if taken == played or not taken:
        return taken
    st.session_state["practice.graded"] = taken
    moves = tuple(pc.Transition.parse(m) for m in taken)
    feedback = ex.grade(item, moves)
    if feedback.correct or not feedback.message.startswith("Every move so far"):
        graded(item, moves, tracker, set_id)
        if not feedback.correct:
            taken = taken[:-1]
            BOARD.set(board_state(item, taken))
    return taken


def walked(item: ex.Item[Any], tracker: Tracker, set_id: str | None, start: tuple[str, ...],
           taken: tuple[str, ...]) -> tuple[str, ...]:
    """A configuration to walk to: the moves stay on the board until a move is named there."""
    return taken


def walked_to(item: ex.Item[Any], tracker: Tracker, set_id: str | None, taken: tuple[str, ...],
              system: pc.TransitionSystem) -> None:
    """Name the move whose cost the approximate oracle gets wrong at the configuration walked to."""
    with st.form(f"practice.disagree.{item.id}"):
        move = st.selectbox("The move whose cost the approximate oracle gets wrong here",
                            list(system.kinds), format_func=lambda k: pc.Transition(k).name,
                            key=f"practice.disagree_move.{item.id}")
        if st.form_submit_button("Check this configuration", type="primary"):
            answer = ex.Disagreement(tuple(pc.Transition.parse(m) for m in taken), pc.Transition(move))
            graded(item, answer, tracker, set_id)


#: What the board does with the moves played, by the widget the item's kind answers with.
BOARD_INPUTS = {"move": one_move, "derivation": move_by_move, "walk": walked}


def show_feedback(item: ex.Item[Any]) -> ex.Feedback | None:
    said = st.session_state.get(feedback_key(item))
    if said is None:
        return None
    answer, feedback, retry = said
    text = inert(feedback.message) + "".join(f"  \n{inert(d)}" for d in feedback.details)
    if feedback.correct:
        st.success(text, icon=":material/check_circle:")
        if retry:
            st.caption(RETRY_NOTE)
    else:
        partial = f" (partial credit {feedback.credit:.0%})" if 0 < feedback.credit < 1 else ""
        st.error(text + partial, icon=":material/cancel:")
    kind = kind_of(item)
    system = kind.again(item).system if item.configuration is not None else None
    if system is not None and feedback.moves:
        given = kind.given_move(answer)
        st.markdown("The right move" + ("s" if len(feedback.moves) > 1 else "") + " here: "
                    + moves_markdown(system, feedback.moves, None if given is None else str(given)))
    marks = kind.answer_input.marks
    if feedback.arcs and not feedback.correct and marks == "lost":
        st.caption(f"Drawn dashed (lost) in the picture: {inert(arcs_words(item.sentence, feedback.arcs))}.")
    elif feedback.arcs and marks == "crossing":
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
    shown = kind_of(item).shown_moves(item)
    if shown is not None:
        moves = tuple(str(t) for t in (*item.moves, *shown))
        BOARD.set(board_state(item, moves))
        st.session_state["practice.graded"] = moves


def hints_and_help(item: ex.Item[Any], tracker: Tracker, set_id: str | None) -> None:
    """Hint (one rung more), Show me (the oracle plays it), Another like this."""
    shown = st.session_state.get(f"practice.hints_shown.{item.id}", 0)
    st.html(phone_columns_css(HELP, 3))  # on a phone one row of three, not three rows above the board
    hint, show, other = st.container(key=HELP).columns(3)
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
