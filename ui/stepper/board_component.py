"""The stepper's board as one Streamlit element: a component that draws the board from data.

A click on the board used to rerun some seventy Streamlit elements (buttons in columns, charts,
tables, metrics, a data grid), and the browser spent a quarter of a second laying them out.  Here
the whole board is one element of Streamlit's components v2 (inline HTML, CSS and JavaScript, no
iframe, no build step): the page sends it the board's data (:func:`ui.stepper.board_data.board_data`,
as JSON bytes: :func:`ui.stepper.board_state.board_bytes`) and the browser draws it with a few DOM
calls (``board.js``, ``board.css`` beside this file).  A click on a move, a history row or one of
the board's controls (undo, redo, reset, hide, Oracle step; Play repeats Oracle step in the browser,
so playing needs no timer on the server) comes back as a trigger value, and :func:`take` turns it
into the board's next state before the page reruns (:func:`ui.stepper.board_data.apply_action`),
unless it was made on an older drawing of the board than the state the session holds
(:func:`ui.stepper.board_data.made_on_an_older_board`).

The component keeps one ``key``: with it the browser keeps the same element and only redraws its
data; without it Streamlit would mount a new one at every click.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import streamlit as st

from ui.stepper import board_channel
from ui.stepper.board_data import SWITCH_TO, apply_action, made_on_an_older_board
from ui.stepper.board_state import stamped
from ui.widgets.board import Board

HERE = Path(__file__).parent


@cache
def component() -> Any:
    """The registered component (registered once per server process)."""
    return st.components.v2.component("parsing_board", css=(HERE / "board.css").read_text(),
                                      js=(HERE / "board.js").read_text())


def key_of(board: Board) -> str:
    return f"{board.key}.board"


def take(board: Board) -> None:
    """Callback of the component: apply the action it sent to the board's state ("Oracle step"
    plays the move of the board drawn last, by the page or a quick click); "switch" asks the page
    to switch the system to the one its note names (:data:`SWITCH_TO`, read by the settings'
    picker)."""
    action = st.session_state[key_of(board)].get("action")
    with board_channel.held(board):  # not while a quick click changes the same state
        if made_on_an_older_board(action, board.version()):
            return
        oracle, switch_to = board_channel.shown(board)
        if isinstance(action, dict) and action.get("do") == "switch" and switch_to:
            st.session_state[SWITCH_TO] = switch_to
        board.change(lambda state: apply_action(state, action, oracle))


def board_view(board: Board, data: bytes, quick: dict[str, str] | None = None) -> None:
    """Draw the board from ``data`` (JSON bytes); a click changes ``board``'s state (one rerun, or
    none: the ``quick`` way of :mod:`ui.stepper.board_channel`).  The data carries the state's
    version, so the browser never goes back to an older drawing."""
    component()(key=key_of(board), data=stamped(data, board.version(), quick), height="content",
                on_action_change=lambda: take(board))
