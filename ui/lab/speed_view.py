"""Pure builders of the Oracle lab's Speed and growth view: how an oracle's time per
configuration grows with the sentence, seen on a log–log plot where a power law n^k is a straight
line of slope k (:func:`fitted_slope`), and the thesis's Algorithm 1 beside the exact oracle.

>>> round(fitted_slope([(10, 1.0), (20, 8.0), (40, 64.0)]), 6)   # ms ∝ n³
3.0
>>> fitted_slope([(10, 1.0)]) is None
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go

from parsing_core.experiments.lab import BaselineRecord, LabRecord, SpeedRecord
from parsing_core.oracles import get_oracle
from parsing_core.systems import get_system


def speeds(records: Sequence[LabRecord]) -> list[SpeedRecord]:
    return [r for r in records if isinstance(r, SpeedRecord)]


def fitted_slope(points: Sequence[tuple[float, float]]) -> float | None:
    """The least-squares slope of log(ms) against log(n): the k of ms ≈ a·n^k (None for fewer
    than two lengths)."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(ms) for _, ms in points]
    if len(set(xs)) < 2:
        return None
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def timed_points(records: Sequence[LabRecord]) -> dict[str, list[tuple[float, float]]]:
    """Per oracle, (n, ms) where something was timed, in the order measured."""
    out: dict[str, list[tuple[float, float]]] = {}
    for r in speeds(records):
        out.setdefault(r.oracle, [])
        if r.ms is not None and r.ms > 0:
            out[r.oracle].append((r.n, r.ms))
    return out


def slope_text(slope: float | None) -> str:
    return "slope —" if slope is None else f"slope ≈ {slope:.2f}"


def speed_figure(records: Sequence[LabRecord], height: int = 420) -> go.Figure:
    """ms per configuration against sentence length, both on log scales, one line per oracle,
    named with its fitted slope (1: linear growth, 3: cubic)."""
    fig = go.Figure()
    for oracle, points in timed_points(records).items():
        if points:
            fig.add_trace(go.Scatter(x=[n for n, _ in points], y=[ms for _, ms in points],
                                     mode="lines+markers",
                                     name=f"{oracle} ({slope_text(fitted_slope(points))})"))
    fig.update_layout(title="Time per configuration against sentence length (log–log)",
                      xaxis_title="sentence length n (tokens, log scale)",
                      yaxis_title="median ms per configuration (log scale)", xaxis_type="log",
                      yaxis_type="log", height=height, margin={"t": 50},
                      legend={"title": "oracle (fitted slope)"})
    return readable_axes(fig, sorted({r.n for r in speeds(records)}))


def readable_axes(fig: go.Figure, lengths: Sequence[int]) -> go.Figure:
    """Log axes a reader can read: x ticks at the measured lengths, y ticks at powers of ten."""
    fig.update_xaxes(tickvals=list(lengths), ticktext=[str(n) for n in lengths])
    fig.update_yaxes(dtick=1, exponentformat="none")
    return fig


def speed_table(records: Sequence[LabRecord], system_name: str) -> pd.DataFrame:
    """One row per oracle: median ms at each length (why not, where refused or untimed), the
    fitted slope, and the growth the oracle's documentation claims (its worst case, ``speed``)."""
    rows = []
    lengths = sorted({r.n for r in speeds(records)})
    fitted = timed_points(records)
    system = get_system(system_name)
    for oracle in fitted:
        cells = {r.n: r for r in speeds(records) if r.oracle == oracle}
        rows.append({"oracle": oracle, **{f"n={n}": cell(cells.get(n)) for n in lengths},
                     "fitted slope": None if (k := fitted_slope(fitted[oracle])) is None else round(k, 2),
                     "claimed growth": get_oracle(system, oracle).speed})
    return pd.DataFrame(rows)


def cell(r: SpeedRecord | None) -> str:
    if r is None:
        return ""
    return f"{r.ms:.3g}" if r.ms is not None else r.note


def speed_frame(records: Sequence[LabRecord]) -> pd.DataFrame:
    """The raw timings, one row per (oracle, length), for a CSV."""
    return pd.DataFrame([{"oracle": r.oracle, "n": r.n, "median ms": r.ms, "configurations": r.samples,
                          "note": r.note} for r in speeds(records)])


def baseline_table(records: Sequence[LabRecord]) -> pd.DataFrame:
    """Algorithm 1 against the exact arc-standard oracle: costs at every step of one parse."""
    rows = [{"sentence": r.index, "tokens": r.tokens, "steps": r.steps, "exact (ms)": round(r.exact_ms, 1),
             "Algorithm 1 (ms)": round(r.algorithm1_ms, 1),
             "speed-up": f"{r.algorithm1_ms / r.exact_ms:,.0f}×"}
            for r in records if isinstance(r, BaselineRecord)]
    return pd.DataFrame(rows)


def baseline_figure(records: Sequence[LabRecord], height: int = 360) -> go.Figure:
    """ms for a whole parse's costs against its length, both oracles, log–log with fitted slopes."""
    done = [r for r in records if isinstance(r, BaselineRecord)]
    fig = go.Figure()
    timings = {"exact": [r.exact_ms for r in done], "Algorithm 1": [r.algorithm1_ms for r in done]}
    for name, values in timings.items():
        points = [(r.tokens, ms) for r, ms in zip(done, values, strict=True)]
        fig.add_trace(go.Scatter(x=[n for n, _ in points], y=values, mode="lines+markers",
                                 name=f"{name} ({slope_text(fitted_slope(points))})"))
    fig.update_layout(title="Costs at every step of one parse: exact oracle and the thesis's Algorithm 1",
                      xaxis_title="sentence length n (log scale)", yaxis_title="ms per parse (log scale)",
                      xaxis_type="log", yaxis_type="log", height=height, margin={"t": 50})
    return readable_axes(fig, [r.tokens for r in done])
