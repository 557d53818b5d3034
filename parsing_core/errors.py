"""Every error this library raises on purpose derives from :class:`ParsingCoreError`.

A user interface can therefore catch one type, show ``str(error)`` (a sentence written for
a person, naming the sentence and line where there is one) and never print a traceback.
"""

from __future__ import annotations


class ParsingCoreError(Exception):
    """Base class of the library's own errors; ``str(e)`` is a message for the user."""


class TreeError(ParsingCoreError):
    """A head list is not a dependency tree (cycle, head out of range, no root, ...)."""


class ConlluError(ParsingCoreError):
    """A CoNLL-U document could not be read; the message names the sentence and line."""


class IllegalTransition(ParsingCoreError):
    """A transition was applied where its precondition does not hold."""


class NotBuildable(ParsingCoreError):
    """The transition system cannot build this gold tree (e.g. non-projective, no swap)."""


class TooLongForSearch(ParsingCoreError):
    """The exhaustive-search oracle refuses sentences longer than it answers in about a second."""


class TreebankError(ParsingCoreError):
    """A treebank could not be found, downloaded or read."""
