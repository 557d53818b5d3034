"""Nederhof's split bilexical grammars (2021, Tables 9 and 10) and the cubic tabular parser.

A configuration becomes a string of terminals, one per stack token and per buffer token
(``r r lb n n``), and the string is parsed exhaustively in the (max, +) semiring: every
attachment of a dependent at position d to a head at position h scores 1 when the tokens
there form a gold arc.  The best derivation's score is σ, the most gold arcs the parser can
still build from that configuration.  The grammar encodes how arc-eager can finish:

======================  ========================================================
rule                    reading
======================  ========================================================
``(B, C) → a``          a token starts with left state B and right state C
``(B', _) → A (B, _)``  a finished constituent A becomes a left dependent; B → B'
``(_, C') → (_, C) A``  a finished constituent A becomes a right dependent; C → C'
``A → (B, C)``          a head with final states (B, C) closes into a constituent A
======================  ========================================================

Left dependents attach nearest first, and so do right ones.  The goal is the whole string
as one constituent of the goal category (R_t for Table 9, R for Table 10) headed by its
first position, token 0.  Rules are the spec's literals (§4.6.6).

The parser is the generic Eisner–Satta algorithm (spec §4.6.3) over half-constituents
``LH[i][h]`` (head h, its left dependents from i on), ``RH[h][j]`` and trapezoids
``TZ[i][j]`` = best ``RH[i][m] + LH[m+1][j]``, one item type per shape, computed width by
width.  Each item is a vector over grammar states, held in numpy arrays; the chart is filled by
compiled loops (:mod:`.nederhof_loops`); several strings (the candidate moves of one
configuration) are parsed side by side in a batch.

>>> sigma(TABLE_9, [["r", "r", "rt", "n", "n"]], [[0, 1, 2, 3, 4]], (0, 1, 4, 1))
[4.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .nederhof_loops import fill_widths

NEG = -np.inf
Rule3 = tuple[str, str, str]


@dataclass(frozen=True)
class Grammar:
    """A split bilexical grammar as four rule lists (spec §4.6.6) and a goal category.

    ``left``: (B', A, B) for (B', _) → A (B, _);  ``right``: (C', C, A) for (_, C') → (_, C) A;
    ``comp``: (A, B, C) for A → (B, C);  ``term``: symbol → (B, C).
    """

    name: str
    term: dict[str, tuple[str, str]] = field(hash=False)
    left: tuple[Rule3, ...]
    right: tuple[Rule3, ...]
    comp: tuple[Rule3, ...]
    goal: str

    def without_right(self, dropped: Sequence[Rule3], name: str) -> Grammar:
        """The same grammar minus some right-attachment rules."""
        right = tuple(r for r in self.right if r not in dropped)
        return Grammar(name, self.term, self.left, right, self.comp, self.goal)

    @cached_property
    def tables(self) -> Tables:
        return Tables(self)


# -- the grammars, verbatim from the spec (§4.6.6) ------------------------------------------
TABLE_9 = Grammar(
    "Table 9 (normalized arc-eager)",
    term={"r": ("R", "R"), "rt": ("Rt", "Rt"), "l": ("L", "L"), "lt": ("Lt", "Lt"), "n": ("N", "N"),
          "lb": ("Lb", "Lb")},
    right=(("Rt", "R", "Rt"), ("Rt", "R", "Lt"), ("Rt", "R", "N"), ("Rt", "Rt", "N"),
           ("Lt", "L", "Rt"), ("Lt", "L", "Lt"), ("Lt", "L", "N"), ("Lt", "Lt", "N"),
           ("N", "N", "N"), ("Lb", "Lb", "N")),
    left=(("N", "N", "N"), ("N", "L", "N"), ("N", "Lt", "N"), ("N", "Lb", "N")),
    comp=(("R", "R", "R"), ("Rt", "R", "Rt"), ("Rt", "Rt", "Rt"), ("L", "L", "L"), ("Lt", "L", "Lt"),
          ("Lt", "Lt", "Lt"), ("N", "N", "N"), ("Lb", "Lb", "Lb")),
    goal="Rt",
)

TABLE_10 = Grammar(
    "Table 10 (corrected arc-eager)",
    term={"r": ("R", "R"), "rp": ("Rp", "Rp"), "l": ("L", "L"), "lp": ("Lp", "Lp"), "n": ("N", "N"),
          "np": ("Np", "Np"), "lb": ("Lb", "Lb")},
    right=(("R", "R", "N"), ("R", "R", "Np"), ("R1", "R", "R"), ("R1", "R", "L"), ("R", "Rp", "N"),
           ("R1", "Rp", "R"), ("R1", "Rp", "L"), ("R1", "R1", "N"), ("R1", "R1", "Np"),
           ("L", "L", "N"), ("L", "L", "Np"), ("L1", "L", "R"), ("L1", "L", "L"), ("L", "Lp", "N"),
           ("L1", "Lp", "R"), ("L1", "Lp", "L"), ("L1", "L1", "N"), ("L1", "L1", "Np"),
           ("N", "N", "N"), ("Np", "Np", "N"), ("Lb", "Lb", "N")),
    left=(("N", "N", "N"), ("N", "L", "N"), ("N", "L", "Np"), ("N", "Lp", "N"), ("N", "Lb", "N")),
    comp=(("R", "R", "R"), ("R", "R", "R1"), ("R", "Rp", "R"), ("R", "Rp", "R1"), ("Rp", "Rp", "Rp"),
          ("L", "L", "L"), ("L", "L", "L1"), ("L", "Lp", "L"), ("L", "Lp", "L1"), ("Lp", "Lp", "Lp"),
          ("N", "N", "N"), ("N", "N", "Np"), ("Np", "Np", "Np"), ("Lb", "Lb", "Lb")),
    goal="R",
)

# Plain arc-eager (no reduce_correct): an L-labelled token may never become a right child,
# so rules (6), (9), (22) and (25) go.
TABLE_10_UNCORRECTED = TABLE_10.without_right(
    [("R1", "R", "L"), ("R1", "Rp", "L"), ("L1", "L", "L"), ("L1", "Lp", "L")],
    "Table 10 without rules 6, 9, 22, 25 (uncorrected arc-eager)",
)


class Tables:
    """A grammar compiled to integer index arrays for the numpy parser.

    States are numbered 0..S-1; a *pair* is a (right state of the left item, left state of
    the right item) combination that some rule reads off a trapezoid.  The rules themselves
    are compiled per set of symbols (:meth:`rules`), keeping only what those symbols can reach.
    """

    def __init__(self, g: Grammar) -> None:
        self.grammar = g
        states = sorted({s for pair in g.term.values() for s in pair}
                        | {r[0] for r in g.right + g.left} | {r[1] for r in g.right + g.comp}
                        | {r[2] for r in g.left + g.comp})
        self.symbols = tuple(g.term)
        self.sym_index = {s: i for i, s in enumerate(self.symbols)}
        self.states = tuple(states)
        self.ix = {s: i for i, s in enumerate(states)}
        self.term_left = np.array([self.ix[g.term[s][0]] for s in self.symbols])
        self.term_right = np.array([self.ix[g.term[s][1]] for s in self.symbols])
        right, left = attachments(g, frozenset(self.symbols))
        self.pairs = sorted({p for _, p, _ in right} | {p for _, _, p in left})
        self.pair_index = {p: i for i, p in enumerate(self.pairs)}
        goal = [(self.ix[b], self.ix[c]) for a, b, c in g.comp if a == g.goal]
        self.goal_left = np.array([b for b, _ in goal])
        self.goal_right = np.array([c for _, c in goal])
        self._rules: dict[frozenset[str], Rules] = {}

    @property
    def n_states(self) -> int:
        return len(self.states)

    @property
    def n_pairs(self) -> int:
        return len(self.pairs)

    def rules(self, symbols: frozenset[str]) -> Rules:
        if symbols not in self._rules:
            self._rules[symbols] = Rules(self, symbols)
        return self._rules[symbols]


class Rules:
    """The rule applications strings over ``symbols`` can use, as index arrays.

    A right attachment reads a trapezoid pair (C, Bd) and the dependent's right state Cd and
    gives the head's new right state C'; a left attachment reads the dependent's left state
    Bd and a pair (Cd, B) and gives B'.  Both are sorted by the state they produce, so that
    ``np.maximum.reduceat`` over ``*_starts`` groups them.
    """

    def __init__(self, t: Tables, symbols: frozenset[str]) -> None:
        right, left = attachments(t.grammar, symbols)
        pairs = sorted({p for _, p, _ in right} | {p for _, _, p in left})
        ix, px = t.ix, t.pair_index
        self.pair_ids = np.array([px[p] for p in pairs], dtype=np.intp)
        self.pair_right = np.array([ix[c] for c, _ in pairs], dtype=np.intp)   # from RH[i][m]
        self.pair_left = np.array([ix[b] for _, b in pairs], dtype=np.intp)    # from LH[m+1][j]
        self.r_pair = np.array([px[p] for _, p, _ in right], dtype=np.intp)
        self.r_dep = np.array([ix[cd] for _, _, cd in right], dtype=np.intp)
        self.r_out, self.r_starts = _groups([ix[c2] for c2, _, _ in right])
        self.l_dep = np.array([ix[bd] for _, bd, _ in left], dtype=np.intp)
        self.l_pair = np.array([px[p] for _, _, p in left], dtype=np.intp)
        self.l_out, self.l_starts = _groups([ix[b2] for b2, _, _ in left])


Right = list[tuple[str, tuple[str, str], str]]
Left = list[tuple[str, str, tuple[str, str]]]


def attachments(g: Grammar, symbols: frozenset[str]) -> tuple[Right, Left]:
    """Right attachments (C', (C, Bd), Cd) and left ones (B', Bd, (Cd, B)) over ``symbols``:
    an attachment rule joined with the rule A → (Bd, Cd) that closes the dependent."""
    states, cats = reachable(g, symbols)
    closes = [(a, bd, cd) for a, bd, cd in g.comp if bd in states and cd in states]
    right = sorted({(c2, (c, bd), cd) for c2, c, a in g.right if c in states and a in cats
                    for a2, bd, cd in closes if a2 == a})
    left = sorted({(b2, bd, (cd, b)) for b2, a, b in g.left if a in cats and b in states
                   for a2, bd, cd in closes if a2 == a})
    return right, left


def reachable(g: Grammar, symbols: frozenset[str]) -> tuple[set[str], set[str]]:
    """States and categories that derivations over ``symbols`` can reach (an over-estimate)."""
    states = {s for sym in symbols for s in g.term[sym]}
    cats: set[str] = set()
    while True:
        new_cats = {a for a, b, c in g.comp if b in states and c in states} - cats
        new_states = ({c2 for c2, c, a in g.right if c in states and a in cats}
                      | {b2 for b2, a, b in g.left if a in cats and b in states}) - states
        if not new_cats and not new_states:
            return states, cats
        cats |= new_cats
        states |= new_states


def _groups(outs: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """For a sorted list of output states: the distinct states and where each run starts."""
    starts = [i for i, s in enumerate(outs) if i == 0 or outs[i - 1] != s]
    return np.array([outs[i] for i in starts], dtype=np.intp), np.array(starts, dtype=np.intp)


# -- the chart -----------------------------------------------------------------------------
class Chart:
    """Items of a batch of strings (B rows, N positions), each a vector over grammar states.

    Every item is stored twice, by start and by end, so that the split points of one cell
    are a plain slice:  ``rh_s[b, i, w]`` = RH[i][i+w] and ``rh_e[b, j, w]`` = RH[j-w][j];
    likewise ``lh_*`` (left halves) and ``tz_*`` (trapezoids, over pairs, not states).
    """

    def __init__(self, t: Tables, batch: int, n: int) -> None:
        self.rh_s, self.rh_e, self.lh_s, self.lh_e = np.full((4, batch, n, n, t.n_states), NEG, np.float32)
        self.tz_s, self.tz_e = np.full((2, batch, n, n, t.n_pairs), NEG, np.float32)

    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        return self.rh_s, self.rh_e, self.lh_s, self.lh_e, self.tz_s, self.tz_e

    def start_terminals(self, t: Tables, syms: np.ndarray) -> None:
        """Width-0 items: each position's terminal rule (B, C) → a; ``syms`` (B, N), −1 = padding."""
        rows, cols = np.nonzero(syms >= 0)
        s = syms[rows, cols]
        for half_s, half_e, states in ((self.lh_s, self.lh_e, t.term_left),
                                       (self.rh_s, self.rh_e, t.term_right)):
            half_s[rows, cols, 0, states[s]] = 0
            half_e[rows, cols, 0, states[s]] = 0

    def copy_suffix(self, other: Chart, first: int, src: int, length: int) -> None:
        """Take the items lying within positions first.. from ``other``'s positions src.. (row 0)."""
        for mine, theirs in zip(self.arrays, other.arrays, strict=True):
            mine[:, first:first + length, :length] = theirs[0, src:src + length, :length]


