"""One small answer widget per question kind, and the question graded in place.

These duplicate, in miniature, the answer inputs of the Practice page (next move, all optimal
moves, cost of a move, crossing arcs, which systems); they can move up to ``ui/widgets`` together.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import streamlit as st

import parsing_core as pc
import parsing_core.exercises as ex
from parsing_core.exercises.tree_kinds import VARIANTS
from ui.lessons.progress import record
from ui.views.safe_text import inert


def move_choice(item: ex.Item[Any], key: str) -> Any:
    kinds = pc.get_system(item.spec.system).kinds
    names = {k: pc.Transition(k).name for k in kinds}
    picked = st.radio("Your move", kinds, format_func=lambda k: f"{k} · {names[k]}", horizontal=True,
                      key=key, index=None)
    return None if picked is None else pc.Transition(picked)


def optimal_boxes(item: ex.Item[Any], key: str) -> Any:
    kinds = pc.get_system(item.spec.system).kinds
    columns = st.columns(len(kinds))
    ticked = [k for k, column in zip(kinds, columns)
              if column.checkbox(pc.Transition(k).name, key=f"{key}.{k}")]
    return frozenset(pc.Transition(k) for k in ticked)


def cost_number(item: ex.Item[Any], key: str) -> Any:
    cost = st.number_input("Cost (gold arcs lost)", min_value=0, max_value=50, step=1, key=key, value=None)
    return None if cost is None else ex.CostAnswer(float(cost))


def arc_pairs(item: ex.Item[Any], key: str) -> Any:
    s = item.sentence
    arcs = sorted(s.gold_arcs, key=lambda a: (a[1], a[0]))
    pairs = [frozenset(p) for p in itertools.combinations(arcs, 2)]
    words = [" and ".join(arc_words(s, a) for a in sorted(p, key=lambda a: (a[1], a[0]))) for p in pairs]
    crossing = st.multiselect("Pairs of arcs that cross", range(len(pairs)), format_func=words.__getitem__,
                              key=f"{key}.pairs")
    projective = st.radio("Is the tree projective?", ["yes", "no"], horizontal=True, key=f"{key}.projective",
                          index=None)
    chosen = frozenset(pairs[i] for i in crossing)
    return None if projective is None else ex.CrossingAnswer(chosen, projective == "yes")


def systems_ticked(item: ex.Item[Any], key: str) -> Any:
    return frozenset(st.multiselect("Systems that can build it", list(VARIANTS), key=key))


def arc_words(sentence: pc.Sentence, arc: pc.Arc) -> str:
    return f"{sentence.word(arc[0])} → {sentence.word(arc[1])}"


INPUTS: dict[str, Callable[[ex.Item[Any], str], Any]] = {
    "next-move": move_choice, "all-optimal": optimal_boxes, "cost-of-move": cost_number,
    "crossing-arcs": arc_pairs, "which-systems": systems_ticked,
}


def check(item: ex.Item[Any], answer: Any, feedback_key: str) -> None:
    """Grade the answer as it is at the click of Check, and keep the feedback."""
    feedback = ex.grade(item, answer)
    st.session_state[feedback_key] = feedback
    record(item, feedback, answer)


def answered(key: str) -> bool:
    """Has the question of ``key`` been checked in this visit (its feedback is kept)?"""
    return feedback_key_of(key) in st.session_state


def feedback_key_of(key: str) -> str:
    return f"{key}.feedback"


def question(item: ex.Item[Any], key: str) -> ex.Feedback | None:
    """Ask, take the answer, grade it with the exercise's own grader; the feedback stays shown."""
    feedback_key = feedback_key_of(key)
    with st.container(border=True, key=f"{key}-question"):
        st.markdown(f"**Question.** {inert(item.prompt)}")
        answer = INPUTS[item.spec.kind](item, f"{key}.answer")
        # The click is noted by a callback (it survives a rerun of the page before this point) and
        # graded here, with the answer as it is now: a callback's arguments would be the answer of
        # the run before, without a change made just before the click.  Check stays enabled: a
        # number typed and Check clicked at once arrive together, and a disabled button would
        # drop that click.
        clicked = f"{key}.clicked"
        st.button("Check", key=f"{key}.check", type="primary",
                  on_click=st.session_state.__setitem__, args=(clicked, True))
        if st.session_state.pop(clicked, False):
            if answer is None:
                st.info("Give an answer first, then Check.")
            else:
                first = not answered(key)
                check(item, answer, feedback_key)
                if first:  # the board above hid the oracle until now: draw it again
                    st.rerun()
        feedback: ex.Feedback | None = st.session_state.get(feedback_key)
        if feedback is not None:
            show = st.success if feedback.correct else st.error
            show(inert(feedback.text).replace("\n", "  \n"))
        with st.expander("Hints"):
            for rung in item.hints.ladder:
                st.markdown(f"- {inert(rung)}")
    return feedback
