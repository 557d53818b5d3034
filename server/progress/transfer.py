"""One learner's progress as a JSON document: taken home, brought to another computer, put back.

The document holds the facts (answers and hints, each with its uid) and the sets they belong to;
mastery and review are recomputed from them wherever the document is imported.  Importing adds
what the store does not have yet, by uid, so importing the same file twice changes nothing, and
a set the store lacks is created under its own id (its link keeps working).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from .answers import checked_answer, checked_credit, checked_item_id, checked_skill
from .errors import BadInput
from .learners import Learner, clean_text
from .schema import SET_ID_LENGTH, UID_LENGTH, AnswerRow, HintRow, SetRow, naive_utc
from .sets import as_set, checked_items, checked_spec, checked_title

FORMAT = "parsing-lab-progress"
VERSION = 1


def export(session: Session, learner: Learner) -> dict[str, Any]:
    """The learner's answers and hints (oldest first) and the sets they were given in, as plain JSON."""
    answers = list(session.scalars(select(AnswerRow).where(AnswerRow.learner_id == learner.id)
                                   .order_by(AnswerRow.answered_at, AnswerRow.id)))
    hints = list(session.scalars(select(HintRow).where(HintRow.learner_id == learner.id)
                                 .order_by(HintRow.taken_at, HintRow.id)))
    uid_of = {row.id: row.uid for row in answers}
    set_ids = sorted({a.set_id for a in answers if a.set_id} | {h.set_id for h in hints if h.set_id})
    return {
        "format": FORMAT, "version": VERSION,
        "learner": {"nickname": learner.nickname, "class_code": learner.class_code},
        "sets": [set_json(session.get_one(SetRow, set_id)) for set_id in set_ids],
        "answers": [{"uid": a.uid, "item_id": a.item_id, "skill": a.skill, "set_id": a.set_id,
                     "correct": a.correct, "credit": a.credit, "hints": a.hints, "answer": a.answer,
                     "answered_at": a.answered_at.isoformat()} for a in answers],
        "hints": [{"uid": h.uid, "item_id": h.item_id, "skill": h.skill, "set_id": h.set_id, "rung": h.rung,
                   "answer_uid": uid_of.get(h.answer_id) if h.answer_id else None,
                   "taken_at": h.taken_at.isoformat()} for h in hints],
    }


def set_json(row: SetRow) -> dict[str, Any]:
    found = as_set(row)
    return {"id": found.id, "title": found.title, "spec": found.spec, "items": list(found.items),
            "created_at": found.created.isoformat()}


def field(record: object, name: str, where: str, check: Callable[[Any], Any]) -> Any:
    """``record[name]`` passed through ``check``; BadInput naming the place when it is missing or wrong."""
    if not isinstance(record, dict) or name not in record:
        raise BadInput(f"this is not a progress file: {where} has no {name!r}")
    try:
        return check(record[name])
    except (BadInput, TypeError, ValueError) as error:
        raise BadInput(f"this progress file is damaged: {where}.{name}: {error}") from error


def a_time(value: object) -> datetime:
    if not isinstance(value, str):
        raise BadInput("a time is ISO text, like 2026-01-05T09:30:00")
    return naive_utc(datetime.fromisoformat(value))


def a_uid(value: object) -> str:
    return clean_text(value, "a uid", UID_LENGTH, required=True)


def a_set_id(value: object) -> str | None:
    return None if value is None else clean_text(value, "a set id", SET_ID_LENGTH, required=True)


