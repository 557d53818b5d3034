"""Pure helpers of the Train page: the run's spec and name, presets, curves, progress, results.

``run_spec`` turns the page's choices into one :class:`~parsing_core.model.TrainSpec` (the
job writes it to ``spec.json``); ``run_title`` names a run by what it is (system, regime and
oracle, data, epochs, network); :data:`PRESETS` are pairs of runs that answer one question;
``loss_figure`` and ``accuracy_figure`` draw one or several runs' log records (plotly);
``progress`` reads how far a run is and estimates the time left; ``results_table`` is one row
per ended run with its dev and test scores; ``may_stop`` is the rule for who may stop a run.
The records are the typed ones of :mod:`parsing_core.model.events`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypeVar

import pandas as pd
import plotly.graph_objects as go

from parsing_core.model import (
    DEFAULT_PRESET,
    MODEL_PRESETS,
    BatchEvent,
    DataSpec,
    EpochEvent,
    Event,
    ModelConfig,
    StartEvent,
    TestEvent,
    TrainConfig,
    TrainSpec,
    default_oracle,
)
from parsing_core.systems import TransitionSystem, get_system
from server.jobs import TrainingJob
from server.settings import Settings, settings
from ui.views.training_titles import data_title, model_title, run_name, run_title, size_title

__all__ = ["data_title", "model_title", "run_name", "run_title", "size_title"]  # named here too, as before

JOBS_ROOT_ENV = Settings.variable("jobs_dir")

#: What the Train page offers first: 1,000 synthetic sentences, 80 % of them non-projective,
#: arc-hybrid, the dynamic regime, 10 epochs, exploration as TrainConfig's defaults, the ``small``
#: network.  On this data the oracle matters: the first preset (the same run with the static
#: oracle beside it) ended at dev UAS 72.2 % static against 94.5 % dynamic, where 30 %
#: non-projective data gave 96.6 % and 97.0 % (seed 1; docs/pages/train.md).
PAGE_DEFAULTS = TrainSpec(DataSpec(synthetic=1000, nonprojective=0.8), "arc-hybrid", TrainConfig(epochs=10),
                          ModelConfig.preset(DEFAULT_PRESET))
SIZES = list(MODEL_PRESETS)


def jobs_root() -> Path:
    """Where training runs keep their folders: ``PARSING_JOBS_DIR``, else one in the temp dir."""
    return settings().jobs_dir


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
             explore_p: float, size: str, precision: str = "float32") -> TrainSpec:
    """The spec of the run the page's choices describe."""
    train = replace(PAGE_DEFAULTS.train, regime=regime, oracle=oracle, epochs=epochs,
                    explore_after=explore_after, explore_p=explore_p, precision=precision)
    return TrainSpec(data, system, train, ModelConfig.preset(size))


@dataclass(frozen=True)
class Preset:
    """Runs that answer one question together, started with one click."""

    title: str
    question: str
    runs: tuple[TrainSpec, ...]


def variant(nonprojective: float, regime: str, system: str = PAGE_DEFAULTS.system) -> TrainSpec:
    """The page's default run on ``system`` in ``regime`` (its default oracle), on synthetic data."""
    oracle = default_oracle(get_system(system), regime)
    data = replace(PAGE_DEFAULTS.data, nonprojective=nonprojective)
    return replace(PAGE_DEFAULTS, system=system, data=data,
                   train=replace(PAGE_DEFAULTS.train, regime=regime, oracle=oracle))


#: The experiments of the seeds, two runs each (the board runs two at once).
PRESETS = [
    Preset("Static vs dynamic, 80 % non-projective",
           "Does training on the oracle's mistakes help when most gold trees cross?  The static regime "
           "learns only from the sentences the system can build (here 200 of the 1,000).",
           (variant(0.8, "static"), variant(0.8, "dynamic"))),
    Preset("Static vs dynamic, projective trees only",
           "With every tree buildable, what does exploration add?",
           (variant(0.0, "static"), variant(0.0, "dynamic"))),
    Preset("Non-deterministic vs dynamic, 30 % non-projective",
           "Both follow a cheapest move; only the dynamic regime also follows the model's own mistakes.",
           (variant(0.3, "nondeterministic"), variant(0.3, "dynamic"))),
]


def records(job: TrainingJob) -> list[Event]:
    """The job's log as typed records."""
    return job.events()


# Run names are long: the legend goes under the plot, below the axis title, whatever the height.
BELOW = {"orientation": "h", "yref": "container", "yanchor": "bottom", "y": 0}
MARGIN = {"t": 40, "b": 90}


E = TypeVar("E", StartEvent, BatchEvent, EpochEvent, TestEvent)


