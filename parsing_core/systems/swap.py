"""Swap systems: online reordering builds non-projective trees (Nivre 2009; de Lhoneux et al. 2017).

A SWAP puts a token back into the buffer so that words are processed in the *projective
order* of the tree (an in-order traversal); in that order every tree is projective.  The
precondition compares **original** token ids, so each swap creates a new inversion and the
parse always terminates.

* ``arc-hybrid-swap`` (de Lhoneux et al. 2017): arc-hybrid plus
  SW (σ|s0, b|β) ⇒ (σ, b|s0|β), if s0 < b (s0 goes back *behind* b; never with ROOT).
* ``arc-standard-swap`` (Nivre 2009): arc-standard plus
  SW (σ|s1|s0, β) ⇒ (σ|s0, s1|β), if 0 < s1 < s0.

"found best example ever" (heads [0, 3, 1, 2], projective order found best ever example),
arc-hybrid-swap with ROOT last:

=====  =========================  ==========================  ================
move   stack                      buffer                      arc
=====  =========================  ==========================  ================
                                  found best example ever R
SH     found                      best example ever R
SH     found best                 example ever R
SH     found best example         ever R
SW     found best                 ever example R
SH     found best ever            example R
RA     found best                 example R                   best → ever
LA     found                      example R                   best ← example
SH     found example              R
RA     found                      R                           found → example
LA                                R                           found ← ROOT
=====  =========================  ==========================  ================
"""

from __future__ import annotations

from ..configuration import Configuration
from ..sentence import Sentence
from . import arc_hybrid, arc_standard
from .base import SHIFT, Move, Reason, TransitionSystem, first_reason, need_stack


def hybrid_swappable(c: Configuration) -> Reason:
    if not c.stack or not c.buffer:
        return "needs a token on the stack and one in the buffer"
    s0, b = c.stack[-1], c.buffer[0]
    if 0 in (s0, b):
        return "ROOT cannot be swapped"
    if s0 < b:
        return None
    return f"only a word that came before the buffer front can be swapped (token {s0} comes after token {b})"


def hybrid_swap(c: Configuration, label: str | None) -> Configuration:
    return c.with_stack_buffer(c.stack[:-1], (c.buffer[0], c.stack[-1], *c.buffer[1:]))


def standard_swappable(c: Configuration) -> Reason:
    s1, s0 = c.stack[-2], c.stack[-1]
    if s1 == 0:
        return "ROOT cannot be swapped"
    if s1 < s0:
        return None
    return f"only two tokens in sentence order can be swapped (token {s1} comes after token {s0})"


def standard_swap(c: Configuration, label: str | None) -> Configuration:
    return c.with_stack_buffer(c.stack[:-2] + c.stack[-1:], (c.stack[-2], *c.buffer))


HYBRID_SWAP = Move("SW", hybrid_swappable, hybrid_swap, rule="(σ|s0, b|β) ⇒ (σ, b|s0|β)",
                   when="s0 < b in sentence order, neither is ROOT")
STANDARD_SWAP = Move("SW", first_reason(need_stack(2), standard_swappable), standard_swap,
                     rule="(σ|s1|s0, β) ⇒ (σ|s0, s1|β)", when="0 < s1 < s0 in sentence order")


class ArcHybridSwap(arc_hybrid.ArcHybrid):
    name = "arc-hybrid-swap"
    title = "Arc-hybrid with SWAP (de Lhoneux et al. 2017)"
    moves: tuple[Move, ...] = (SHIFT, arc_hybrid.LEFT_ARC, arc_standard.RIGHT_ARC, HYBRID_SWAP)
    can_swap = True

    def why_unbuildable(self, sentence: Sentence) -> Reason:
        return None  # swapping into projective order builds any tree


class ArcStandardSwap(TransitionSystem):
    name = "arc-standard-swap"
    title = "Arc-standard with SWAP (Nivre 2009)"
    moves = (SHIFT, arc_standard.LEFT_ARC, arc_standard.RIGHT_ARC, STANDARD_SWAP)
    can_swap = True

    def why_unbuildable(self, sentence: Sentence) -> Reason:
        return None
