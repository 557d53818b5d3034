"""A trained parser's opinion of one move: :class:`MoveScore`, what :class:`.scoring.Scorer`
returns for each move kind of a configuration.

A value without torch, so that the pages which show or pass along a model's scores need not
import torch before a learner picks a model.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..transition import Transition


@dataclass(frozen=True)
class MoveScore:
    """The parser's opinion of one move kind in one configuration."""

    move: str  # the kind: "SH", "LA", "RA", "RE" or "SW"
    score: float  # the network's raw score
    legal: bool
    probability: float | None  # softmax over the legal moves; None for an illegal move
    label: str | None  # the best label for an arc move of a labelled parser, else None
    chosen: bool  # the move the parser would take here

    @property
    def transition(self) -> Transition:
        """The move as the parser would play it (with its label, if any)."""
        return Transition(self.move, self.label)
