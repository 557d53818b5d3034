"""Progress that lasts: learners, their answers and hints, mastery, review and a teacher's sets.

Pure library (no Streamlit).  :func:`open_store` opens the database that ``PARSING_DATABASE_URL``
names — by default a SQLite file in the user's data folder, created on first use — and brings its
schema up to date with the Alembic migrations in ``migrations/``.  Every method of the
:class:`Store` is one short transaction; answers and hints are only ever added, so two tabs of one
learner, or a class at once, never lose an answer.

Vocabulary
----------
learner
    A nickname and an optional class code; no password, no personal data (:mod:`.learners`).
sign-in token
    A short text the server signs, naming a learner, that a page keeps in its address so that a
    reload or a link keeps the learner signed in (:mod:`.tokens`); a forged or stale one is refused.
item, skill
    An exercise item is named by a short stable id; its skill is its kind × its system (e.g.
    ``"next-move/arc-eager"``).  The store keeps both as given and knows nothing else of exercises.
answer, hint
    The facts (:mod:`.answers`): right or not, partial credit, the answer as JSON, hints taken.
mastery, review
    Computed from the answers (:mod:`.learning`): :data:`MASTERY_RUN` right first answers in a row,
    without hints, master a skill; a Leitner queue of five boxes brings missed items back sooner;
    a right answer to an item before it is due again (a retry) is kept but counts for neither.
set
    A teacher's composed set, opened by its id; its results per item (:mod:`.sets`).
pending answer
    An answer the database could not take when it was given (:mod:`.pending`): kept by the page as
    plain data, written later by :func:`flush`, exactly once (it carries its uid).

Errors are :class:`ProgressError`; :class:`StoreUnavailable` means progress is not being saved.
The same migrations and code serve SQLite and PostgreSQL (:mod:`.database`).
"""

from parsing_core.settings import data_folder

from .answers import AnswerRecord
from .database import URL_VARIABLE, default_url
from .errors import (
    BadInput,
    BadToken,
    ClassCodeNeeded,
    NicknameTaken,
    ProgressError,
    StoreUnavailable,
    UnknownLearner,
    UnknownSet,
)
from .learners import Learner
from .learning import BOX_WAITS, MASTERY_RUN, Attempt, ReviewItem, SkillProgress
from .pending import Flushed, PendingAnswer, flush
from .sets import ItemResult, PracticeSet
from .store import Store, open_store

__all__ = [
    "AnswerRecord", "Attempt", "BOX_WAITS", "BadInput", "BadToken", "ClassCodeNeeded",
    "Flushed", "ItemResult", "Learner",
    "MASTERY_RUN", "NicknameTaken", "PendingAnswer", "PracticeSet", "ProgressError", "ReviewItem",
    "SkillProgress", "Store", "StoreUnavailable", "URL_VARIABLE", "UnknownLearner", "UnknownSet",
    "data_folder", "default_url", "flush", "open_store",
]
