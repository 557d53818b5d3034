"""Who is practising, and where their answers go: the progress store, or this session only.

The store is opened once per server process (:func:`store`, by the URL that
``PARSING_DATABASE_URL`` names, else the user's SQLite file); a store that cannot be opened is
tried again at the next run, so the page recovers when the database comes back.  When it cannot
be opened, or no learner has signed in, answers are kept in the session alone, counted by the
same rules (mastery, review), and the page says that progress is not being saved.

When a signed-in learner's answer cannot be written (the database is down or locked), it waits in
the session as a :class:`~server.progress.PendingAnswer` and is written at the next write,
or when the learner presses "Retry saving" (:func:`saving_notices`): exactly once, at the time it
was given.  Until then it counts for mastery and review like any other.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import streamlit as st

import parsing_core.exercises as ex
from server.progress import (
    Flushed,
    PendingAnswer,
    ProgressError,
    ReviewItem,
    SkillProgress,
    Store,
    StoreUnavailable,
    default_url,
    flush,
)
from server.progress.learning import (
    RETRY,
    Attempt,
    due,
    how_counted,
    progress_by_skill,
    reviews,
    skill_progress,
)
from ui.practice.items_view import kept, skill_of, spec_of_kept
from ui.views.safe_text import inert
from ui.widgets.progress_store import opened, signed_in_learner

LOCAL, HINTS = "practice.local", "practice.local_hints"
PENDING, SAVED_LATE, UNSAVED_HINTS = "practice.pending", "practice.saved_late", "practice.unsaved_hints"
PROBLEM, REFUSED = "practice.store_problem", "practice.refused"


def store() -> tuple[Store | None, str]:
    """The store and no problem, or None and why it cannot be opened."""
    try:
        return opened(default_url()), ""
    except StoreUnavailable as error:
        return None, str(error)


def pending() -> list[PendingAnswer]:
    """The answers of this session waiting to be written, oldest first."""
    return list(st.session_state.get(PENDING, []))


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Tracker:
    """Answers and hints of this session's learner: into the store when it can, else the session."""

    def __init__(self) -> None:
        self.store, self.problem = store()
        self.learner = signed_in_learner()
        self._history: list[tuple[Attempt, Any]] | None = None  # read once per run, again after a write

    @property
    def saving(self) -> bool:
        return self.store is not None and self.learner is not None

    def _failed(self, error: ProgressError) -> None:
        st.session_state[PROBLEM] = str(error)

    def save(self, fresh: tuple[PendingAnswer, ...] = ()) -> Flushed:
        """Write the answers waiting, then ``fresh``; keep what must wait again, note what was saved."""
        assert self.store is not None
        waited = {p.uid for p in pending()}
        done = flush(self.store, [*pending(), *fresh])
        st.session_state[PENDING] = list(done.waiting)
        late = sum(record.uid in waited for record in done.written)
        if late:
            st.session_state[SAVED_LATE] = st.session_state.get(SAVED_LATE, 0) + late
        if done.refused:
            st.session_state.setdefault(REFUSED, []).extend(reason for _, reason in done.refused)
        if done.problem:
            st.session_state[PROBLEM] = done.problem
        self._history = None
        return done

    def record_hint(self, item: ex.Item[Any], rung: int, set_id: str | None) -> None:
        """Keep the rung; one the database cannot take is counted by the page in the item's answer."""
        st.session_state.setdefault(HINTS, {}).setdefault(item.id, set()).add(rung)
        if not self.saving:
            return
        assert self.store is not None and self.learner is not None
        if pending() and self.save().waiting:  # the database is still away
            st.session_state.setdefault(UNSAVED_HINTS, set()).add(item.id)
            return
        try:
            self.store.record_hint(self.learner, item.id, skill_of(item.spec), rung, set_id)
        except ProgressError as error:
            self._failed(error)
            st.session_state.setdefault(UNSAVED_HINTS, set()).add(item.id)

    def record_answer(self, item: ex.Item[Any], feedback: ex.Feedback, answer: Any,
                      set_id: str | None) -> int:
        """Keep the answer; returns the hints it counts (the rungs taken since the item's last answer).

        The store counts the hints it holds (taken in any tab), unless a rung of this item could not
        be written: then the page's count goes with the answer, as it does with an answer the
        database cannot take now, which waits (:data:`PENDING`).
        """
        hints = len(st.session_state.setdefault(HINTS, {}).pop(item.id, set()))
        unsaved = st.session_state.setdefault(UNSAVED_HINTS, set())
        page_counts = item.id in unsaved  # a rung of the item is missing from the store
        unsaved.discard(item.id)
        attempt = Attempt(item.id, skill_of(item.spec), feedback.correct, hints, now())
        st.session_state.setdefault(LOCAL, []).append((attempt, kept(item, answer)))
        self._history = None
        if not self.saving:
            return hints
        assert self.learner is not None
        given = PendingAnswer(self.learner, item.id, attempt.skill, feedback.correct, attempt.at,
                              kept(item, answer), feedback.credit, hints if page_counts else None, set_id)
        done = self.save((given,))
        if given in done.waiting:  # it waits with the page's count: rungs may be missing from the store
            st.session_state[PENDING] = [replace(p, hints=hints) if p == given else p for p in done.waiting]
        return next((record.hints for record in done.written if record.uid == given.uid), hints)

    def history(self) -> list[tuple[Attempt, Any]]:
        """Every answer as (attempt, what was kept), oldest first."""
        if self._history is None:
            self._history = self._read_history()
        return self._history

    def _read_history(self) -> list[tuple[Attempt, Any]]:
        """The store's answers and those waiting to be written; the session's, if it cannot be read."""
        if self.saving:
            assert self.store is not None and self.learner is not None
            try:
                stored = [(a.attempt, a.answer) for a in self.store.answers(self.learner)]
            except ProgressError as error:
                self._failed(error)
            else:
                waiting = [(p.attempt, p.answer) for p in pending() if p.learner == self.learner]
                return sorted(stored + waiting, key=lambda said: said[0].at)
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

    def retried(self, item_id: str) -> bool:
        """Whether the learner's last answer to the item was a retry (given before it was due again)."""
        found = [how for a, how in how_counted(a for a, _ in self.history()) if a.item_id == item_id]
        return found[-1:] == [RETRY]

    def due(self) -> list[ReviewItem]:
        return due([a for a, _ in self.history()], now())

    def specs(self) -> dict[str, ex.ItemSpec]:
        """The spec of every item answered before (read from the answers kept with them)."""
        found = {attempt.item_id: spec_of_kept(said) for attempt, said in self.history()}
        return {item_id: spec for item_id, spec in found.items() if spec is not None}


