"""Arc-eager (Nivre 2008): right dependents are attached as soon as they are seen.

========  ================================  ==========================================
move      effect                            precondition
========  ================================  ==========================================
SH        (σ, b|β) ⇒ (σ|b, β)               buffer not empty
LA        (σ|s0, b|β) ⇒ (σ, b|β); b → s0    s0 ≠ ROOT and s0 has no head
RA        (σ|s0, b|β) ⇒ (σ|s0|b, β); s0 → b stack and buffer not empty
RE        (σ|s0, β) ⇒ (σ, β)                s0 has a head
========  ================================  ==========================================

ROOT starts at the bottom of the stack.  The parse ends when the buffer is empty; tokens
still on the stack without a head stay headless (the convention of the Goldberg & Nivre
costs).  "He sent her a letter .", gold heads [2, 0, 2, 5, 2, 2]:

=====  ======================  ======================  ================
move   stack                   buffer                  arc
=====  ======================  ======================  ================
       ROOT                    He sent her a letter .
SH     ROOT He                 sent her a letter .
LA     ROOT                    sent her a letter .     He ← sent
RA     ROOT sent               her a letter .          ROOT → sent
RA     ROOT sent her           a letter .              sent → her
SH     ROOT sent her a         letter .
LA     ROOT sent her           letter .                a ← letter
RE     ROOT sent               letter .
RA     ROOT sent letter        .                       sent → letter
RE     ROOT sent               .
RA     ROOT sent .                                     sent → .
=====  ======================  ======================  ================
"""

from __future__ import annotations

from ..configuration import Configuration
from .base import SHIFT, Move, Reason, TransitionSystem, first_reason


def need_s0_and_b(c: Configuration) -> Reason:
    if not c.stack:
        return "the stack is empty"
    return "the buffer is empty" if not c.buffer else None


def s0_is_word(c: Configuration) -> Reason:
    return "ROOT cannot become a dependent" if c.s0 == 0 else None


def s0_headless(c: Configuration) -> Reason:
    assert c.s0 is not None
    head = c.head_of(c.s0)
    if head is None:
        return None
    return "the top already has a head (ROOT)" if head == 0 else f"the top already has a head (token {head})"


def s0_has_head(c: Configuration) -> Reason:
    s0 = c.s0
    if s0 is None:
        return "the stack is empty"
    if s0 == 0:
        return "ROOT cannot be reduced"
    return None if c.has_head(s0) else "the top has no head yet"


def left_arc(c: Configuration, label: str | None) -> Configuration:
    """b → s0, pop s0 (shared with arc-hybrid)."""
    assert c.s0 is not None and c.b0 is not None
    return c.attach(c.b0, c.s0, label).pop()


def right_arc(c: Configuration, label: str | None) -> Configuration:
    assert c.s0 is not None and c.b0 is not None
    return c.attach(c.s0, c.b0, label).shift()


def reduce(c: Configuration, label: str | None) -> Configuration:
    return c.pop()


def buffer_arc(c: Configuration) -> tuple[int, int]:
    return (c.buffer[0], c.stack[-1])


LEFT_ARC = Move("LA", first_reason(need_s0_and_b, s0_is_word, s0_headless), left_arc, buffer_arc,
                rule="(σ|s0, b|β) ⇒ (σ, b|β), adds b → s0", when="s0 ≠ ROOT and s0 has no head")
RIGHT_ARC = Move("RA", need_s0_and_b, right_arc, lambda c: (c.stack[-1], c.buffer[0]),
                 rule="(σ|s0, b|β) ⇒ (σ|s0|b, β), adds s0 → b", when="the stack and the buffer are not empty")
REDUCE = Move("RE", s0_has_head, reduce, rule="(σ|s0, β) ⇒ (σ, β)", when="s0 has a head")


class ArcEager(TransitionSystem):
    name = "arc-eager"
    title = "Arc-eager (Nivre 2008)"
    moves = (SHIFT, LEFT_ARC, RIGHT_ARC, REDUCE)

    def is_terminal(self, c: Configuration) -> bool:
        """The parse ends when the buffer is empty (leftover tokens stay headless)."""
        return not c.buffer
