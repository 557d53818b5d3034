"""Answers that could not be written yet: kept as plain data, written later, each exactly once.

When the database cannot be used (:class:`StoreUnavailable`: the server is down or restarting, the
file stays locked past the busy timeout), a page keeps the answer as a :class:`PendingAnswer` —
immutable plain data, safe to hold in a session — and tries again later with :func:`flush`, at
the next write or when the learner asks.  Two things make a late write the same as a timely one:

* each pending answer carries a uid made when it was given, and the store keeps an answer whose
  uid it holds already no second time: an answer whose write reached the database but whose reply
  was lost (the connection cut just after the commit) is kept once, however often it is retried;
* it carries the moment it was given, so mastery and review see it where it belongs, and the hints
  counted then (rungs taken while the database was away were never written).

>>> import tempfile
>>> from datetime import datetime
>>> from server.progress import open_store
>>> store = open_store(f"sqlite:///{tempfile.mkdtemp()}/progress.sqlite3")
>>> ana = store.register("ana")
>>> late = PendingAnswer(ana, "nm-1", "next-move/arc-eager", correct=True, answer="SH",
...                      at=datetime(2026, 3, 2, 9, 0))
>>> first, again = flush(store, [late]), flush(store, [late])  # the second finds it kept
>>> len(first.written), first.waiting, [a.at for a in store.answers(ana)]
(1, (), [datetime.datetime(2026, 3, 2, 9, 0)])
>>> store.close()
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .answers import AnswerRecord, new_uid
from .errors import ProgressError, StoreUnavailable
from .learners import Learner
from .learning import Attempt
from .store import Store


@dataclass(frozen=True)
class PendingAnswer:
    """An answer not written yet: whose, to what, right or not, what was said, hints, when; its uid.

    ``hints`` None lets the store count the rungs it holds for the item (an answer tried at once);
    a number is the count the page made itself (an answer that has to wait).
    """

    learner: Learner
    item_id: str
    skill: str
    correct: bool
    at: datetime
    answer: Any = None
    credit: float | None = None
    hints: int | None = None
    set_id: str | None = None
    uid: str = field(default_factory=new_uid)

    @property
    def attempt(self) -> Attempt:
        """As mastery and review count it until it is written."""
        return Attempt(self.item_id, self.skill, self.correct, self.hints or 0, self.at)


@dataclass(frozen=True)
class Flushed:
    """What one :func:`flush` did.

    ``written``: the answers now in the store (in the order given); ``waiting``: those still
    pending, because the database failed again (``problem`` says how); ``refused``: those the store
    will never take (a set since deleted, a learner unknown to it), each with the reason, so a page
    can say so instead of dropping them unseen.
    """

    written: tuple[AnswerRecord, ...] = ()
    waiting: tuple[PendingAnswer, ...] = ()
    refused: tuple[tuple[PendingAnswer, str], ...] = ()
    problem: str = ""


def write(store: Store, pending: PendingAnswer) -> AnswerRecord:
    """Write one pending answer (kept once: a second write returns the answer already kept)."""
    return store.record_answer(pending.learner, pending.item_id, pending.skill, correct=pending.correct,
                               answer=pending.answer, credit=pending.credit, hints=pending.hints,
                               set_id=pending.set_id, uid=pending.uid, at=pending.at)


def flush(store: Store, queue: Sequence[PendingAnswer]) -> Flushed:
    """Write the queue, oldest first; at the first failure of the database the rest wait, in order."""
    written: list[AnswerRecord] = []
    refused: list[tuple[PendingAnswer, str]] = []
    for k, pending in enumerate(queue):
        try:
            written.append(write(store, pending))
        except StoreUnavailable as error:
            return Flushed(tuple(written), tuple(queue[k:]), tuple(refused), str(error))
        except ProgressError as error:
            refused.append((pending, str(error)))
    return Flushed(tuple(written), (), tuple(refused))