# -- what the page says about saving ---------------------------------------------------------------
def retry_saving() -> None:
    """Callback of "Retry saving": write the answers waiting, now."""
    tracker = Tracker()
    if tracker.store is not None and pending():
        tracker.save()


def saving_notices(tracker: Tracker) -> None:
    """Answers waiting to be written (and a button to retry), answers saved late, answers refused."""
    waiting, problem = len(pending()), st.session_state.pop(PROBLEM, "")
    saved = st.session_state.pop(SAVED_LATE, 0)
    if saved:
        st.success(f"**Saved:** {plural(saved)} that had to wait {'is' if saved == 1 else 'are'} saved now.",
                   icon=":material/cloud_done:")
    for reason in st.session_state.pop(REFUSED, []):
        st.error(f"**An answer could not be saved, and will not be:** {inert(reason)}.")
    if waiting:
        kept_here = "It is" if waiting == 1 else "They are"
        st.warning(f"**{plural(waiting)} not saved yet:** the progress database cannot be used now"
                   f"{f' ({inert(problem)})' if problem else ''}.  {kept_here} kept in this tab (keep it "
                   "open) and saved with your next answer, or now:", icon=":material/cloud_off:")
        st.button("Retry saving", key="practice.retry_saving", icon=":material/cloud_upload:",
                  on_click=retry_saving, disabled=tracker.store is None)
    elif problem:
        st.warning(f"**Progress is not being saved:** {inert(problem)}")


def plural(count: int) -> str:
    return f"{count} answer{'s' * (count != 1)}"
