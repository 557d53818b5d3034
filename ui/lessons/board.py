"""A lesson step's live board: move buttons, the picture across the page's width, and the table of
moves beside the stack and buffer.

The picture takes the whole width of the page (a sentence of up to eight words fits a laptop's
screen; a longer row scrolls sideways and says so), and the table sits next to the stack and
buffer, where it has room for its words, with the step's question under it: the question and
the configuration it is about are on the screen together.  On a phone the table goes under the
question (:data:`PHONE_CSS`), so the words and arcs, the stack and buffer and the question's
answer fit one screen, the table a swipe below.  Before costs are taught (a lesson with ``costs =
false``) the table shows the legal moves only; on a move question not answered yet it is hidden,
with the gold arcs and the oracle's move, since they would give the answer away.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable
from dataclasses import replace

import streamlit as st

import parsing_core as pc
import parsing_core.lessons as pl
from ui.lessons.lesson_view import legal_frame, step_state
from ui.views.arc_diagram import gold_tree_svg
from ui.views.cost_table import cost_frame, styled
from ui.views.oracle_view import Verdict
from ui.views.safe_text import inert
from ui.views.state import StepperState, default_oracle
from ui.widgets import compute
from ui.widgets.board import Board, history_buttons, move_buttons, suggested_move
from ui.widgets.picture import PRESENTER_SCALE, configuration_picture, tree_picture

BOARD = Board("lessons")
AT = "lessons.at"  # (lesson id, step) the board was last set for
HIGHLIGHT_CSS = "<style>.st-key-lessons-move-{kind} button {{ box-shadow: 0 0 0 3px #f2c200; }}</style>"
HIDDEN = ("Hidden until you answer the question: the costs, the gold arcs and the oracle's move "
          "would give it away.")
TREE_HIDDEN = "Hidden until you answer the question: a move's cost would say which arcs can be built."
# On a narrow screen the row under the picture wraps (the stack and buffer, then what is beside
# them); there the question comes before the table, right under the stack and buffer.
PHONE_CSS = ("<style>@media (max-width: 640px) {"
             ".st-key-lessons-drawing-beside > :has(> .st-key-lessons-aside) { order: -1; } }</style>")


def step_board(lesson: pl.Lesson, step: pl.Step, presenter: bool, hidden: bool, highlight: str,
               aside: Callable[[], None] = lambda: None, plain: bool = False) -> None:
    """The step's board, live; the learner's moves off the path undone by one button.  ``hidden``:
    no costs, no gold arcs, no oracle move; ``plain`` (a question about the tree itself, not yet
    answered): the gold tree alone, every arc alike, and no costs, since a crossing mark or a lost
    arc would name the answer; ``highlight``: the move to outline ("" for none);
    ``aside``: drawn under the table, beside the stack and buffer (the step's question; on a phone,
    under the stack and buffer and above the table)."""
    home = current_state(lesson, step, presenter)
    state = BOARD.get()
    parse = compute.Parse(state.sentence, state.system, state.options, state.labelled)
    trace = compute.trace_of(parse, state.taken())
    oracle = state.oracle or default_oracle(trace.system)
    verdicts = [compute.verdict_of(parse, state.taken(), name) for name in (oracle, state.compare) if name]
    off_path = state.taken() != home.taken()
    if off_path:
        st.info("You are off the lesson's path.", icon=":material/alt_route:")
        st.button("Back to the lesson", key="lessons.back_to_step", on_click=BOARD.set, args=(home,),
                  type="primary", icon=":material/undo:")
    if highlight and not off_path:
        st.html(HIGHLIGHT_CSS.format(kind=highlight))
    st.html(PHONE_CSS)
    move_buttons(BOARD, trace, None if hidden else verdicts[0], shortcuts=False)
    no_move = trace.is_complete or hidden
    suggestion = None if no_move else suggested_move(verdicts[0], "sbr", len(trace.transitions))
    history_buttons(BOARD, suggestion, 1.0, shortcuts=False)

    def beside() -> None:
        moves_table(lesson, trace, verdicts, TREE_HIDDEN if plain else HIDDEN if hidden else "")
        with st.container(key="lessons-aside"):
            aside()

    if plain:
        scale = PRESENTER_SCALE if presenter else 1.0
        tree_picture("lessons", gold_tree_svg(trace.system, trace.sentence, scale), beside)
    else:
        configuration_picture(parse, state.taken(), oracle, presenter, "lessons", hidden, beside)
    st.markdown(f"[Open this in the stepper ↗](/stepper?{urllib.parse.urlencode(state.to_query())})")


def current_state(lesson: pl.Lesson, step: pl.Step, presenter: bool) -> StepperState:
    """The step's own board, set when the step changes; the board as the learner left it otherwise."""
    home = step_state(lesson, step, presenter)
    if st.session_state.get(AT) != (lesson.id, step.number) or not BOARD.started():
        BOARD.set(home)
        st.session_state[AT] = (lesson.id, step.number)
    state = BOARD.get()
    if state.presenter != presenter:
        BOARD.set(replace(state, presenter=presenter))
    return home


def moves_table(lesson: pl.Lesson, trace: pc.Trace, verdicts: list[Verdict], hidden: str) -> None:
    """The table of moves: legal moves (before costs are taught), or each oracle's costs; ``hidden``:
    why they are hidden until the question is answered ("" when shown)."""
    if not lesson.costs:
        st.markdown("**Legal moves**")
        if trace.is_complete:
            st.markdown("The parse is over: no move is left.")
        else:
            st.table(legal_frame(trace).set_index("move"), border="horizontal")
        return
    names = " and ".join(v.oracle for v in verdicts)
    st.markdown(f"**What the moves cost ({inert(names)})**")
    answered = [v for v in verdicts if v.costs]
    if hidden:
        st.info(hidden, icon=":material/visibility_off:")
    elif trace.is_complete:
        st.markdown("The parse is over.")
    elif answered:
        st.table(styled(cost_frame(trace, answered)).hide(axis="index"), border="horizontal")
    for v in verdicts:
        if v.error and not trace.is_complete:
            st.warning(inert(v.error))
