"""Every move of a parse judged by an oracle: its cost where it was made, and the gold arcs it lost.

A learner's mistakes are the moves that cost something.  :func:`review` reads them off the
oracle's verdicts at each configuration of the trace (``verdicts[i]`` is the verdict *before*
move ``i + 1``), so the page can say "your SH cost 1: it lost sent → her" right after the click,
mark the row in the history with its cost (:func:`with_costs`, also in the CSV and LaTeX
downloads: a mistake log), and sum the parse up at the end (:func:`summary`).

>>> import parsing_core as pc
>>> from ui.views.oracle_view import ask
>>> from ui.views.tables import derivation_table
>>> s, system = pc.default_sentence(), pc.get_system("arc-eager")
>>> trace = pc.replay(system, s, ["SH", "LA", "RA", "SH"])
>>> verdicts = [ask(system, "goldberg-nivre", step.configuration, s) for step in trace.steps()[:-1]]
>>> reviews = review(trace, verdicts)
>>> [(r.move, r.cost) for r in reviews]
[('SH', 0), ('LA', 0), ('RA', 0), ('SH', 1)]
>>> said(reviews[-1])
'SH (move 4) cost 1: it lost sent → her'
>>> with_costs(derivation_table(trace), reviews)[["TRANSITION", "COST"]].values.tolist()[-2:]
[['RA', '0'], ['SH', '✗ 1']]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import pandas as pd

import parsing_core as pc
from ui.views.names import indexed
from ui.views.oracle_view import Verdict, move_cost
from ui.views.tables import arc_text

COST_COLUMN = "COST"


@dataclass(frozen=True)
class MoveReview:
    """One move, judged where it was made."""

    step: int  # the move's number, from 1
    move: str  # as played, with its label in a labelled system
    cost: float | None  # None: no oracle answered there
    lost: str  # the gold arcs it lost ("sent → her, a ← letter"), or "" when it lost none or cannot tell
    example: bool  # ``lost`` is an example read off two best parses, not the arcs the move itself loses
    oracle: str
    plain: str = ""  # with an example: the loss the move made plainly (a word given a wrong head), or ""

    @property
    def is_mistake(self) -> bool:
        return self.cost is not None and self.cost > 0


def review(trace: pc.Trace, verdicts: Sequence[Verdict]) -> list[MoveReview]:
    """The moves of ``trace`` up to ``len(verdicts)``, each with its cost under the verdict at the
    configuration where it was made."""
    steps = trace.steps()
    reviews = []
    for i, verdict in enumerate(verdicts):
        t = steps[i + 1].transition
        if t is None:
            break
        c = steps[i].configuration
        cost = move_cost(trace.system, verdict, c, trace.sentence, t) if verdict.costs else None
        why = verdict.why.get(t.bare)
        lost, plain = losses(trace, steps[i + 1].arc, why)
        example = bool(why and why.example)
        reviews.append(MoveReview(i + 1, str(t), cost, lost, example, verdict.oracle, plain))
    return reviews


def losses(trace: pc.Trace, arc: pc.Arc | None, why: pc.Explanation | None) -> tuple[str, str]:
    """The gold arcs a move lost, in words, and (for an example) the loss it made plainly: when
    its arc gave a word a wrong head and the best parse before it held the word's gold arc, that
    arc is named on its own ("it gave the the head terrorist, so the ← acts can no longer be
    built") and left out of the example."""
    if why is None:
        return "", ""
    lost, plain = set(why.lost), ""
    if why.example and arc is not None and trace.sentence.has_gold:
        head, dep = arc
        gold = (trace.sentence.head(dep), dep)
        if gold[0] != head and gold in lost:
            lost.discard(gold)
            word = partial(indexed, trace.sentence)
            plain = (f"it gave {word(dep)} the head {word(head)}, "
                     f"so {arc_text(trace, gold)} can no longer be built")
    return ", ".join(arc_text(trace, a) for a in sorted(lost)), plain


def cost_text(cost: float | None) -> str:
    if cost is None:
        return "–"
    return "∞" if math.isinf(cost) else f"{cost:g}"


def said(r: MoveReview) -> str:
    """The review in a sentence, as a tutor would say it."""
    if r.cost is None:
        return f"{r.move} (move {r.step}): no oracle could judge it"
    if r.cost == 0:
        return f"{r.move} (move {r.step}) was optimal"
    if math.isinf(r.cost):
        return f"{r.move} (move {r.step}) leads to a dead end: no complete parse can follow"
    if r.plain:
        also = f"; the best parse before it also held {r.lost}, and no best parse after it can"
        return f"{r.move} (move {r.step}) cost {cost_text(r.cost)}: {r.plain}{also if r.lost else ''}"
    if not r.lost:
        return f"{r.move} (move {r.step}) cost {cost_text(r.cost)}"
    if r.example:
        return (f"{r.move} (move {r.step}) cost {cost_text(r.cost)}: for example, the best parse "
                f"before it held {r.lost}, and no best parse after it can")
    return f"{r.move} (move {r.step}) cost {cost_text(r.cost)}: it lost {r.lost}"


def with_costs(history: pd.DataFrame, reviews: Sequence[MoveReview]) -> pd.DataFrame:
    """The derivation table with a COST column: ``✗ 1`` for a costly move, ``0`` for an optimal
    one, blank for the first row (no move) and for moves no oracle judged."""
    marks = [""] * len(history)
    for r in reviews:
        if r.step < len(history):
            marks[r.step] = "" if r.cost is None else (f"✗ {cost_text(r.cost)}" if r.is_mistake else "0")
    return history.assign(**{COST_COLUMN: marks})


@dataclass(frozen=True)
class Summary:
    """A finished parse in numbers: arcs right, attachment scores, the mistakes made."""

    moves: int
    correct: int  # arcs with the gold head
    labelled_correct: int | None  # with the gold label too (a labelled system only)
    n: int
    mistakes: tuple[MoveReview, ...]

    @property
    def uas(self) -> float:
        return self.correct / self.n

    @property
    def las(self) -> float | None:
        return None if self.labelled_correct is None else self.labelled_correct / self.n

    @property
    def total_cost(self) -> float:
        return sum(r.cost or 0.0 for r in self.mistakes)


def summary(trace: pc.Trace, reviews: Sequence[MoveReview]) -> Summary:
    """How the parse ended (``trace`` must have a gold tree)."""
    gold, c = trace.sentence, trace.final
    correct = sum(1 for d in range(1, gold.n + 1) if c.head_of(d) == gold.head(d))
    labelled = None
    if trace.system.labelled and gold.labels:
        labelled = sum(1 for d in range(1, gold.n + 1)
                       if c.head_of(d) == gold.head(d) and c.label_of(d) == gold.label(d))
    return Summary(len(trace.transitions), correct, labelled, gold.n,
                   tuple(r for r in reviews if r.is_mistake))
