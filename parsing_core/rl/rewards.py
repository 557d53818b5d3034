"""Rewards: what a move earns in a configuration.

**exact** (the default): r(c, t) = −cost(t; c), the exact arc-standard oracle's cost.  Every
path from c to a final configuration then earns best(final) − best(c) in total, so the best
continuation after any move earns 0 and the optimal action value is Q*(c, t) = −cost(t; c)
for any discount γ.  The learned Q-values have a known right answer.

**thesis** (Code B.7 ``computeReward``): roughly −(the approximate oracle's cost) with
bonuses.  An arc earns +2 when it is gold and −1 for each gold arc between its dependent and a
token still in the stack or the buffer (its own gold arc included, so a harmless gold arc nets
+1); after a SHIFT it also gives back that SHIFT's reward.  A SHIFT earns +1 when the buffer
holds a gold dependent of s0 (the stack top), else the thesis's case analysis below.  The
bonuses and the discount are kept as written; two flaws are not: the reward is read on the
configuration *before* the move (the thesis read it after, so shifting the last word scored as
an illegal SHIFT), and illegal moves are never taken (they were, at −100).  ROOT's own gold
head reads as 0, as in the thesis's head lists.

>>> import parsing_core as pc
>>> s = pc.Sentence.from_heads("a b c".split(), [2, 3, 0])     # ROOT → c → b → a
>>> c = pc.replay(pc.get_system("arc-standard"), s, ["SH", "SH"]).final   # ROOT a b | c
>>> thesis_reward(c, "LA", s.gold_heads, Previous("SH", 1.0))    # +2 gold, −1 (a ← b), −1 given back
0.0
>>> thesis_reward(c, "RA", s.gold_heads, Previous())          # a → b, not gold: b loses a ← b and b ← c
-2.0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..configuration import Configuration

REWARDS: tuple[str, ...] = ("exact", "thesis")


@dataclass(frozen=True)
class Previous:
    """The move before this one and the reward it earned (none at the start)."""

    kind: str | None = None
    reward: float = 0.0


def thesis_reward(c: Configuration, kind: str, heads: Sequence[int], previous: Previous) -> float:
    """The thesis's reward for the legal move ``kind`` ("SH", "LA", "RA") in ``c``, read before it."""
    gold = (0, *heads)  # gold[t]: the gold head of token t; ROOT reads as 0
    alive = (*c.stack, *c.buffer)
    if kind == "SH":
        return shift_reward(c, gold)
    head, dep = (c.stack[-1], c.stack[-2]) if kind == "LA" else (c.stack[-2], c.stack[-1])
    reward = 2.0 * (gold[dep] == head)
    reward -= sum(1 for i in alive if gold[i] == dep or gold[dep] == i)
    if previous.kind == "SH":
        reward -= previous.reward  # the thesis's discount: the SHIFT's reward, not its cost
    return reward


def shift_reward(c: Configuration, gold: Sequence[int]) -> float:
    """SHIFT, by the thesis's cases (s0: stack top, b: buffer front)."""
    s0, b = c.stack[-1], c.buffer[0]
    if any(gold[i] == s0 for i in c.buffer):
        return 1.0  # case 1: s0 still takes a right dependent from the buffer: a costless shift
    touching_s0 = sum(1 for i in c.stack if gold[i] == s0 or gold[s0] == i)
    if gold[s0] < s0:  # case 2: s0 is a right dependent with no right dependents left
        ancestor = lost_or_stacked_ancestor(c, gold, b)
        if ancestor is not None:
            return ancestor  # 2.2: an ancestor of b on the stack (−1); 2.1: b is an orphan (0)
        if touching_s0 == 0:
            return 1.0  # 2.3 with nothing of s0 on the stack
        sacrifice = -sum(1 for i in (*c.stack, *c.buffer) if gold[i] == b or gold[b] == i)
        return float(max(-touching_s0, sacrifice))
    return -float(sum(1 for i in c.stack if gold[i] == s0))  # case 3: s0's children on the stack


def lost_or_stacked_ancestor(c: Configuration, gold: Sequence[int], b: int) -> float | None:
    """Climb b's gold ancestors: −1 at the first on the stack, 0 at the first already reduced
    (b is an orphan), None when the climb reaches ROOT through the buffer."""
    father = gold[b]
    while father != 0:
        if father in c.stack:
            return -1.0
        if father not in c.buffer:
            return 0.0
        father = gold[father]
    return None
