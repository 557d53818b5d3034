"""Answers and hints: the facts the store keeps, added one row at a time and never changed.

A page records each rung of the hint ladder as the learner takes it (:func:`record_hint`), then the
answer (:func:`record_answer`); the answer counts the different rungs taken on that item since
the learner's previous answer to it, and claims those hints, so a hint taken in one browser tab
still counts for the answer given in another.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from .errors import BadInput, UnknownSet
from .learners import clean_text
from .learning import Attempt
from .schema import ID_LENGTH, SET_ID_LENGTH, UID_LENGTH, AnswerRow, HintRow, SetRow, canonical_json

LONGEST_ANSWER = 20_000  # characters of canonical JSON: a whole derivation fits many times over


@dataclass(frozen=True)
class AnswerRecord:
    """One answer as kept: what was answered (any JSON value), right or not, partial credit, hints, when."""

    uid: str
    item_id: str
    skill: str
    set_id: str | None
    correct: bool
    credit: float
    hints: int
    answer: Any
    at: datetime

    @property
    def attempt(self) -> Attempt:
        return Attempt(self.item_id, self.skill, self.correct, self.hints, self.at)


def as_record(row: AnswerRow) -> AnswerRecord:
    return AnswerRecord(row.uid, row.item_id, row.skill, row.set_id, row.correct, row.credit, row.hints,
                        row.answer, row.answered_at)


def new_uid() -> str:
    return uuid.uuid4().hex


def checked_item_id(item_id: object) -> str:
    return clean_text(item_id, "an item id", ID_LENGTH, required=True)


def checked_skill(skill: object) -> str:
    return clean_text(skill, "a skill", ID_LENGTH, required=True)


def item_and_skill(item_id: object, skill: object) -> tuple[str, str]:
    return checked_item_id(item_id), checked_skill(skill)


def set_of(session: Session, set_id: object, item_id: str) -> str | None:
    """``set_id`` checked to name a set of this store that holds the item (None: no set)."""
    if set_id is None:
        return None
    text = clean_text(set_id, "a set id", SET_ID_LENGTH, required=True)
    row = session.get(SetRow, text)
    if row is None:
        raise UnknownSet(f"no exercise set has the id {text!r}: the link may be cut short or mistyped")
    if row.items and item_id not in row.items:
        raise BadInput(f"the set {text!r} has no item {item_id!r}: the page may be older than the set; "
                       f"open the set's link again")
    return text


def checked_credit(correct: object, credit: object) -> tuple[bool, float]:
    """(correct, credit): credit lies in [0, 1] and defaults to 1 for a right answer, 0 for a wrong one."""
    if not isinstance(correct, bool):
        raise BadInput(f"correct must be True or False, not {correct!r}")
    if credit is None:
        return correct, float(correct)
    if isinstance(credit, bool) or not isinstance(credit, int | float) or not 0 <= credit <= 1:
        raise BadInput(f"partial credit is a number from 0 to 1, not {credit!r}")
    return correct, float(credit)


def checked_answer(answer: Any) -> Any:
    """``answer`` if it is a JSON value of a sensible size (a move, a list of moves, a table, ...)."""
    try:
        text = canonical_json(answer)
    except (TypeError, ValueError) as error:
        raise BadInput(f"an answer must be a JSON value (text, numbers, lists, objects): {error}") from error
    if len(text) > LONGEST_ANSWER:
        raise BadInput(f"an answer has at most {LONGEST_ANSWER} characters as JSON ({len(text)} given)")
    return answer


def record_hint(session: Session, learner_id: int, item_id: object, skill: object, rung: object,
                set_id: object, now: datetime) -> None:
    """Note that the learner took rung ``rung`` (1 = a pointer, 2 = the principle, 3 = the answer)."""
    item, name = item_and_skill(item_id, skill)
    if isinstance(rung, bool) or not isinstance(rung, int) or rung < 1:
        raise BadInput(f"a hint's rung is a whole number from 1 up, not {rung!r}")
    session.add(HintRow(uid=new_uid(), learner_id=learner_id, item_id=item, skill=name,
                        set_id=set_of(session, set_id, item), rung=rung, taken_at=now))


def pending_hints(session: Session, learner_id: int, item_id: str) -> Any:
    """The condition on the hint rows of this item not yet claimed by an answer."""
    return (HintRow.learner_id == learner_id) & (HintRow.item_id == item_id) & HintRow.answer_id.is_(None)


def checked_uid(uid: object) -> str:
    """``uid`` as given (checked to be short printable text), or a new one when it is None."""
    return new_uid() if uid is None else clean_text(uid, "an answer's uid", UID_LENGTH, required=True)


def already_kept(session: Session, learner_id: int, uid: str) -> AnswerRow | None:
    """The answer with this uid, if the store has it (an answer written again); BadInput if another's."""
    row = session.scalars(select(AnswerRow).where(AnswerRow.uid == uid)).one_or_none()
    if row is not None and row.learner_id != learner_id:
        raise BadInput("this answer was kept for another learner: sign in again")
    return row


def record_answer(session: Session, learner_id: int, item_id: object, skill: object, *, correct: object,
                  credit: object, answer: Any, hints: object, set_id: object, now: datetime,
                  uid: object = None) -> AnswerRecord:
    """Keep one answer.  ``hints`` None: the rungs taken on the item since the previous answer.

    ``uid`` (default: a new one) names the answer: an answer whose uid the store holds already is
    not kept again, and the one kept is returned, so writing the same answer twice keeps it once.
    """
    answer_uid = checked_uid(uid)
    kept = already_kept(session, learner_id, answer_uid)
    if kept is not None:
        return as_record(kept)
    item, name = item_and_skill(item_id, skill)
    right, score = checked_credit(correct, credit)
    pending = pending_hints(session, learner_id, item)
    taken = session.scalar(select(func.count(func.distinct(HintRow.rung))).where(pending)) or 0
    if hints is not None and (isinstance(hints, bool) or not isinstance(hints, int) or hints < 0):
        raise BadInput(f"hints used is a whole number from 0 up, not {hints!r}")
    row = AnswerRow(uid=answer_uid, learner_id=learner_id, item_id=item, skill=name,
                    set_id=set_of(session, set_id, item), correct=right, credit=score,
                    hints=taken if hints is None else hints, answer=checked_answer(answer), answered_at=now)
    session.add(row)
    session.flush()
    session.execute(update(HintRow).where(pending).values(answer_id=row.id))
    return as_record(row)


def answers_of(session: Session, learner_id: int) -> list[AnswerRecord]:
    """Every answer of the learner, oldest first."""
    query = select(AnswerRow).where(AnswerRow.learner_id == learner_id).order_by(AnswerRow.answered_at,
                                                                                 AnswerRow.id)
    return [as_record(row) for row in session.scalars(query)]
