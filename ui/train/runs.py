"""The Train page's runs: every run is a job of the jobs board (:class:`server.jobs.JobBoard`, a
folder per run), listed from the board itself, never from the browser session alone, so a refresh
or another browser finds them all, each with its Stop.

A click acts before the page is drawn again (Stop and the presets through callbacks, Start
followed by a rerun): what the page shows after a click is the state after it.
"""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import streamlit as st

import parsing_core as pc
from parsing_core.model import TrainSpec
from server.jobs import LIVE, JobBoard, JobError, TrainingJob
from ui.views.job_status import look_every, waiting
from ui.views.safe_text import inert
from ui.views.training import (
    PRESETS,
    accuracy_figure,
    data_title,
    jobs_root,
    legend_names,
    loss_figure,
    may_stop,
    progress,
    records,
    run_name,
    run_title,
    shared_server,
)

LIMIT = 2  # runs going at once, all browsers together
NOTE, TAB = "train.note", "train.tab"
OWNER_PARAM = "tab"  # on a shared server, the tab's token rides in the address, so a refresh keeps it


def job_board() -> JobBoard:
    return JobBoard(jobs_root(), limit=LIMIT)


def going_and_ended(board: JobBoard) -> tuple[list[TrainingJob], list[TrainingJob]]:
    """The board's runs going now (queued ones too) and the ended ones, each in the board's order."""
    jobs = board.jobs()
    running = [j for j in jobs if j.status() in LIVE]
    names = {r.folder.name for r in running}
    return running, [j for j in jobs if j.folder.name not in names]


def this_tab() -> str:
    """This browser tab's token: the owner written into the runs it starts."""
    shared = shared_server()
    token = (st.query_params.get(OWNER_PARAM) if shared else None) or st.session_state.get(TAB)
    token = token or uuid.uuid4().hex[:12]
    st.session_state[TAB] = token
    if shared and st.query_params.get(OWNER_PARAM) != token:
        st.query_params[OWNER_PARAM] = token
    return token


# -- what the buttons do ---------------------------------------------------------------------
def start_runs(specs: tuple[TrainSpec, ...], tab: str) -> None:
    """Start every run of ``specs``, or none, saying why."""
    board = job_board()
    if board.free() < len(specs):
        st.session_state[NOTE] = (f"{len(specs)} runs need {len(specs)} free places and {board.free()} of "
                                  f"{LIMIT} are free: stop a run or wait for one to end.")
        return
    try:
        for spec in specs:
            board.start(run_name(spec), spec, owner=tab)
    except (JobError, OSError) as err:
        st.session_state[NOTE] = str(err)


def stop_run(folder: str, tab: str) -> None:
    job = TrainingJob(Path(folder))
    if may_stop(job.owner(), tab, shared_server()):
        job.stop()


# -- the runs --------------------------------------------------------------------------------
def spec_of(job: TrainingJob) -> TrainSpec | None:
    """The run's spec; None for a run started from flags, or whose spec.json is unreadable."""
    try:
        spec = job.spec()
    except (pc.ParsingCoreError, OSError, ValueError):
        return None
    return spec if isinstance(spec, TrainSpec) else None


def title(job: TrainingJob) -> str:
    """The run's title from its spec (else its folder name)."""
    spec = spec_of(job)
    return run_title(spec) if spec else job.folder.name


def started(job: TrainingJob) -> str:
    return time.strftime("%d %b %H:%M:%S", time.localtime(job.started()))


def capacity_note(board: JobBoard) -> str:
    """How many runs may go at once: the board's own cap here, the cluster's room on Ray."""
    if board.where().queues:
        return (f"Runs go to the Ray cluster, which runs as many as it has room for (one CPU core "
                f"each); at most {LIMIT} more may wait in its queue.")
    return f"At most {LIMIT} runs go at once; each uses one CPU core."


