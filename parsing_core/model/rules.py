"""Every system's moves once more, for a whole batch at once: preconditions as boolean arrays.

:mod:`parsing_core.systems` states each move for one configuration (``why_not``, ``effect``,
``arc``).  A :class:`~.state.BatchState` holds the configurations of a batch as arrays, and
the same moves are written here as array operations: a precondition is a boolean per
configuration, an effect changes the rows it is applied to, an arc is a (head, dependent)
pair of arrays (−1 where the move builds none).  The tests in ``tests/test_batched_state.py``
hold these rules to the one-configuration ones, configuration by configuration.

The reading functions ``s(k)`` (the k-th stack token from the top), ``b(k)`` (the k-th buffer
token from the front) and ``has_head(t)`` return −1 (or False) where there is no such token.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from ..errors import ParsingCoreError
from ..systems import TransitionSystem

Array = Any  # a numpy array (numpy's stubs type most array expressions as Any)


class Reading(Protocol):
    """What the preconditions and arcs read of a batch: a :class:`.state.BatchState`, or a
    :class:`.tensor_state.TensorState` (these rules use array operators only, so torch tensors do)."""

    size: int
    rows: Array
    stack: Array
    queue: Array
    sl: Array
    ql: Array

    def s(self, k: int) -> Array: ...
    def b(self, k: int) -> Array: ...
    def has_head(self, tokens: Array, rows: Array | None = None) -> Array: ...


class BatchState(Reading, Protocol):
    """What the effects also change of a :class:`.state.BatchState` (the module docstring there)."""

    def push(self, rows: Array, tokens: Array) -> None: ...
    def attach(self, rows: Array, heads: Array, deps: Array, labels: Array) -> None: ...
Legal = Callable[[Reading], Array]  # (B,) bool
Effect = Callable[[BatchState, Array, Array], None]  # rows, their labels (ids, −1 for none)
ArcOf = Callable[[Reading], tuple[Array, Array]]  # (B,) heads, (B,) dependents; −1: none
NONE = -1


@dataclass(frozen=True)
class Rule:
    """One move kind of one system, for a batch."""

    legal: Legal
    effect: Effect
    arc: ArcOf | None = None  # None: the move never builds an arc


def no_arc(st: Reading) -> tuple[Array, Array]:
    none = np.full(st.size, NONE)
    return none, none


# -- preconditions -------------------------------------------------------------------------
def can_shift(st: Reading) -> Array:
    """SH: the buffer is not empty and its front is not ROOT."""
    return (st.ql > 0) & (st.b(0) != 0)


def two_on_stack(st: Reading) -> Array:
    return st.sl >= 2


def standard_left_legal(st: Reading) -> Array:
    """arc-standard LA: two tokens on the stack, s1 ≠ ROOT."""
    return (st.sl >= 2) & (st.s(1) != 0)


def single_root_right_legal(st: Reading) -> Array:
    """single-root arc-standard RA: ROOT takes its dependent only when the buffer is empty."""
    return (st.sl >= 2) & ~((st.s(1) == 0) & (st.ql > 0))


def buffer_left_legal(st: Reading) -> Array:
    """arc-hybrid LA: s0 and b exist, s0 ≠ ROOT."""
    return (st.sl > 0) & (st.ql > 0) & (st.s(0) != 0)


def eager_left_legal(st: Reading) -> Array:
    """arc-eager LA: as arc-hybrid's, and s0 has no head yet."""
    return buffer_left_legal(st) & ~st.has_head(st.s(0))


def eager_right_legal(st: Reading) -> Array:
    return (st.sl > 0) & (st.ql > 0)


def eager_reduce_legal(st: Reading) -> Array:
    """arc-eager RE: s0 is a word with a head."""
    s0 = st.s(0)
    return (st.sl > 0) & (s0 != 0) & st.has_head(s0)


def correct_reduce_legal(st: Reading) -> Array:
    """arc-eager-corrected RE: s0 is a word (with or without a head)."""
    return (st.sl > 0) & (st.s(0) != 0)


def hybrid_swap_legal(st: Reading) -> Array:
    """arc-hybrid SW: s0 < b, neither of them ROOT."""
    s0, b0 = st.s(0), st.b(0)
    return (st.sl > 0) & (st.ql > 0) & (s0 != 0) & (b0 != 0) & (s0 < b0)


def standard_swap_legal(st: Reading) -> Array:
    """arc-standard SW: 0 < s1 < s0."""
    s0, s1 = st.s(0), st.s(1)
    return (st.sl >= 2) & (s1 != 0) & (s1 < s0)


# -- effects (on the rows ``r`` only) ------------------------------------------------------
def shift(st: BatchState, r: Array, lab: Array) -> None:
    st.push(r, st.b(0)[r])
    st.ql[r] -= 1


