"""The texts the systems, oracles, lessons and glossary come from: a key, a short name, a full citation.

A lesson names the texts it draws on (``references = ["may-2017"]``); a step's footnote cites
one by its short name and a place in it ("May's lecture, slide 14"), and the end of a lesson
gives each in full, so that a learner can go and read it.  In the code's docstrings and tests
the same five texts are "the seeds", numbered 000 to 004 (``seed 000's Table 1``), the numbers
older lesson files used (``seeds = ["000"]``, still read).  A Glossary entry names the text its
idea comes from the same way (``reference = "may-2017"``).

>>> cite("nederhof-2021").short
'Nederhof 2021'
>>> [r.key for r in references_of(("003", "de-lhoneux-2017"))]
['may-2017', 'de-lhoneux-2017']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import ParsingCoreError


@dataclass(frozen=True)
class Reference:
    key: str        # as a lesson file names it
    number: str     # the seed number the code's docstrings use (000–004)
    short: str      # in a step's footnote
    citation: str   # in full: at the end of a lesson, and on the manual's References page


REFERENCES: dict[str, Reference] = {r.key: r for r in (
    Reference("arc-eager-notes", "000", "the arc-eager oracle notes",
              "Course notes on the arc-eager parser and its static and dynamic oracles (after Goldberg "
              "and Nivre, “Training Deterministic Parsers with Non-Deterministic Oracles”, TACL 2013), "
              "revised May–July 2021"),
    Reference("arc-standard-thesis", "001", "the arc-standard oracle thesis",
              "“Dynamic Oracle for the Arc-Standard Parser: from Approximation to Reinforcement "
              "Learning”, MSc thesis in Computer Engineering, Università degli Studi di Padova "
              "(supervisor Giorgio Satta)"),
    Reference("de-lhoneux-2017", "002", "de Lhoneux's lecture",
              "Miryam de Lhoneux, “Advanced Lecture on Dependency Parsing: Dynamic Oracles and Online "
              "Reordering”, Uppsala University, 14 December 2017"),
    Reference("may-2017", "003", "May's lecture",
              "Jonathan May, “Dependency Trees and Shift-Reduce Dependency Parsing”, lecture 9 of "
              "USC CSCI 544 Applied Natural Language Processing, 20 September 2017"),
    Reference("nederhof-2021", "004", "Nederhof 2021",
              "Mark-Jan Nederhof, “Calculating the optimal step of arc-eager parsing for "
              "non-projective trees”, 2021"),
)}
BY_NUMBER = {r.number: r for r in REFERENCES.values()}


class UnknownReference(ParsingCoreError):
    """A lesson or a Glossary entry names a text that is not among :data:`REFERENCES`."""


def cite(key: str) -> Reference:
    """The reference named by its key (or by its seed number, as older files do)."""
    found = REFERENCES.get(key) or BY_NUMBER.get(key)
    if found is None:
        raise UnknownReference(f"unknown reference {key!r}; choose among {', '.join(REFERENCES)}")
    return found


def references_of(keys: Iterable[str]) -> tuple[Reference, ...]:
    """The references named by ``keys``, in that order, each once."""
    return tuple(dict.fromkeys(cite(k) for k in keys))
