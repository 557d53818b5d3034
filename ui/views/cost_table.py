"""The oracle's verdict on every move, as a colour-coded table.

:func:`cost_frame` builds a plain DataFrame, one row per move of the system: its cost, a verdict
in words (✓ optimal, ✗ costs 1, ✗ dead end, or why the move is not possible), the arc it would
build (so "LA ✓ optimal although it builds a wrong arc" explains itself), and why it
costs: the gold arcs it makes unreachable or, where costs are not countable arc by arc, an
example (``e.g.``) read off two best completions.  A second oracle adds its own cost column
and an ``agree`` column that flags every move on which the two disagree.  :func:`styled`
colours the rows from optimal (blue) to costly (orange, then vermillion), Okabe–Ito tints, so
that colour is never the only cue: the verdict says the same in words.

>>> import parsing_core as pc
>>> from ui.views.oracle_view import ask
>>> s, system = pc.default_sentence(), pc.get_system("arc-eager")
>>> trace = pc.replay(system, s, ["SH", "LA", "RA", "SH"])
>>> frame = cost_frame(trace, [ask(system, "goldberg-nivre", trace.final, s)])
>>> for row in frame[["move", "builds", "cost", "verdict", "loses"]].values.tolist()[:3]:
...     print(row)
['SH', '', 0.0, '✓ optimal', '']
['LA', 'her ← a', 0.0, '✓ optimal', '']
['RA', 'her → a', 1.0, '✗ costs 1', 'a ← letter']
"""

from __future__ import annotations

import math

import pandas as pd
from pandas.io.formats.style import Styler

import parsing_core as pc
from ui.views.names import named_reason
from ui.views.oracle_view import PolicyScores, Verdict
from ui.views.tables import arc_text

SCALE = ["#CFE3F3", "#FBE3B8", "#F5C07A", "#EE9A55"]  # cost 0 (optimal), 1, 2, 3 or more
DEAD_END = "background-color: #D55E00; color: #FFFFFF"
NOT_POSSIBLE = "background-color: #F2F2F2; color: #6B6B6B"
DISAGREE = "background-color: #E69F00; color: #000000; font-weight: bold"
NO_EXPLANATION = "—"


def verdict_text(cost: float, best: float) -> str:
    if math.isinf(cost):
        return "✗ dead end"
    return "✓ optimal" if cost == best else f"✗ costs {cost - best:g}"


def cost_column(verdict: Verdict, first: bool) -> str:
    return "cost" if first else f"cost ({verdict.oracle})"


def cost_frame(trace: pc.Trace, verdicts: list[Verdict]) -> pd.DataFrame:
    """One row per move of the system; columns move, builds (the arc the move would add), cost,
    verdict, loses, then per extra oracle its cost and whether it agrees with the first."""
    c, system = trace.final, trace.system
    first = verdicts[0]
    best = min(first.costs.values(), default=math.inf)
    rows = []
    for t, reason in system.reasons(c).items():
        arc = system.arc_of(c, t) if reason is None else None
        row: dict[str, object] = {"move": str(first.gold_moves.get(t, t)),
                                  "builds": arc_text(trace, arc) if arc else ""}
        if t in first.costs:
            row |= {"cost": first.costs[t], "verdict": verdict_text(first.costs[t], best),
                    "loses": loses(trace, first, t)}
        else:
            why_not = named_reason(reason, trace.sentence) if reason else "no answer"
            row |= {"cost": math.nan, "verdict": f"not possible: {why_not}", "loses": ""}
        for other in verdicts[1:]:
            cost = other.costs.get(t, math.nan)
            row[cost_column(other, False)] = cost
            row["agree"] = agreement(first, other, t)
        rows.append(row)
    return pd.DataFrame(rows)


def loses(trace: pc.Trace, verdict: Verdict, t: pc.Transition) -> str:
    """Why the move costs, in words: the gold arcs it makes unreachable, or (``e.g.``) those one
    best parse after it gives up against one best parse without it, and those it gains instead;
    ``—`` when the oracle cannot tell."""
    why = verdict.why.get(t)
    if why is None:
        return NO_EXPLANATION if verdict.costs.get(t) else ""
    lost = ", ".join(arc_text(trace, arc) for arc in sorted(why.lost))
    if not why.example or not lost:
        return lost
    gained = ", ".join(arc_text(trace, arc) for arc in sorted(why.gained))
    return f"e.g. {lost}" + (f"; gains {gained}" if gained else "")


def has_examples(verdict: Verdict) -> bool:
    """Does the table show example completions (rather than the arcs a move itself loses)?"""
    return any(why.example and why.lost for why in verdict.why.values())


def policy_frame(scores: PolicyScores) -> pd.DataFrame:
    """Nederhof's view, one row per legal move: ρ, whether it is canonical, the string parsed."""
    rows = []
    for t, rho in scores.scores.items():
        rows.append({"move": str(t), "ρ": rho, "canonical": "★" if t in scores.canonical else "",
                     **({"string": scores.strings[t]} if scores.strings else {})})
    return pd.DataFrame(rows)


def agreement(first: Verdict, other: Verdict, t: pc.Transition) -> str:
    """``≠ …`` where the oracles disagree on whether ``t`` is optimal, or on its cost."""
    if t not in first.costs or t not in other.costs:
        return ""
    optimal_a, optimal_b = t in first.optimal, t in other.optimal
    if optimal_a != optimal_b:
        return "≠ optimal for one only"
    return "" if first.costs[t] == other.costs[t] else "≠ different cost"


def cost_style(cost: object, best: float) -> str:
    """The CSS of a cost cell: a tint from optimal to costly; grey when the move is not possible."""
    if not isinstance(cost, int | float) or math.isnan(cost):
        return NOT_POSSIBLE
    if math.isinf(cost):
        return DEAD_END
    return f"background-color: {SCALE[min(int(cost - best), len(SCALE) - 1)]}; color: #000000"


def styled(frame: pd.DataFrame) -> Styler:
    """Rows coloured by the first oracle's cost, extra cost columns by their own, ≠ in amber."""
    costs = [col for col in frame.columns if str(col).startswith("cost")]
    bests = {col: frame[col].min() if frame[col].notna().any() else 0.0 for col in costs}

    def row_style(row: pd.Series) -> list[str]:
        return [cost_style(row["cost"], bests["cost"])] * len(row)

    styler = frame.style.apply(row_style, axis=1)
    for col in costs[1:]:
        styler = styler.map(lambda v, b=bests[col]: cost_style(v, b), subset=[col])
    if "agree" in frame.columns:
        styler = styler.map(lambda v: DISAGREE if v else "", subset=["agree"])
    return styler.format(show_cost, subset=costs)


def show_cost(value: object) -> str:
    if not isinstance(value, int | float) or math.isnan(value):
        return "–"
    return "∞" if math.isinf(value) else f"{value:g}"
