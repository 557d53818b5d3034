"""The answer inputs of the kinds not answered on the board: numbers, ticks, lists, table cells.

Each input sits in a form whose *Check* button sends the answer once; :func:`answer_input`
returns the answer as the kind grades it (a :class:`~parsing_core.exercises.TableRow`, a set
of moves, ...), or None until *Check* is pressed.  Widget keys carry the item's id, so a new
item starts with fresh inputs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

import parsing_core as pc
import parsing_core.exercises as ex
from parsing_core.exercises.tree_kinds import pair_words
from parsing_core.exercises.tutor import arc_words
from ui.practice.items_view import arc_pairs, gold_arcs, input_of, kind_of, system_variants, token_label
from ui.views.tables import derivation_table

Input = Callable[[ex.Item[Any], str], Any]


def trace_table(item: ex.Item[Any], key: str) -> ex.TableRow:
    """The next row, cell by cell: stack and buffer start as the row before the move."""
    s, c = item.sentence, item.configuration
    assert c is not None
    tokens = list(range(s.n + 1))
    label = lambda t: token_label(s, t)  # noqa: E731
    st.caption("Pick the tokens in order: the stack from the bottom, the buffer from the front.")
    stack = st.multiselect("Stack (bottom first)", tokens, default=list(c.stack), format_func=label,
                           key=f"{key}.stack")
    buffer = st.multiselect("Buffer (front first)", tokens, default=list(c.buffer), format_func=label,
                            key=f"{key}.buffer")
    head, dep = st.columns(2)
    h = head.selectbox("New arc: head", [None, *tokens], key=f"{key}.head",
                       format_func=lambda t: "none" if t is None else label(t))
    d = dep.selectbox("New arc: dependent", [None, *tokens[1:]],
                      format_func=lambda t: "none" if t is None else label(t), key=f"{key}.dep")
    arc = None if h is None or d is None else (h, d)
    return ex.TableRow(tuple(stack), tuple(buffer), arc)


def cost_of_move(item: ex.Item[Any], key: str) -> ex.CostAnswer | None:
    """The cost (empty at first: a 0 already there would be an answer nobody gave) and, where asked,
    the arcs the move makes unreachable."""
    cost = st.number_input("Cost (gold arcs lost)", min_value=0, max_value=item.sentence.n, step=1,
                           value=None, placeholder="a number", key=f"{key}.cost")
    arcs: list[Any] = []
    if item.key.lost is not None:
        arcs = st.multiselect("Gold arcs it makes unreachable", gold_arcs(item.sentence), key=f"{key}.lost",
                              format_func=lambda a: arc_words(item.sentence, a))
    if cost is None:
        return None
    return ex.CostAnswer(float(cost), None if item.key.lost is None else frozenset(arcs))


def all_optimal(item: ex.Item[Any], key: str) -> frozenset[pc.Transition]:
    system = kind_of(item).again(item).system
    st.caption("Tick every optimal move.")
    ticked = [pc.Transition(k) for k in system.kinds
              if st.checkbox(pc.Transition(k).name, key=f"{key}.tick.{k}")]
    return frozenset(ticked)


def crossing_arcs(item: ex.Item[Any], key: str) -> ex.CrossingAnswer | None:
    s = item.sentence
    pairs = st.multiselect("Pairs of gold arcs that cross", arc_pairs(s), key=f"{key}.pairs",
                           format_func=lambda p: pair_words(s, p))
    projective = st.radio("Is the tree projective?", ["yes", "no"], index=None, horizontal=True,
                          key=f"{key}.projective")
    return None if projective is None else ex.CrossingAnswer(frozenset(pairs), projective == "yes")


def which_systems(item: ex.Item[Any], key: str) -> frozenset[str]:
    st.caption("Tick every system that can build the gold tree.")
    return frozenset(v for v in system_variants() if st.checkbox(v, key=f"{key}.sys.{v}"))


def static_fails(item: ex.Item[Any], key: str) -> ex.Mistake:
    system = kind_of(item).again(item).system
    st.caption("The static oracle's derivation (row 1 is the initial configuration):")
    st.dataframe(derivation_table(pc.replay(system, item.sentence, item.sequence)), hide_index=True,
                 key=f"{key}.derivation")
    steps = list(range(len(item.sequence)))
    step = st.selectbox("After how many of the static oracle's moves?", steps, key=f"{key}.step",
                        format_func=lambda k: f"after {k} moves: row {k + 1} "
                                              f"(it then takes {item.sequence[k].name})")
    move = st.selectbox("Take instead", list(system.kinds), key=f"{key}.move",
                        format_func=lambda k: pc.Transition(k).name)
    return ex.Mistake(int(step), pc.Transition(move))


def count_steps(item: ex.Item[Any], key: str) -> ex.StepCount | None:
    """The fewest and the most moves, both empty at first."""
    fewest, most = st.columns(2)
    lo = fewest.number_input("Fewest moves", min_value=0, max_value=10 * item.sentence.n, step=1,
                             value=None, placeholder="a number", key=f"{key}.fewest")
    hi = most.number_input("Most moves", min_value=0, max_value=10 * item.sentence.n, step=1,
                           value=None, placeholder="a number", key=f"{key}.most")
    return None if lo is None or hi is None else ex.StepCount(int(lo), int(hi))


def predict_parser(item: ex.Item[Any], key: str) -> ex.Prediction | None:
    system = kind_of(item).again(item).system
    move = st.selectbox("The move the parser takes", list(system.kinds), key=f"{key}.move",
                        format_func=lambda k: pc.Transition(k).name)
    optimal = st.radio("Is that move optimal here?", ["yes", "no"], index=None, horizontal=True,
                       key=f"{key}.optimal")
    return None if optimal is None else ex.Prediction(pc.Transition(move), optimal == "yes")


#: The input of each widget an exercise kind may name (:class:`parsing_core.exercises.AnswerInput`),
#: but those played on the board.
INPUTS: dict[str, Input] = {
    "table-row": trace_table, "cost": cost_of_move, "moves": all_optimal, "arc-pairs": crossing_arcs,
    "systems": which_systems, "mistake": static_fails, "step-counts": count_steps,
    "prediction": predict_parser,
}


def answer_input(item: ex.Item[Any]) -> Any:
    """The answer, once *Check* is pressed (None before, and while a part is left unanswered)."""
    key = f"practice.answer.{item.id}"
    with st.form(key=f"{key}.form", border=True):
        answer = INPUTS[input_of(item).widget](item, key)
        checked = st.form_submit_button("Check", type="primary", icon=":material/check:")
    if checked and answer is None:
        st.warning("Answer every part of the question first.", icon=":material/edit_note:")
    return answer if checked else None
