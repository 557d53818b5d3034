"""The Oracle lab's results read out: what a bucket is, what the agreement table says in one
sentence per kind of gold tree, and the sentences the confusions were seen in, in words.

Every number in a sentence is this run's (or the thesis's, named as such), computed from the
table :func:`ui.lab.agreement_view.agreement_table` builds from the job's records.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd

from parsing_core.experiments.lab import LabSpec
from ui.lab.agreement_view import BUCKET_NAMES, GOLD

#: What a bucket is, for the page: a configuration's share of the first oracle's optimal moves
#: that the second also calls optimal (at most three moves are optimal, so five shares occur).
BUCKETS_DEFINED = (
    "**Buckets.**  In each configuration with two or more legal moves, take the moves the first oracle "
    "calls optimal and count how many of them the second oracle (the reference) also calls optimal.  "
    "**100**: all of them — following the first oracle never costs anything here.  **66.67**, **50**, "
    "**33.33**: only some (2 of 3, 1 of 2, 1 of 3) — a parser trained on it may learn a costly move.  "
    "**0**: none — every move the first oracle recommends loses gold arcs.  Each column gives the % of "
    "configurations in that bucket; **ρ** is Spearman's rank correlation of the two oracles' costs "
    "over the legal moves (1: they order the moves the same way).")


def readout(table: pd.DataFrame, spec: LabSpec) -> list[str]:
    """One sentence (Markdown) per kind of gold tree this run walked: how often every move the
    first oracle calls optimal really is, how often some or none is, and how alike the costs rank
    the moves — each with the thesis's figure beside it where the thesis has one.

    >>> from parsing_core.experiments.lab import SentenceRecord
    >>> from ui.lab.agreement_view import agreement_table
    >>> done = [SentenceRecord(0, 5, True, {100.0: 197, 50.0: 2, 0.0: 1}, (1.0,) * 200)]
    >>> print(readout(agreement_table(done, LabSpec("en_lines")), LabSpec("en_lines"))[0])
    On projective gold trees, in **98.5 %** of the 200 configurations compared every move thesis-approx \
calls optimal really is optimal for exact (the thesis found 99.2 %); in 1.00 % only some of them are, and \
in 0.50 % none is.  The two rank the moves alike: mean ρ 1.000 (the thesis: 0.996).
    >>> nothing = [SentenceRecord(3, 1, True, {}, ())]  # a one-word sentence: no move to compare
    >>> print(readout(agreement_table(nothing, LabSpec("en_lines")), LabSpec("en_lines"))[0])
    On projective gold trees no configuration has been compared yet: the sentences walked so far gave \
thesis-approx and exact no move to disagree on.
    """
    rows = {(r["source"], r["gold"]): r for _, r in table.iterrows()}
    said = []
    for gold in GOLD.values():
        if ("this run", gold) in rows:
            said.append(read_row(rows[("this run", gold)], rows.get(("thesis", gold)), spec))
    return said


def never_or(none: float) -> str:
    """The share of configurations where none of the first oracle's optimal moves is optimal.

    >>> never_or(0.0), never_or(0.25)
    ('never none', 'in 0.25 % none is')
    """
    return "never none" if none == 0 else f"in {none:.2f} % none is"


def read_row(run: pd.Series, thesis: pd.Series | None, spec: LabSpec) -> str:
    """The sentence of :func:`readout` for one row of this run (and the thesis's row, if any)."""
    if not int(run["configurations"]):  # no percentage of nothing
        return (f"On {run['gold']} gold trees no configuration has been compared yet: the sentences "
                f"walked so far gave {spec.approx} and {spec.exact} no move to disagree on.")
    every, none = float(run[BUCKET_NAMES[0]]), float(run[BUCKET_NAMES[-1]])
    some = max(0.0, 100 - every - none)
    found = "" if thesis is None else f" (the thesis found {float(thesis[BUCKET_NAMES[0]]):.1f} %)"
    rho = "" if thesis is None else f" (the thesis: {float(thesis['rho mean']):.3f})"
    alike = "alike" if run["rho mean"] >= 0.9 else "only partly alike"
    return (f"On {run['gold']} gold trees, in **{every:.1f} %** of the {int(run['configurations']):,} "
            f"configurations compared every move {spec.approx} calls optimal really is optimal for "
            f"{spec.exact}{found}; in {some:.2f} % only some of them are, and {never_or(none)}.  "
            f"The two rank the moves {alike}: mean ρ {float(run['rho mean']):.3f}{rho}.")


def quoted(words: Sequence[str], limit: int = 60) -> str:
    """A sentence as a table cell shows it: quoted, cut after ``limit`` characters.

    >>> quoted("He sent her a letter .".split())
    '“He sent her a letter .”'
    >>> quoted(["word"] * 20, limit=14)
    '“word word word…”'
    """
    text = " ".join(words)
    return f"“{text if len(text) <= limit else text[:limit + 1].rsplit(' ', 1)[0] + '…'}”"


def with_sentences(frame: pd.DataFrame, words: Callable[[int], Sequence[str]]) -> pd.DataFrame:
    """The confusion table with each example's sentence in words (``words(index)``) beside its
    number in the treebank."""
    out = frame.copy()
    out.insert(out.columns.get_loc("sentence"), "sentence no.", out["sentence"])
    out["sentence"] = [quoted(words(int(i))) for i in out["sentence no."]]
    return out
