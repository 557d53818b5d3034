"""What the network looks at in a configuration: a few key positions, as token numbers.

Kiperwasser & Goldberg (2016) showed that, once a BiLSTM has read the whole sentence, a
handful of positions is enough: the top three stack tokens and the first three buffer
tokens (optionally also the leftmost and rightmost dependents of s0 and s1 built so far).
The network scores moves from the BiLSTM vectors of those tokens; a missing position (a
short stack, an empty buffer) gets a learned "empty" vector instead.

>>> from parsing_core import Configuration
>>> c = Configuration((0, 1, 3), (4, 5), (None, 3, None, None, None), (None,) * 5)
>>> feature_tokens(c)                # s0 s1 s2 b0 b1 b2
[3, 1, 0, 4, 5, -1]
>>> feature_tokens(c, children=True)[6:]    # lc(s0) rc(s0) lc(s1) rc(s1): 3 has dependent 2
[2, 2, -1, -1]
"""

from __future__ import annotations

from ..configuration import Configuration
from ..systems import TransitionSystem
from ..transition import Transition

MISSING = -1
POSITIONS = ("s0", "s1", "s2", "b0", "b1", "b2")
CHILD_POSITIONS = ("lc(s0)", "rc(s0)", "lc(s1)", "rc(s1)")
#: The arc-building kinds; the label scorer has one row of label scores for each.
ARC_KINDS = ("LA", "RA")


def feature_names(children: bool = False) -> tuple[str, ...]:
    return POSITIONS + CHILD_POSITIONS if children else POSITIONS


def feature_tokens(c: Configuration, children: bool = False) -> list[int]:
    """The tokens at the key positions (``MISSING`` where there is none)."""
    stack, buffer = c.stack, c.buffer
    tokens = [stack[-i] if len(stack) >= i else MISSING for i in (1, 2, 3)]
    tokens += [buffer[i] if len(buffer) > i else MISSING for i in (0, 1, 2)]
    if children:
        tokens += outer_children(c, tokens[0]) + outer_children(c, tokens[1])
    return tokens


def outer_children(c: Configuration, head: int) -> list[int]:
    """[leftmost, rightmost] dependent of ``head`` in the arcs built so far."""
    if head == MISSING:
        return [MISSING, MISSING]
    deps = [d for d, h in enumerate(c.heads, start=1) if h == head]
    return [deps[0], deps[-1]] if deps else [MISSING, MISSING]


def feature_rows(c: Configuration, offset: int, empty_row: int, children: bool = False) -> list[int]:
    """Row numbers into a batch's table of token vectors (sentence ``offset`` + token).

    The same as :func:`feature_tokens`, written out: this runs once per configuration per step.
    """
    if children:
        return [empty_row if t == MISSING else offset + t for t in feature_tokens(c, children)]
    stack, buffer = c.stack, c.buffer
    ns, nb = len(stack), len(buffer)
    return [
        offset + stack[-1] if ns > 0 else empty_row, offset + stack[-2] if ns > 1 else empty_row,
        offset + stack[-3] if ns > 2 else empty_row, offset + buffer[0] if nb > 0 else empty_row,
        offset + buffer[1] if nb > 1 else empty_row, offset + buffer[2] if nb > 2 else empty_row,
    ]


class MoveSpace:
    """The moves a system's network scores: one output per transition kind, labels aside.

    >>> from parsing_core import get_system
    >>> space = MoveSpace(get_system("arc-eager"))
    >>> space.kinds, space.mask((Transition("SH"), Transition("RE")))
    (('SH', 'LA', 'RA', 'RE'), [True, False, False, True])
    """

    def __init__(self, system: TransitionSystem) -> None:
        self.kinds = system.kinds
        self.index = {k: i for i, k in enumerate(self.kinds)}
        self.moves = tuple(Transition(k) for k in self.kinds)

    def __len__(self) -> int:
        return len(self.kinds)

    def mask(self, legal: tuple[Transition, ...]) -> list[bool]:
        """True for each kind among the legal moves."""
        allowed = {t.kind for t in legal}
        return [k in allowed for k in self.kinds]
