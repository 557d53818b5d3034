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
import parsing_core.lessons as pl
from parsing_core.exercises.tree_kinds import VARIANTS
from ui.lessons.progress import record, record_shown
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


#: The input of each widget a lesson's question may name (its kind's
#: :class:`parsing_core.exercises.AnswerInput`); a next move is picked here, not played on a board.
INPUTS: dict[str, Callable[[ex.Item[Any], str], Any]] = {
    "move": move_choice, "moves": optimal_boxes, "cost": cost_number, "arc-pairs": arc_pairs,
    "systems": systems_ticked,
}


def open_input(step: pl.Step, revealed: bool) -> ex.AnswerInput:
    """How the step's question is answered while it is open: its costs must stay hidden where they
    would tell the answer, its tree drawn plainly where it is asked of the tree.  Nothing is hidden
    once it is answered, or in a step without a question."""
    if revealed or step.question is None:
        return NOTHING_OPEN
    return ex.get_kind(step.question.kind).answer_input


#: A step with no question open: the board hides nothing.
NOTHING_OPEN = ex.AnswerInput("move", marks="")


def check(item: ex.Item[Any], answer: Any, feedback_key: str) -> None:
    """Grade the answer as it is at the click of Check, and keep the feedback."""
    feedback = ex.grade(item, answer)
    st.session_state[feedback_key] = feedback
    record(item, feedback, answer)


def answered(key: str) -> bool:
    """Has the question of ``key`` been checked, or its answer shown, in this visit?"""
    return feedback_key_of(key) in st.session_state or shown_key_of(key) in st.session_state


def feedback_key_of(key: str) -> str:
    return f"{key}.feedback"


def shown_key_of(key: str) -> str:
    return f"{key}.shown"


def show(item: ex.Item[Any], key: str) -> None:
    """Callback of "Show me": the answer is shown (and, for a learner signed in, kept as not found)."""
    if shown_key_of(key) not in st.session_state:
        st.session_state[shown_key_of(key)] = True
        record_shown(item)


def question(item: ex.Item[Any], key: str) -> ex.Feedback | None:
    """Ask, take the answer, grade it with the exercise's own grader; the feedback stays shown."""
    feedback_key = feedback_key_of(key)
    with st.container(border=True, key=f"{key}-question"):
        st.markdown(f"**Question.** {inert(item.prompt)}")
        answer = INPUTS[ex.get_kind(item.spec.kind).answer_input.widget](item, f"{key}.answer")
        # The click is noted by a callback (it survives a rerun of the page before this point) and
        # graded here, with the answer as it is now: a callback's arguments would be the answer of
        # the run before, without a change made just before the click.  Check stays enabled: a
        # number typed and Check clicked at once arrive together, and a disabled button would
        # drop that click.
        clicked = f"{key}.clicked"
        check_column, show_column = st.columns(2, width=360, wrap=False)
        check_column.button("Check", key=f"{key}.check", type="primary", width="stretch",
                            on_click=st.session_state.__setitem__, args=(clicked, True))
        show_column.button("Show me", key=f"{key}.show", width="stretch", on_click=show, args=(item, key),
                           help="Show the answer and the explanation (it counts as not found)")
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
            verdict = st.success if feedback.correct else st.error
            verdict(inert(feedback.text).replace("\n", "  \n"))
        elif shown_key_of(key) in st.session_state:
            st.info(f"The answer: {inert(item.hints.ladder[-1])}", icon=":material/lightbulb:")
        with st.expander("Hints"):
            for rung in item.hints.ladder:
                st.markdown(f"- {inert(rung)}")
    return feedback
