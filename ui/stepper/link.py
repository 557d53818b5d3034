"""The stepper's state between reruns and in the URL: a session's first run reads the link, every
run writes the state back into it, so the address bar always holds a link to what is shown.

Streamlit adds an entry to the browser's history each time the page changes its link, so the
browser's Back and Forward walk the moves: a run they start follows the link (Back is Undo,
Forward Redo), and where the link names another sentence or parser, the settings start again
from it.

The state itself lives on the page's :class:`~ui.widgets.board.Board`; the link's format is
:meth:`ui.views.state.StepperState.to_query`.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from ui.views.state import StepperState
from ui.widgets.board import Board
from ui.widgets.pickers import restart_pickers

BOARD = Board("stepper")
LINK_PROBLEMS = "stepper.link_problems"


def load_state(board: Board = BOARD) -> StepperState:
    """The board's state; on a session's first run, the state the URL describes; after the
    browser's Back or Forward, the state its link names (:meth:`StepperState.toward`)."""
    if not board.started():
        state, problems = StepperState.from_query(st.query_params.to_dict())
        board.start(state)
        st.session_state[LINK_PROBLEMS] = problems
    elif went_back_or_forward():
        linked, _ = StepperState.from_query(st.query_params.to_dict())
        held, now = board.get(), board.get().toward(linked)
        board.set(now)
        if settings_of(now) != settings_of(held):  # the Settings start again from the board's state
            restart_pickers("stepper", sentence=True)
            st.session_state.pop("stepper.presenter", None)
    return board.get()


def settings_of(state: StepperState) -> tuple[object, ...]:
    """What the Settings' widgets show of a state."""
    return (state.sentence, state.system, state.options, state.labelled, state.oracle, state.compare,
            state.presenter)


def went_back_or_forward() -> bool:
    """Whether this run is the browser's Back or Forward (not a click, nor a first visit)."""
    ctx = get_script_run_ctx()
    return bool(ctx is not None and getattr(ctx, "is_history_navigation", False))


def link_problems() -> list[str]:
    """What was wrong with the URL the session opened with (shown once, then forgotten)."""
    return st.session_state.pop(LINK_PROBLEMS, [])


def save_state(state: StepperState, board: Board = BOARD) -> None:
    """Keep the state for the next rerun and write it into the URL (only when it changed)."""
    board.set(state)
    query = state.to_query()
    if st.query_params.to_dict() != query:
        st.query_params.from_dict(query)