def start_buttons(choice: TrainSpec | None, tab: str, board: JobBoard) -> None:
    """At the top of the form: Start (the run the form describes) and the first preset, the
    comparison that shows why the oracle matters, each one click."""
    free, first = board.free(), PRESETS[0]
    busy = "the cluster's queue is full" if board.where().queues else f"{LIMIT} runs are going"
    why = "Choose training data first." if choice is None else f"{busy}: stop one first."
    left, right = st.columns([2, 3])  # the second label is the longer: whole on a 1366 px laptop
    # Not a callback: its arguments would be the form of the run before, without an edit made
    # just before the click.  The page is drawn again at once instead.
    if left.button("Start training", type="primary", key="train.start", disabled=choice is None or not free,
                   help=None if choice and free else why, width="stretch") and choice:
        start_runs((choice,), tab)
        st.rerun()
    right.button("Start static vs dynamic", key="train.first.start", on_click=start_runs,
                 args=(first.runs, tab), disabled=free < len(first.runs), width="stretch",
                 help=first.question if free >= len(first.runs) else "Two places must be free: stop the "
                                                                     "runs going.")
    st.caption((f"**Start training**: {inert(run_title(choice))}.  " if choice else "") +
               f"**Static vs dynamic**: the same on {inert(data_title(first.runs[0].data))}, one run per "
               "oracle, side by side.")
    if NOTE in st.session_state:
        st.warning(st.session_state.pop(NOTE))


def presets(tab: str, board: JobBoard) -> None:
    """Every preset: two runs that answer one question, started together."""
    free = board.free()
    with st.expander("Presets: two runs that answer one question, started together", expanded=False):
        names = [p.title for p in PRESETS]
        name = st.selectbox("Preset", names, key="train.preset")
        preset = PRESETS[names.index(name)]
        st.markdown(f"{preset.question}\n\n" + "\n".join(f"* {run_title(s)}" for s in preset.runs))
        st.button("Start both runs", key="train.preset.start", disabled=free < len(preset.runs),
                  on_click=start_runs, args=(preset.runs, tab),
                  help=None if free >= len(preset.runs) else "Two places must be free: stop the runs going.")


def live_runs(seen: tuple[str, ...], tab: str) -> None:
    """Progress, curves and Stop of every run going now (:func:`runs_now`), looked at again every
    :func:`~ui.views.job_status.look_every` seconds (every second while a run goes, every five while
    none does)."""
    st.fragment(run_every=look_every(bool(seen)))(runs_now)(seen, tab)


def runs_now(seen: tuple[str, ...], tab: str) -> None:
    """Progress, curves and Stop of every run going now; when a run starts or ends (here or in
    another browser) the whole page is drawn again."""
    running = job_board().live()  # queued ones too: they wait for room on the cluster
    if tuple(j.folder.name for j in running) != seen:
        st.rerun()
    if not running:
        st.caption("No run is going now.")
        return
    reports = [records(j) for j in running]
    for job, log in zip(running, reports, strict=True):
        state = progress(log)
        bar, button = st.columns([5, 1], vertical_alignment="bottom")
        text = waiting(job) or state.text
        bar.progress(state.fraction, text=f"**{inert(title(job))}** (started {started(job)}) · {text}")
        if may_stop(job.owner(), tab, shared_server()):
            button.button("Stop", key=f"train.stop.{job.folder.name}", on_click=stop_run,
                          args=(str(job.folder), tab))
        else:
            button.caption("someone else's run")
    runs = dict(zip(legend_names([title(j) for j in running]), reports, strict=True))
    st.plotly_chart(accuracy_figure(runs, height=300), key="train.acc")
    st.plotly_chart(loss_figure(runs, height=260), key="train.loss")


def waiting_curves() -> None:
    """While no run is going, the frame its loss curve will grow in (drawn once, outside the
    fragment that refreshes every second).  It also has the browser load the charts' code before
    anyone clicks Start: a fresh Chromium took 2.15 s for its first Plotly chart and 0.38 s for
    the next, time that fell between Start and a run's first point."""
    frame = loss_figure({}, height=220).update_xaxes(range=[0, 100]).update_yaxes(range=[0, 3])
    st.plotly_chart(frame, key="train.waiting")
    st.caption("A run's loss per batch grows here as it trains; its dev accuracy per epoch above it.")
