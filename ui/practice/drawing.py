"""The item's configuration drawn as the stepper draws it, with the feedback on it: after a wrong
answer, the gold arcs it loses are drawn lost (dashed).  A question about the tree itself (which
arcs cross, which systems build it) shows the gold tree plainly until it is answered: every arc
alike, none marked crossing or lost (that would answer it), no stack or buffer."""

from __future__ import annotations

from typing import Any

import streamlit as st

import parsing_core.exercises as ex
from parsing_core.exercises.setting import system_of, variant
from ui.practice.items_view import feedback_kinds, input_of
from ui.views.arc_diagram import configuration_pieces, gold_tree_svg
from ui.views.sources import custom_key
from ui.views.state import StepperState
from ui.widgets import compute
from ui.widgets.picture import chart, legend, natural_size_css, tree_picture

KEY = "practice"


def board_state(item: ex.Item[Any], moves: tuple[str, ...]) -> StepperState:
    """A board at the item's sentence and system, after ``moves``."""
    options = tuple(k for k, v in item.spec.options if v is True)
    return StepperState(sentence=custom_key(item.sentence), system=item.spec.system, options=options,
                        oracle=item.oracle, moves=moves, cursor=len(moves))


def parse_of(state: StepperState) -> compute.Parse:
    return compute.Parse(state.sentence, state.system, state.options, state.labelled)


def picture(item: ex.Item[Any], moves: tuple[str, ...], feedback: ex.Feedback | None) -> None:
    """Draw the configuration after ``moves``, the feedback's lost arcs dashed."""
    about_tree = input_of(item).about_tree  # the crossings are the question: not marked before the answer
    if about_tree and feedback is None:
        plain_tree(item)
        return
    state = board_state(item, moves)
    drawn = compute.drawn(parse_of(state), moves, item.oracle or "", hidden=False)
    kinds = drawn.kinds if feedback is None else feedback_kinds(drawn.kinds, feedback, item)
    answered = feedback is not None
    crossing = set() if about_tree and not answered else drawn.crossing
    trace = drawn.trace
    pieces = configuration_pieces(trace.system, trace.sentence, trace.final, kinds, crossing)
    st.html(natural_size_css(KEY))
    with st.container(key=f"{KEY}-drawing"):
        with st.container(key=f"{KEY}-drawing-arcs"):
            chart(KEY, "arcs", pieces.arcs, "The words and their arcs")
        with st.container(horizontal=True, gap="medium", key=f"{KEY}-drawing-below"):
            with st.container(width="content", key=f"{KEY}-drawing-memory"):
                chart(KEY, "memory", pieces.memory, "The stack and the buffer")
            legend(KEY, pieces.legend)


def plain_tree(item: ex.Item[Any]) -> None:
    """The gold tree, every arc drawn alike: the picture of a question about the tree, unanswered."""
    tree_picture(KEY, gold_tree_svg(system_of(item.spec.system, variant(item.spec)), item.sentence))