def standard_left(st: BatchState, r: Array, lab: Array) -> None:
    """s0 → s1, s1 leaves the stack."""
    s0, s1 = st.s(0)[r], st.s(1)[r]
    st.attach(r, s0, s1, lab)
    st.stack[r, st.sl[r] - 2] = s0
    st.sl[r] -= 1


def standard_right(st: BatchState, r: Array, lab: Array) -> None:
    """s1 → s0, s0 leaves the stack."""
    st.attach(r, st.s(1)[r], st.s(0)[r], lab)
    st.sl[r] -= 1


def buffer_left(st: BatchState, r: Array, lab: Array) -> None:
    """b → s0, s0 leaves the stack."""
    st.attach(r, st.b(0)[r], st.s(0)[r], lab)
    st.sl[r] -= 1


def eager_right(st: BatchState, r: Array, lab: Array) -> None:
    """s0 → b, b goes on the stack."""
    st.attach(r, st.s(0)[r], st.b(0)[r], lab)
    shift(st, r, lab)


def reduce(st: BatchState, r: Array, lab: Array) -> None:
    st.sl[r] -= 1


def correct_reduce(st: BatchState, r: Array, lab: Array) -> None:
    """s1 → s0 if s0 has no head yet; s0 leaves the stack."""
    s0 = st.s(0)[r]
    headless = ~st.has_head(s0, r)
    st.attach(r[headless], st.s(1)[r][headless], s0[headless], lab[headless])
    st.sl[r] -= 1


def hybrid_swap(st: BatchState, r: Array, lab: Array) -> None:
    """(σ|s0, b|β) ⇒ (σ, b|s0|β)."""
    s0, b0, ql = st.s(0)[r], st.b(0)[r], st.ql[r]
    st.queue[r, ql - 1] = s0
    st.queue[r, ql] = b0
    st.ql[r] += 1
    st.sl[r] -= 1


def standard_swap(st: BatchState, r: Array, lab: Array) -> None:
    """(σ|s1|s0, β) ⇒ (σ|s0, s1|β)."""
    s0, s1 = st.s(0)[r], st.s(1)[r]
    st.stack[r, st.sl[r] - 2] = s0
    st.sl[r] -= 1
    st.queue[r, st.ql[r]] = s1
    st.ql[r] += 1


# -- arcs ------------------------------------------------------------------------------------
def standard_left_arc(st: Reading) -> tuple[Array, Array]:
    return st.s(0), st.s(1)


def standard_right_arc(st: Reading) -> tuple[Array, Array]:
    return st.s(1), st.s(0)


def buffer_left_arc(st: Reading) -> tuple[Array, Array]:
    return st.b(0), st.s(0)


def eager_right_arc(st: Reading) -> tuple[Array, Array]:
    return st.s(0), st.b(0)


def correct_reduce_arc(st: Reading) -> tuple[Array, Array]:
    s0 = st.s(0)
    headless = ~st.has_head(s0)
    return np.where(headless, st.s(1), NONE), np.where(headless, s0, NONE)


SH = Rule(can_shift, shift)
STANDARD = {"SH": SH, "LA": Rule(standard_left_legal, standard_left, standard_left_arc),
            "RA": Rule(two_on_stack, standard_right, standard_right_arc)}
EAGER = {"SH": SH, "LA": Rule(eager_left_legal, buffer_left, buffer_left_arc),
         "RA": Rule(eager_right_legal, eager_right, eager_right_arc),
         "RE": Rule(eager_reduce_legal, reduce)}
HYBRID = {"SH": SH, "LA": Rule(buffer_left_legal, buffer_left, buffer_left_arc), "RA": STANDARD["RA"]}
RULES: dict[str, dict[str, Rule]] = {
    "arc-standard": STANDARD,
    "arc-eager": EAGER,
    "arc-eager-corrected": {**EAGER, "RE": Rule(correct_reduce_legal, correct_reduce, correct_reduce_arc)},
    "arc-hybrid": HYBRID,
    "arc-hybrid-swap": {**HYBRID, "SW": Rule(hybrid_swap_legal, hybrid_swap)},
    "arc-standard-swap": {**STANDARD, "SW": Rule(standard_swap_legal, standard_swap)},
}


def rules_of(system: TransitionSystem) -> tuple[Rule, ...]:
    """The rules of ``system``'s kinds, in its display order (single-root arc-standard included)."""
    table = RULES.get(system.name)
    if table is None:
        raise ParsingCoreError(f"no batched rules for the system {system.name!r}")
    if getattr(system, "single_root", False):
        table = {**table, "RA": Rule(single_root_right_legal, standard_right, standard_right_arc)}
    return tuple(table[k] for k in system.kinds)


def is_terminal(system: TransitionSystem, st: Reading) -> Array:
    """The final configurations (arc-eager: an empty buffer; else everything reduced to ROOT)."""
    if system.name == "arc-eager":
        return st.ql == 0
    if system.root_last:
        return (st.sl == 0) & (st.ql == 1) & (st.b(0) == 0)
    return (st.ql == 0) & (st.sl == 1) & (st.s(0) == 0)
