"""The thesis's state features (Code B.6 ``get_binary_features``): a configuration seen through
its gold tree, without a single word.

The window is the top ``window`` stack tokens (bottom first, padded after them) followed by the
first ``window`` buffer tokens (padded after them): 2 × 10 slots in the thesis.  Each slot gets
seven values:

* a padding slot: seven −1;
* ROOT: five 1s, 0, and whether all its gold dependents are collected;
* a word: the slot index of its **gold head** in the window, as five bits (five −1 when the
  head is not in the window), then **lost** (1 when its gold head is in neither the stack nor
  the buffer: the arc can never be built) and **all dependents collected** (1 when no token in
  the stack or the buffer has it as gold head).

Then the last ``history`` moves, two bits each (LA = 10, RA = 01, SH = 11, none = 00), oldest
first and padded after them, and the legal moves in the order SH, LA, RA.  With the thesis's
sizes, 20 · 7 + 5 · 2 + 3 = 153 values.

"a b c" with gold heads a ← b ← c ← ROOT, after SH SH (stack ROOT a b, buffer c):

>>> import parsing_core as pc
>>> s = pc.Sentence.from_heads("a b c".split(), [2, 3, 0])
>>> system = pc.get_system("arc-standard")
>>> c = pc.replay(system, s, ["SH", "SH"]).final
>>> spec = FeatureSpec(history=5)                 # the thesis's features
>>> x = encode(spec, c, s.gold_heads, ("SH", "SH"), legal_mask(system, c))
>>> x.shape
(153,)
>>> slots = x[:140].reshape(20, 7).astype(int)
>>> slots[[0, 1, 2, 10]].tolist()                # ROOT a b (stack slots 0-2), c (buffer slot 10)
[[1, 1, 1, 1, 1, 0, 0], [0, 0, 0, 1, 0, 0, 1], [0, 1, 0, 1, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]]
>>> slots[3].tolist()                             # padding
[-1, -1, -1, -1, -1, -1, -1]
>>> x[140:].astype(int).tolist()                 # SH SH and three empty moves; SH LA RA legal
[1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1]

a's gold head b sits in slot 2 (00010), b's head c in slot 10 (01010), c's head ROOT in slot 0;
ROOT and b still wait for a dependent (c, a), a has collected all of its (none).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..configuration import Configuration
from ..systems import TransitionSystem
from ..transition import Transition

#: The actions, by index: the order of the legal mask (and of the network's outputs).
ACTIONS: tuple[str, ...] = ("SH", "LA", "RA")
MOVES: tuple[Transition, ...] = tuple(Transition(kind) for kind in ACTIONS)
INDEX: dict[str, int] = {kind: i for i, kind in enumerate(ACTIONS)}
ACTION_BITS: dict[str | None, tuple[int, int]] = {"LA": (1, 0), "RA": (0, 1), "SH": (1, 1), None: (0, 0)}
SLOT = 7  # values per slot: 5 position bits, lost, all dependents collected


@dataclass(frozen=True)
class FeatureSpec:
    """How much the features see: ``window`` stack slots and as many buffer slots, the last
    ``history`` moves.  The thesis: window 10, history 5 (153 values)."""

    window: int = 10
    history: int = 0

    @property
    def bits(self) -> int:
        """Bits of a slot index: 5 for 20 slots."""
        return max(1, (2 * self.window - 1).bit_length())

    @property
    def slot(self) -> int:
        return self.bits + 2

    @property
    def size(self) -> int:
        return 2 * self.window * self.slot + 2 * self.history + len(ACTIONS)


def legal_mask(system: TransitionSystem, c: Configuration) -> np.ndarray:
    """(3,) bool: which of SH, LA, RA are legal in ``c`` (none in a final configuration)."""
    legal = {t.kind for t in system.legal(c)}
    return np.array([kind in legal for kind in ACTIONS], dtype=bool)


def window_slots(spec: FeatureSpec, c: Configuration) -> list[int]:
    """The tokens of the window (−1 for padding): top stack tokens, bottom first, then the buffer."""
    w = spec.window
    stack, buffer = list(c.stack[-w:]), list(c.buffer[:w])
    return stack + [-1] * (w - len(stack)) + buffer + [-1] * (w - len(buffer))


def encode(spec: FeatureSpec, c: Configuration, heads: Sequence[int], recent: Sequence[str],
           legal: np.ndarray) -> np.ndarray:
    """The feature vector of ``c`` (float32, ``spec.size`` values): ``heads`` the gold heads of
    tokens 1..n, ``recent`` the moves made so far (the last ``spec.history`` are used), ``legal``
    the legal mask."""
    slots = window_slots(spec, c)
    position = {t: i for i, t in enumerate(slots) if t >= 0}
    alive = {*c.stack, *c.buffer}
    waiting = {heads[t - 1] for t in alive if t != 0}  # tokens with a gold dependent still to collect
    out = np.empty(spec.size, dtype=np.float32)
    bits, k = spec.bits, spec.slot
    for i, t in enumerate(slots):
        out[i * k:(i + 1) * k] = slot_values(t, heads, position, alive, waiting, bits)
    out[len(slots) * k:] = history_bits(recent, spec.history) + [float(v) for v in legal]
    return out


def slot_values(t: int, heads: Sequence[int], position: dict[int, int], alive: set[int],
                waiting: set[int], bits: int) -> list[float]:
    """The seven values of one slot (see the module docstring)."""
    if t < 0:
        return [-1.0] * (bits + 2)
    collected = float(t not in waiting)
    if t == 0:
        return [1.0] * bits + [0.0, collected]
    head = heads[t - 1]
    where = position.get(head)
    code = [-1.0] * bits if where is None else [float(b) for b in format(where, f"0{bits}b")]
    return code + [float(head not in alive), collected]


def history_bits(recent: Sequence[str], history: int) -> list[float]:
    """Two bits per move for the last ``history`` moves, oldest first, padded with 00."""
    if history == 0:
        return []
    last: list[str | None] = list(recent[-history:])
    last += [None] * (history - len(last))
    return [float(b) for kind in last for b in ACTION_BITS[kind]]


def remember(spec: FeatureSpec, recent: tuple[str, ...], kind: str) -> tuple[str, ...]:
    """The moves the features will need after one more: the last ``spec.history`` of them."""
    return (*recent, kind)[-spec.history:] if spec.history else ()
