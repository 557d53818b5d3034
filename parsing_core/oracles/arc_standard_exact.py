"""The exact dynamic oracle for arc-standard, for any gold tree, in cubic time.

best(c) = (gold arcs already in A) + future(c), where future(c) is the most gold arcs the moves
from c can still add; cost(t) = best(c) − best(t(c)).  The thesis (§5.1, Algorithm 1) computes
future(c) with a CKY table over γ = σβ in O(|γ|⁵) (transcribed in
``benchmarks/arc_standard_baseline.py``).  This module computes the same number from two facts.

**Buffer spans do not care about the stack.**  Tokens still in the buffer can be reduced in any
order, so the best tree over a run of buffer tokens depends on the gold tree alone.  Eisner's
complete spans — CL[x, d]: d heads x..d, CR[d, y]: d heads d..y — and three closures built from
them are computed once per gold tree (:class:`GoldTables`).

**The stack is unwound from the top.**  A stack token below the top can gain a dependent only
once everything above it has been reduced into one tree.  So follow the path from ROOT up to the
stack top t in any reachable tree, the *spine*: each spine token owns a run of consecutive stack
tokens that become its direct, childless left dependents; a stack spine token then has the next
spine token as its first right dependent and buffer subtrees beyond it; a buffer spine token
has buffer subtrees on both sides, the next spine token as a left dependent, and its stack run.

That shape gives a dynamic program over stack *prefixes*, bottom-up.  The :class:`Level` of the
prefix s0..s(i−1) holds the best score of everything outside a subtree X that spans the rest of
the stack and the buffer up to token r, given X's head is attached to s(i−1) (``wst[r]``) or to a
buffer spine token c > r (``b2[c] + CL[r+1, c]``).  A level depends on its prefix and the gold
tree only, so levels are cached: the three successors of c differ only at the top of the stack
and share all lower levels, and a parse reuses them from step to step.  future(c) is ``wst[f − 1]``
of the whole stack's level (f = buffer front): X is then empty.  Each level costs a few
max-plus products over O(n²) cells (compiled loops, :mod:`.arc_standard_loops`); a configuration
needs one or two new levels.

>>> import parsing_core as pc
>>> s = pc.Sentence.from_heads("a b c".split(), [2, 3, 0])      # ROOT → c → b → a
>>> system = pc.get_system("arc-standard")
>>> c = pc.replay(system, s, pc.parse_sequence("SH SH SH")).final
>>> {str(t): v for t, v in ArcStandardExactOracle(system).costs(c, s).items()}
{'LA': 0, 'RA': 1}
"""

from __future__ import annotations

import math

import numpy as np

from ..configuration import Configuration
from ..sentence import Sentence
from ..systems import TransitionSystem, get_system
from .base import Costs, GoldCache, Oracle

NEG = -np.inf
Array = np.ndarray
Stack = tuple[int, ...]


class GoldTables:
    """Everything about one gold tree that does not depend on a configuration, and its levels.

    ``spans`` stacks five (n+2)×(n+2) tables (:func:`.arc_standard_loops.gold_spans`):
    Eisner's complete spans CL[x, d] (d heads x..d) and CR[d, y] (d heads d..y); FOREST[x, y],
    the best forest over x+1..y; ILSTAR[c, c'], the best chain c ← … ← c' of left dependents;
    CLF[x, c], c with its left part starting at some l > x and a forest over x+1..l−1.
    They and the levels are computed by the compiled loops of :mod:`.arc_standard_loops`
    (imported on first use: numba takes a fifth of a second to load).
    """

    max_levels = 4096

    def __init__(self, heads: tuple[int, ...], single_root: bool) -> None:
        from . import arc_standard_loops

        self.loops = loops = arc_standard_loops
        self.n = n = len(heads)
        self.single_root = single_root
        self.heads = np.array([-1, *heads], dtype=np.int64)
        self.head_of = (-1, *heads)  # the same as a tuple: d's gold head, read once per move
        children: list[list[int]] = [[] for _ in range(n + 1)]
        for d, h in enumerate(heads, start=1):
            children[h].append(d)
        self.kids = [np.array(c, dtype=np.int64) for c in children]  # each token's gold children, ascending
        self.spans = loops.gold_spans(self.heads)
        self.cl, self.cr = self.spans[loops.CL], self.spans[loops.CR]
        self.levels: dict[tuple[int, ...], Level] = {}
        self.nothing = np.full((3, 0, n + 2), NEG)  # the rows below the root level


class Level:
    """The outside scores of one stack prefix (see the module docstring), valid for r ≥ ``lo``."""

    def __init__(self, prefix: tuple[int, ...], lo: int, wst: Array, parent: Level | None) -> None:
        self.prefix, self.lo, self.wst, self.parent = prefix, lo, wst, parent
        # once complete (what a level above reads; most levels never get one): the rows wst, wmax
        # and b2 (by buffer spine token c) of levels 1..i, (3, i, n+2), and the prefix as an array
        self.rows: tuple[Array, Array] | None = None

    def complete(self, g: GoldTables) -> tuple[Array, Array]:
        """Add the buffer spine tokens that X's head may hang from; stack the rows of all levels."""
        if self.rows is None:
            below = g.nothing if self.parent is None else self.parent.complete(g)[0]
            self.rows = (g.loops.stack_rows(g.spans, g.heads, below, self.wst, self.prefix[-1], self.lo),
                         np.array(self.prefix, dtype=np.int64))
        return self.rows


