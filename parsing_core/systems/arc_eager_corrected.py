"""Arc-eager with Nederhof's ``reduce_correct`` (Nederhof 2021, Table 4; equivalently Table 6).

Plain arc-eager can get *stuck*: if the buffer runs out while a headless token is still on
the stack, nothing can attach it and the parse never reaches (ROOT, ε).  Nederhof's fix lets
REDUCE pop a headless top too, attaching it to the token below it (``reduce_correct``):

========  =================================  ==========================================
move      effect                             precondition
========  =================================  ==========================================
SH        (σ, b|β) ⇒ (σ|b, β)                buffer not empty
LA        (σ|s0, b|β) ⇒ (σ, b|β); b → s0     s0 ≠ ROOT and s0 has no head
RA        (σ|s0, b|β) ⇒ (σ|s0|b, β); s0 → b  stack and buffer not empty
RE        (σ|s1|s0, β) ⇒ (σ|s1, β)           s0 ≠ ROOT; if s0 has no head,
          (+ s1 → s0 if s0 had no head)      it is attached to s1 (reduce_correct)
========  =================================  ==========================================

The parse ends only at ([ROOT], []), so every token gets a head.  Nederhof's Table 5,
stuck in plain arc-eager, finishes here (gold 0 → 1 → 2 → 3):

=====  ==================  =======  ===============================
move   stack               buffer   arc
=====  ==================  =======  ===============================
       ROOT                1 2 3
SH     ROOT 1              2 3
RA     ROOT 1 2            3        1 → 2
RA     ROOT 1 2 3                   2 → 3
RE     ROOT 1 2
RE     ROOT 1
RE     ROOT                         ROOT → 1 (reduce_correct)
=====  ==================  =======  ===============================
"""

from __future__ import annotations

from ..configuration import Configuration
from .arc_eager import LEFT_ARC, RIGHT_ARC
from .base import SHIFT, Move, Reason, TransitionSystem


def reducible(c: Configuration) -> Reason:
    if not c.stack:
        return "the stack is empty"
    return "ROOT cannot be reduced" if c.s0 == 0 else None


def reduce_or_correct(c: Configuration, label: str | None) -> Configuration:
    assert c.s0 is not None
    if c.has_head(c.s0):
        return c.pop()
    assert c.s1 is not None
    return c.attach(c.s1, c.s0, label).pop()


def correction_arc(c: Configuration) -> tuple[int, int] | None:
    s0 = c.stack[-1]
    return None if c.has_head(s0) else (c.stack[-2], s0)


REDUCE_CORRECT = Move("RE", reducible, reduce_or_correct, correction_arc,
                      rule="(σ|s1|s0, β) ⇒ (σ|s1, β), adds s1 → s0 if s0 had no head",
                      when="s0 ≠ ROOT")


class ArcEagerCorrected(TransitionSystem):
    name = "arc-eager-corrected"
    title = "Arc-eager with reduce_correct (Nederhof 2021)"
    moves = (SHIFT, LEFT_ARC, RIGHT_ARC, REDUCE_CORRECT)
