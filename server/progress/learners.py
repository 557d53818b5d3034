"""Who is practising: a nickname and, optionally, a class code — no password, no personal data.

A nickname is unique within a class, compared without regard to case (``Ana`` is ``ana``).  The
class code is what keeps a class's nicknames apart and lets a learner come back: continuing as a
learner of a class needs that class's code.  Learners without a class share one namespace ("" as
their class code), and anyone who types such a nickname continues as that learner; a page should
say so.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import exc, select
from sqlalchemy.orm import Session

from .errors import BadInput, ClassCodeNeeded, NicknameTaken, UnknownLearner
from .schema import CLASS_CODE_LENGTH, NICKNAME_LENGTH, LearnerRow


@dataclass(frozen=True)
class Learner:
    """A learner as the store knows them: an id, the nickname as first typed, the class code ("" for none)."""

    id: int
    nickname: str
    class_code: str = ""

    def __str__(self) -> str:
        return f"{self.nickname} ({self.class_code})" if self.class_code else self.nickname


def clean_text(value: object, what: str, longest: int, required: bool) -> str:
    """``value`` stripped, checked to be printable text of at most ``longest`` characters.

    >>> clean_text("  Ana ", "a nickname", 40, required=True)
    'Ana'
    >>> clean_text("a\\tb", "a nickname", 40, required=True)
    Traceback (most recent call last):
    ...
    server.progress.errors.BadInput: a nickname must be printable text without tabs or line breaks
    """
    if not isinstance(value, str):
        raise BadInput(f"{what} must be text, not {type(value).__name__}")
    text = unicodedata.normalize("NFC", value.strip())
    if required and not text:
        raise BadInput(f"{what} must not be empty")
    if len(text) > longest:
        raise BadInput(f"{what} has at most {longest} characters ({len(text)} given)")
    if not text.isprintable():
        raise BadInput(f"{what} must be printable text without tabs or line breaks")
    return text


def nickname_of(value: object) -> tuple[str, str]:
    """(nickname as typed, the key it is compared by)."""
    nickname = clean_text(value, "a nickname", NICKNAME_LENGTH, required=True)
    return nickname, nickname.casefold()


def class_code_of(value: object) -> str:
    """A class code, compared without regard to case: kept in upper case (``ling101`` is ``LING101``)."""
    code = clean_text("" if value is None else value, "a class code", CLASS_CODE_LENGTH, required=False)
    return code.upper()


def as_learner(row: LearnerRow) -> Learner:
    return Learner(row.id, row.nickname, row.class_code)


def find(session: Session, key: str, class_code: str) -> LearnerRow | None:
    query = select(LearnerRow).where(LearnerRow.nickname_key == key, LearnerRow.class_code == class_code)
    return session.scalars(query).one_or_none()


def register(session: Session, nickname: object, class_code: object, now: datetime) -> Learner:
    """A new learner; :class:`NicknameTaken` when the class already has one by that nickname."""
    shown, key = nickname_of(nickname)
    code = class_code_of(class_code)
    if find(session, key, code) is not None:
        raise taken(shown, code)
    row = LearnerRow(nickname=shown, nickname_key=key, class_code=code, created_at=now)
    session.add(row)
    try:
        session.flush()
    except exc.IntegrityError as error:  # another tab registered the same nickname in between
        raise taken(shown, code) from error
    return as_learner(row)


def taken(nickname: str, class_code: str) -> NicknameTaken:
    if class_code:
        return NicknameTaken(f"the nickname {nickname!r} is already used in class {class_code}: if it is "
                             f"yours, continue as {nickname!r} with the class code; if not, choose another "
                             f"nickname")
    return NicknameTaken(f"the nickname {nickname!r} is already used: if it is yours, continue as "
                         f"{nickname!r}; if not, choose another nickname")


def continue_as(session: Session, nickname: object, class_code: object) -> Learner:
    """The learner with this nickname in this class; a clear error when there is none."""
    shown, key = nickname_of(nickname)
    code = class_code_of(class_code)
    row = find(session, key, code)
    if row is not None:
        return as_learner(row)
    if not code and session.scalars(select(LearnerRow.id).where(LearnerRow.nickname_key == key)).first():
        raise ClassCodeNeeded(f"the nickname {shown!r} belongs to a class: give its class code to continue "
                              f"as {shown!r}")
    where = f" in class {code}" if code else ""
    raise UnknownLearner(f"no learner is called {shown!r}{where}: check the spelling and the class code, "
                         f"or start as a new learner")


def existing(session: Session, learner: Learner, lock: bool = False) -> LearnerRow:
    """The row of ``learner``; :class:`UnknownLearner` if the store has no such learner (another store's?).

    ``lock``: the row stays locked until the transaction ends, so one learner's writes take turns.
    A write that reads before it adds (an answer counts the hints not yet claimed) needs it on
    PostgreSQL, whose transactions see only what was committed before each statement: two answers
    to one item at once would both count its hint.  (SQLite's write transaction locks the whole
    file already; ``FOR UPDATE`` is not even sent there.)
    """
    row = session.get(LearnerRow, learner.id, with_for_update=lock)
    if row is None or row.nickname != learner.nickname or row.class_code != learner.class_code:
        raise UnknownLearner(f"this store has no learner {learner}: sign in again")
    return row
