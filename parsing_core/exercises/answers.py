"""How an answer is given and kept: the input a page shows for a kind, and answers as JSON.

Every kind says how its answer is given with an :class:`AnswerInput` (which widget, on the board
or beside it, what the picture may show while the question is open), and turns its answers into
JSON and back (``to_json`` / ``from_json``), so a page never asks a kind its name: it shows the
widget named, keeps ``to_json(answer)`` and later reads it back to say it in words.

The pieces here are the JSON of the values answers are made of:

>>> from ..transition import Transition
>>> moves_json((Transition("SH"), Transition("LA", "nsubj")))
['SH', 'LA:nsubj']
>>> moves_of(['SH', 'LA:nsubj']) == (Transition("SH"), Transition("LA", "nsubj"))
True
>>> arcs_json(frozenset({(2, 1), (0, 2)})), arcs_of([[0, 2], [2, 1]]) == frozenset({(2, 1), (0, 2)})
([[0, 2], [2, 1]], True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..transition import Transition
from ..trees import Arc

#: The widgets an answer is given with.  On the board: ``move`` (one move, graded as it is
#: played), ``derivation`` (move after move, each graded), ``walk`` (walk to a configuration, then
#: name a move there).  Beside it: ``table-row``, ``cost``, ``moves`` (tick moves), ``arc-pairs``,
#: ``systems`` (tick systems), ``mistake``, ``step-counts``, ``prediction``.
WIDGETS = ("move", "derivation", "walk", "table-row", "cost", "moves", "arc-pairs", "systems", "mistake",
           "step-counts", "prediction")
BOARD_WIDGETS = ("move", "derivation", "walk")


@dataclass(frozen=True)
class AnswerInput:
    """How a learner answers a kind's question, and what a page may show while it is open.

    ``widget`` is one of :data:`WIDGETS`; ``costs_tell``: the oracle's costs at the configuration
    shown would give the answer away (a page hides them until it is answered); ``about_tree``: the
    question is asked of the gold tree itself, whatever the system (its title names no system, and
    the tree is drawn plainly, no crossing marked, until it is answered); ``marks``: how the gold
    arcs its feedback names are drawn, ``"lost"`` (dashed: a move made them unreachable),
    ``"crossing"`` (marked ✕) or ``""`` (not drawn).
    """

    widget: str
    costs_tell: bool = False
    about_tree: bool = False
    marks: str = "lost"

    def __post_init__(self) -> None:
        assert self.widget in WIDGETS and self.marks in ("lost", "crossing", ""), self

    @property
    def on_board(self) -> bool:
        """Is the answer given by playing moves on the board?"""
        return self.widget in BOARD_WIDGETS


def moves_json(moves: Iterable[Transition]) -> list[str]:
    """Moves as their texts, in order."""
    return [str(t) for t in moves]


def moves_of(texts: Iterable[str]) -> tuple[Transition, ...]:
    """Moves read back from their texts."""
    return tuple(Transition.parse(t) for t in texts)


def arcs_json(arcs: Iterable[Arc]) -> list[list[int]]:
    """Arcs as sorted ``[head, dependent]`` pairs."""
    return sorted([h, d] for h, d in arcs)


def arcs_of(pairs: Iterable[Any]) -> frozenset[Arc]:
    """Arcs read back from ``[head, dependent]`` pairs."""
    return frozenset((int(h), int(d)) for h, d in pairs)
