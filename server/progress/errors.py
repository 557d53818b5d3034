"""What can go wrong with the progress store, each as one error type with a message for a person.

Every error here is a :class:`ProgressError`, itself a library error
(:class:`parsing_core.errors.ParsingCoreError`), so a page catches one type and shows ``str(error)``.
One kind matters more than the others: :class:`StoreUnavailable` says the database cannot be
opened or written, and a page that catches it keeps working while saying that progress is not
being saved.
"""

from __future__ import annotations

from parsing_core.errors import ParsingCoreError


class ProgressError(ParsingCoreError):
    """Base class of the progress store's errors; ``str(e)`` is a message for the learner."""


class StoreUnavailable(ProgressError):
    """The database cannot be opened, migrated or written: progress is not being saved."""


class BadInput(ProgressError):
    """A value given to the store is not one it keeps (an empty nickname, credit above 1, ...)."""


class UnknownLearner(ProgressError):
    """No learner has this nickname (in this class)."""


class NicknameTaken(ProgressError):
    """Another learner already uses this nickname in this class; continuing as them needs the class code."""


class ClassCodeNeeded(ProgressError):
    """The nickname belongs to a learner in a class: continuing as them needs that class's code."""


class UnknownSet(ProgressError):
    """No exercise set has this id (a mistyped or truncated link)."""


class BadToken(ProgressError):
    """A sign-in link this store did not sign (changed by hand, from another server) or no longer honours."""
