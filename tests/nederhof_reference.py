"""Naive references for Nederhof's oracle: the judges of ``parsing_core.oracles.nederhof``.

* :func:`dict_parse` — the spec's generic tabular algorithm (§4.6.3) as written there, with
  dicts, one cell at a time: the judge of the batched numpy parser.
* :class:`Table6Search` — exhaustive search over Table 6 computations (SH, LA, RA, RE with
  reduce_correct), carrying the restrictions a candidate's string encodes (spec §4.8):
  a *blocked* token (never popped by RE), *flagged* tokens (popped by RE only after taking
  a right child) and the *n_p* token (popped by LA only after taking a left child as
  buffer front).
* :class:`Table8Search` — the same over Table 8 (normalized arc-eager), whose transitions
  are written out here since Table 8 is not one of the library's systems.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from parsing_core.oracles.nederhof import STRICT, Stack
from parsing_core.oracles.nederhof_grammar import Grammar
from parsing_core.transition import LA, RA, RE, SH, Transition

NEG = -math.inf
Arc = tuple[int, int]


# -- the spec's parser, verbatim in spirit ---------------------------------------------------
def dict_parse(g: Grammar, syms: Sequence[str], weight: Callable[[int, int], int]) -> float:
    """Best derivation of ``syms`` headed by position 0 (spec §4.6.3, dicts of state → score)."""
    left: dict[tuple[str, str], list[str]] = {}
    right: dict[tuple[str, str], list[str]] = {}
    comp: dict[tuple[str, str], list[str]] = {}
    for b2, a, b in g.left:
        left.setdefault((a, b), []).append(b2)
    for c2, c, a in g.right:
        right.setdefault((c, a), []).append(c2)
    for a, b, c in g.comp:
        comp.setdefault((b, c), []).append(a)
    n = len(syms)
    lh: list[list[dict]] = [[{} for _ in range(n)] for _ in range(n)]
    rh: list[list[dict]] = [[{} for _ in range(n)] for _ in range(n)]
    tz: list[list[dict]] = [[{} for _ in range(n)] for _ in range(n)]

    def upd(d: dict, k: object, v: float) -> None:
        if v > d.get(k, NEG):
            d[k] = v

    for p, s in enumerate(syms):
        b, c = g.term[s]
        lh[p][p][b] = 0
        rh[p][p][c] = 0
    for width in range(1, n):
        for i in range(0, n - width):
            j = i + width
            for m in range(i, j):
                for c, s1 in rh[i][m].items():
                    for b, s2 in lh[m + 1][j].items():
                        upd(tz[i][j], (c, b), s1 + s2)
            for d in range(i + 1, j + 1):
                for (c, bd), s1 in tz[i][d].items():
                    for cd, s2 in rh[d][j].items():
                        for a in comp.get((bd, cd), ()):
                            for c2 in right.get((c, a), ()):
                                upd(rh[i][j], c2, s1 + s2 + weight(i, d))
            for d in range(i, j):
                for bd, s1 in lh[i][d].items():
                    for (cd, b), s2 in tz[d][j].items():
                        for a in comp.get((bd, cd), ()):
                            for b2 in left.get((a, b), ()):
                                upd(lh[i][j], b2, s1 + s2 + weight(j, d))
    best = NEG
    for b, s1 in lh[0][0].items():
        for c, s2 in rh[0][n - 1].items():
            if g.goal in comp.get((b, c), ()):
                best = max(best, s1 + s2)
    return best


# -- Table 6 with a candidate's restrictions -------------------------------------------------
class Restrictions(NamedTuple):
    """What a candidate's string forbids in the computation that follows it.

    Restrictions that can no longer matter are dropped (a blocked token popped by LA, the n_p
    token once it took its left child), so restricted searches soon join the plain one.
    """

    blocked: int | None = None                    # lb: never popped by RE
    flagged: frozenset[int] = frozenset()         # rp/lp: popped by RE only after a right child
    np_token: int | None = None                   # np: popped by LA only after taking a left child


FREE = Restrictions()
State6 = tuple[Stack, int, Restrictions]          # stack, first buffer token (n + 1: empty), ...


def restrictions6(stack: Stack, buffer: Sequence[int], move: Transition, policy: str) -> Restrictions:
    """The restrictions of Table 10's string after ``move`` (stack, buffer: after the move)."""
    k = len(stack)
    flagged: set[int] = set()
    blocked = stack[-1][0] if move == SH else None
    if move == SH and policy in ("rbs", STRICT) and k >= 3:
        flagged.add(k - 2)
    if policy == STRICT:
        flagged |= set(range(1, k - 2))
        if move in (LA, RE) and k >= 3:
            flagged.add(k - 2)
        if move == LA and k >= 2:
            flagged.add(k - 1)
    np_token = buffer[0] if policy == "sbr" and move == RE and buffer else None
    return Restrictions(blocked, frozenset(stack[i][0] for i in flagged), np_token)


