"""The learner's progress through the lessons: signing in, and the questions answered right.

The Lessons page signs a learner in with the Practice page's own box (one learner for both pages:
the page passes :func:`store_or_problem` to it and says :func:`where_answers_go`);
answers go to the progress store under the exercise's own skill (kind/system), so a lesson's
question counts as practice too, and an answer shown on request is kept as not found.  Without a
learner or a store, answers count for this visit only, and the page says so.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

import parsing_core.exercises as ex
from server.progress import Learner, ProgressError, Store, StoreUnavailable, default_url
from ui.widgets.progress_store import opened, signed_in_learner

RIGHT = "lessons.right"  # item ids answered right in this visit


def signed_in() -> tuple[Store, Learner] | None:
    """The store and the learner, when a learner is signed in and the store opens."""
    who = signed_in_learner()
    if who is None:
        return None
    try:
        return opened(default_url()), who
    except StoreUnavailable:
        return None


def store_or_problem() -> tuple[Store | None, str]:
    """The progress store, or None and why it cannot be opened (for the sign-in box)."""
    try:
        return opened(default_url()), ""
    except StoreUnavailable as error:
        return None, str(error)


def where_answers_go(who: Learner | None, store: Store | None) -> None:
    """Under the sign-in box: where the answers to the lessons' questions go."""
    if who is not None:
        st.caption("Your answers to the lessons' questions are saved with your Practice progress: the "
                   "Practice page shows them under each kind of question.")
    elif store is not None:
        st.caption("Sign in to keep your answers to the lessons' questions with your Practice progress.")


def record(item: ex.Item[Any], feedback: ex.Feedback, answer: Any) -> None:
    """Keep an answer: in the visit, and in the store when a learner is signed in."""
    if feedback.correct:
        st.session_state.setdefault(RIGHT, set()).add(item.id)
    kept = signed_in()
    if kept is None:
        return
    store, learner = kept
    try:
        skill = f"{item.spec.kind}/{item.spec.system}"
        store.record_answer(learner, item.id, skill, correct=feedback.correct, answer=repr(answer),
                            credit=feedback.credit)
    except ProgressError as error:
        st.session_state["lessons.store_problem"] = str(error)


def record_shown(item: ex.Item[Any]) -> None:
    """The learner asked to see the answer: for a learner signed in, kept as an answer not found."""
    kept = signed_in()
    if kept is None:
        return
    store, learner = kept
    try:
        store.record_answer(learner, item.id, f"{item.spec.kind}/{item.spec.system}", correct=False,
                            answer="(answer shown)", credit=0.0)
    except ProgressError as error:
        st.session_state["lessons.store_problem"] = str(error)


def answered_right() -> set[str]:
    """The ids of the items answered right: ever (signed in) or in this visit."""
    right = set(st.session_state.get(RIGHT, set()))
    kept = signed_in()
    if kept is not None:
        store, learner = kept
        try:
            right |= {a.item_id for a in store.answers(learner) if a.correct}
        except ProgressError:
            pass
    return right