def fill(r: Rules, ch: Chart, w_s: np.ndarray, w_e: np.ndarray, limit: int) -> None:
    """Compute every item that starts before ``limit`` (later ones are known), width by width
    (the loops of :mod:`.nederhof_loops`, compiled).

    ``w_s[b, i, e]`` is the weight of head i taking the dependent at i + e, ``w_e[b, j, e]``
    that of head j taking the dependent at j − e (1 for a gold arc, else 0).
    """
    fill_widths(ch.rh_s, ch.rh_e, ch.lh_s, ch.lh_e, ch.tz_s, ch.tz_e,
                np.ascontiguousarray(w_s), np.ascontiguousarray(w_e), limit,
                r.pair_ids, r.pair_right, r.pair_left, r.r_pair, r.r_dep, r.r_out, r.r_starts,
                r.l_dep, r.l_pair, r.l_out, r.l_starts)


def warm_up() -> None:
    """Compile the chart loop now (or load it from numba's disk cache), so that the first learner
    to pick Nederhof's oracle does not wait for it."""
    sigma(TABLE_10, [["r", "n", "n"]], [[0, 1, 2]], (2, 0))


# -- parsing strings for one gold tree -----------------------------------------------------
class GoldTables:
    """What the parser needs about one gold tree, computed once: its arc matrix and, per
    grammar, the chart of the all-``n`` string over tokens 1..n (the buffer is always a
    suffix of it, so the buffer's own items are shared by every configuration)."""

    def __init__(self, gold_heads: Sequence[int]) -> None:
        self.n = n = len(gold_heads)
        self.arcs = np.zeros((n + 2, n + 2), np.float32)   # token n + 1 is padding
        self.arcs[list(gold_heads), np.arange(1, n + 1)] = 1
        self._buffer_charts: dict[str, Chart] = {}

    def buffer_chart(self, g: Grammar) -> Chart:
        if g.name not in self._buffer_charts:
            syms = np.full((1, self.n), g.tables.sym_index["n"])
            toks = np.arange(1, self.n + 1)[None]
            self._buffer_charts[g.name] = parse(g, syms, toks, self, frozenset({"n"}))
        return self._buffer_charts[g.name]


