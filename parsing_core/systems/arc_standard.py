"""Arc-standard (shift-reduce): arcs are built between the two topmost stack tokens.

========  ===========================  ==========================================
move      effect                       precondition
========  ===========================  ==========================================
SH        (σ, b|β) ⇒ (σ|b, β)          buffer not empty
LA        (σ|s1|s0, β) ⇒ (σ|s0, β)     two tokens on the stack, s1 ≠ ROOT;
          adds s0 → s1                 (adds the arc, pops the dependent s1)
RA        (σ|s1|s0, β) ⇒ (σ|s1, β)     two tokens on the stack; adds s1 → s0
========  ===========================  ==========================================

ROOT starts at the bottom of the stack; the parse ends at ([ROOT], []).  With
``single_root=True`` (the thesis's variant) ROOT may take a dependent only as the very last
move, so the tree has exactly one root.

"book the flight through houston", gold heads [0, 3, 1, 5, 3]:

=====  ==========================  ========================  ==================
move   stack                       buffer                    arc
=====  ==========================  ========================  ==================
       ROOT                        book the flight thr. h.
SH     ROOT book                   the flight through h.
SH     ROOT book the               flight through houston
SH     ROOT book the flight        through houston
LA     ROOT book flight            through houston           the ← flight
SH     ROOT book flight through    houston
SH     ROOT … through houston
LA     ROOT book flight houston                              through ← houston
RA     ROOT book flight                                      flight → houston
RA     ROOT book                                             book → flight
RA     ROOT                                                  ROOT → book
=====  ==========================  ========================  ==================
"""

from __future__ import annotations

from ..configuration import Configuration
from ..sentence import Sentence
from .base import SHIFT, Move, Reason, TransitionSystem, first_reason, need_stack


def s1_not_root(c: Configuration) -> Reason:
    return "ROOT cannot become a dependent" if c.s1 == 0 else None


def left_arc(c: Configuration, label: str | None) -> Configuration:
    assert c.s0 is not None and c.s1 is not None
    return c.attach(c.s0, c.s1, label).pop_second()


def right_arc(c: Configuration, label: str | None) -> Configuration:
    assert c.s0 is not None and c.s1 is not None
    return c.attach(c.s1, c.s0, label).pop()


def root_last_move(c: Configuration) -> Reason:
    """Single-root variant: ROOT → s0 only when nothing else is left."""
    if c.s1 == 0 and c.buffer:
        return "single root: ROOT takes its dependent only when the buffer is empty"
    return None


LEFT_ARC = Move(
    "LA", first_reason(need_stack(2), s1_not_root), left_arc, lambda c: (c.stack[-1], c.stack[-2]),
    rule="(σ|s1|s0, β) ⇒ (σ|s0, β), adds s0 → s1", when="two tokens on the stack, s1 ≠ ROOT",
)
RIGHT_ARC = Move("RA", need_stack(2), right_arc, lambda c: (c.stack[-2], c.stack[-1]),
                 rule="(σ|s1|s0, β) ⇒ (σ|s1, β), adds s1 → s0", when="two tokens on the stack")
SINGLE_ROOT_RIGHT_ARC = Move(
    "RA", first_reason(need_stack(2), root_last_move), right_arc, RIGHT_ARC.arc, rule=RIGHT_ARC.rule,
    when="two tokens on the stack; ROOT takes its dependent only as the very last move",
)


class ArcStandard(TransitionSystem):
    name = "arc-standard"
    title = "Arc-standard (shift-reduce)"
    moves = (SHIFT, LEFT_ARC, RIGHT_ARC)

    def __init__(self, labelled: bool = False, single_root: bool = False) -> None:
        self.single_root = single_root
        if single_root:
            self.moves = (SHIFT, LEFT_ARC, SINGLE_ROOT_RIGHT_ARC)
        super().__init__(labelled)

    def why_unbuildable(self, sentence: Sentence) -> Reason:
        if self.single_root and sentence.root_count != 1:
            return f"single-root arc-standard needs exactly one root; this tree has {sentence.root_count}"
        return super().why_unbuildable(sentence)
