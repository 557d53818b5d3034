"""A teacher's sets: composed once, opened by a link, and what the class made of each item.

A set keeps its spec (the kinds, systems, level, count and seed the exercise library draws the
items from: any JSON object, which may also hold each item spec's text, so the items rebuild
even if the sentences they were drawn from change) and the ids of the items, in order, so that
its results can be listed item by item even for items no one has answered yet, and an answer
to an item the set does not hold is refused as stale.  Its id is short and random (:func:`new_set_id`):
two teachers composing the same spec get two sets with results of their own.

Per item, the results say how many learners answered it, how many solved it (answered it right at
least once) and with how many hints (all the hints they took on it up to their first right
answer), how many got it right at once (their first answer right, without a hint: a right answer
after the feedback to a wrong one is a retry, see :mod:`.learning`), and the most common wrong
answer (counted over every wrong answer given).
"""

from __future__ import annotations

import secrets
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from .answers import AnswerRecord, as_record, checked_item_id
from .errors import BadInput, UnknownSet
from .learners import clean_text
from .schema import ID_LENGTH, SET_ID_LENGTH, TITLE_LENGTH, AnswerRow, SetRow, canonical_json

ID_ALPHABET = "23456789abcdefghijkmnpqrstuvwxyz"  # no 0/o, 1/l: a link read aloud survives
ID_CHARS = 8  # 32**8, about 10**12 ids


@dataclass(frozen=True)
class PracticeSet:
    """A composed set: its id (the link), title, spec (a JSON object) and item ids in order."""

    id: str
    title: str
    spec: dict[str, Any]
    items: tuple[str, ...]
    created: datetime


@dataclass(frozen=True)
class ItemResult:
    """What the learners of a set made of one item.

    ``hints``: for each learner who solved it, the hints they took first (sorted); ``common_wrong``:
    the wrong answer given most often (None when no one was wrong), given ``common_wrong_count`` times;
    ``first_right``: the learners whose first answer was right, without a hint.
    """

    item_id: str
    learners: int
    hints: tuple[int, ...]
    wrong_answers: int
    common_wrong: Any
    common_wrong_count: int
    first_right: int = 0

    @property
    def solved(self) -> int:
        return len(self.hints)

    @property
    def solved_without_hints(self) -> int:
        """Solved by the first answer, without a hint (a right retry after the feedback is not)."""
        return self.first_right


def new_set_id() -> str:
    """Eight characters from an alphabet without look-alikes, e.g. ``'k7mq2xbd'``."""
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_CHARS))


def as_set(row: SetRow) -> PracticeSet:
    return PracticeSet(row.id, row.title, dict(row.spec), tuple(row.items), row.created_at)


def checked_spec(spec: object) -> dict[str, Any]:
    if not isinstance(spec, dict) or not all(isinstance(key, str) for key in spec):
        raise BadInput("a set's spec is a JSON object (kinds, systems, level, count, seed)")
    try:
        canonical_json(spec)
    except (TypeError, ValueError) as error:
        raise BadInput(f"a set's spec must be plain JSON: {error}") from error
    return spec


def checked_items(items: object) -> list[str]:
    if isinstance(items, str) or not isinstance(items, list | tuple):
        raise BadInput("a set's items are a list of item ids")
    found = [checked_item_id(item) for item in items]
    if len(set(found)) != len(found):
        raise BadInput("a set lists each item once")
    return found


def checked_title(title: object) -> str:
    return clean_text(title, "a set's title", TITLE_LENGTH, required=True)


def create(session: Session, title: object, spec: object, items: object, now: datetime) -> PracticeSet:
    """A new set with a fresh id (drawn again in the unlikely case it is taken)."""
    row = SetRow(title=checked_title(title),
                 spec=checked_spec(spec), items=checked_items(items), created_at=now)
    row.id = new_set_id()
    while session.get(SetRow, row.id) is not None:
        row.id = new_set_id()
    session.add(row)
    session.flush()
    return as_set(row)


def find(session: Session, set_id: object) -> SetRow:
    """The set with this id; :class:`UnknownSet`, in words a learner understands, when there is none."""
    text = set_id.strip() if isinstance(set_id, str) else ""
    row = session.get(SetRow, text) if 0 < len(text) <= SET_ID_LENGTH else None
    if row is None:
        raise UnknownSet(f"no exercise set has the id {str(set_id)[:ID_LENGTH]!r}: the link may be cut short "
                         f"or mistyped; ask for it again")
    return row


def answers_in(session: Session, set_id: str) -> list[tuple[AnswerRecord, int]]:
    """Every answer given within the set, oldest first, with the id of the learner who gave it."""
    query = select(AnswerRow).where(AnswerRow.set_id == set_id).order_by(AnswerRow.answered_at, AnswerRow.id)
    return [(as_record(row), row.learner_id) for row in session.scalars(query)]


def results(session: Session, set_id: object) -> list[ItemResult]:
    """One result per item: the set's items in order, then any other item answered within it."""
    row = find(session, set_id)
    answers = answers_in(session, row.id)
    order = list(row.items) + sorted({a.item_id for a, _ in answers} - set(row.items))
    return [item_result(item, [(a, who) for a, who in answers if a.item_id == item]) for item in order]


def item_result(item_id: str, answers: list[tuple[AnswerRecord, int]]) -> ItemResult:
    """The result of one item from its answers (oldest first) and who gave each.

    Learner 1 answers SH (wrong), takes a hint, answers LA (right); learner 2 answers SH too:

    >>> def said(answer, correct, hints=0):
    ...     return AnswerRecord("u", "i1", "s", None, correct, 1.0 * correct, hints, answer, datetime.now())
    >>> r = item_result("i1", [(said("SH", False), 1), (said("LA", True, 1), 1), (said("SH", False), 2)])
    >>> r.learners, r.solved, r.hints, r.common_wrong, r.common_wrong_count, r.first_right
    (2, 1, (1,), 'SH', 2, 0)
    """
    hints_so_far: Counter[int] = Counter()
    solved: dict[int, int] = {}
    for answer, learner in answers:
        if learner in solved:
            continue
        hints_so_far[learner] += answer.hints
        if answer.correct:
            solved[learner] = hints_so_far[learner]
    wrong = Counter(canonical_json(answer.answer) for answer, _ in answers if not answer.correct)
    common = wrong.most_common(1)
    first_given = {canonical_json(a.answer): a.answer for a, _ in reversed(answers)}
    return ItemResult(item_id, len({learner for _, learner in answers}), tuple(sorted(solved.values())),
                      sum(wrong.values()), first_given[common[0][0]] if common else None,
                      common[0][1] if common else 0, first_right(answers))


def first_right(answers: list[tuple[AnswerRecord, int]]) -> int:
    """How many learners' first answer (oldest first) was right without a hint."""
    first: dict[int, AnswerRecord] = {}
    for answer, learner in answers:
        first.setdefault(learner, answer)
    return sum(a.correct and a.hints == 0 for a in first.values())