def parse(g: Grammar, syms: np.ndarray, toks: np.ndarray, gold: GoldTables, symbols: frozenset[str],
          known: tuple[Chart, int, int] | None = None) -> Chart:
    """The chart of a batch of strings: ``syms`` (B, N) symbol ids (−1 = padding), ``toks``
    (B, N) token ids (padding n + 1), ``symbols`` the symbols they use.  ``known`` = (chart,
    first, src): the items within positions first.. are those of row 0 of chart from src on."""
    t = g.tables
    batch, n = syms.shape
    rules = t.rules(symbols)
    ch = Chart(t, batch, n)
    ch.start_terminals(t, syms)
    limit = n
    if known is not None:
        other, limit, src = known
        ch.copy_suffix(other, limit, src, n - limit)
    weights = gold.arcs[toks[:, :, None], toks[:, None, :]]          # (B, N, N): head i → dep d
    ar = np.arange(n)
    w_s = weights[:, ar[:, None], np.minimum(ar[:, None] + ar, n - 1)]
    w_e = weights[:, ar[:, None], np.maximum(ar[:, None] - ar, 0)]
    fill(rules, ch, w_s, w_e, limit)
    return ch


def goal_scores(g: Grammar, ch: Chart, starts: np.ndarray) -> np.ndarray:
    """Best derivation of each row as one goal constituent headed by its first position."""
    t = g.tables
    n = ch.rh_s.shape[1]
    rows = np.arange(len(starts))
    left = ch.lh_s[rows, starts, 0][:, t.goal_left]
    right = ch.rh_s[rows, starts, n - 1 - starts][:, t.goal_right]
    best: np.ndarray = (left + right).max(1)
    return best


