"""What every transition system provides, and the building block it is made of: the move.

A :class:`Move` is one transition kind of one system: a precondition that either holds or
returns a short reason (shown next to a disabled button), an effect, and the arc it builds.
A :class:`TransitionSystem` is a named set of moves plus an initial and a terminal test.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass

from ..configuration import Configuration
from ..errors import IllegalTransition, NotBuildable, ParsingCoreError
from ..sentence import Sentence
from ..transition import KINDS, Transition
from ..trees import Arc, is_projective

Reason = str | None  # None = the precondition holds


@dataclass(frozen=True)
class Move:
    """One transition kind: ``why_not(c)`` (None when legal), ``effect(c, label)``, ``arc(c)``;
    and the same in the seeds' notation for people: ``rule`` (the effect as an inference,
    ``(σ, b|β) ⇒ (σ|b, β)``) and ``when`` (the precondition in words)."""

    kind: str
    why_not: Callable[[Configuration], Reason]
    effect: Callable[[Configuration, str | None], Configuration]
    arc: Callable[[Configuration], Arc | None] = lambda c: None
    rule: str = ""
    when: str = ""


class TransitionSystem:
    """A transition system: moves, initial configuration, terminal test.

    Subclasses set ``name``, ``moves`` and ``root_last`` and may override ``is_terminal``.
    """

    name: str = ""
    title: str = ""
    moves: tuple[Move, ...] = ()
    root_last: bool = False
    can_swap: bool = False

    def __init__(self, labelled: bool = False) -> None:
        self.labelled = labelled
        self._by_kind = {m.kind: m for m in self.moves}
        self._bare = {m.kind: Transition(m.kind) for m in self.moves}  # one value each, made once

    # -- the interface -------------------------------------------------------------------
    @property
    def kinds(self) -> tuple[str, ...]:
        """The transition kinds of this system, in display order."""
        return tuple(k for k in KINDS if k in self._by_kind)

    def initial(self, sentence: Sentence | int) -> Configuration:
        n = sentence if isinstance(sentence, int) else sentence.n
        return Configuration.start(n, self.root_last)

    def is_terminal(self, c: Configuration) -> bool:
        """Default: everything reduced to ROOT (stack ``[0]``, empty buffer; or ``[] [ROOT]``
        when ROOT is last)."""
        if self.root_last:
            return not c.stack and c.buffer == (0,)
        return not c.buffer and c.stack == (0,)

    def why_illegal(self, c: Configuration, t: Transition | str) -> Reason:
        """None if ``t`` may be applied to ``c``, else a short human-readable reason."""
        t = _as_transition(t)
        move = self._by_kind.get(t.kind)
        if move is None:
            return f"{t.name} is not a move of {self.name}"
        if self.is_terminal(c):
            return "the parse is finished"
        return move.why_not(c)

    def legal(self, c: Configuration) -> tuple[Transition, ...]:
        """The legal moves in ``c`` (unlabelled), in display order."""
        if self.is_terminal(c):
            return ()
        return tuple(self._bare[m.kind] for m in self.moves if m.why_not(c) is None)

    def reasons(self, c: Configuration) -> dict[Transition, Reason]:
        """Every move of the system with None (legal) or why it is illegal."""
        return {Transition(k): self.why_illegal(c, Transition(k)) for k in self.kinds}

    def apply(self, c: Configuration, t: Transition | str) -> Configuration:
        """The configuration after ``t``; raises :class:`IllegalTransition` with the reason."""
        t = _as_transition(t)
        reason = self.why_illegal(c, t)
        if reason is not None:
            raise IllegalTransition(f"{t} is not possible here: {reason}")
        return self._by_kind[t.kind].effect(c, t.label if self.labelled else None)

    def successors(self, c: Configuration) -> list[tuple[Transition, Arc | None, Configuration]]:
        """Every legal (unlabelled) move with the arc it builds and the configuration it leads to."""
        if self.is_terminal(c):
            return []
        bare = self._bare
        return [(bare[m.kind], m.arc(c), m.effect(c, None)) for m in self.moves if m.why_not(c) is None]

    def move(self, kind: str) -> Move:
        """The move of this system with this kind (SH, LA, ...)."""
        if kind not in self._by_kind:
            raise ParsingCoreError(f"{kind!r} is not a move of {self.name}; its moves are "
                                   f"{', '.join(self.kinds)}")
        return self._by_kind[kind]

    def arc_of(self, c: Configuration, t: Transition | str) -> Arc | None:
        """The (head, dependent) arc that ``t`` would add to ``c`` (None for SH, RE, SW); raises
        :class:`IllegalTransition` with the reason where ``t`` is not possible."""
        t = _as_transition(t)
        reason = self.why_illegal(c, t)
        if reason is not None:
            raise IllegalTransition(f"{t} is not possible here: {reason}")
        return self._by_kind[t.kind].arc(c)

    def why_unbuildable(self, sentence: Sentence) -> Reason:
        """None if some transition sequence builds the sentence's gold tree, else why not."""
        if not is_projective(sentence.gold_heads, self.root_last):
            return (
                f"{self.name} builds only projective trees and this tree has crossing arcs; "
                "use a swap system, or an oracle that computes the best reachable tree"
            )
        return None

    def check_buildable(self, sentence: Sentence) -> None:
        reason = self.why_unbuildable(sentence)
        if reason is not None:
            raise NotBuildable(reason)

    def __repr__(self) -> str:
        """How to get this system again, its variant's options included:

        >>> from parsing_core.systems import get_system
        >>> get_system("arc-standard", single_root=True)
        get_system('arc-standard', labelled=False, single_root=True)
        """
        options = inspect.signature(type(self).__init__).parameters.values()
        changed = [f", {o.name}={getattr(self, o.name)!r}" for o in options
                   if o.name not in ("self", "labelled") and getattr(self, o.name, o.default) != o.default]
        return f"get_system({self.name!r}, labelled={self.labelled}{''.join(changed)})"


def _as_transition(t: Transition | str) -> Transition:
    if isinstance(t, Transition):
        return t
    if isinstance(t, str):
        return Transition.parse(t)
    raise ParsingCoreError(f"a move is a Transition or its name (such as 'SH' or 'LA:nsubj'), not {t!r}")


# -- preconditions and effects shared by several systems ------------------------------------
def need_stack(k: int) -> Callable[[Configuration], Reason]:
    def why_not(c: Configuration) -> Reason:
        return None if len(c.stack) >= k else f"needs {k} token{'s' * (k > 1)} on the stack"

    return why_not


def buffer_front_is_word(c: Configuration) -> Reason:
    if not c.buffer:
        return "the buffer is empty"
    if c.buffer[0] == 0:
        return "ROOT cannot be shifted"
    return None


def first_reason(*checks: Callable[[Configuration], Reason]) -> Callable[[Configuration], Reason]:
    """Combine preconditions: the first failing one explains."""

    def why_not(c: Configuration) -> Reason:
        for check in checks:
            reason = check(c)
            if reason is not None:
                return reason
        return None

    return why_not


def shift(c: Configuration, label: str | None = None) -> Configuration:
    return c.shift()


SHIFT = Move("SH", buffer_front_is_word, shift, rule="(σ, b|β) ⇒ (σ|b, β)",
             when="the buffer is not empty and b ≠ ROOT")
