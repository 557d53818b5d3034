"""The tables of the progress store, as SQLAlchemy 2 typed models.

Answers and hints are *facts*, only ever added (a hint is later tied to the answer it helped);
mastery, the review boxes and every summary are recomputed from them
(:mod:`server.progress.learning`).  So two writers at once can only add rows, never
overwrite each other's, and an export is just the facts.

======== ===================================================================================
learners a nickname (as typed, and folded for comparison) and a class code ("" for none)
answers  one answer to one item: skill, set (if any), correct, credit, hints used, the answer
hints    one rung of an item's hint ladder, taken; ``answer_id`` once an answer used it
sets     a teacher's composed set: title, spec (kinds, systems, level, count, seed), item ids
server_  a server's own secrets by name: the key that signs sign-in links (:mod:`.tokens`),
secrets  made once, shared by every process that opens the database
======== ===================================================================================

Only portable types (integers, short strings, text, floats, booleans, timestamps): the same
migrations run on SQLite and PostgreSQL.  Times are naive UTC; JSON is stored as canonical text
(:class:`JsonText`), which both databases compare and group like any string.  Constraint names
follow one convention, so later migrations can name what they alter.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Dialect,
    Float,
    ForeignKey,
    Index,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NICKNAME_LENGTH = 40
CLASS_CODE_LENGTH = 40
ID_LENGTH = 80  # item ids and skill names
SET_ID_LENGTH = 16
UID_LENGTH = 32  # a uuid4 in hex: an answer's or a hint's identity across databases
TITLE_LENGTH = 120

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def naive_utc(moment: datetime) -> datetime:
    """The store keeps naive UTC times (portable across databases); an aware time is converted.

    >>> from datetime import timedelta, timezone
    >>> naive_utc(datetime(2026, 1, 5, 10, 30, tzinfo=timezone(timedelta(hours=1))))
    datetime.datetime(2026, 1, 5, 9, 30)
    """
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment


def canonical_json(value: Any) -> str:
    """One text per JSON value (keys sorted, no spaces), so equal answers are equal strings.

    >>> canonical_json({"move": "SH", "at": [1, 2]})
    '{"at":[1,2],"move":"SH"}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


class JsonText(TypeDecorator[Any]):
    """A JSON value kept as canonical text (portable, and groupable in SQL, unlike PostgreSQL's json)."""

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> str:
        return canonical_json(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        return json.loads(value)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class LearnerRow(Base):
    """A learner: a nickname, unique within a class (``class_code`` "" is the class of no class)."""

    __tablename__ = "learners"
    __table_args__ = (UniqueConstraint("nickname_key", "class_code"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    nickname: Mapped[str] = mapped_column(String(NICKNAME_LENGTH))
    nickname_key: Mapped[str] = mapped_column(String(NICKNAME_LENGTH))  # casefolded: Ana = ana
    class_code: Mapped[str] = mapped_column(String(CLASS_CODE_LENGTH))
    created_at: Mapped[datetime]


class SetRow(Base):
    """A composed set of items, opened by its id (the link)."""

    __tablename__ = "sets"

    id: Mapped[str] = mapped_column(String(SET_ID_LENGTH), primary_key=True)
    title: Mapped[str] = mapped_column(String(TITLE_LENGTH))
    spec: Mapped[Any] = mapped_column(JsonText)
    items: Mapped[Any] = mapped_column(JsonText)  # the item ids, in the order learners see them
    created_at: Mapped[datetime]


class AnswerRow(Base):
    """One answer, as given: never updated."""

    __tablename__ = "answers"
    __table_args__ = (Index(None, "learner_id", "answered_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    uid: Mapped[str] = mapped_column(String(UID_LENGTH), unique=True)
    learner_id: Mapped[int] = mapped_column(ForeignKey("learners.id", ondelete="CASCADE"))
    item_id: Mapped[str] = mapped_column(String(ID_LENGTH))
    skill: Mapped[str] = mapped_column(String(ID_LENGTH))
    set_id: Mapped[str | None] = mapped_column(ForeignKey("sets.id"), index=True)
    correct: Mapped[bool]
    credit: Mapped[float] = mapped_column(Float)
    hints: Mapped[int]
    answer: Mapped[Any] = mapped_column(JsonText)
    answered_at: Mapped[datetime]


class HintRow(Base):
    """One rung of the hint ladder, taken by a learner on an item (tied to the answer it helped)."""

    __tablename__ = "hints"
    __table_args__ = (Index(None, "learner_id", "item_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    uid: Mapped[str] = mapped_column(String(UID_LENGTH), unique=True)
    learner_id: Mapped[int] = mapped_column(ForeignKey("learners.id", ondelete="CASCADE"))
    item_id: Mapped[str] = mapped_column(String(ID_LENGTH))
    skill: Mapped[str] = mapped_column(String(ID_LENGTH))
    set_id: Mapped[str | None] = mapped_column(ForeignKey("sets.id"))
    rung: Mapped[int]
    answer_id: Mapped[int | None] = mapped_column(ForeignKey("answers.id", ondelete="SET NULL"))
    taken_at: Mapped[datetime]


class SecretRow(Base):
    """A server secret (random text, made once): e.g. the key that signs learners' sign-in links."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime]
