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
from parsing_core.model import MoveScore
from ui.stepper import models
from ui.stepper.board_component import SWITCH_TO, board_view
from ui.stepper.board_data import OracleStep, board_data
from ui.stepper.board_state import board_bytes, encoded, inputs_of
from ui.stepper.link import BOARD, save_state
from ui.stepper.menus import menus
from ui.stepper.model_view import MODEL, model_move
from ui.stepper.panels import finished, policy_views
from ui.stepper.settings import Choices
from ui.views.safe_text import inert
from ui.views.state import StepperState
from ui.widgets import compute
from ui.widgets.board import suggested_move


def parse_key(state: StepperState) -> compute.Parse:
    return compute.Parse(state.sentence, state.system, state.options, state.labelled)


def current_trace(state: StepperState) -> tuple[StepperState, pc.Trace]:
    """The parse the state describes; a state that no longer makes sense falls back, with a message."""
    try:
        return state, compute.trace_of(parse_key(state), state.taken())
    except pc.ParsingCoreError as err:
        st.error(f"{inert(str(err))} — starting again from the default sentence.")
        state = StepperState(system=state.system, oracle=state.oracle, presenter=state.presenter,
                             hidden=state.hidden)
        return state, compute.trace_of(parse_key(state), ())


def oracle_step(choices: Choices, parse: compute.Parse, taken: compute.Moves,
                scores: list[MoveScore] | None) -> OracleStep:
    """What Oracle step plays next: the chosen oracle's optimal move (ties broken as chosen), or
    the model's choice."""
    if choices.player == MODEL:
        move = model_move(scores or [], choices.labelled)
    else:
        move = suggested_move(compute.verdict_of(parse, taken, choices.player), choices.tie_break, len(taken))
    return OracleStep(move, choices.player, choices.seconds)


def board_payload(state: StepperState, oracles: tuple[str, str], step: OracleStep,
                  scores: list[MoveScore] | None) -> bytes:
    """The component's data: cached and shared without a model; with one, computed afresh."""
    parse, hidden, presenter = parse_key(state), state.hidden, state.presenter
    if scores is None:
        return board_bytes(parse, state.moves, state.cursor, oracles, hidden, presenter, step)
    inputs = inputs_of(parse, state.moves, state.cursor, oracles, hidden, presenter, scores)
    return encoded(board_data(inputs), step)


@st.fragment
def board(choices: Choices) -> None:
    """Everything a click on the board changes, rerun alone on such a click."""
    if SWITCH_TO in st.session_state:  # the board's "Switch to": the settings' system picker must change
        st.rerun()
    state = BOARD.get().choose(*choices[:7])
    state, trace = current_trace(state)
    save_state(state)
    parse, taken, oracles = parse_key(state), state.taken(), (choices.oracle, choices.compare)
    reviews = compute.reviews_of(parse, state.moves, choices.oracle) if trace.sentence.has_gold else []
    scores = models.scores_of(choices.model, parse, taken) if choices.model else None
    step = oracle_step(choices, parse, taken, scores)
    if choices.input_problem:
        st.error(f"**The new sentence could not be read:** {inert(choices.input_problem)}  \nThe board "
                 "still shows the previous sentence.", icon=":material/error:")
    note = compute.unbuildable_of(parse)  # its "Switch to" button names a system that builds the tree
    switch_to = note.suggestion if note else None
    board_view(BOARD, board_payload(state, oracles, step, scores), step.move, switch_to)
    if trace.is_complete and not state.hidden:
        finished(trace, reviews)
    if not state.hidden:
        policy_views(parse, taken, oracles)
    if choices.model:
        models.model_parse(BOARD, choices.model, trace, parse, state.labelled)


def board_menus() -> None:
    """Download the drawing or the derivation, share the state: filled from the board's state only
    while open (opening one reruns the page)."""
    state = BOARD.get()
    parse, oracle = parse_key(state), state.oracle
    gold = compute.sentence_of(state.sentence).has_gold
    reviews = compute.reviews_of(parse, state.moves, oracle) if gold else []
    menus(parse, state, oracle, reviews)
