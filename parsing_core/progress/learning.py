"""Mastery and review, computed from a learner's answers alone (nothing here touches a database).

**Mastery.**  A skill (an exercise kind × a transition system) is *mastered* once the learner has
answered :data:`MASTERY_RUN` items of it correctly in a row without taking a hint.  A wrong
answer, or a right one after a hint, starts the run again.  Mastery once earned is kept; the
review queue goes on asking.

**Review (a Leitner queue).**  Every item answered sits in a box, 1 to 5.  A right answer without
hints moves it up one box, a right answer with hints leaves it where it is, a wrong answer sends
it back to box 1 (a new item starts there too).  An item is *due* when the wait of its box
(:data:`BOX_WAITS`) has passed since its last answer: missed items come back within minutes,
well-known ones after weeks.

>>> from datetime import datetime, timedelta
>>> t0 = datetime(2026, 1, 5, 9, 0)
>>> def at(minutes, correct=True, hints=0, item="a"):
...     return Attempt(item, "next-move/arc-eager", correct, hints, t0 + timedelta(minutes=minutes))
>>> answers = [at(0, correct=False), at(1), at(2, hints=1), at(3), at(4), at(5)]
>>> [p.streak for p in [skill_progress("s", answers[:k]) for k in range(1, 7)]]
[0, 1, 0, 1, 2, 3]
>>> skill_progress("s", answers).mastered
True
>>> review = reviews(answers)[0]          # one item: wrong (box 1), right (2), hint (2), then 3, 4, 5
>>> review.box, review.due - t0
(5, datetime.timedelta(days=21, seconds=300))
>>> review = reviews(answers + [at(6, correct=False)])[0]
>>> review.box, review.due - t0           # a miss: back to box 1, due five minutes later
(1, datetime.timedelta(seconds=660))
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
        """Right without a hint: the only answer that counts toward mastery and moves a box up."""
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


def runs(attempts: Iterable[Attempt]) -> tuple[int, int]:
    """(current, best) length of the runs of clean answers, in the order given.

    >>> t = datetime(2026, 1, 1)
    >>> runs([Attempt("a", "s", ok, 0, t) for ok in (True, True, False, True)])
    (1, 2)
    """
    current = best = 0
    for attempt in attempts:
        current = current + 1 if attempt.clean else 0
        best = max(best, current)
    return current, best


def skill_progress(skill: str, attempts: Sequence[Attempt]) -> SkillProgress:
    """The progress in one skill from its answers, oldest first."""
    current, best = runs(attempts)
    boxes = [0] * LAST_BOX
    for review in reviews(attempts):
        boxes[review.box - 1] += 1
    return SkillProgress(skill, len(attempts), sum(a.correct for a in attempts), current, best, tuple(boxes))


def progress_by_skill(attempts: Sequence[Attempt]) -> list[SkillProgress]:
    """Every skill answered, by name, each from its own answers (oldest first)."""
    by_skill = sorted(attempts, key=lambda a: (a.skill, a.at))
    return [skill_progress(skill, list(group)) for skill, group in groupby(by_skill, key=lambda a: a.skill)]


def next_box(box: int, attempt: Attempt) -> int:
    """Leitner's rule: up one box when right without hints, stay after hints, back to the first when wrong."""
    if not attempt.correct:
        return FIRST_BOX
    return min(box + 1, LAST_BOX) if attempt.clean else box


def review_of(attempts: Sequence[Attempt]) -> ReviewItem:
    """One item's place in the queue, from its answers (oldest first, at least one)."""
    box = FIRST_BOX
    for attempt in attempts:
        box = next_box(box, attempt)
    last = attempts[-1]
    return ReviewItem(last.item_id, last.skill, box, last.at + BOX_WAITS[box])


def reviews(attempts: Sequence[Attempt]) -> list[ReviewItem]:
    """Every item answered, with its box and due time, the most urgent first (lowest box, then earliest)."""
    by_item = sorted(attempts, key=lambda a: (a.item_id, a.at))
    found = [review_of(list(group)) for _, group in groupby(by_item, key=lambda a: a.item_id)]
    return sorted(found, key=lambda r: (r.box, r.due, r.item_id))


def due(attempts: Sequence[Attempt], now: datetime) -> list[ReviewItem]:
    """The items due for review at ``now``, the most urgent first."""
    return [review for review in reviews(attempts) if review.due <= now]