def root_level(g: GoldTables, lo: int) -> Level:
    """Level 1: X spans everything but ROOT and hangs from ROOT."""
    a = np.full(g.n + 2, NEG)
    a[g.n] = 0
    return Level((0,), lo, a if g.single_root else g.loops.right_dependents(g.spans, g.kids[0], a, lo), None)


def level(g: GoldTables, prefix: tuple[int, ...], lo: int) -> Level:
    """The (cached) level of a stack prefix, valid at least for r ≥ max(lo, top of prefix)."""
    found = g.levels.get(prefix)
    if found is not None and found.lo <= max(lo, prefix[-1]):
        return found
    if len(g.levels) >= g.max_levels:
        g.levels.clear()
    if len(prefix) == 1:
        made = root_level(g, lo)
    else:
        parent = level(g, prefix[:-1], lo)
        h, own_lo = prefix[-1], max(lo, prefix[-1])
        rows, tokens = parent.complete(g)
        wst = g.loops.push_level(g.spans, g.heads, g.kids[h], tokens, rows, h, own_lo)
        made = Level(prefix, own_lo, wst, parent)
    g.levels[prefix] = made
    return made


def future(g: GoldTables, c: Configuration) -> float:
    """The most gold arcs the moves from ``c`` on can still add."""
    return future_of(g, c.stack, c.buffer[0] if c.buffer else g.n + 1)


def future_of(g: GoldTables, stack: Stack, front: int) -> float:
    """:func:`future` of the configuration with this stack and buffer front (n + 1: buffer empty);
    the arcs already built do not matter, nor does the rest of the buffer (the tokens after front)."""
    if stack == (0,) and g.single_root:               # ROOT's one dependent spans the buffer
        if front > g.n:
            return 0
        below = g.cl[front, front:g.n + 1] + g.cr[front:g.n + 1, g.n]
        gold_roots = [below[d - front] + 1 for d in g.kids[0].tolist() if d >= front]
        return float(max([below.max(), *gold_roots]))
    return float(level(g, stack, front - 1).wst[front - 1])


def after(c: Configuration, kind: str, head_of: tuple[int, ...], end: int) -> tuple[int, Stack, int]:
    """What a move of arc-standard leaves for :func:`future_of`, without building the configuration:
    (1 if it builds a gold arc else 0; the stack; the buffer front, ``end`` if none).  ``head_of[d]``
    is d's gold head.  The moves' effects of :mod:`..systems.arc_standard`, restated on the stack
    alone because this runs three times per oracle call in training; the exhaustive tests hold the
    costs to the search, which applies the system's own moves."""
    stack, buffer = c.stack, c.buffer
    if kind == "SH":
        return 0, (*stack, buffer[0]), buffer[1] if len(buffer) > 1 else end
    front = buffer[0] if buffer else end
    s0, s1 = stack[-1], stack[-2]
    if kind == "LA":                                    # s0 → s1, s1 popped
        return int(head_of[s1] == s0), (*stack[:-2], s0), front
    return int(head_of[s0] == s1), stack[:-1], front    # RA: s1 → s0, s0 popped


def warm_up() -> None:
    """Compile the loops now (or load them from numba's disk cache), so that the first learner to
    pick arc-standard does not wait for it: about 8 s on a fresh install, under a second after."""
    system = get_system("arc-standard")
    gold = Sentence.from_heads(["a", "b", "c"], [2, 0, 2])
    oracle = ArcStandardExactOracle(system)
    c = system.initial(gold)
    while not system.is_terminal(c):
        c = system.apply(c, oracle.next(c, gold))


class ArcStandardExactOracle(Oracle):
    """cost(t) = best(c) − best(t(c)), best by the dynamic program above, for any gold tree.

    Both variants of :class:`~parsing_core.systems.arc_standard.ArcStandard`: with
    ``single_root`` ROOT takes one dependent, last.  ``explain`` gives a witness: arc-standard is not
    arc-decomposable, so a cost is no count of arcs made unreachable (a SHIFT makes no gold arc
    unreachable on its own, and may still cost).
    """

    name = "exact"
    title = "exact (dynamic programming)"
    systems = ("arc-standard",)
    exact_for = "any"
    exactness = "exact for any gold tree (dynamic programming, thesis §5.1)"
    speed = "cubic"

    def __init__(self, system: TransitionSystem, cached_trees: int = 8) -> None:
        super().__init__(system)
        self.single_root = bool(getattr(system, "single_root", False))
        self._tables = GoldCache(lambda heads: GoldTables(heads, self.single_root), cached_trees)

    def move_costs(self, c: Configuration, gold: Sentence) -> Costs:
        g = self.tables(gold)
        moves = self.system.legal(c)
        values = []
        for t in moves:  # the gold arc each move builds (if any) and the future after it
            gain, stack, front = after(c, t.kind, g.head_of, g.n + 1)
            values.append(gain + future_of(g, stack, front))
        top = max(values, default=-math.inf)
        return {t: math.inf if v == -math.inf else int(top - v) for t, v in zip(moves, values)}

    def best(self, c: Configuration, gold: Sentence) -> float:
        """The most gold arcs a final configuration reachable from ``c`` can hold."""
        built = sum(1 for arc in c.unlabelled_arcs if arc in gold.gold_arcs)
        return built + future(self.tables(gold), c)

    def tables(self, gold: Sentence) -> GoldTables:
        """The gold tree's tables and level cache (the last few trees are kept)."""
        return self._tables(gold.gold_heads)