@dataclass
class Table6Search:
    """best future gold arcs from a Table 6 state, memoised (one instance per gold tree)."""

    gold_heads: tuple[int, ...]
    corrected: bool = True
    memo: dict[State6, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.n = len(self.gold_heads)

    def gold(self, h: int, d: int) -> int:
        return int(self.gold_heads[d - 1] == h)

    def future(self, state: State6) -> float:
        value = self.memo.get(state)
        if value is None:
            stack, b, _ = state
            if len(stack) == 1 and b > self.n:
                value = 0
            else:
                value = max((gain + self.future(after) for gain, after in self.moves(state)), default=NEG)
            self.memo[state] = value
        return value

    def moves(self, state: State6) -> Iterator[tuple[int, State6]]:
        stack, b, r = state
        (top, label) = stack[-1]
        if b <= self.n:
            yield 0, ((*stack, (b, "L")), b + 1, r)                                # SH
            yield 0, ((*stack, (b, "R")), b + 1, r)                                # RA
            if label == "L" and top != r.np_token:                                  # LA
                rest = r if r == FREE else Restrictions(
                    None if top == r.blocked else r.blocked, r.flagged - {top},
                    None if b == r.np_token else r.np_token)
                yield self.gold(b, top), (stack[:-1], b, rest)
        if len(stack) > 1 and (self.corrected or label == "R"):                   # RE
            if top != r.blocked and top not in r.flagged:
                below = stack[-2][0]
                rest = r if r == FREE else Restrictions(
                    r.blocked, r.flagged - {below}, None if top == r.np_token else r.np_token)
                yield self.gold(below, top), (stack[:-1], b, rest)

    def scores(self, stack: Stack, buffer: Sequence[int], arcs: Sequence[Arc], policy: str,
               moves: Sequence[Transition]) -> dict[Transition, float]:
        """ρ for each move, by search; the buffer must be the tokens b..n."""
        built = sum(self.gold(h, d) for h, d in arcs)
        out = {}
        for t in moves:
            after, rest, arc = _step6(stack, tuple(buffer), t)
            start = rest[0] if rest else self.n + 1
            r = restrictions6(after, rest, t, policy)
            gain = self.gold(*arc) if arc else 0
            out[t] = built + gain + self.future((after, start, r))
        return out


def _step6(stack: Stack, buffer: tuple[int, ...], t: Transition) -> tuple[Stack, tuple[int, ...], Arc | None]:
    if t == SH:
        return (*stack, (buffer[0], "L")), buffer[1:], None
    if t == RA:
        return (*stack, (buffer[0], "R")), buffer[1:], None
    if t == LA:
        return stack[:-1], buffer, (buffer[0], stack[-1][0])
    return stack[:-1], buffer, (stack[-2][0], stack[-1][0])


# -- Table 8: normalized arc-eager -------------------------------------------------------------
State8 = tuple[Stack, int, int | None]            # stack, first buffer token, blocked token


def table8_moves(stack: Stack, b: int, n: int) -> Iterator[tuple[str, Stack, int, Arc | None]]:
    """Table 8's transitions: (name, stack after, first buffer token after, arc)."""
    top, label = stack[-1]
    if label != "N" and b <= n:
        yield "shift", (*stack, (b, "N")), b + 1, None
    if label == "N":
        yield "left_child", (*stack[:-1], (top, "L")), b, None
        yield "right_child", (*stack[:-1], (top, "R")), b, None
    if len(stack) > 1 and label != "N":
        yield "reduce_left", stack[:-1], b, (stack[-2][0], top)
    if len(stack) > 1 and label == "N" and stack[-2][1] == "L":
        yield "reduce_right", (*stack[:-2], stack[-1]), b, (top, stack[-2][0])


@dataclass
class Table8Search:
    """best future gold arcs over Table 8 computations; a blocked token is never reduce_left's a2."""

    gold_heads: tuple[int, ...]
    memo: dict[State8, float] = field(default_factory=dict)

    def gold(self, arc: Arc | None) -> int:
        return int(arc is not None and self.gold_heads[arc[1] - 1] == arc[0])

    def future(self, state: State8) -> float:
        value = self.memo.get(state)
        if value is None:
            stack, b, blocked = state
            n = len(self.gold_heads)
            if len(stack) == 1 and b > n:
                value = 0
            else:
                value = max((self.gold(arc) + self.future((s, b2, blocked))
                             for name, s, b2, arc in table8_moves(stack, b, n)
                             if not (name == "reduce_left" and stack[-1][0] == blocked)), default=NEG)
            self.memo[state] = value
        return value

    def scores(self, stack: Stack, b: int, arcs: Sequence[Arc]) -> dict[str, float]:
        built = sum(self.gold(a) for a in arcs)
        out = {}
        for name, s, b2, arc in table8_moves(stack, b, len(self.gold_heads)):
            blocked = s[-1][0] if name == "left_child" else None
            out[name] = built + self.gold(arc) + self.future((s, b2, blocked))
        return out
