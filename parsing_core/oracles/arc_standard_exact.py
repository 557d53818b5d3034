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
of the whole stack's level (f = buffer front): X is then empty.  Each level costs a few numpy
max-plus products over O(n²) cells; a configuration needs one or two new levels.

>>> import parsing_core as pc
>>> s = pc.Sentence.from_heads("a b c".split(), [2, 3, 0])      # ROOT → c → b → a
>>> system = pc.get_system("arc-standard")
>>> c = pc.replay(system, s, pc.parse_sequence("SH SH SH")).final
>>> {str(t): v for t, v in ArcStandardExactOracle(system).costs(c, s).items()}
{'LA': 0, 'RA': 1}
"""

from __future__ import annotations

import math
from bisect import bisect_left

import numpy as np

from ..configuration import Configuration
from ..sentence import Sentence
from ..systems import TransitionSystem
from .base import Costs, GoldCache, Oracle

NEG = -np.inf
Array = np.ndarray


def eisner_spans(heads: Array) -> tuple[Array, Array, Array]:
    """CL[x, d], CR[d, y] and IL[d, e] (e → d, span d..e) over tokens 1..n; −∞ off their triangle.

    Spans of length L are filled together from spans of length < L, stored twice (by start and
    by end) so every sub-span lookup is a plain slice.
    """
    n = len(heads) - 1
    shape = (n + 2, n + 2)
    crs, cre, cls, cle, irs, ile = (np.full(shape, NEG) for _ in range(6))
    for t in (crs, cre, cls, cle):
        t[1:n + 1, 0] = 0
    for L in range(1, n):
        s, e = slice(1, n - L + 1), slice(1 + L, n + 1)
        base = (crs[s, :L] + cle[e, L - 1::-1]).max(1)       # split k: CR[s, k] + CL[k+1, e]
        starts = np.arange(1, n - L + 1)
        irs[s, L] = base + (heads[starts + L] == starts)      # s → e
        ile[e, L] = base + (heads[starts] == starts + L)      # e → s
        cr = (irs[s, 1:L + 1] + cre[e, L - 1::-1]).max(1)    # last right dependent d: IR[s, d] + CR[d, e]
        cl = (cls[s, :L] + ile[e, L:0:-1]).max(1)             # last left dependent d: CL[s, d] + IL[d, e]
        crs[s, L], cre[e, L], cls[s, L], cle[e, L] = cr, cr, cl, cl
    return _square(cle, by_start=False), _square(crs, by_start=True), _square(ile, by_start=False)


def _square(table: Array, by_start: bool) -> Array:
    """From (token, length) storage to [left end, right end]."""
    n = table.shape[0] - 2
    left, length = np.nonzero(np.add.outer(np.arange(n + 2), np.arange(n + 2)) <= n)
    keep = (left >= 1) & (length < n)
    left, length = left[keep], length[keep]
    out = np.full_like(table, NEG)
    out[left, left + length] = table[left if by_start else left + length, length]
    return out


def forest_table(cl: Array, cr: Array) -> Array:
    """forest[x, y]: the best forest over tokens x+1..y whose roots stay unattached (0 if x = y)."""
    n = cl.shape[0] - 2
    one_tree = (cl[:, :, None] + cr[None, :, :]).max(1)       # [a, b]: the best tree over a..b
    forest = np.full_like(cl, NEG)
    np.fill_diagonal(forest, 0)
    for y in range(1, n + 1):                                  # the last tree spans k..y
        forest[:y, y] = (forest[:y, :y] + one_tree[1:y + 1, y]).max(1)
    return forest


def chain_table(il: Array) -> Array:
    """ilstar[c, c']: the best chain c ← … ← c' of ``il`` steps (0 if c = c')."""
    n = il.shape[0] - 2
    star = np.full_like(il, NEG)
    np.fill_diagonal(star, 0)
    for c in range(n - 1, 0, -1):
        star[c, c + 1:] = (il[c, c + 1:n + 1, None] + star[c + 1:n + 1, c + 1:]).max(0)
    return star


class GoldTables:
    """Everything about one gold tree that does not depend on a configuration, and its levels.

    * ``cl``, ``cr``: Eisner's complete spans; ``il[c, c']``: c' heads c, span c..c'.
    * ``forest[x, y]``: see :func:`forest_table`; ``ilstar``: see :func:`chain_table`.
    * ``clf[x, c]``: c with its left part starting at some l > x, and a forest over x+1..l−1.
    """

    max_levels = 4096

    def __init__(self, heads: tuple[int, ...], single_root: bool) -> None:
        self.n = n = len(heads)
        self.single_root = single_root
        self.heads = np.array([-1, *heads])
        self.head_of = (-1, *heads)  # the same as a tuple: faster to read one at a time
        self.children: list[list[int]] = [[] for _ in range(n + 1)]
        for d, h in enumerate(heads, start=1):
            self.children[h].append(d)
        self.cl, self.cr, self.il = eisner_spans(self.heads)
        self.forest = forest_table(self.cl, self.cr)
        self.clf = (self.forest[:n + 1, :n + 1, None] + self.cl[None, 1:n + 2, :]).max(1)
        self.ilstar = chain_table(self.il)
        self.levels: dict[tuple[int, ...], Level] = {}
        self.blank = np.full(n + 2, NEG)  # copied, not rebuilt, for every new row (np.full is slower)

    def row(self, size: int) -> Array:
        """A fresh row of ``size`` (n + 1 or n + 2) cells, all −∞."""
        return self.blank[:size].copy()


class Level:
    """The outside scores of one stack prefix (see the module docstring), valid for r ≥ ``lo``."""

    def __init__(self, prefix: tuple[int, ...], lo: int, wst: Array, parent: Level | None) -> None:
        self.prefix, self.lo, self.wst, self.parent = prefix, lo, wst, parent
        # once complete: wst, wmax and b2 (by buffer spine token c) of levels 1..i, one row each
        self.rows: tuple[Array, Array, Array] | None = None

    def complete(self, g: GoldTables) -> tuple[Array, Array, Array]:
        """Add the buffer spine tokens that X's head may hang from; stack the rows of all levels."""
        if self.rows is not None:
            return self.rows
        n, lo, h, wst = g.n, self.lo, self.prefix[-1], self.wst
        up = self.parent.complete(g) if self.parent is not None else None
        carry = g.row(n + 2)
        if up is not None:               # h joins the stack run of a buffer spine token c
            carry = up[2][-1].copy()
            if g.heads[h] > lo:
                carry[g.heads[h]] += 1
        b2 = g.row(n + 2)
        if lo < n:
            cs = slice(lo + 1, n + 1)
            own = (g.cr[cs, lo:n + 1] + wst[None, lo:]).max(1) + (g.heads[cs] == h)
            start = np.maximum(carry[cs], own)
            b2[cs] = (g.ilstar[cs, cs] + start[None, :]).max(1)
        wmax = g.row(n + 1)
        wmax[lo:] = np.maximum(wst[lo:], (g.cl[lo + 1:n + 2, lo + 1:n + 2] + b2[None, lo + 1:]).max(1))
        if up is None:
            self.rows = (wst[None, :], wmax[None, :], b2[None, :])
        else:
            # np.concatenate, not np.vstack: this runs once per level, and vstack's checks cost more
            self.rows = (np.concatenate((up[0], wst[None, :])), np.concatenate((up[1], wmax[None, :])),
                         np.concatenate((up[2], b2[None, :])))
        return self.rows


def enter(g: GoldTables, parent: Level, h: int, lo: int) -> Array:
    """A[r]: best outside score once stack token h heads a subtree ending at r (r ≥ lo).

    h's subtree starts at some level j: it takes s(j)..s(i−1) as direct left dependents and hangs
    from that level's s(j−1) or from a buffer spine token.
    """
    wst_rows, wmax_rows, b2_rows = parent.complete(g)
    prefix, n = parent.prefix, g.n
    head_of = g.head_of
    counts = [0] * len(prefix)                            # counts[j-1]: gold children of h in s(j)..s(i−1)
    for j in range(len(prefix) - 1, 0, -1):               # (a loop in Python: the stack is short)
        counts[j - 1] = counts[j] + (head_of[prefix[j]] == h)
    run = np.array(counts, dtype=float)
    score = wmax_rows[:, lo:n + 1] + run[:, None]
    gh = int(g.heads[h])
    at = bisect_left(prefix, gh)
    if at < len(prefix) and prefix[at] == gh:            # h's gold head is s(j−1): the arc is gold
        score[at] = np.maximum(score[at], wst_rows[at, lo:n + 1] + run[at] + 1)
    elif gh > lo:                                        # h's gold head is a buffer spine token
        bonus = b2_rows[:, gh, None] + g.cl[lo + 1:gh + 1, gh][None, :] + run[:, None] + 1
        score[:, :gh - lo] = np.maximum(score[:, :gh - lo], bonus)
    out = g.row(n + 1)
    out[lo:] = score.max(0)
    return out


def right_dependents(g: GoldTables, a: Array, h: int, lo: int) -> Array:
    """F[x]: like ``a``, after h has also taken right dependents covering x+1..r (x ≥ lo).

    A forest of buffer subtrees, except that each gold child c of h taken as a dependent earns
    its arc: those few children are threaded through one by one, right to left.
    """
    n = g.n
    f = g.row(n + 1)
    f[lo:] = (g.forest[lo:n + 1, lo:n + 1] + a[None, lo:]).max(1)
    for c in reversed(g.children[h]):
        if c <= lo:
            break
        inc = (f[c:] + g.cr[c, c:n + 1]).max() + 1
        f[lo:c] = np.maximum(f[lo:c], inc + g.clf[lo:c, c])
    return f


def root_level(g: GoldTables, lo: int) -> Level:
    """Level 1: X spans everything but ROOT and hangs from ROOT."""
    a = g.row(g.n + 1)
    a[g.n] = 0
    return Level((0,), lo, a if g.single_root else right_dependents(g, a, 0, lo), None)


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
        made = Level(prefix, own_lo, right_dependents(g, enter(g, parent, h, own_lo), h, own_lo), parent)
    g.levels[prefix] = made
    return made


def future(g: GoldTables, c: Configuration) -> float:
    """The most gold arcs the moves from ``c`` on can still add."""
    front = c.buffer[0] if c.buffer else g.n + 1
    if c.stack == (0,) and g.single_root:               # ROOT's one dependent spans the buffer
        if not c.buffer:
            return 0
        below = g.cl[front, front:g.n + 1] + g.cr[front:g.n + 1, g.n]
        gold_roots = [below[d - front] + 1 for d in g.children[0] if d >= front]
        return float(max([below.max(), *gold_roots]))
    return float(level(g, c.stack, front - 1).wst[front - 1])


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
        gold_arcs = gold.gold_arcs
        values = {t: (arc in gold_arcs) + future(g, after) for t, arc, after in self.system.successors(c)}
        top = max(values.values(), default=-math.inf)
        return {t: math.inf if v == -math.inf else int(top - v) for t, v in values.items()}

    def best(self, c: Configuration, gold: Sentence) -> float:
        """The most gold arcs a final configuration reachable from ``c`` can hold."""
        built = sum(1 for arc in c.unlabelled_arcs if arc in gold.gold_arcs)
        return built + future(self.tables(gold), c)

    def tables(self, gold: Sentence) -> GoldTables:
        """The gold tree's tables and level cache (the last few trees are kept)."""
        return self._tables(gold.gold_heads)
