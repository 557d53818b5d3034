"""Transitions are values: ``Transition("LA", "nsubj")`` prints as ``LA:nsubj`` and parses back.

Kinds, in the order the UI lists them:

=====  ===========  ==========================================================
kind   name         effect (varies slightly by system; see each system's module)
=====  ===========  ==========================================================
SH     SHIFT        move the buffer front onto the stack
LA     LEFT-ARC     attach a token to the token on its right, pop the dependent
RA     RIGHT-ARC    attach a token to the token on its left
RE     REDUCE       pop the stack top (arc-eager)
SW     SWAP         put a token back into the buffer (online reordering)
=====  ===========  ==========================================================

>>> t = Transition.parse("LA:nsubj")
>>> t, str(t), t.bare
(Transition('LA:nsubj'), 'LA:nsubj', Transition('LA'))
>>> Transition.parse("shift")
Transition('SH')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import total_ordering

from .errors import ParsingCoreError

KINDS: tuple[str, ...] = ("SH", "LA", "RA", "RE", "SW")
NAMES = {"SH": "SHIFT", "LA": "LEFT-ARC", "RA": "RIGHT-ARC", "RE": "REDUCE", "SW": "SWAP"}
_ALIASES = {name.replace("-", "").lower(): kind for kind, name in NAMES.items()}
_ALIASES.update({"leftarc": "LA", "rightarc": "RA", "l": "LA", "r": "RA", "s": "SH"})


@total_ordering
@dataclass(frozen=True)
class Transition:
    """A move: a kind (SH, LA, RA, RE, SW) and, for arc-building moves, an optional label.

    Transitions sort by kind, then the unlabelled before the labelled, then by label:

    >>> sorted([Transition("RE", "root"), Transition("RE"), Transition("LA", "obj")])
    [Transition('LA:obj'), Transition('RE'), Transition('RE:root')]
    """

    kind: str
    label: str | None = None

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Transition):
            return NotImplemented
        return (self.kind, self.label is not None, self.label or "") < (
            other.kind, other.label is not None, other.label or "")

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ParsingCoreError(f"unknown transition {self.kind!r}; expected one of {', '.join(KINDS)}")

    @classmethod
    def parse(cls, text: str) -> Transition:
        """Read ``"SH"``, ``"LA:nsubj"``, ``"left-arc"``, ``"RIGHT-ARC:obj"``..."""
        head, _, label = text.strip().partition(":")
        key = head.strip().replace("-", "").replace("_", "").lower()
        kind = head.strip().upper() if head.strip().upper() in KINDS else _ALIASES.get(key)
        if kind is None:
            raise ParsingCoreError(f"cannot read transition {text!r}; try SH, LA, RA, RE, SW or LA:label")
        return cls(kind, label.strip() or None)

    @property
    def bare(self) -> Transition:
        """The same move without its label."""
        return Transition(self.kind)

    @property
    def name(self) -> str:
        return NAMES[self.kind]

    def with_label(self, label: str | None) -> Transition:
        return Transition(self.kind, label)

    def __str__(self) -> str:
        return self.kind if self.label is None else f"{self.kind}:{self.label}"

    def __repr__(self) -> str:
        return f"Transition({str(self)!r})"


SH, LA, RA, RE, SW = (Transition(k) for k in KINDS)


def parse_sequence(text: str) -> tuple[Transition, ...]:
    """``"SH LA RA:obj"`` → a tuple of transitions (spaces or commas between moves)."""
    return tuple(Transition.parse(t) for t in text.replace(",", " ").split())
