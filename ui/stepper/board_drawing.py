"""What the Stepper's board panel draws for a state, computed without Streamlit's elements.

:func:`drawing` is the whole of a board run's work but the drawing itself: the parse's reviews,
the move "Oracle step" plays, the component's data, the system the note's "Switch to" names,
and whether anything shows below the board.  The board panel (:mod:`ui.stepper.board_panel`)
draws it; the board's quick clicks (:mod:`ui.stepper.board_channel`) compute it for the next
state outside any run of the page, and send the browser its data alone.
"""

from __future__ import annotations

from typing import NamedTuple

import parsing_core as pc
from parsing_core.model import MoveScore
from ui.stepper import models
from ui.stepper.board_data import OracleStep, board_data
from ui.stepper.board_state import board_bytes, encoded, inputs_of
from ui.stepper.model_view import MODEL, model_move
from ui.stepper.settings import Choices
from ui.views.mistakes import MoveReview
from ui.views.state import StepperState
from ui.widgets import compute
from ui.widgets.board import suggested_move


def parse_key(state: StepperState) -> compute.Parse:
    return compute.Parse(state.sentence, state.system, state.options, state.labelled)


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


class Drawing(NamedTuple):
    """What the board panel draws for a state, computed without Streamlit (so the board's quick
    clicks, :mod:`ui.stepper.board_channel`, compute it outside a run of the page)."""

    state: StepperState
    trace: pc.Trace
    reviews: list[MoveReview]
    step: OracleStep
    payload: bytes  # the component's data, before its stamp
    switch_to: str | None  # the system the note's "Switch to" names
    panels: bool  # whether anything shows below the board (the end of a parse, Nederhof's scores, a model)


def drawing(state: StepperState, trace: pc.Trace, choices: Choices) -> Drawing:
    """Everything the panel shows for ``state`` (``trace``: its parse), under the settings ``choices``."""
    parse, taken, oracles = parse_key(state), state.taken(), (choices.oracle, choices.compare)
    reviews = compute.reviews_of(parse, state.moves, choices.oracle) if trace.sentence.has_gold else []
    scores = models.scores_of(choices.model, parse, taken) if choices.model else None
    step = oracle_step(choices, parse, taken, scores)
    note = compute.unbuildable_of(parse)  # its "Switch to" button names a system that builds the tree
    policies = not state.hidden and any(compute.policy_scores_of(parse, taken, name)
                                        for name in oracles if name)
    panels = bool(choices.model) or policies or (trace.is_complete and not state.hidden)
    return Drawing(state, trace, reviews, step, board_payload(state, oracles, step, scores),
                   note.suggestion if note else None, panels)
