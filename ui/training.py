"""Pure helpers of the Train page: the job's command line, its curves, its progress.

``arguments`` turns the page's choices into ``python -m parsing_core.train`` options;
``loss_figure`` and ``accuracy_figure`` draw one or several runs' reports (plotly);
``progress`` reads how far a run is and estimates the time left.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import plotly.graph_objects as go

from parsing_core.jobs import Report

JOBS_ROOT_ENV = "PARSING_JOBS_DIR"


def jobs_root() -> Path:
    """Where training runs keep their folders: ``PARSING_JOBS_DIR``, else one in the temp dir."""
    return Path(os.environ.get(JOBS_ROOT_ENV) or Path(tempfile.gettempdir()) / "parsing_jobs")


@dataclass(frozen=True)
class RunChoice:
    """What the user asked for on the Train page."""

    data: str  # "synthetic" or a treebank name of the data directory
    nonprojective: float
    system: str
    oracle: str
    regime: str
    epochs: int
    explore_after: int
    explore_p: float
    size: str  # "tiny", "small" or "default"
    synthetic_sentences: int = 600
    folder: str | None = None  # where the treebank is (None: the data directory)


SIZES = {
    "tiny": {"word-dim": 32, "lstm-dim": 32, "mlp-dim": 32, "lstm-layers": 1},
    "small": {"word-dim": 64, "lstm-dim": 64, "mlp-dim": 64, "lstm-layers": 2},
    "default": {},
}


def arguments(choice: RunChoice) -> list[str]:
    """Command-line options of ``python -m parsing_core.train`` for these choices."""
    args = ["--system", choice.system, "--oracle", choice.oracle, "--regime", choice.regime,
            "--epochs", str(choice.epochs), "--explore-after", str(choice.explore_after),
            "--explore-p", str(choice.explore_p)]
    if choice.data == "synthetic":
        args += ["--synthetic", str(choice.synthetic_sentences), "--nonprojective", str(choice.nonprojective)]
    else:
        args += ["--treebank", choice.data] + (["--data-dir", choice.folder] if choice.folder else [])
    for key, value in SIZES[choice.size].items():
        args += [f"--{key}", str(value)]
    return args


BELOW = {"orientation": "h", "yanchor": "top", "y": -0.25}  # run names are long: legend under the plot


def events(reports: list[Report], kind: str) -> list[Report]:
    return [r for r in reports if r.get("event") == kind]


def loss_figure(runs: dict[str, list[Report]]) -> go.Figure:
    """Loss per batch, one line per run."""
    fig = go.Figure()
    for name, reports in runs.items():
        losses = [r["loss"] for r in events(reports, "batch")]
        fig.add_trace(go.Scatter(y=losses, mode="lines", name=name))
    fig.update_layout(title="Training loss per batch", xaxis_title="batch", yaxis_title="loss", height=360,
                      legend=BELOW)
    return fig


def accuracy_figure(runs: dict[str, list[Report]]) -> go.Figure:
    """Dev UAS (solid) and LAS (dashed) per epoch, one pair of lines per run."""
    fig = go.Figure()
    for name, reports in runs.items():
        epochs = events(reports, "epoch")
        x = [r["epoch"] for r in epochs]
        fig.add_trace(go.Scatter(x=x, y=[100 * r["dev_uas"] for r in epochs], name=f"{name} UAS",
                                 mode="lines+markers"))
        fig.add_trace(go.Scatter(x=x, y=[100 * r["dev_las"] for r in epochs], name=f"{name} LAS",
                                 mode="lines+markers", line={"dash": "dash"}))
    fig.update_layout(title="Dev accuracy per epoch", xaxis_title="epoch", yaxis_title="%", height=360,
                      legend=BELOW)
    last = max((r["epoch"] for reports in runs.values() for r in events(reports, "epoch")), default=1)
    fig.update_xaxes(dtick=max(1, -(-last // 10)))  # whole epochs, at most about ten ticks
    return fig


@dataclass(frozen=True)
class Progress:
    fraction: float
    text: str


def progress(reports: list[Report]) -> Progress:
    """How far the run is (by epochs done), with throughput and an estimate of the time left."""
    start = next(iter(events(reports, "start")), None)
    epochs = events(reports, "epoch")
    if start is None:
        return Progress(0.0, "starting…")
    total = int(start["train"]["epochs"])
    done = len(epochs)
    spent = sum(float(r.get("seconds", 0.0)) for r in epochs)
    speed = epochs[-1].get("sentences_per_s", 0.0) if epochs else 0.0
    left = spent / done * (total - done) if done else None
    eta = "estimating…" if left is None else f"about {left:.0f} s left"
    return Progress(done / total if total else 0.0,
                    f"epoch {done}/{total} · {speed:.0f} sentences/s · {eta} · {start.get('device', '')}")
