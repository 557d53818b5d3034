"""The Practice page's main view: the item the source is at, answered on the board or with inputs,
its feedback drawn on the picture, the help under it; or why no item can be shown."""

from __future__ import annotations

from typing import Any

import streamlit as st

import parsing_core.exercises as ex
from server.limits import LimitReached
from ui.practice import source
from ui.practice.answering import BOARD, board_answer, graded, hints_and_help, show_feedback
from ui.practice.drawing import board_state, picture
from ui.practice.inputs import answer_input
from ui.practice.items_view import input_of, kind_title, skill_of
from ui.practice.mastery import mastery_line
from ui.practice.progress import Tracker, now
from ui.practice.progress_view import due_words
from ui.views.safe_text import inert


def nothing_due(tracker: Tracker) -> None:
    queue = tracker.queue()
    when = f"; the next is due {due_words(queue[0].due, now())}" if queue else ""
    st.info(f"Nothing is due for review now{when}.  Missed items come back after 5 minutes.",
            icon=":material/event_available:")


def practice_view(tracker: Tracker) -> None:
    """The item the source is at: its question, the answer (on the board or in inputs), the
    feedback, the help and the picture; or why there is no item to answer."""
    current = source.get()
    item = current_item(tracker, current)
    if item is None:
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
    moves = answered(item, tracker, current.set_id)
    feedback = show_feedback(item)
    hints_and_help(item, tracker, current.set_id)
    with mastery.container():
        mastery_line(tracker, skill_of(item.spec))
    picture(item, moves, feedback)
    keyed = f"the oracle **{item.oracle}**, exact for this tree" if item.oracle else "the gold tree itself"
    st.caption(f"Item id `{item.id}`; its answer key comes from {keyed}.")


def answered(item: ex.Item[Any], tracker: Tracker, set_id: str | None) -> tuple[str, ...]:
    """Take and grade the answer, on the board or in the kind's inputs; returns the moves whose
    configuration the picture shows."""
    if input_of(item).on_board:
        board_answer(item, tracker, set_id)
        return BOARD.get().taken()
    answer = answer_input(item)
    if answer is not None:
        graded(item, answer, tracker, set_id)
    return tuple(str(t) for t in item.moves)


def current_item(tracker: Tracker, current: source.Source) -> ex.Item[Any] | None:
    """The item the source is at, or None, having said why there is none (nothing due, the set
    finished, a limit reached, no item of the skill, a stale item)."""
    if current.mode == "review" and not current.specs:
        nothing_due(tracker)
        return None
    if current.finished:
        set_finished(current)
        return None
    try:
        text = current.spec_text()
    except LimitReached as refusal:
        st.warning(f"No new item just now: {inert(str(refusal))}", icon=":material/hourglass_top:")
        return None
    if text is None:
        no_item(ex.get_kind(current.kind))
        return None
    try:
        return source.item_of(text)
    except ex.ExerciseError as error:
        st.warning(f"This item cannot be made any more ({inert(str(error))}): it is stale; go on with "
                   "the next.")
        st.button("Next item", key="practice.skip", on_click=lambda: source.put(source.get().another()))
        return None


def set_finished(current: source.Source) -> None:
    count = len(current.specs)
    st.success(f"Set **{inert(current.title)}** finished: {count} item{'s' * (count != 1)}.")
    if current.set_id:
        st.markdown(f"Its results: [open the results](?set={current.set_id}&view=results)")
    st.button("Start again", key="practice.again", on_click=source.change, kwargs={"position": 0})


def no_item(kind: ex.ExerciseKind[Any]) -> None:
    """Why a skill has no item: no trained model to predict, or none of the kind here (and why, where
    the kind says)."""
    if kind.needs_model:
        st.info("Predicting the parser needs a trained model: pick a finished run in the sidebar, or "
                "train one on the Train page.", icon=":material/model_training:")
        return
    why = f"  {kind.scarce}" if kind.scarce else ""
    st.warning("No item of this kind can be made in this system at this level: choose another." + why)
