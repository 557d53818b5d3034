"""Pure builders of the RL oracle page: a DQN run's curves and its summary, from its log records.

The records are :mod:`parsing_core.rl.events`: progress lines (return per episode, TD loss, the
share of greedy moves in the exact optimal set while training) and evaluation lines (that share
on dev parses, and mean |Q + cost|, which falls to 0 when the Q-values are minus the costs).

>>> from parsing_core.rl.events import RLEvalEvent, RLProgressEvent
>>> p = RLProgressEvent(update=50, updates=100, moves=800, episodes=40, mean_return=-2.5, td_loss=0.3,
...                     agreement=0.8, epsilon=0.5, beta=0.6, seconds=2.0, updates_per_s=25.0)
>>> e = RLEvalEvent(update=100, agreement=0.9, q_error=0.4, uas=0.8, configurations=90, sentences=10,
...                 seconds=0.5)
>>> for key, value in summary([p, e]).items():
...     print(f"{key}: {value}")
updates: 100
greedy move optimal (dev): 90.0 %
mean |Q + cost|: 0.40
UAS of greedy parses: 80.0 %
>>> progress_of([p]).text
'update 50 of 100 · 25 updates/s · about 2 s left'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

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


def curves(records: Sequence[Any], height: int = 520) -> go.Figure:
    """Three panels against updates: return per episode, TD loss, greedy move optimal (training
    walks and dev evaluations) with mean |Q + cost| beside it."""
    lines = [r for r in records if isinstance(r, RLProgressEvent)]
    evals = [r for r in records if isinstance(r, RLEvalEvent)]
    figure = make_subplots(rows=3, cols=1, shared_xaxes=True, vertical_spacing=0.08,
                           subplot_titles=("Return per episode", "TD loss",
                                           "Greedy move in the exact optimal set"))
    returns = [r for r in lines if r.mean_return is not None]
    figure.add_scatter(x=[r.update for r in returns], y=[r.mean_return for r in returns], name="return",
                       line={"color": BLUE}, row=1, col=1)
    figure.add_scatter(x=[r.update for r in lines], y=[r.td_loss for r in lines], name="TD loss",
                       line={"color": ORANGE}, row=2, col=1)
    tracked = [r for r in lines if r.agreement is not None]
    figure.add_scatter(x=[r.update for r in tracked], y=[100 * (r.agreement or 0) for r in tracked],
                       name="% optimal (training walks)", line={"color": GREEN, "dash": "dot"}, row=3, col=1)
    figure.add_scatter(x=[e.update for e in evals], y=[100 * e.agreement for e in evals],
                       mode="lines+markers", name="% optimal (dev, greedy)", line={"color": GREEN},
                       row=3, col=1)
    figure.update_layout(height=height, margin={"t": 40, "b": 30, "l": 50, "r": 10},
                         legend={"orientation": "h", "y": -0.08})
    figure.update_xaxes(title_text="updates", row=3, col=1)
    figure.update_yaxes(title_text="%", range=[0, 100], row=3, col=1)
    return figure


def summary(records: Sequence[Any]) -> dict[str, str]:
    """The last evaluation of a run, in words (empty before the first)."""
    evals = [r for r in records if isinstance(r, RLEvalEvent)]
    if not evals:
        return {}
    last = evals[-1]
    return {"updates": str(last.update), "greedy move optimal (dev)": f"{100 * last.agreement:.1f} %",
            "mean |Q + cost|": f"{last.q_error:.2f}", "UAS of greedy parses": f"{100 * last.uas:.1f} %"}
