"""Pure builders of the RL oracle page: a DQN run's curves and its summary, from its log records.

The records are :mod:`parsing_core.rl.events`: progress lines (return per episode, TD loss, the
share of greedy moves in the exact optimal set while training) and evaluation lines (that share
on dev parses, and mean |Q + cost|, which falls to 0 when the Q-values are minus the costs).  The
evaluation at update 0 is the untrained network's (the run's seed): the baseline every later
score is read against, so a run that learned nothing says so.

>>> from parsing_core.rl.events import RLEvalEvent, RLProgressEvent
>>> p = RLProgressEvent(update=50, updates=100, moves=800, episodes=40, mean_return=-2.5, td_loss=0.3,
...                     agreement=0.8, epsilon=0.5, beta=0.6, seconds=2.0, updates_per_s=25.0)
>>> e = RLEvalEvent(update=100, agreement=0.9, q_error=0.4, uas=0.8, configurations=90, sentences=10,
...                 seconds=0.5)
>>> start = RLEvalEvent(update=0, agreement=0.75, q_error=1.2, uas=0.2, configurations=900, sentences=100,
...                     seconds=0.5)
>>> summary([start, p, e])  # doctest: +NORMALIZE_WHITESPACE
                          untrained (0 updates) after 100 updates
greedy move optimal (dev)                75.0 %              90.0 %
mean |Q + cost| (→ 0)                      1.20                0.40
UAS of greedy parses                     20.0 %              80.0 %
>>> print(verdict([start, p, e]))
It learned: the greedy move is optimal in 90.0 % of dev configurations, up from 75.0 % before any \
update (a gain of 15.0 points; chance alone moves it by up to 7.0).
>>> progress_of([p]).text
'update 50 of 100 · 25 updates/s · about 2 s left'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from parsing_core.rl.events import RLEvalEvent, RLProgressEvent

BLUE, ORANGE, GREEN = "#0072B2", "#E69F00", "#009E73"  # Okabe–Ito


@dataclass(frozen=True)
class Progress:
    fraction: float
    text: str


def progress_of(records: Sequence[Any]) -> Progress:
    """How far a run is, from its last progress line."""
    lines = [r for r in records if isinstance(r, RLProgressEvent)]
    if not lines:
        return Progress(0.0, "starting… (filling the replay memory)")
    last = lines[-1]
    left = (last.updates - last.update) / last.updates_per_s if last.updates_per_s > 0 else 0
    return Progress(min(1.0, last.update / last.updates),
                    f"update {last.update} of {last.updates} · {last.updates_per_s:.0f} updates/s · "
                    f"about {left:.0f} s left")


def y_range(values: Sequence[float], low: float = 0.0, high: float = 100.0) -> list[float]:
    """An axis range that fits ``values`` with a margin, inside [low, high].

    >>> y_range([75.0, 97.0])
    [72.8, 99.2]
    """
    if not values:
        return [low, high]
    pad = max(2.0, 0.1 * (max(values) - min(values)))
    return [round(max(low, min(values) - pad), 1), round(min(high, max(values) + pad), 1)]


def curves(records: Sequence[Any], height: int = 560) -> go.Figure:
    """Three panels against updates: return per episode, TD loss, greedy move optimal (training
    walks and dev evaluations, the untrained network's share as a dashed line)."""
    lines = [r for r in records if isinstance(r, RLProgressEvent)]
    evals = [r for r in records if isinstance(r, RLEvalEvent)]
    figure = make_subplots(rows=3, cols=1, shared_xaxes=True, vertical_spacing=0.1,
                           subplot_titles=("Return per episode", "TD loss",
                                           "Greedy move in the exact optimal set (%)"))
    returns = [r for r in lines if r.mean_return is not None]
    figure.add_scatter(x=[r.update for r in returns], y=[r.mean_return for r in returns], name="return",
                       line={"color": BLUE}, row=1, col=1)
    figure.add_scatter(x=[r.update for r in lines], y=[r.td_loss for r in lines], name="TD loss",
                       line={"color": ORANGE}, row=2, col=1)
    tracked = [r for r in lines if r.agreement is not None]
    shares = [100 * (r.agreement or 0) for r in tracked] + [100 * e.agreement for e in evals]
    figure.add_scatter(x=[r.update for r in tracked], y=shares[:len(tracked)],
                       name="% optimal (training walks)", line={"color": GREEN, "dash": "dot"}, row=3, col=1)
    figure.add_scatter(x=[e.update for e in evals], y=shares[len(tracked):], mode="lines+markers",
                       name="% optimal (dev, greedy)", line={"color": GREEN}, row=3, col=1)
    start = evaluations(records)[0]
    if start is not None:
        figure.add_hline(y=100 * start.agreement, line={"color": "grey", "dash": "dash"}, row=3, col=1,
                         annotation_text="untrained", annotation_position="bottom right")
    figure.update_layout(height=height, margin={"t": 40, "b": 90, "l": 50, "r": 10},
                         legend={"orientation": "h", "yref": "container", "yanchor": "bottom", "y": 0})
    figure.update_xaxes(title_text="updates", row=3, col=1)
    figure.update_yaxes(range=y_range(shares), row=3, col=1)
    return figure


def evaluations(records: Sequence[Any]) -> tuple[RLEvalEvent | None, RLEvalEvent | None]:
    """(the untrained network's evaluation, the last one after training), either None if absent."""
    evals = [r for r in records if isinstance(r, RLEvalEvent)]
    start = next((e for e in evals if e.update == 0), None)
    trained = [e for e in evals if e.update > 0]
    return start, (trained[-1] if trained else None)


def facts(e: RLEvalEvent) -> list[str]:
    return [f"{100 * e.agreement:.1f} %", f"{e.q_error:.2f}", f"{100 * e.uas:.1f} %"]


#: What mean |Q + cost| should do, by the run's reward: only under the exact reward (−cost) is
#: Q* minus the cost; the thesis reward's Q-values are on another scale, and the gap need not shrink.
Q_GAP = {"exact": "mean |Q + cost| (→ 0)", "thesis": "mean |Q + cost| (thesis reward: need not → 0)"}


def summary(records: Sequence[Any], reward: str | None = "exact") -> pd.DataFrame:
    """The last evaluation of a run beside the untrained network's (empty before the first);
    ``reward``: the run's (None when its spec cannot be read), which says what |Q + cost| should do.

    >>> list(summary([RLEvalEvent(0, 0.5, 3.0, 0.1, 10, 2, 0.1)], reward="thesis").index)[1]
    'mean |Q + cost| (thesis reward: need not → 0)'
    """
    start, last = evaluations(records)
    columns = {f"untrained ({start.update} updates)": facts(start)} if start else {}
    if last:
        columns[f"after {last.update} updates"] = facts(last)
    gap = Q_GAP.get(reward or "", "mean |Q + cost|")
    return pd.DataFrame(columns, index=["greedy move optimal (dev)", gap,
                                        "UAS of greedy parses"]) if columns else pd.DataFrame()


def noise(a: RLEvalEvent, b: RLEvalEvent) -> float:
    """How far chance alone moves the difference of two shares of optimal greedy moves: two
    standard errors of it, in points (each share a binomial proportion over its configurations)."""
    var = sum(e.agreement * (1 - e.agreement) / max(1, e.configurations) for e in (a, b))
    return 200 * math.sqrt(var)


def verdict(records: Sequence[Any]) -> str | None:
    """Did the run learn?  Its last share of optimal greedy moves against the untrained network's,
    in words (None until both are there)."""
    start, last = evaluations(records)
    if start is None or last is None:
        return None
    gain, chance = 100 * (last.agreement - start.agreement), noise(start, last)
    now, before = f"{100 * last.agreement:.1f} %", f"{100 * start.agreement:.1f} %"
    if gain < -chance:
        return (f"It learned nothing yet: the greedy move is optimal in {now} of dev configurations, "
                f"against {before} before any update — worse, by more than chance alone explains (up to "
                f"{chance:.1f} points).  Give it more updates or more sentences.")
    if gain <= chance:
        return (f"It learned nothing yet: the greedy move is optimal in {now} of dev configurations, "
                f"against {before} before any update — a difference chance alone could make (up to "
                f"{chance:.1f} points).  Give it more updates or more sentences.")
    return (f"It learned: the greedy move is optimal in {now} of dev configurations, up from {before} "
            f"before any update (a gain of {gain:.1f} points; chance alone moves it by up to {chance:.1f}).")