def a_count(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadInput(f"expected a whole number from 0 up, not {value!r}")
    return value


def a_list(document: object, name: str) -> list[Any]:
    found = field(document, name, "the file", lambda v: v)
    if not isinstance(found, list):
        raise BadInput(f"this progress file is damaged: {name} is not a list")
    return found


def check_format(document: object) -> None:
    if field(document, "format", "the file", str) != FORMAT:
        raise BadInput(f"this is not a progress file of the lab (its format is not {FORMAT!r})")
    version = field(document, "version", "the file", a_count)
    if version != VERSION:
        raise BadInput(f"this progress file has version {version}; this lab reads version {VERSION}")


def import_sets(session: Session, document: object) -> None:
    for k, record in enumerate(a_list(document, "sets")):
        where = f"sets[{k}]"
        set_id = field(record, "id", where, a_set_id)
        if set_id is None or session.get(SetRow, set_id) is not None:
            continue
        session.add(SetRow(id=set_id, title=field(record, "title", where, checked_title),
                           spec=field(record, "spec", where, checked_spec),
                           items=field(record, "items", where, checked_items),
                           created_at=field(record, "created_at", where, a_time)))
    session.flush()


def owners(session: Session, row_type: type[AnswerRow] | type[HintRow], uids: list[str]) -> dict[str, int]:
    """The learner of each of ``uids`` the store already has."""
    query = select(row_type.uid, row_type.learner_id).where(row_type.uid.in_(uids))
    return {uid: learner_id for uid, learner_id in session.execute(query)}


def fresh(session: Session, learner_id: int, rows: list[AnswerRow] | list[HintRow]) -> list[Any]:
    """The rows the store lacks; BadInput when one of them already belongs to another learner."""
    if not rows:
        return []
    uids = [row.uid for row in rows]
    if len(set(uids)) != len(uids):
        raise BadInput("this progress file is damaged: it holds one answer or hint twice")
    known = owners(session, type(rows[0]), uids)
    if any(owner != learner_id for owner in known.values()):
        raise BadInput("this progress file belongs to another learner of this store: sign in as that learner")
    return [row for row in rows if row.uid not in known]


def answer_row(session: Session, learner_id: int, record: object, where: str) -> AnswerRow:
    item = field(record, "item_id", where, checked_item_id)
    skill = field(record, "skill", where, checked_skill)
    correct = field(record, "correct", where, lambda v: checked_credit(v, None)[0])
    credit = field(record, "credit", where, lambda v: checked_credit(correct, v)[1])
    return AnswerRow(uid=field(record, "uid", where, a_uid), learner_id=learner_id, item_id=item, skill=skill,
                     set_id=field(record, "set_id", where, lambda v: a_known_set(session, v)),
                     correct=correct, credit=credit, hints=field(record, "hints", where, a_count),
                     answer=field(record, "answer", where, checked_answer),
                     answered_at=field(record, "answered_at", where, a_time))


def hint_row(session: Session, learner_id: int, record: object, where: str) -> tuple[HintRow, str | None]:
    item = field(record, "item_id", where, checked_item_id)
    skill = field(record, "skill", where, checked_skill)
    row = HintRow(uid=field(record, "uid", where, a_uid), learner_id=learner_id, item_id=item, skill=skill,
                  set_id=field(record, "set_id", where, lambda v: a_known_set(session, v)),
                  rung=field(record, "rung", where, a_count),
                  taken_at=field(record, "taken_at", where, a_time))
    return row, field(record, "answer_uid", where, lambda v: None if v is None else a_uid(v))


def a_known_set(session: Session, value: object) -> str | None:
    set_id = a_set_id(value)
    if set_id is not None and session.get(SetRow, set_id) is None:
        raise BadInput(f"the set {set_id!r} is neither in the file nor in this store")
    return set_id


def import_answers(session: Session, learner_id: int, document: object) -> None:
    rows = [answer_row(session, learner_id, record, f"answers[{k}]")
            for k, record in enumerate(a_list(document, "answers"))]
    session.add_all(fresh(session, learner_id, rows))
    session.flush()


def import_hints(session: Session, learner_id: int, document: object) -> None:
    """Add the hints the store lacks, each tied to its answer (by the answer's uid)."""
    found = [hint_row(session, learner_id, record, f"hints[{k}]")
             for k, record in enumerate(a_list(document, "hints"))]
    answer_uids = [uid for _, uid in found if uid is not None]
    query = select(AnswerRow.uid, AnswerRow.id).where(AnswerRow.uid.in_(answer_uids))
    answer_ids = {uid: answer_id for uid, answer_id in session.execute(query)}
    for row, answer_uid in found:
        if answer_uid is not None and answer_uid not in answer_ids:
            raise BadInput("this progress file is damaged: a hint belongs to an answer it does not hold")
        row.answer_id = answer_ids.get(answer_uid) if answer_uid else None
    session.add_all(fresh(session, learner_id, [row for row, _ in found]))


def import_document(session: Session, learner_id: int, document: object) -> None:
    """Add the file's sets, answers and hints to the learner's (all or nothing: one transaction)."""
    check_format(document)
    import_sets(session, document)
    import_answers(session, learner_id, document)
    import_hints(session, learner_id, document)