def sigma(g: Grammar, strings: Sequence[Sequence[str]], tokens: Sequence[Sequence[int]],
          gold: Sequence[int] | GoldTables) -> list[float]:
    """σ for each string (the most gold arcs of any derivation headed by its first token).

    The strings are parsed together, right-aligned; when they all end in the same run of
    ``n`` over tokens …, n, that run's items come from the gold tree's buffer chart.
    """
    if not strings:
        return []
    gold = gold if isinstance(gold, GoldTables) else GoldTables(gold)
    t = g.tables
    n = max(len(s) for s in strings)
    syms = np.full((len(strings), n), -1)
    toks = np.full((len(strings), n), gold.n + 1)
    for row, (s, k) in enumerate(zip(strings, tokens, strict=True)):
        syms[row, n - len(s):] = [t.sym_index[x] for x in s]
        toks[row, n - len(s):] = k
    known = None
    shared = _shared_buffer(strings, tokens, gold.n)
    if "n" in t.sym_index and shared > 1:
        known = (gold.buffer_chart(g), n - shared, gold.n - shared)
    ch = parse(g, syms, toks, gold, frozenset(x for s in strings for x in s), known)
    starts = np.array([n - len(s) for s in strings])
    return [float(v) for v in goal_scores(g, ch, starts)]


def _shared_buffer(strings: Sequence[Sequence[str]], tokens: Sequence[Sequence[int]], n: int) -> int:
    """Length of the common suffix of ``n`` symbols over the tokens …, n−1, n."""
    length = 0
    while all(len(s) > length + 1 and s[-1 - length] == "n" and k[-1 - length] == n - length
              for s, k in zip(strings, tokens, strict=True)):
        length += 1
    return length
