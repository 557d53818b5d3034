"""The loops of the exact arc-standard oracle (:mod:`.arc_standard_exact`), compiled by numba.

Every function here is one formula of that module's docstring written as plain loops over
token positions, with −∞ for "no such span".  Written as numpy slices, a configuration of a
walk over en_lines took about 80 µs, most of it numpy's overhead per call on rows of twenty
or forty cells; compiled (``cache=True``: once per machine, then loaded from
``__pycache__``), about 20 µs, with the same costs (the tests that hold the oracle to
exhaustive search are unchanged).

Conventions: tokens are 1..n, ROOT is 0; square tables are (n+2)×(n+2) indexed [left end,
right end] (row n+1 is an always-empty sentinel, so ``table[r + 1, ·]`` needs no bounds
check); ``heads[d]`` is d's gold head (``heads[0] = −1``); an outside row has n+2 cells
indexed by r, the last token of the subtree X (the last cell, like the sentinel row, −∞).
"""

from __future__ import annotations

import numpy as np
from numba import njit

NEG = -np.inf


@njit(cache=True)
def eisner_spans(heads: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CL[x, d] (d heads x..d), CR[d, y] (d heads d..y), IL[d, e] (e → d, span d..e).

    Each value is the most gold arcs a projective subtree of that shape can hold; spans of
    length L are built from shorter ones (Eisner's algorithm, counting gold arcs).
    """
    n = heads.shape[0] - 1
    size = n + 2
    cl, cr = np.full((size, size), NEG), np.full((size, size), NEG)
    il, ir = np.full((size, size), NEG), np.full((size, size), NEG)
    for d in range(1, n + 1):
        cl[d, d] = 0.0
        cr[d, d] = 0.0
    for length in range(1, n):
        for s in range(1, n - length + 1):
            e = s + length
            base = NEG
            for k in range(s, e):  # split: CR[s, k] + CL[k+1, e]
                base = max(base, cr[s, k] + cl[k + 1, e])
            ir[s, e] = base + (1.0 if heads[e] == s else 0.0)  # s → e
            il[s, e] = base + (1.0 if heads[s] == e else 0.0)  # e → s
            right = NEG
            for d in range(s + 1, e + 1):  # s's last right dependent d: IR[s, d] + CR[d, e]
                right = max(right, ir[s, d] + cr[d, e])
            left = NEG
            for d in range(s, e):  # e's last left dependent d: CL[s, d] + IL[d, e]
                left = max(left, cl[s, d] + il[d, e])
            cr[s, e], cl[s, e] = right, left
    return cl, cr, il


@njit(cache=True)
def forest_tables(cl: np.ndarray, cr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """forest[x, y]: the best forest over x+1..y, roots unattached (0 if x = y); and
    clf[x, c]: c with its left part starting at some l > x, and a forest over x+1..l−1."""
    size = cl.shape[0]
    n = size - 2
    one_tree = np.full((size, size), NEG)  # [a, b]: the best tree over a..b
    for a in range(1, n + 1):
        for b in range(a, n + 1):
            best = NEG
            for k in range(a, b + 1):
                best = max(best, cl[a, k] + cr[k, b])
            one_tree[a, b] = best
    forest = np.full((size, size), NEG)
    for x in range(size):
        forest[x, x] = 0.0
    for y in range(1, n + 1):  # the last tree spans k+1..y
        for x in range(y):
            best = NEG
            for k in range(x, y):
                best = max(best, forest[x, k] + one_tree[k + 1, y])
            forest[x, y] = best
    clf = np.full((n + 1, size), NEG)
    for x in range(n + 1):
        for c in range(x + 1, n + 1):
            best = NEG
            for m in range(x, c):  # the forest ends at m, c's left part starts at m + 1
                best = max(best, forest[x, m] + cl[m + 1, c])
            clf[x, c] = best
    return forest, clf


@njit(cache=True)
def chain_table(il: np.ndarray) -> np.ndarray:
    """ilstar[c, c']: the best chain c ← … ← c' of ``il`` steps (0 if c = c')."""
    size = il.shape[0]
    n = size - 2
    star = np.full((size, size), NEG)
    for c in range(size):
        star[c, c] = 0.0
    for c in range(n - 1, 0, -1):
        for far in range(c + 1, size):
            best = NEG
            for m in range(c + 1, min(far, n) + 1):
                best = max(best, il[c, m] + star[m, far])
            star[c, far] = best
    return star


#: Which table of a gold tree's ``spans`` stack (:func:`gold_spans`) holds what.
CL, CR, FOREST, ILSTAR, CLF = 0, 1, 2, 3, 4


@njit(cache=True)
def gold_spans(heads: np.ndarray) -> np.ndarray:
    """The five (n+2)×(n+2) tables of one gold tree, stacked: CL, CR, FOREST, ILSTAR, CLF."""
    n = heads.shape[0] - 1
    cl, cr, il = eisner_spans(heads)
    forest, clf = forest_tables(cl, cr)
    spans = np.full((5, n + 2, n + 2), NEG)
    spans[CL], spans[CR], spans[FOREST], spans[ILSTAR] = cl, cr, forest, chain_table(il)
    spans[CLF, :n + 1] = clf
    return spans


@njit(cache=True)
def right_dependents(spans: np.ndarray, kids: np.ndarray, a: np.ndarray, lo: int) -> np.ndarray:
    """F[x]: like ``a``, after h has also taken right dependents covering x+1..r (x ≥ lo).

    A forest of buffer subtrees, except that each gold child c of h (``kids``, ascending)
    taken as a dependent earns its arc: they are threaded through one by one, right to left.
    """
    forest, cr, clf = spans[FOREST], spans[CR], spans[CLF]
    n = a.shape[0] - 2
    f = np.full(n + 2, NEG)
    for x in range(lo, n + 1):
        best = NEG
        for r in range(lo, n + 1):
            best = max(best, forest[x, r] + a[r])
        f[x] = best
    for i in range(kids.shape[0] - 1, -1, -1):
        c = kids[i]
        if c <= lo:
            break
        inc = NEG
        for y in range(c, n + 1):
            inc = max(inc, f[y] + cr[c, y])
        inc += 1.0
        for x in range(lo, c):
            f[x] = max(f[x], inc + clf[x, c])
    return f


@njit(cache=True)
def push_level(spans: np.ndarray, heads: np.ndarray, kids: np.ndarray, prefix: np.ndarray,
               rows: np.ndarray, h: int, lo: int) -> np.ndarray:
    """The wst row of the prefix + (h,), from the rows (wst, wmax, b2) of the prefix's levels.

    Entering: A[r], the best outside score once stack token h heads a subtree ending at r
    (r ≥ lo).  h's subtree starts at some level j: it takes s(j)..s(i−1) as direct left
    dependents (``run[j]`` of them are gold) and hangs from that level's s(j−1) or from a
    buffer spine token.  Then h takes its right dependents (:func:`right_dependents`).
    """
    cl = spans[CL]
    n = rows.shape[2] - 2
    i = prefix.shape[0]
    run = np.zeros(i)
    for j in range(i - 1, 0, -1):
        run[j - 1] = run[j] + (1.0 if heads[prefix[j]] == h else 0.0)
    gh = heads[h]
    at = -1  # the level whose top is h's gold head (−1: none; the head is then in the buffer)
    for j in range(i):
        if prefix[j] == gh:
            at = j
    a = np.full(n + 2, NEG)
    for r in range(lo, n + 1):
        best = NEG
        for j in range(i):
            v = rows[1, j, r] + run[j]  # wmax
            if j == at:  # the arc to s(j−1) is gold
                v = max(v, rows[0, j, r] + run[j] + 1.0)
            elif at < 0 and lo < gh and r < gh:  # h's gold head is a buffer spine token
                v = max(v, rows[2, j, gh] + cl[r + 1, gh] + run[j] + 1.0)
            best = max(best, v)
        a[r] = best
    return right_dependents(spans, kids, a, lo)


@njit(cache=True)
def stack_rows(spans: np.ndarray, heads: np.ndarray, below: np.ndarray, wst: np.ndarray, h: int,
               lo: int) -> np.ndarray:
    """The rows (wst, wmax, b2) of a level and all below it: ``below`` (3, i, n+2) plus one.

    b2[c], by buffer spine token c that X's head may hang from: c's own right part over
    the rest, or h joining the stack run of the level below's spine token (earning the
    arc h ← c when c is h's gold head); then chains of left dependents.  wmax[r]: the best
    of hanging from h (wst) or from any buffer spine token.
    """
    cl, cr, ilstar = spans[CL], spans[CR], spans[ILSTAR]
    n = wst.shape[0] - 2
    i = below.shape[1]
    out = np.full((3, i + 1, n + 2), NEG)
    out[:, :i] = below
    out[0, i] = wst
    b2 = out[2, i]
    if lo < n:
        start = np.full(n + 2, NEG)
        gh = heads[h]
        for c in range(lo + 1, n + 1):
            own = NEG
            for r in range(lo, n + 1):
                own = max(own, cr[c, r] + wst[r])
            own += 1.0 if heads[c] == h else 0.0
            joined = NEG if i == 0 else below[2, i - 1, c] + (1.0 if c == gh else 0.0)
            start[c] = max(joined, own)
        for c in range(lo + 1, n + 1):
            best = NEG
            for far in range(lo + 1, n + 1):
                best = max(best, ilstar[c, far] + start[far])
            b2[c] = best
    for r in range(lo, n + 1):
        best = wst[r]
        for c in range(lo + 1, n + 2):
            best = max(best, cl[r + 1, c] + b2[c])
        out[1, i, r] = best
    return out
