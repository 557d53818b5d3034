"""Arc-hybrid (Kuhlmann, Gómez-Rodríguez & Satta 2011): LEFT-ARC of arc-eager, RIGHT-ARC of arc-standard.

========  ==================================  ==========================================
move      effect                              precondition
========  ==================================  ==========================================
SH        (σ, b|β) ⇒ (σ|b, β)                 buffer not empty, b ≠ ROOT
LA        (σ|s0, b|β) ⇒ (σ, b|β); b → s0      stack and buffer not empty, s0 ≠ ROOT
RA        (σ|s1|s0, β) ⇒ (σ|s1, β); s1 → s0   two tokens on the stack
========  ==================================  ==========================================

ROOT first (default): start ([ROOT], words), end ([ROOT], []).  ROOT last (de Lhoneux's
lectures, UUParser): start ([], words ROOT), end ([], [ROOT]); LEFT-ARC onto ROOT makes a
root.  "Drive your friend home" with ROOT last, gold heads [0, 3, 1, 1]:

=====  ==================  ============================  ==================
move   stack               buffer                        arc
=====  ==================  ============================  ==================
                           Drive your friend home ROOT
SH     Drive               your friend home ROOT
SH     Drive your          friend home ROOT
LA     Drive               friend home ROOT              your ← friend
SH     Drive friend        home ROOT
RA     Drive               home ROOT                     Drive → friend
SH     Drive home          ROOT
RA     Drive               ROOT                          Drive → home
LA                         ROOT                          Drive ← ROOT
=====  ==================  ============================  ==================
"""

from __future__ import annotations

from .arc_eager import buffer_arc, left_arc, need_s0_and_b, s0_is_word
from .arc_standard import RIGHT_ARC
from .base import SHIFT, Move, TransitionSystem, first_reason

LEFT_ARC = Move("LA", first_reason(need_s0_and_b, s0_is_word), left_arc, buffer_arc,
                rule="(σ|s0, b|β) ⇒ (σ, b|β), adds b → s0",
                when="the stack and the buffer are not empty, s0 ≠ ROOT")


class ArcHybrid(TransitionSystem):
    name = "arc-hybrid"
    title = "Arc-hybrid (Kuhlmann et al. 2011)"
    moves: tuple[Move, ...] = (SHIFT, LEFT_ARC, RIGHT_ARC)

    def __init__(self, labelled: bool = False, root_last: bool = False) -> None:
        self.root_last = root_last
        super().__init__(labelled)
