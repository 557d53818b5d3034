"""The progress store: one object a page holds, every method one short transaction.

>>> import tempfile
>>> store = open_store(f"sqlite:///{tempfile.mkdtemp()}/progress.sqlite3")
>>> ana = store.register("Ana", class_code="ling101")
>>> str(ana), store.continue_as("ana", "LING101") == ana
('Ana (LING101)', True)
>>> store.record_hint(ana, "nm-3f2a", "next-move/arc-eager", rung=1)
>>> store.record_answer(ana, "nm-3f2a", "next-move/arc-eager", correct=True, answer="LA").hints
1
>>> [(p.skill, p.answered, p.streak, p.state) for p in store.progress(ana)]
[('next-move/arc-eager', 1, 0, 'learning')]
>>> store.practice_set("no-such")
Traceback (most recent call last):
...
server.progress.errors.UnknownSet: no exercise set has the id 'no-such': the link may be cut short or \
mistyped; ask for it again
>>> store.close()
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from . import answers, learners, sets, tokens, transfer
from .answers import AnswerRecord
from .database import connect, default_url, migrate, retrying
from .errors import BadToken
from .learners import Learner
from .learning import ReviewItem, SkillProgress, due, progress_by_skill, reviews, skill_progress
from .schema import LearnerRow, naive_utc
from .sets import ItemResult, PracticeSet

T = TypeVar("T")
Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def open_store(url: str | None = None, clock: Clock = utc_now) -> Store:
    """The store at ``url`` (default: ``PARSING_DATABASE_URL``, else the user's SQLite file), migrated.

    Raises :class:`StoreUnavailable` when the database cannot be opened or brought up to date.
    """
    engine = connect(url or default_url())
    try:
        migrate(engine)
    except BaseException:
        engine.dispose()
        raise
    return Store(engine, clock)


def writer(session: Session, learner: Learner) -> int:
    """The id of ``learner``, whose row is locked for the transaction: one learner's writes take turns."""
    return learners.existing(session, learner, lock=True).id


class Store:
    """Learners, their answers and hints, sets, and what follows from them (mastery, review, results).

    A store holds nothing but its engine (a pool of connections) and its clock, so one store per
    process can serve every session and thread of an app.  Each method is one transaction, tried
    again while the database is busy; :class:`StoreUnavailable` when it cannot be used at all.
    """

    def __init__(self, engine: Engine, clock: Clock = utc_now) -> None:
        self.engine = engine
        self.clock = clock

    @property
    def url(self) -> str:
        """The database's URL, with any password hidden."""
        return self.engine.url.render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    def now(self) -> datetime:
        return naive_utc(self.clock())

    def _read(self, work: Callable[[Session], T]) -> T:
        return retrying(self.engine, False, work)

    def _write(self, work: Callable[[Session], T]) -> T:
        return retrying(self.engine, True, work)

    # -- learners ---------------------------------------------------------------------------------

    def register(self, nickname: str, class_code: str = "") -> Learner:
        """A new learner (:class:`NicknameTaken` if the class has one by that nickname already)."""
        return self._write(lambda s: learners.register(s, nickname, class_code, self.now()))

    def continue_as(self, nickname: str, class_code: str = "") -> Learner:
        """An existing learner; a class's learner only with the class code."""
        return self._read(lambda s: learners.continue_as(s, nickname, class_code))

    def sign_in_token(self, learner: Learner) -> str:
        """A token that signs ``learner`` in again, for a page's address (:mod:`.tokens`)."""
        def work(s: Session) -> str:
            learners.existing(s, learner)
            key = tokens.signing_key(s, self.now(), make=True)
            assert key is not None
            return tokens.sign(key, learner, self.now().date())
        return self._write(work)

    def learner_of_token(self, token: object) -> Learner:
        """The learner a token signs in; :class:`BadToken` says why not (forged, too old, no such learner)."""
        number = tokens.learner_number(token)
        assert isinstance(token, str)

        def work(s: Session) -> Learner:
            key, row = tokens.signing_key(s, self.now(), make=False), s.get(LearnerRow, number)
            if key is None:  # this store never signed a token
                raise BadToken(tokens.FORGED)
            if row is None:
                raise BadToken("this sign-in link names no learner of this lab's progress (it may have "
                               "been reset): sign in again")
            learner = learners.as_learner(row)
            problem = tokens.check(key, token, learner, self.now().date())
            if problem:
                raise BadToken(problem)
            return learner
        return self._read(work)

    # -- answers and hints ------------------------------------------------------------------------

    def record_hint(self, learner: Learner, item_id: str, skill: str, rung: int,
                    set_id: str | None = None) -> None:
        """Note one rung of the hint ladder taken on an item (it counts for the next answer to it)."""
        def work(s: Session) -> None:
            answers.record_hint(s, writer(s, learner), item_id, skill, rung, set_id, self.now())
        self._write(work)

    def record_answer(self, learner: Learner, item_id: str, skill: str, *, correct: bool, answer: Any = None,
                      credit: float | None = None, hints: int | None = None, set_id: str | None = None,
                      uid: str | None = None, at: datetime | None = None) -> AnswerRecord:
        """Keep one answer; ``hints`` defaults to the rungs taken on the item since its previous answer.

        ``uid`` names the answer (a new one by default): written again, it is kept once.  ``at``:
        when it was given, if not now (an answer that waited while the database was away).
        """
        moment = self.now() if at is None else naive_utc(at)

        def work(s: Session) -> AnswerRecord:
            return answers.record_answer(s, writer(s, learner), item_id, skill, correct=correct,
                                         credit=credit, answer=answer, hints=hints, set_id=set_id, now=moment,
                                         uid=uid)
        return self._write(work)

    def answers(self, learner: Learner) -> list[AnswerRecord]:
        """Every answer of the learner, oldest first."""
        return self._read(lambda s: answers.answers_of(s, learners.existing(s, learner).id))

    # -- what follows from the answers ------------------------------------------------------------

    def progress(self, learner: Learner, skills: Sequence[str] = ()) -> list[SkillProgress]:
        """Each skill the learner has answered, by name: answers, right ones, runs, boxes, mastered.

        With ``skills`` (a chart's rows): exactly those, in that order, ``new`` where never tried.
        """
        found = progress_by_skill([a.attempt for a in self.answers(learner)])
        if not skills:
            return found
        by_name = {p.skill: p for p in found}
        return [by_name.get(skill) or skill_progress(skill, []) for skill in skills]

    def skill(self, learner: Learner, skill: str) -> SkillProgress:
        """The learner's progress in one skill (``new``, with nothing answered, if never tried)."""
        return skill_progress(skill, [a.attempt for a in self.answers(learner) if a.skill == skill])

    def reviews(self, learner: Learner) -> list[ReviewItem]:
        """Every item the learner answered, with its Leitner box and when it is due, most urgent first."""
        return reviews([a.attempt for a in self.answers(learner)])

    def due_reviews(self, learner: Learner, now: datetime | None = None) -> list[ReviewItem]:
        """The items due for review now (or at ``now``), most urgent first."""
        moment = self.now() if now is None else naive_utc(now)
        return due([a.attempt for a in self.answers(learner)], moment)

    # -- sets -------------------------------------------------------------------------------------

    def create_set(self, title: str, spec: dict[str, Any],
                   items: list[str] | tuple[str, ...] = ()) -> PracticeSet:
        """A new set with a fresh short id (its link): the spec that builds its items, and their ids."""
        return self._write(lambda s: sets.create(s, title, spec, items, self.now()))

    def practice_set(self, set_id: str) -> PracticeSet:
        """The set with this id; :class:`UnknownSet` when the link names none."""
        return self._read(lambda s: sets.as_set(sets.find(s, set_id)))

    def set_results(self, set_id: str) -> list[ItemResult]:
        """Per item of the set: who answered, who solved it and with how many hints, the commonest error."""
        return self._read(lambda s: sets.results(s, set_id))

    # -- moving progress --------------------------------------------------------------------------

    def export_progress(self, learner: Learner) -> dict[str, Any]:
        """The learner's progress as a JSON-ready document (``json.dumps`` it to save a file)."""
        def work(s: Session) -> dict[str, Any]:
            learners.existing(s, learner)
            return transfer.export(s, learner)
        return self._read(work)

    def import_progress(self, learner: Learner, document: object) -> None:
        """Add a document's progress to the learner's (what the store has already is skipped)."""
        self._write(lambda s: transfer.import_document(s, writer(s, learner), document))
