"""Train: choose data, system, oracle and regime; watch a parser learn; compare runs."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

import parsing_core as pc
from parsing_core.jobs import JobBoard, JobError, TrainingJob
from parsing_core.model import DEFAULT_PRESET, TrainSpec
from ui.navigation import run_through_app
from ui.train.training_data import training_data
from ui.views.training import (
    PAGE_DEFAULTS,
    SIZES,
    accuracy_figure,
    data_spec,
    default_choice,
    jobs_root,
    loss_figure,
    progress,
    records,
    run_name,
    run_spec,
)
from ui.widgets.errors import show_errors
from ui.widgets.pickers import oracle_picker, system_picker

JOB_KEY = "train.job"
REGIMES = {"static": "static oracle", "nondeterministic": "non-deterministic (follow a min-cost move)",
           "dynamic": "dynamic, with exploration"}


def board() -> JobBoard:
    return JobBoard(jobs_root(), limit=2)


def run_choice() -> TrainSpec | None:
    """The form of the page; returns the run's spec (None while there is no data to train on)."""
    data = training_data()
    defaults = PAGE_DEFAULTS
    system, _, _ = system_picker("train", defaults.system, with_options=False)
    oracles = [o for o in pc.list_oracles(pc.get_system(system)) if o != "search"]  # search: too slow
    first = default_choice(pc.get_system(system), oracles)
    oracle, _ = oracle_picker(pc.get_system(system), "train", names=oracles, default=first, compare=None)
    regime = st.selectbox("Regime", list(REGIMES), index=list(REGIMES).index(defaults.train.regime),
                          format_func=REGIMES.__getitem__, key="train.regime")
    cols = st.columns(4)
    epochs = cols[0].number_input("Epochs", 1, 50, defaults.train.epochs, key="train.epochs")
    k = cols[1].number_input("Explore after k epochs", 0, 50, defaults.train.explore_after, key="train.k")
    p = cols[2].slider("Exploration p", 0.0, 1.0, defaults.train.explore_p, key="train.p")
    size = cols[3].selectbox("Model size", SIZES, index=SIZES.index(DEFAULT_PRESET), key="train.size")
    if data is None:
        return None
    source = data_spec(data.data, data.folder, data.nonprojective)
    return run_spec(source, system, oracle, regime, int(epochs), int(k), p, size)


def current_job() -> TrainingJob | None:
    folder = st.session_state.get(JOB_KEY)
    return TrainingJob(Path(folder)) if folder and Path(folder).exists() else None


@st.fragment(run_every=1.0)
def watch(job: TrainingJob) -> None:
    """Progress, curves and status of the running job, refreshed every second."""
    reports = records(job)
    status = job.status()
    state = progress(reports)
    st.progress(state.fraction, text=f"{status} · {state.text}")
    left, right = st.columns(2)
    left.plotly_chart(loss_figure({job.folder.name: reports}), key="train.loss")
    right.plotly_chart(accuracy_figure({job.folder.name: reports}), key="train.acc")
    if status == "failed":
        st.error(f"The run failed:\n\n```\n{job.failure()}\n```")
    if status != "running":
        st.rerun()


def finished_runs(jobs: list[TrainingJob]) -> None:
    """Overlay the curves of chosen runs, and offer each run's checkpoint and log."""
    done = [j for j in jobs if j.status() in ("finished", "stopped")]
    if not done:
        return
    st.subheader("Compare runs")
    names = {j.folder.name: j for j in done}
    chosen = st.multiselect("Runs", list(names), default=list(names)[-2:], key="train.compare")
    runs = {n: records(names[n]) for n in chosen}
    left, right = st.columns(2)
    left.plotly_chart(loss_figure(runs), key="train.cmp_loss")
    right.plotly_chart(accuracy_figure(runs), key="train.cmp_acc")
    for name in chosen:
        job = names[name]
        cols = st.columns(3)
        cols[0].caption(name)
        if job.checkpoint.exists():
            cols[1].download_button("checkpoint", job.checkpoint.read_bytes(), f"{name}.pt", key=f"ck.{name}")
        cols[2].download_button("log", job.log.read_text() if job.log.exists() else "", f"{name}.jsonl",
                                key=f"log.{name}")


run_through_app()
st.title("Train a parser")
st.markdown("A BiLSTM parser learns from an oracle.  The run goes on in its own process: you may "
            "refresh the page, and stop it whenever you like.")
jobs = board()
job = current_job()
with show_errors():
    choice = run_choice()
    running = job is not None and job.status() == "running"
    cols = st.columns(2)
    start = cols[0].button("Start training", type="primary", disabled=running or choice is None,
                           key="train.start")
    if start and choice is not None:
        try:
            job = jobs.start(run_name(choice), choice)
            st.session_state[JOB_KEY] = str(job.folder)
            running = True
        except JobError as e:
            st.warning(str(e))
    if cols[1].button("Stop", disabled=not running, key="train.stop") and job is not None:
        job.stop()
        running = False
    if job is not None and running:
        watch(job)
    elif job is not None:
        st.caption(f"Last run: {job.folder.name} ({job.status()})")
    finished_runs(jobs.jobs())
