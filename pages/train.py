"""Train: choose data, system, oracle and regime; watch parsers learn; compare their results.

Every run is a job of the jobs board (:class:`parsing_core.jobs.JobBoard`, a folder per run):
the page lists the runs going now and the ended ones from the board itself, never from the
browser session alone, so a refresh or another browser finds them all, each with its Stop.
A click acts before the page is drawn again (Stop and the presets through callbacks, Start
followed by a rerun): what the page shows after a click is the state after it.
"""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import streamlit as st

import parsing_core as pc
from parsing_core.jobs import LIVE, JobBoard, JobError, TrainingJob
from parsing_core.model import DEFAULT_PRESET, TrainSpec, pick_device
from parsing_core.model.device import bfloat16_native
from ui.navigation import run_through_app
from ui.views.glossary import term
from ui.views.job_status import waiting
from ui.views.safe_text import inert
from ui.views.training import (
    PAGE_DEFAULTS,
    PRESETS,
    SIZES,
    accuracy_figure,
    data_spec,
    default_choice,
    jobs_root,
    legend_names,
    loss_figure,
    may_stop,
    progress,
    records,
    result_row,
    results_table,
    run_name,
    run_spec,
    run_title,
    shared_server,
    stop_rule,
    with_new_runs,
)
from ui.widgets.data_sources import training_data
from ui.widgets.errors import show_errors
from ui.widgets.pickers import oracle_picker, system_picker

LIMIT = 2  # runs going at once, all browsers together
NOTE, TAB, SEEN = "train.note", "train.tab", "train.compare.seen"
OWNER_PARAM = "tab"  # on a shared server, the tab's token rides in the address, so a refresh keeps it
REGIMES = {"static": "static oracle", "nondeterministic": "non-deterministic (follow a min-cost move)",
           "dynamic": "dynamic, with exploration"}
IMITATION = "imitation of the learned DQN oracle (the thesis's chapter 8)"


def job_board() -> JobBoard:
    return JobBoard(jobs_root(), limit=LIMIT)


def this_tab() -> str:
    """This browser tab's token: the owner written into the runs it starts."""
    shared = shared_server()
    token = (st.query_params.get(OWNER_PARAM) if shared else None) or st.session_state.get(TAB)
    token = token or uuid.uuid4().hex[:12]
    st.session_state[TAB] = token
    if shared and st.query_params.get(OWNER_PARAM) != token:
        st.query_params[OWNER_PARAM] = token
    return token


def run_choice() -> TrainSpec | None:
    """The form of the page; returns the run's spec (None while there is no data to train on)."""
    data = training_data()
    defaults = PAGE_DEFAULTS
    system, _, _ = system_picker("train", defaults.system, with_options=False)
    oracles = [o for o in pc.list_oracles(pc.get_system(system)) if o != "search"]  # search: too slow
    first = default_choice(pc.get_system(system), oracles)
    oracle, _ = oracle_picker(pc.get_system(system), "train", names=oracles, default=first, compare=None)
    regimes = [*REGIMES, *(["imitation"] if "dqn" in oracles else [])]  # a learned oracle to imitate
    regime = st.selectbox("Regime", regimes, index=regimes.index(defaults.train.regime),
                          format_func=lambda r: REGIMES.get(r, IMITATION), key="train.regime")
    if regime == "imitation":  # the parser does what the DQN ($PARSING_DQN_MODEL) would do
        oracle = "dqn"
    top, bottom = st.columns(2), st.columns(2)
    epochs = top[0].number_input("Epochs", 1, 100, defaults.train.epochs, key="train.epochs")
    size = top[1].selectbox("Model size", SIZES, index=SIZES.index(DEFAULT_PRESET), key="train.size")
    k = bottom[0].number_input("Explore after k epochs", 0, 100, defaults.train.explore_after, key="train.k")
    p = bottom[1].slider("Exploration p", 0.0, 1.0, defaults.train.explore_p, key="train.p")
    st.caption(f"In the dynamic regime, after k epochs the walk follows the model's own mistake with "
               f"probability p ({term('exploration')}); the {term('static oracle')} cannot follow any.")
    precision = precision_choice()
    if data is None:
        return None
    source = data_spec(data.data, data.folder, data.nonprojective)
    return run_spec(source, system, oracle, regime, int(epochs), int(k), p, size, precision)


