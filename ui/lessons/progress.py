"""The learner's progress through the lessons: the questions answered right.

The learner is the one signed in on the Practice page (the same session key); answers go to the
progress store under the exercise's own skill (kind/system), so a lesson's question counts as
practice too.  Without a learner or a store, answers count for this visit only, and the page says so.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

import parsing_core.exercises as ex
from parsing_core.progress import Learner, ProgressError, Store, StoreUnavailable, default_url
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
