"""Pure helpers of the Train page: the run's spec, its curves, its progress.

``run_spec`` turns the page's choices into one :class:`~parsing_core.model.TrainSpec` (the
job writes it to ``spec.json``); ``loss_figure`` and ``accuracy_figure`` draw one or several
runs' log records (plotly); ``progress`` reads how far a run is and estimates the time left.
The records are the typed ones of :mod:`parsing_core.model.events`.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypeVar

import plotly.graph_objects as go

from parsing_core.jobs import TrainingJob
from parsing_core.model import (
    DEFAULT_PRESET,
    MODEL_PRESETS,
    BatchEvent,
    DataSpec,
    EpochEvent,
    Event,
    ModelConfig,
    StartEvent,
    TrainConfig,
    TrainSpec,
    default_oracle,
)
from parsing_core.systems import TransitionSystem

JOBS_ROOT_ENV = "PARSING_JOBS_DIR"

#: What the Train page offers first: 600 synthetic sentences, arc-hybrid, the dynamic regime,
#: five epochs, exploration as TrainConfig's defaults, the ``small`` network.
PAGE_DEFAULTS = TrainSpec(DataSpec(synthetic=600), "arc-hybrid", TrainConfig(epochs=5),
                          ModelConfig.preset(DEFAULT_PRESET))
SIZES = list(MODEL_PRESETS)


def jobs_root() -> Path:
    """Where training runs keep their folders: ``PARSING_JOBS_DIR``, else one in the temp dir."""
    return Path(os.environ.get(JOBS_ROOT_ENV) or Path(tempfile.gettempdir()) / "parsing_jobs")


def default_choice(system: TransitionSystem, oracles: Sequence[str]) -> str:
    """The oracle offered first: the one training uses by default in the page's regime, if offered."""
    oracle = default_oracle(system, PAGE_DEFAULTS.train.regime)
    return oracle if oracle in oracles else oracles[0]


def data_spec(data: str, folder: str | None = None, nonprojective: float = 0.3) -> DataSpec:
    """Synthetic sentences (``data == "synthetic"``) or the treebank ``data`` in ``folder``."""
    if data == "synthetic":
        return replace(PAGE_DEFAULTS.data, nonprojective=nonprojective)
    return DataSpec(treebank=data, data_dir=folder)


def run_spec(data: DataSpec, system: str, oracle: str, regime: str, epochs: int, explore_after: int,
             explore_p: float, size: str) -> TrainSpec:
    """The spec of the run the page's choices describe."""
    train = replace(PAGE_DEFAULTS.train, regime=regime, oracle=oracle, epochs=epochs,
                    explore_after=explore_after, explore_p=explore_p)
    return TrainSpec(data, system, train, ModelConfig.preset(size))


def run_name(spec: TrainSpec) -> str:
    return f"{spec.system}-{spec.train.regime}"


def records(job: TrainingJob) -> list[Event]:
    """The job's log as typed records."""
    return job.events()


BELOW = {"orientation": "h", "yanchor": "top", "y": -0.25}  # run names are long: legend under the plot


E = TypeVar("E", StartEvent, BatchEvent, EpochEvent)


def events(reports: Sequence[Event], kind: type[E]) -> list[E]:
    return [r for r in reports if isinstance(r, kind)]


def loss_figure(runs: dict[str, list[Event]]) -> go.Figure:
    """Loss per batch, one line per run."""
    fig = go.Figure()
    for name, reports in runs.items():
        losses = [r.loss for r in events(reports, BatchEvent)]
        fig.add_trace(go.Scatter(y=losses, mode="lines", name=name))
    fig.update_layout(title="Training loss per batch", xaxis_title="batch", yaxis_title="loss", height=360,
                      legend=BELOW)
    return fig


def accuracy_figure(runs: dict[str, list[Event]]) -> go.Figure:
    """Dev UAS (solid) and LAS (dashed) per epoch, one pair of lines per run."""
    fig = go.Figure()
    for name, reports in runs.items():
        epochs = [r for r in events(reports, EpochEvent) if r.dev_uas is not None and r.dev_las is not None]
        x = [r.epoch for r in epochs]
        fig.add_trace(go.Scatter(x=x, y=[100 * (r.dev_uas or 0.0) for r in epochs], name=f"{name} UAS",
                                 mode="lines+markers"))
        fig.add_trace(go.Scatter(x=x, y=[100 * (r.dev_las or 0.0) for r in epochs], name=f"{name} LAS",
                                 mode="lines+markers", line={"dash": "dash"}))
    fig.update_layout(title="Dev accuracy per epoch", xaxis_title="epoch", yaxis_title="%", height=360,
                      legend=BELOW)
    last = max((r.epoch for reports in runs.values() for r in events(reports, EpochEvent)), default=1)
    fig.update_xaxes(dtick=max(1, -(-last // 10)))  # whole epochs, at most about ten ticks
    return fig


@dataclass(frozen=True)
class Progress:
    fraction: float
    text: str


def progress(reports: Sequence[Event]) -> Progress:
    """How far the run is (by epochs done), with throughput and an estimate of the time left."""
    start = next(iter(events(reports, StartEvent)), None)
    epochs = events(reports, EpochEvent)
    if start is None:
        return Progress(0.0, "starting…")
    total = start.train.epochs
    done = len(epochs)
    spent = sum(r.seconds for r in epochs)
    speed = epochs[-1].sentences_per_s if epochs else 0.0
    left = spent / done * (total - done) if done else None
    eta = "estimating…" if left is None else f"about {left:.0f} s left"
    return Progress(done / total if total else 0.0,
                    f"epoch {done}/{total} · {speed:.0f} sentences/s · {eta} · {start.device}")