def precision_choice() -> str:
    """float32, or bfloat16 where this server's processor computes in it (else the box is off, saying why)."""
    native = bfloat16_native(pick_device("auto"))
    why = ("The BiLSTMs compute in bfloat16, the rest in float32: a run goes faster, with the same "
           "accuracy within noise, but a seed's numbers are not float32's." if native else
           "This server's processor has no native bfloat16 (AVX-512 BF16, AMX or a recent GPU): "
           "emulated, it would be slower than float32.")
    mixed = st.checkbox("Mixed precision (bfloat16)", value=False, disabled=not native, help=why,
                        key="train.bfloat16")
    return "bfloat16" if mixed and native else "float32"


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
    free = board.free()
    left, right = st.columns([1, 2])
    busy = "the cluster's queue is full" if board.where().queues else f"{LIMIT} runs are going"
    why = "Choose training data first." if choice is None else f"{busy}: stop one first."
    # Not a callback: its arguments would be the form of the run before, without an edit made
    # just before the click.  The page is drawn again at once instead.
    if left.button("Start training", type="primary", key="train.start", disabled=choice is None or not free,
                   help=None if choice and free else why) and choice:
        start_runs((choice,), tab)
        st.rerun()
    right.caption(f"This run: {inert(run_title(choice))}" if choice else "")
    with st.expander("Presets: two runs that answer one question, started together", expanded=False):
        names = [p.title for p in PRESETS]
        name = st.selectbox("Preset", names, key="train.preset")
        preset = PRESETS[names.index(name)]
        st.markdown(f"{preset.question}\n\n" + "\n".join(f"* {run_title(s)}" for s in preset.runs))
        st.button("Start both runs", key="train.preset.start", disabled=free < len(preset.runs),
                  on_click=start_runs, args=(preset.runs, tab),
                  help=None if free >= len(preset.runs) else "Two places must be free: stop the runs going.")
    if NOTE in st.session_state:
        st.warning(st.session_state.pop(NOTE))


@st.fragment(run_every=1.0)
def live_runs(seen: tuple[str, ...], tab: str) -> None:
    """Progress, curves and Stop of every run going now, refreshed every second; when a run starts
    or ends (here or in another browser) the whole page is drawn again."""
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


def results(ended: list[TrainingJob]) -> None:
    """The table of ended runs, failures, and the comparison of their curves."""
    if not ended:
        return
    st.subheader("Results")
    rows = [result_row(title(j), started(j), j.status(), spec_of(j), records(j)) for j in ended]
    st.table(results_table(rows).style.format(precision=2, na_rep="—").hide())
    st.caption("Scores in %.  Dev: the kept epoch's (the first with the best dev UAS, whose weights "
               "the model keeps; a stopped run keeps its best epoch so far).  Test: that model on the "
               "test set.  —: none (no test set, or stopped before an epoch ended).")
    for job in ended:
        if job.status() == "failed":
            kept = ("  Its best epoch's model was kept: the Stepper can load it."
                    if job.checkpoint.exists() else "")
            st.error(f"{inert(title(job))} failed:\n\n```\n{job.failure()}\n```{kept}")
        if job.skipped_lines():
            st.caption(f"{inert(title(job))}: {job.skipped_lines()} unreadable line(s) of its log were "
                       "skipped.")
    compare([j for j in ended if j.status() in ("finished", "stopped")])


def compare(done: list[TrainingJob]) -> None:
    """Overlay the curves of chosen runs (each run that ends joins by itself); their downloads."""
    if not done:
        return
    names = {j.folder.name: j for j in done}
    seen = st.session_state.get(SEEN)
    chosen = st.session_state.get("train.compare", list(names)[-4:] if seen is None else [])
    st.session_state["train.compare"] = with_new_runs(chosen, seen or list(names), list(names))
    st.session_state[SEEN] = list(names)
    picked = st.multiselect("Compare runs", list(names), key="train.compare",
                            format_func=lambda n: f"{started(names[n])} · {title(names[n])}")
    runs = dict(zip(legend_names([title(names[n]) for n in picked]), [records(names[n]) for n in picked],
                    strict=True))
    left, right = st.columns(2)
    left.plotly_chart(loss_figure(runs), key="train.cmp_loss")
    right.plotly_chart(accuracy_figure(runs), key="train.cmp_acc")
    for name in picked:
        job = names[name]
        cols = st.columns([4, 1, 1])
        cols[0].caption(inert(title(job)))
        if job.checkpoint.exists():
            cols[1].download_button("checkpoint", job.checkpoint.read_bytes(), f"{name}.pt", key=f"ck.{name}")
        cols[2].download_button("log", job.log.read_text() if job.log.exists() else "", f"{name}.jsonl",
                                key=f"log.{name}")


run_through_app()
st.title("Train a parser")
st.markdown("A BiLSTM parser learns from an oracle.  Each run goes on in its own process on the "
            "server, so every run going now is listed under *Runs going now*, whoever started it: you "
            "may refresh the page or come back from another browser, and stop a run whenever you "
            "like.  A stopped run keeps the weights of its best epoch so far (once one epoch has "
            "ended), ready for the Stepper like a finished one.  " + capacity_note(board := job_board()))
tab = this_tab()
jobs = board.jobs()
running = [j for j in jobs if j.status() in LIVE]
ended = [j for j in jobs if j.folder.name not in {r.folder.name for r in running}]
with show_errors():
    form, watch = st.columns([2, 3], gap="large")
    with form:
        st.subheader("New run")
        choice = run_choice()
        start_buttons(choice, tab, board)
    with watch:
        st.subheader("Runs going now")
        live_runs(tuple(j.folder.name for j in running), tab)
        if not running:
            waiting_curves()
        st.caption(stop_rule(shared_server()))
    results(ended)
