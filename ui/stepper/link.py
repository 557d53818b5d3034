"""The stepper's state between reruns and in the URL: a session's first run reads the link, every
run writes the state back into it, so the address bar always holds a link to what is shown.

The state itself lives on the page's :class:`~ui.widgets.board.Board`; the link's format is
:meth:`ui.views.state.StepperState.to_query`.
"""

from __future__ import annotations

import streamlit as st

from ui.views.state import StepperState
from ui.widgets.board import Board

BOARD = Board("stepper")
LINK_PROBLEMS = "stepper.link_problems"


def load_state(board: Board = BOARD) -> StepperState:
    """The board's state; on a session's first run, the state the URL describes."""
    if not board.started():
        state, problems = StepperState.from_query(st.query_params.to_dict())
        board.start(state)
        st.session_state[LINK_PROBLEMS] = problems
    return board.get()


def link_problems() -> list[str]:
    """What was wrong with the URL the session opened with (shown once, then forgotten)."""
    return st.session_state.pop(LINK_PROBLEMS, [])


def save_state(state: StepperState, board: Board = BOARD) -> None:
    """Keep the state for the next rerun and write it into the URL (only when it changed)."""
    board.set(state)
    query = state.to_query()
    if st.query_params.to_dict() != query:
        st.query_params.from_dict(query)