def events(reports: Sequence[Event], kind: type[E]) -> list[E]:
    return [r for r in reports if isinstance(r, kind)]


def legend_names(titles: Sequence[str]) -> list[str]:
    """Short names for a legend: the parts of each title (``·``-separated) that not all share;
    where that leaves nothing (one run, or equal ones), the system and regime.  Equal names are
    numbered, as a dict of runs needs one key each.

    >>> legend_names(["arc-hybrid · static oracle · 4 epochs", "arc-hybrid · dynamic · 4 epochs"])
    ['static oracle', 'dynamic']
    >>> legend_names(["arc-hybrid · static oracle · 4 epochs"] * 2)
    ['arc-hybrid · static oracle', 'arc-hybrid · static oracle (2)']
    """
    parts = [t.split(" · ") for t in titles]
    shared = set.intersection(*(set(p) for p in parts)) if len(parts) > 1 else set(parts[0] if parts else [])
    names = [" · ".join(w for w in p if w not in shared) or " · ".join(p[:2]) for p in parts]
    return [n if names[:i].count(n) == 0 else f"{n} ({names[:i].count(n) + 1})" for i, n in enumerate(names)]


def loss_figure(runs: dict[str, list[Event]], height: int = 360) -> go.Figure:
    """Loss per batch, one line per run."""
    lines: list[dict[str, object]] = [
        {"type": "scatter", "y": [r.loss for r in events(reports, BatchEvent)], "mode": "lines", "name": name}
        for name, reports in runs.items()]
    return figure(lines, "Training loss per batch", "batch", "loss", height)


