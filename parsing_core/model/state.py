"""The configurations of a whole batch as arrays: one numpy operation per step, not one per sentence.

A :class:`~parsing_core.Configuration` is the library's one-sentence state: tuples, immutable,
what the oracles, the stepper and every page read.  Parsing and training a network walk B
sentences in lockstep, and asking B configurations one by one for their legal moves and key
positions was most of the Python time of a step.  :class:`BatchState` holds the same B
configurations as arrays (B rows each):

* ``stack[i, :sl[i]]`` — σ, bottom first, as in a configuration;
* ``queue[i, :ql[i]]`` — β **reversed**: the front b is ``queue[i, ql[i] − 1]``, so SHIFT and
  both SWAPs are pushes and pops at one end, like the stack;
* ``heads[i, d]`` / ``labels[i, d]`` — the arc set, −1 for none (column 0 is ROOT's, unused);
* ``leftmost[i, h]`` / ``rightmost[i, h]`` — h's outermost dependents so far (for the
  ``children`` features), kept up to date as arcs are added.

Legal masks (B, K), feature rows (B, F) and the arcs moves would build come out for the whole
batch at once (the moves themselves are :mod:`.rules`); :meth:`BatchState.configuration`
turns row i back into the configuration the one-sentence path would have reached, exactly.

A step reads the same few positions many times (s0 for the legal moves, the features, the
arcs and the costs); ``s(k)``, ``b(k)`` and ``terminal()`` are worked out once per step and
kept until the next :meth:`BatchState.apply`, which is the only way the arrays change.

>>> import parsing_core as pc
>>> system = pc.get_system("arc-hybrid")
>>> st = BatchState(system, [3, 1])
>>> st.legal_mask().tolist()               # SH LA RA
[[True, False, False], [True, False, False]]
>>> st.apply([0, 0])                       # both shift
>>> st.configuration(0)
Configuration(stack=(0, 1), buffer=(2, 3), heads=(None, None, None), labels=(None, None, None))
>>> st.legal_mask()[1].tolist()            # one word, empty buffer: only RA (ROOT → 1)
[False, False, True]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..configuration import Configuration
from ..systems import TransitionSystem
from .features import MISSING
from .rules import NONE, Array, is_terminal, rules_of


class BatchState:
    """B configurations of ``system`` (sentences of ``lengths`` tokens) as arrays; see the module."""

    def __init__(self, system: TransitionSystem, lengths: Sequence[int],
                 label_names: Sequence[str] = ()) -> None:
        self.system, self.rules, self.label_names = system, rules_of(system), tuple(label_names)
        self.n = np.asarray(lengths, dtype=np.int64)
        self.size = b = len(self.n)
        cap = int(self.n.max(initial=0)) + 2
        self.rows = np.arange(b)
        self.stack = np.zeros((b, cap), dtype=np.int64)
        self.queue = np.zeros((b, cap), dtype=np.int64)
        self.heads = np.full((b, cap), NONE, dtype=np.int64)
        self.labels = np.full((b, cap), NONE, dtype=np.int64)
        self.leftmost = np.full((b, cap), cap, dtype=np.int64)
        self.rightmost = np.full((b, cap), NONE, dtype=np.int64)
        self.sl = np.zeros(b, dtype=np.int64)
        self.ql = self.n.copy()
        for i, n in enumerate(self.n.tolist()):  # β reversed: n … 1 (then ROOT, when it comes last)
            self.queue[i, :n] = np.arange(n, 0, -1)
        if system.root_last:
            self.queue[:, 1:] = self.queue[:, :-1].copy()
            self.queue[:, 0] = 0
            self.ql += 1
        else:
            self.sl[:] = 1  # ROOT on the stack
        self.seen: dict[tuple[str, int], Array] = {}  # this step's s(k), b(k), terminal(); see apply

    # -- reading ---------------------------------------------------------------------------
    def s(self, k: int) -> Array:
        """(B,) the k-th stack token from the top (s0 = top), −1 where the stack is shorter."""
        key = ("s", k)
        if key not in self.seen:
            found = self.stack[self.rows, np.maximum(self.sl - 1 - k, 0)]
            self.seen[key] = np.where(self.sl > k, found, MISSING)
        return self.seen[key]

    def b(self, k: int) -> Array:
        """(B,) the k-th buffer token from the front (b0 = front), −1 where the buffer is shorter."""
        key = ("b", k)
        if key not in self.seen:
            found = self.queue[self.rows, np.maximum(self.ql - 1 - k, 0)]
            self.seen[key] = np.where(self.ql > k, found, MISSING)
        return self.seen[key]

    def has_head(self, tokens: Array, rows: Array | None = None) -> Array:
        """Does each token (one per row of ``rows``, all rows by default) have a head?  ROOT and −1: no."""
        rows = self.rows if rows is None else rows
        return (tokens > 0) & (self.heads[rows, np.maximum(tokens, 0)] >= 0)

    def terminal(self) -> Array:
        """(B,) bool: the final configurations."""
        if ("t", 0) not in self.seen:
            self.seen["t", 0] = is_terminal(self.system, self)
        return self.seen["t", 0]

    def legal_mask(self) -> Array:
        """(B, K) bool: the legal moves of each configuration, in the system's display order."""
        mask = np.stack([rule.legal(self) for rule in self.rules], axis=1)
        mask[self.terminal()] = False
        return mask

    def arcs(self) -> tuple[Array, Array]:
        """(B, K) heads and (B, K) dependents of the arc each move would build, −1 for none."""
        pairs = [rule.arc(self) if rule.arc else (np.full(self.size, NONE),) * 2 for rule in self.rules]
        return np.stack([h for h, _ in pairs], axis=1), np.stack([d for _, d in pairs], axis=1)

    def tokens(self, children: bool = False) -> Array:
        """(B, F) the tokens at the key positions (see :func:`.features.feature_tokens`), −1 for none."""
        cols = [self.s(0), self.s(1), self.s(2), self.b(0), self.b(1), self.b(2)]
        if children:
            for head in cols[:2]:
                cols += self.outer_children(head)
        return np.stack(cols, axis=1)

    def outer_children(self, head: Array) -> list[Array]:
        """[leftmost, rightmost] dependent of each row's ``head`` so far, −1 for none."""
        at = np.maximum(head, 0)
        right = np.where(head >= 0, self.rightmost[self.rows, at], MISSING)
        left = np.where(right >= 0, self.leftmost[self.rows, at], MISSING)
        return [left, right]

    def feature_rows(self, width: int, empty_row: int, children: bool = False) -> Array:
        """(B, F) rows of the batch's table (see :func:`.features.feature_rows`): row i·width + token."""
        tokens = self.tokens(children)
        return np.where(tokens >= 0, tokens + (self.rows * width)[:, None], empty_row)

    def configuration(self, i: int) -> Configuration:
        """Row i as the configuration the one-sentence path reaches."""
        n = int(self.n[i])
        heads = self.heads[i, 1:n + 1].tolist()
        labels = self.labels[i, 1:n + 1].tolist()
        return Configuration(tuple(self.stack[i, :self.sl[i]].tolist()),
                             tuple(self.queue[i, :self.ql[i]].tolist()[::-1]),
                             tuple(None if h < 0 else h for h in heads),
                             tuple(None if lab < 0 else self.label_names[lab] for lab in labels))

    # -- changing --------------------------------------------------------------------------
    def apply(self, kinds: Sequence[int] | Array, labels: Sequence[int] | Array | None = None) -> None:
        """Row i takes move ``kinds[i]`` (an index into the system's kinds; −1: no move), labelled
        ``labels[i]`` (an index into ``label_names``; −1: none).  The moves must be legal."""
        kinds = np.asarray(kinds, dtype=np.int64)
        labs = np.full(self.size, NONE) if labels is None else np.asarray(labels, dtype=np.int64)
        # Each effect reads s(k), b(k) of its own rows before changing them, and the rows of
        # different kinds are disjoint: the readings of this step stay right for every effect.
        for k, rule in enumerate(self.rules):
            rows = np.flatnonzero(kinds == k)
            if len(rows):
                rule.effect(self, rows, labs[rows])
        self.seen.clear()

    def push(self, rows: Array, tokens: Array) -> None:
        self.stack[rows, self.sl[rows]] = tokens
        self.sl[rows] += 1

    def attach(self, rows: Array, heads: Array, deps: Array, labels: Array) -> None:
        """Add the arcs heads → deps (one per row of ``rows``)."""
        self.heads[rows, deps] = heads
        self.labels[rows, deps] = labels
        self.leftmost[rows, heads] = np.minimum(self.leftmost[rows, heads], deps)
        self.rightmost[rows, heads] = np.maximum(self.rightmost[rows, heads], deps)
