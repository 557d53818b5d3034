"""The chart loop of Nederhof's parser (:mod:`.nederhof_grammar`), compiled by numba.

One width of the chart used to be a handful of numpy operations over every start position and
split point at once.  On a configuration of a 50-token sentence the chart's cells are small and
many (a width at a time, four item shapes, a few start positions), and numpy's overhead per call
was most of the time: about 7 ms to score one configuration's moves, and seconds for the
Stepper's click, whose explanations follow the oracle to the end of the parse several times.
The same formulas as plain loops, compiled (``cache=True``: once per machine, then loaded from
``__pycache__``), give the same scores; the tests that hold the oracle to brute force and to the
spec's reference parser are unchanged.

Layout as in :class:`~parsing_core.oracles.nederhof_grammar.Chart`: ``rh_s[b, i, w]`` is the
right half RH[i][i+w] (a vector over grammar states), ``rh_e[b, j, w]`` = RH[j−w][j]; likewise
``lh_*`` for left halves and ``tz_*`` for trapezoids (over state pairs).  ``w_s[b, i, e]`` is the
weight of head i taking the dependent at i + e, ``w_e[b, j, e]`` that of head j taking j − e.
The rule arrays are those of :class:`~parsing_core.oracles.nederhof_grammar.Rules`: each
attachment group ``g`` (the rules that produce one state) spans ``starts[g]`` up to the next.
"""

from __future__ import annotations

import numpy as np
from numba import njit

NEG = -np.inf


@njit(cache=True)
def fill_widths(rh_s: np.ndarray, rh_e: np.ndarray, lh_s: np.ndarray, lh_e: np.ndarray,
                tz_s: np.ndarray, tz_e: np.ndarray, w_s: np.ndarray, w_e: np.ndarray, limit: int,
                pair_ids: np.ndarray, pair_right: np.ndarray, pair_left: np.ndarray,
                r_pair: np.ndarray, r_dep: np.ndarray, r_out: np.ndarray, r_starts: np.ndarray,
                l_dep: np.ndarray, l_pair: np.ndarray, l_out: np.ndarray, l_starts: np.ndarray) -> None:
    """Every item that starts before ``limit``, width by width (the later ones are known):

    * TZ[i][j] = max over m of RH[i][m] + LH[m+1][j], per state pair;
    * RH[i][j] (outermost right dependent at d = i + e, e = 1..w): TZ[i][d] + RH[d][j] + weight(i → d);
    * LH[i][j] (outermost left dependent at d = i + e, e = 0..w−1): LH[i][d] + TZ[d][j] + weight(j → d);

    each RH and LH value the best over the rules that produce its state.
    """
    batch, n = rh_s.shape[0], rh_s.shape[1]
    n_right, n_left = r_pair.shape[0], l_pair.shape[0]
    for w in range(1, min(n, n - 1 + limit)):
        for b in range(batch):
            for i in range(min(limit, n - w)):
                j = i + w
                for k in range(pair_ids.shape[0]):
                    best = NEG
                    for e in range(w):
                        best = max(best, rh_s[b, i, e, pair_right[k]] + lh_e[b, j, w - 1 - e, pair_left[k]])
                    tz_s[b, i, w, pair_ids[k]] = best
                    tz_e[b, j, w, pair_ids[k]] = best
                for g in range(r_out.shape[0]):
                    end = r_starts[g + 1] if g + 1 < r_out.shape[0] else n_right
                    best = NEG
                    for q in range(r_starts[g], end):
                        for e in range(1, w + 1):
                            best = max(best, tz_s[b, i, e, r_pair[q]] + rh_e[b, j, w - e, r_dep[q]]
                                       + w_s[b, i, e])
                    rh_s[b, i, w, r_out[g]] = best
                    rh_e[b, j, w, r_out[g]] = best
                for g in range(l_out.shape[0]):
                    end = l_starts[g + 1] if g + 1 < l_out.shape[0] else n_left
                    best = NEG
                    for q in range(l_starts[g], end):
                        for e in range(w):
                            best = max(best, lh_s[b, i, e, l_dep[q]] + tz_e[b, j, w - e, l_pair[q]]
                                       + w_e[b, j, w - e])
                    lh_s[b, i, w, l_out[g]] = best
                    lh_e[b, j, w, l_out[g]] = best
