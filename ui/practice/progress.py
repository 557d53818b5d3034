"""Who is practising, and where their answers go: the progress store, or this session only.

The store is opened once per server process (:func:`store`, by the URL that
``PARSING_DATABASE_URL`` names, else the user's SQLite file).  When it cannot be opened, or no
learner has signed in, answers are kept in the session alone, counted by the same rules (mastery,
review), and the page says that progress is not being saved.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import streamlit as st

import parsing_core.exercises as ex
from parsing_core.progress import (
    Learner,
    ProgressError,
    ReviewItem,
    SkillProgress,
    Store,
    StoreUnavailable,
    default_url,
    open_store,
)
from parsing_core.progress.learning import Attempt, due, progress_by_skill, reviews, skill_progress
from ui.views.practice import kept, skill_of, spec_of_kept

LEARNER, LOCAL, HINTS = "practice.learner", "practice.local", "practice.local_hints"


@st.cache_resource(show_spinner=False)
def opened(url: str) -> tuple[Store | None, str]:
    """The store at ``url`` and no problem, or None and why it cannot be opened."""
    try:
        return open_store(url), ""
    except StoreUnavailable as error:
        return None, str(error)


def store() -> tuple[Store | None, str]:
    return opened(default_url())


def learner() -> Learner | None:
    return st.session_state.get(LEARNER)


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Tracker:
    """Answers and hints of this session's learner: into the store when it can, else the session."""

    def __init__(self) -> None:
        self.store, self.problem = store()
        self.learner = learner()
        self._history: list[tuple[Attempt, Any]] | None = None  # read once per run, again after a write

    @property
    def saving(self) -> bool:
        return self.store is not None and self.learner is not None

    def _failed(self, error: ProgressError) -> None:
        st.session_state["practice.store_problem"] = str(error)

    def record_hint(self, item: ex.Item[Any], rung: int, set_id: str | None) -> None:
        st.session_state.setdefault(HINTS, {}).setdefault(item.id, set()).add(rung)
        if self.saving:
            assert self.store is not None and self.learner is not None
            try:
                self.store.record_hint(self.learner, item.id, skill_of(item.spec), rung, set_id)
            except ProgressError as error:
                self._failed(error)

    def record_answer(self, item: ex.Item[Any], feedback: ex.Feedback, answer: Any,
                      set_id: str | None) -> int:
        """Keep the answer; returns the hints it counts (the rungs taken since the item's last answer)."""
        hints = len(st.session_state.setdefault(HINTS, {}).pop(item.id, set()))
        self._history = None
        attempt = Attempt(item.id, skill_of(item.spec), feedback.correct, hints, now())
        st.session_state.setdefault(LOCAL, []).append((attempt, kept(item, answer)))
        if self.saving:
            assert self.store is not None and self.learner is not None
            try:
                return self.store.record_answer(self.learner, item.id, skill_of(item.spec),
                                                correct=feedback.correct, credit=feedback.credit,
                                                answer=kept(item, answer), set_id=set_id).hints
            except ProgressError as error:
                self._failed(error)
        return hints

    def history(self) -> list[tuple[Attempt, Any]]:
        """Every answer as (attempt, what was kept), oldest first."""
        if self._history is None:
            self._history = self._read_history()
        return self._history

    def _read_history(self) -> list[tuple[Attempt, Any]]:
        if self.saving:
            assert self.store is not None and self.learner is not None
            try:
                return [(a.attempt, a.answer) for a in self.store.answers(self.learner)]
            except ProgressError as error:
                self._failed(error)
        return list(st.session_state.get(LOCAL, []))

    def progress(self, skills: list[str]) -> list[SkillProgress]:
        """The skills answered and ``skills`` (new ones included), by name."""
        found = {p.skill: p for p in progress_by_skill([a for a, _ in self.history()])}
        names = sorted(set(found) | set(skills))
        return [found.get(name) or skill_progress(name, []) for name in names]

    def skill(self, skill: str) -> SkillProgress:
        return skill_progress(skill, [a for a, _ in self.history() if a.skill == skill])

    def queue(self) -> list[ReviewItem]:
        return reviews([a for a, _ in self.history()])

    def due(self) -> list[ReviewItem]:
        return due([a for a, _ in self.history()], now())

    def specs(self) -> dict[str, ex.ItemSpec]:
        """The spec of every item answered before (read from the answers kept with them)."""
        found = {attempt.item_id: spec_of_kept(said) for attempt, said in self.history()}
        return {item_id: spec for item_id, spec in found.items() if spec is not None}
