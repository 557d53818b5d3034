"""The Stepper's board panel: the one part of the page a click on the board reruns.

:func:`board` is an ``st.fragment``: a click on a move, a history row or one of the board's
controls reruns it alone (the settings' choices come in as :class:`~ui.stepper.settings.Choices`).
It draws the board component (picture, moves and costs, Oracle step and Play, undo, redo, reset,
hide, score, history, the rules; the note when the system cannot build the gold tree), then the
panels that have something to say (the end of a parse, Nederhof's scores, the model's parse).  A
click mid-parse thus changes one element, the board.  The menus below (:func:`board_menus`) are
outside the fragment: closed, they never change, and opening one reruns the page.
"""

from __future__ import annotations

import streamlit as st

import parsing_core as pc
from ui.stepper import board_channel, models
from ui.stepper.board_component import board_view
from ui.stepper.board_data import SWITCH_TO
from ui.stepper.board_drawing import drawing, parse_key
from ui.stepper.link import BOARD, save_state
from ui.stepper.menus import menus
from ui.stepper.panels import finished, policy_views
from ui.stepper.settings import Choices
from ui.views.safe_text import inert
from ui.views.state import StepperState
from ui.widgets import compute


def current_trace(state: StepperState) -> tuple[StepperState, pc.Trace]:
    """The parse the state describes; a state that no longer makes sense falls back, with a message."""
    try:
        return state, compute.trace_of(parse_key(state), state.taken())
    except pc.ParsingCoreError as err:
        st.error(f"{inert(str(err))} — starting again from the default sentence.")
        state = StepperState(system=state.system, oracle=state.oracle, presenter=state.presenter,
                             hidden=state.hidden)
        return state, compute.trace_of(parse_key(state), ())


@st.fragment
def board(choices: Choices) -> None:
    """Everything a click on the board changes, rerun alone on such a click."""
    if SWITCH_TO in st.session_state:  # the board's "Switch to": the settings' system picker must change
        st.rerun()
    with board_channel.held(BOARD):  # no quick click changes the state while the page draws it
        state, trace = current_trace(BOARD.get().choose(*choices[:7]))
        save_state(state)
        drawn = drawing(state, trace, choices)
        quick = board_channel.keep(BOARD, choices, drawn)
    if choices.input_problem:
        st.error(f"**The new sentence could not be read:** {inert(choices.input_problem)}  \nThe board "
                 "still shows the previous sentence.", icon=":material/error:")
    board_view(BOARD, drawn.payload, quick)
    if trace.is_complete and not state.hidden:
        finished(trace, drawn.reviews)
    if not state.hidden:
        policy_views(parse_key(state), state.taken(), (choices.oracle, choices.compare))
    if choices.model:
        models.model_parse(BOARD, choices.model, trace, parse_key(state), state.labelled)


def board_menus() -> None:
    """Download the drawing or the derivation, share the state: filled from the board's state only
    while open (opening one reruns the page)."""
    state = BOARD.get()
    parse, oracle = parse_key(state), state.oracle
    gold = compute.sentence_of(state.sentence).has_gold
    reviews = compute.reviews_of(parse, state.moves, oracle) if gold else []
    menus(parse, state, oracle, reviews)
