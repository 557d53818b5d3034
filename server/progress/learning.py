"""Mastery and review, computed from a learner's answers alone (nothing here touches a database).

**How an answer counts.**  The first answer a learner gives to an item is its *first* answer;
an answer to an item that is due again is a *review*; an answer to an item before it is due —
typically right after the feedback or the key was shown — is a *retry* (:func:`how_counted`).
A retry is kept like any answer, but a right one changes nothing: recall of a key just read is
not knowledge.

**Mastery.**  A skill (an exercise kind × a transition system) is *mastered* once the learner has
given :data:`MASTERY_RUN` right first answers in a row, without a hint, on as many different
items.  A wrong answer (first, review or retry), or a right one after a hint, starts the run
again; a right review or retry leaves it as it is.  Mastery once earned is kept; the review
queue goes on asking.

**Review (a Leitner queue).**  Every item answered sits in a box, 1 to 5.  A right first answer
or review without hints moves it up one box, one with hints leaves it where it is, a wrong
answer sends it back to box 1 (a new item starts there too), and a right retry leaves box and
due time alone.  An item is *due* when the wait of its box (:data:`BOX_WAITS`) has passed since
the answer that put it there: missed items come back after five minutes, known ones after weeks.

>>> from datetime import datetime, timedelta
>>> t0 = datetime(2026, 1, 5, 9, 0)
>>> def at(minutes, item, correct=True, hints=0):
...     return Attempt(item, "next-move/arc-eager", correct, hints, t0 + timedelta(minutes=minutes))
>>> answers = [at(0, "a", correct=False), at(1, "a"), at(2, "b"), at(3, "c", hints=1), at(4, "d"),
...            at(5, "e"), at(6, "f")]
>>> [how for _, how in how_counted(answers)]
['first', 'retry', 'first', 'first', 'first', 'first', 'first']
>>> [p.streak for p in [skill_progress("s", answers[:k]) for k in range(1, 8)]]
[0, 0, 1, 0, 1, 2, 3]
>>> skill_progress("s", answers).mastered
True
>>> review = reviews(answers)[0]          # "a": missed, then right at once: a retry
>>> review.item_id, review.box, review.due - t0
('a', 1, datetime.timedelta(seconds=300))
>>> review = reviews(answers + [at(10, "a")])[-1]   # right again once due: a review, up a box
>>> review.item_id, review.box, review.due - t0
('a', 2, datetime.timedelta(days=1, seconds=600))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import groupby

MASTERY_RUN = 3  # right answers in a row, without hints, that master a skill
BOX_WAITS: dict[int, timedelta] = {
    1: timedelta(minutes=5),
    2: timedelta(days=1),
    3: timedelta(days=3),
    4: timedelta(days=7),
    5: timedelta(days=21),
}
FIRST_BOX, LAST_BOX = min(BOX_WAITS), max(BOX_WAITS)


@dataclass(frozen=True)
class Attempt:
    """One answer as the learning rules see it: which item and skill, right or not, hints taken, when."""

    item_id: str
    skill: str
    correct: bool
    hints: int
    at: datetime

    @property
    def clean(self) -> bool:
        """Right without a hint: only such an answer, given first or when due, counts toward mastery
        (a first one) and moves a box up."""
        return self.correct and self.hints == 0


@dataclass(frozen=True)
class SkillProgress:
    """One skill at a glance: answers, right ones, the current and best clean runs, mastered or not.

    ``boxes[k]`` is how many of the skill's items sit in box k + 1 of the review queue.
    """

    skill: str
    answered: int
    correct: int
    streak: int
    best_run: int
    boxes: tuple[int, ...]

    @property
    def mastered(self) -> bool:
        return self.best_run >= MASTERY_RUN

    @property
    def state(self) -> str:
        """``new`` (no answer yet), ``learning`` or ``mastered``."""
        return "mastered" if self.mastered else "learning" if self.answered else "new"

    @property
    def to_mastery(self) -> int:
        """Clean answers still needed in a row (0 once mastered)."""
        return 0 if self.mastered else MASTERY_RUN - self.streak


@dataclass(frozen=True)
class ReviewItem:
    """Where one item is in the review queue: its box and when it is due again."""

    item_id: str
    skill: str
    box: int
    due: datetime


FIRST, REVIEW, RETRY = "first", "review", "retry"  # how an answer counts: see :func:`how_counted`


def counted_as(before: ReviewItem | None, attempt: Attempt) -> str:
    """``first`` (the item's first answer), ``review`` (the item was due) or ``retry`` (it was not)."""
    if before is None:
        return FIRST
    return REVIEW if attempt.at >= before.due else RETRY


def placed(before: ReviewItem | None, attempt: Attempt, how: str) -> ReviewItem:
    """Where an answer leaves its item: Leitner's rule, except that a right retry changes nothing."""
    if before is not None and how == RETRY and attempt.correct:
        return before
    box = FIRST_BOX if before is None else before.box
    if not attempt.correct:
        box = FIRST_BOX
    elif attempt.clean:
        box = min(box + 1, LAST_BOX)
    return ReviewItem(attempt.item_id, attempt.skill, box, attempt.at + BOX_WAITS[box])


def replayed(attempts: Iterable[Attempt]) -> tuple[list[tuple[Attempt, str]], dict[str, ReviewItem]]:
    """The answers, oldest first, each with how it counts; and every item's place in the queue."""
    queue: dict[str, ReviewItem] = {}
    counted = []
    for attempt in sorted(attempts, key=lambda a: a.at):
        before = queue.get(attempt.item_id)
        how = counted_as(before, attempt)
        queue[attempt.item_id] = placed(before, attempt, how)
        counted.append((attempt, how))
    return counted, queue


def how_counted(attempts: Iterable[Attempt]) -> list[tuple[Attempt, str]]:
    """Each answer, oldest first, with how it counts: ``first``, ``review`` or ``retry``."""
    return replayed(attempts)[0]


def runs(attempts: Iterable[Attempt]) -> tuple[int, int]:
    """(current, best) length of the runs of right first answers without hints.

    A wrong or hinted answer ends a run; a right review or retry neither ends nor lengthens it.

    >>> t = datetime(2026, 1, 1)
    >>> given = [("a", True), ("b", True), ("c", False), ("c", True), ("d", True)]
    >>> runs([Attempt(item, "s", ok, 0, t + timedelta(seconds=k)) for k, (item, ok) in enumerate(given)])
    (1, 2)
    """
    current = best = 0
    for attempt, how in how_counted(attempts):
        if not attempt.clean:
            current = 0
        elif how == FIRST:
            current += 1
        best = max(best, current)
    return current, best


def skill_progress(skill: str, attempts: Sequence[Attempt]) -> SkillProgress:
    """The progress in one skill from its answers."""
    current, best = runs(attempts)
    boxes = [0] * LAST_BOX
    for review in reviews(attempts):
        boxes[review.box - 1] += 1
    return SkillProgress(skill, len(attempts), sum(a.correct for a in attempts), current, best, tuple(boxes))


def progress_by_skill(attempts: Sequence[Attempt]) -> list[SkillProgress]:
    """Every skill answered, by name, each from its own answers."""
    by_skill = sorted(attempts, key=lambda a: (a.skill, a.at))
    return [skill_progress(skill, list(group)) for skill, group in groupby(by_skill, key=lambda a: a.skill)]


def reviews(attempts: Sequence[Attempt]) -> list[ReviewItem]:
    """Every item answered, with its box and due time, the most urgent first (lowest box, then earliest)."""
    return sorted(replayed(attempts)[1].values(), key=lambda r: (r.box, r.due, r.item_id))


def due(attempts: Sequence[Attempt], now: datetime) -> list[ReviewItem]:
    """The items due for review at ``now``, the most urgent first."""
    return [review for review in reviews(attempts) if review.due <= now]