def accuracy_figure(runs: dict[str, list[Event]], height: int = 360) -> go.Figure:
    """Dev UAS (solid) and LAS (dashed) per epoch, one pair of lines per run."""
    lines: list[dict[str, object]] = []
    for name, reports in runs.items():
        epochs = [r for r in events(reports, EpochEvent) if r.dev_uas is not None and r.dev_las is not None]
        x = [r.epoch for r in epochs]
        lines += [{"type": "scatter", "x": x, "y": [100 * (r.dev_uas or 0.0) for r in epochs],
                   "name": f"{name} UAS", "mode": "lines+markers"},
                  {"type": "scatter", "x": x, "y": [100 * (r.dev_las or 0.0) for r in epochs],
                   "name": f"{name} LAS", "mode": "lines+markers", "line": {"dash": "dash"}}]
    last = max((r.epoch for reports in runs.values() for r in events(reports, EpochEvent)), default=1)
    fig = figure(lines, "Dev accuracy per epoch", "epoch", "%", height)
    return fig.update_xaxes(dtick=max(1, -(-last // 10)))  # whole epochs, at most about ten ticks


def figure(lines: list[dict[str, object]], title: str, x: str, y: str, height: int) -> go.Figure:
    """A chart of ``lines`` (Plotly traces as dicts), titled, its legend below: made in one
    go, as a page looking at a going run every second makes it (three to four times quicker than adding
    the traces and the layout one call at a time, each checked on its own)."""
    layout = {"title": {"text": title}, "xaxis": {"title": {"text": x}}, "yaxis": {"title": {"text": y}},
              "height": height, "legend": BELOW, "margin": MARGIN}
    return go.Figure({"data": lines, "layout": layout})


@dataclass(frozen=True)
class Progress:
    fraction: float
    text: str


def progress(reports: Sequence[Event]) -> Progress:
    """How far the run is (epochs done, and batches of the epoch going on), with throughput and an
    estimate of the time left (from the epochs done)."""
    start = next(iter(events(reports, StartEvent)), None)
    epochs = events(reports, EpochEvent)
    if start is None:
        return Progress(0.0, "starting…")
    total = start.train.epochs
    done = len(epochs)
    current = [b for b in events(reports, BatchEvent) if b.epoch == done + 1]
    within = current[-1].batch / current[-1].batches if current and current[-1].batches else 0.0
    spent = sum(r.seconds for r in epochs)
    if epochs:
        speed = epochs[-1].sentences_per_s
    else:  # the first epoch: from its batches so far
        seconds = sum(b.seconds for b in current)
        speed = sum(b.sentences for b in current) / seconds if seconds else 0.0
    left = spent / done * (total - done) if done else None
    eta = "estimating…" if left is None else f"about {left:.0f} s left"
    return Progress(min(1.0, (done + within) / total) if total else 0.0,
                    f"epoch {done}/{total} · {speed:.0f} sentences/s · {eta} · {start.device}"
                    + (f" · {trained_on(start)}" if start.left_out else ""))


def trained_on(start: StartEvent | None) -> str | None:
    """How many training sentences the run trains on, "412 of 2,000 sentences" where some were left
    out (None in a log that did not count them).

    >>> from parsing_core.model import ModelConfig, TrainConfig
    >>> trained_on(StartEvent("synthetic", "arc-hybrid", "cpu", TrainConfig(), ModelConfig(), 412, 2000))
    '412 of 2,000 sentences'
    """
    if start is None or start.sentences is None:
        return None
    if not start.left_out:
        return f"{start.sentences:,} sentences"
    return f"{start.sentences:,} of {start.offered:,} sentences"


# -- who may stop a run ---------------------------------------------------------------------
SHARED_ENV = Settings.variable("shared_server")


def shared_server(environ: Mapping[str, str] | None = None) -> bool:
    """Is the app served to several people (``PARSING_SHARED_SERVER=1``)?  (In ``environ``, if given.)"""
    return (settings() if environ is None else Settings.from_environ(environ)).shared_server


def may_stop(owner: str | None, me: str, shared: bool) -> bool:
    """The rule: on one person's machine anyone at the page may stop any run (their own, started
    in another tab or before a refresh); on a shared server only the browser tab that started it.

    >>> may_stop("tab-a", "tab-b", shared=False), may_stop("tab-a", "tab-b", shared=True)
    (True, False)
    """
    return not shared or owner == me


def stop_rule(shared: bool) -> str:
    """The rule, as the page states it."""
    if shared:
        return (f"Shared server ({SHARED_ENV}=1): you may stop the runs started from this browser tab "
                "(its address carries a token, so a refresh keeps them yours); other people's runs "
                "are listed without a Stop button.")
    return (f"Single-user machine: anyone at this page may stop any run, even one started in another "
            f"tab or before a refresh (set {SHARED_ENV}=1 on a shared server to allow only your own).")


# -- the results of ended runs --------------------------------------------------------------
def kept_epoch(epochs: Sequence[EpochEvent], keep_best: bool) -> EpochEvent | None:
    """The epoch whose weights the run kept: the first with the best dev UAS (or the last)."""
    scored = [e for e in epochs if e.dev_uas is not None]
    if keep_best and scored:
        return max(scored, key=lambda e: e.dev_uas or 0.0)  # max() keeps the first of equals
    return epochs[-1] if epochs else None


def percent(value: float | None) -> float | None:
    return None if value is None else round(100 * value, 2)


def result_row(title: str, started: str, status: str, spec: TrainSpec | None, reports: Sequence[Event]
               ) -> dict[str, object]:
    """One run's line of the results table (scores in %, None where there is none)."""
    epochs = events(reports, EpochEvent)
    kept = kept_epoch(epochs, spec.train.keep_best if spec else True)
    test = next(iter(events(reports, TestEvent)), None)
    planned = spec.train.epochs if spec else (epochs[-1].epochs if epochs else 0)
    start = next(iter(events(reports, StartEvent)), None)
    return {"Run": title, "Started": started, "Status": status, "Epochs": f"{len(epochs)}/{planned}",
            "Trained on": trained_on(start), "Kept epoch": kept.epoch if kept else None,
            "Dev UAS": percent(kept.dev_uas if kept else None),
            "Dev LAS": percent(kept.dev_las if kept else None),
            "Test UAS": percent(test.test_uas if test else None),
            "Test LAS": percent(test.test_las if test else None),
            "Training s": round(sum(e.seconds + (e.dev_seconds or 0.0) for e in epochs), 1)}


def results_table(rows: Sequence[dict[str, object]]) -> pd.DataFrame:
    """The rows as a table, newest first; missing scores are missing values (NA), not zeros."""
    frame = pd.DataFrame(list(reversed(rows)), columns=RESULT_COLUMNS)
    return frame.astype({"Kept epoch": "Int64", **dict.fromkeys(RESULT_COLUMNS[6:], "Float64")})


RESULT_COLUMNS = ["Run", "Started", "Status", "Epochs", "Trained on", "Kept epoch", "Dev UAS", "Dev LAS",
                  "Test UAS", "Test LAS", "Training s"]


def with_new_runs(chosen: Sequence[str], seen: Collection[str], available: Sequence[str]) -> list[str]:
    """The runs to compare: those still chosen that still exist, then each run not seen before
    (so a run that ends joins the comparison by itself, and one taken out stays out).

    >>> with_new_runs(["a", "gone"], seen={"a", "b", "gone"}, available=["a", "b", "c"])
    ['a', 'c']
    """
    return [n for n in chosen if n in available] + [n for n in available if n not in seen and n not in chosen]
