"""The Agreement view: choose a treebank, a system, two oracles, a walk and a budget; run the
comparison as a background job (its own process, on the jobs board, kind ``lab``); watch the
results fill in, stop it whenever you like.

Runs live in ``<jobs folder>/lab`` (``PARSING_JOBS_DIR``), apart from the Train page's runs, so a
refresh or another browser finds them.  The chosen run (``lab.run``) is shared with the Speed
view, which shows the same run's timings.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import streamlit as st

import parsing_core as pc
from parsing_core.experiments.lab import FOLLOW, LabSpec
from parsing_core.experiments.timing import cost_oracles, exact_oracles
from server.jobs import LIVE, JobBoard, JobError, TrainingJob
from server.limits import LimitReached
from ui.lab.agreement_view import (
    agreement_table,
    bucket_figure,
    confusion_summary,
    confusion_table,
    progress,
    rho_figure,
    sentence_frame,
    sentences_of,
    shown,
    thesis_note,
)
from ui.lab.downloads import plot, table_download
from ui.lab.readout_view import BUCKETS_DEFINED, readout, with_sentences
from ui.lab.speed import TIMED, speed
from ui.views.job_status import waiting
from ui.views.safe_text import inert
from ui.views.sources import sentence_from_key, treebank_key
from ui.views.training import jobs_root, may_stop, shared_server
from ui.widgets import limits
from ui.widgets.data_sources import from_ud
from ui.widgets.held import hold
from ui.widgets.pickers import system_picker
from ui.widgets.sentence_inputs import data_folder

LIMIT = 2  # lab jobs going at once, all browsers together
RUN, TAB, NOTE = "lab.run", "lab.tab", "lab.note"


def board() -> JobBoard:
    return JobBoard(jobs_root() / "lab", limit=LIMIT)


def this_tab() -> str:
    """This browser session's token, written as the owner of the runs it starts."""
    return str(st.session_state.setdefault(TAB, uuid.uuid4().hex[:12]))


def default_pair(system: pc.TransitionSystem, names: list[str]) -> tuple[str, str]:
    """(an approximate oracle, the best exact one), as the thesis compares them: the reference
    is a fast exact oracle where the system has one, else the search (exact, on short sentences).

    >>> default_pair(pc.get_system("arc-standard"), ["search", "exact", "thesis-approx"])
    ('thesis-approx', 'exact')
    >>> default_pair(pc.get_system("arc-eager"), ["search", "goldberg-nivre"])
    ('goldberg-nivre', 'search')
    """
    fallback = "search" if "search" in names else names[-1]
    exact = next((n for n in exact_oracles(system) if n in names), fallback)
    approx = next((n for n in names if n != exact and n != "search"), next(n for n in names if n != exact))
    return approx, exact


def oracle_pair(system_name: str) -> tuple[str, str] | None:
    """The two oracles to compare (None, said why, when the system has fewer than two with costs)."""
    system = pc.get_system(system_name)
    names = cost_oracles(system)
    if len(names) < 2:
        st.warning(f"{system_name} has only {len(names)} oracle giving costs: nothing to compare.")
        return None
    approx, exact = default_pair(system, names)
    if st.session_state.get("lab.approx") not in names:
        st.session_state["lab.approx"] = approx
    if st.session_state.get("lab.exact") not in names:
        st.session_state["lab.exact"] = exact
    first = st.selectbox("First oracle (the walk follows it)", names, key="lab.approx")
    second = st.selectbox("Second oracle (the reference)", names, key="lab.exact")
    return first, second


SOURCES = {"folder": "data directory", "ud": "Universal Dependencies (download by name)"}


def treebank_folder() -> tuple[str | None, str | None] | None:
    """(folder or None for the data directory, the one treebank a download gave or None), or None
    while there is none."""
    source = st.radio("Treebank from", list(SOURCES), format_func=SOURCES.__getitem__, horizontal=True,
                      key="lab.source")
    if source == "ud":
        got = from_ud("lab")
        return None if got is None else (got.folder, got.data)
    path = data_folder("lab")
    if path is None:
        return None
    return (None if path == pc.data_dir() else str(path)), None


def treebank_choice() -> tuple[str, str, str | None] | None:
    """(name, split, folder or None for the data directory), or None while there is none."""
    where = treebank_folder()
    if where is None:
        return None
    folder, only = where
    files = [f"{f.name}:{f.split}" for f in pc.list_treebanks(folder) if f.split and only in (None, f.name)]
    if not files:
        st.info("No <name>-ud-<split>.conllu file in this folder.")
        return None
    if st.session_state.get("lab.treebank") not in files:
        st.session_state["lab.treebank"] = "en_lines:train" if "en_lines:train" in files else files[0]
    name, split = st.selectbox("Treebank", files, key="lab.treebank",
                               format_func=lambda f: f.replace(":", " ")).split(":")
    return name, split, folder


def lab_choice() -> LabSpec | None:
    """The form; returns the run it describes (None while something is missing)."""
    source = treebank_choice()
    system, _, _ = system_picker("lab", "arc-standard", with_options=False)
    pair = oracle_pair(system)
    follow = st.radio("Walk policy", list(FOLLOW), format_func=FOLLOW.__getitem__, key="lab.follow")
    budget = st.number_input("Sentence budget (the first sentences of the file)", 1, 100_000, 200,
                             key="lab.budget")
    speed = st.checkbox(TIMED, key="lab.speed", help="After the agreement walks, time every oracle of the "
                        "system on sentences of growing length: the Speed and growth view shows them.")
    if source is None or pair is None:
        return None
    name, split, folder = source
    return LabSpec(name, split, folder, system, pair[0], pair[1], follow, int(budget), speed=speed)


def run_title(spec: Any) -> str:
    if not isinstance(spec, LabSpec):
        return "(no spec)"
    walk = "10 %" if spec.follow < 0.5 else "90 %"
    timing = " · timed" if spec.speed else ""
    return (f"{spec.treebank} {spec.split} · {spec.system} · {spec.approx} vs {spec.exact} · follow {walk} · "
            f"{spec.sentences} sentences{timing}")


def spec_of(job: TrainingJob) -> LabSpec | None:
    try:
        spec = job.spec()
    except (pc.ParsingCoreError, OSError, ValueError, TypeError):
        return None
    return spec if isinstance(spec, LabSpec) else None


def start(spec: LabSpec) -> None:
    try:
        limits.take("jobs")
        job = board().start(f"{spec.treebank}-{spec.system}", spec, owner=this_tab())
    except (JobError, OSError, LimitReached) as err:
        st.session_state[NOTE] = str(err)
        return
    st.session_state[RUN] = job.folder.name


def start_button(choice: LabSpec | None) -> None:
    free = board().free()
    why = "Choose a treebank first." if choice is None else f"{LIMIT} lab runs are going: stop one first."
    if st.button("Start", type="primary", key="lab.start", disabled=choice is None or not free,
                 help=None if choice and free else why) and choice:
        start(choice)
    if NOTE in st.session_state:
        st.warning(st.session_state.pop(NOTE))


def lab_runs() -> dict[str, TrainingJob]:
    """The lab runs of the jobs board by folder name, newest first."""
    return {j.folder.name: j for j in reversed(board().jobs())}


def held_run() -> TrainingJob | None:
    """The run the Agreement view's picker chose (the newest, or the one just started), kept
    while another view of the page is open and the picker is not drawn (:func:`ui.widgets.held.hold`)."""
    jobs = lab_runs()
    return jobs[hold(RUN, next(iter(jobs)), jobs)] if jobs else None


def chosen_run() -> TrainingJob | None:
    """The run to show, with its picker (newest first; the one just started is chosen)."""
    jobs = lab_runs()
    if not jobs:
        st.caption("No lab run yet: start one.")
        return None
    hold(RUN, next(iter(jobs)), jobs)

    def label(n: str) -> str:
        return f"{n[:15]} · {run_title(spec_of(jobs[n]))}"  # not its status: a label must not change

    name = st.selectbox("Run", list(jobs), key=RUN, format_func=label)
    return jobs[name]


def stop(folder: str) -> None:
    job = TrainingJob(Path(folder))
    if may_stop(job.owner(), this_tab(), shared_server()):
        job.stop()


def job_state(job: TrainingJob) -> list[Any]:
    """The run's records so far; its progress and Stop while it runs, why it failed if it did."""
    records = job.events()
    status = job.status()
    if status in LIVE:
        fraction, text = progress(records)
        bar, button = st.columns([5, 1], vertical_alignment="bottom")
        bar.progress(fraction, text=waiting(job) or text)
        if may_stop(job.owner(), this_tab(), shared_server()):
            button.button("Stop", key=f"lab.stop.{job.folder.name}", on_click=stop, args=(str(job.folder),))
    elif status == "failed":
        st.error(f"This run failed:\n\n```\n{job.failure()}\n```")
    else:
        st.caption(f"This run is {status}: {progress(records)[1]}.")
    return records


def results(records: list[Any], spec: LabSpec, key: str) -> None:
    """What the run found in words, the agreement table beside the thesis's, the plots, and the
    confusions with their sentences and links."""
    table = agreement_table(records, spec)
    st.markdown(f"**Agreement of {spec.approx} with {spec.exact}**")
    for sentence in readout(table, spec):
        st.markdown(sentence)
    st.dataframe(shown(table), hide_index=True)
    st.caption(thesis_note(spec) + "  —: not reported.")
    with st.expander("What the buckets and ρ mean", expanded=not sentences_of(records)):
        st.markdown(BUCKETS_DEFINED)
    table_download(table, "lab-agreement", f"{key}.table")
    plot(bucket_figure(table), "lab-buckets", f"{key}.buckets", table)
    plot(rho_figure(records), "lab-rho", f"{key}.rho", sentence_frame(records))
    confusions(records, spec, key)


def words_of(spec: LabSpec, index: int) -> tuple[str, ...]:
    """The words of sentence ``index`` of the run's treebank (the file is read once)."""
    try:
        return tuple(sentence_from_key(treebank_key(spec.treebank, spec.split, index, spec.folder)).words)
    except (pc.ParsingCoreError, OSError):
        return (f"sentence {index}",)


def confusions(records: list[Any], spec: LabSpec, key: str) -> None:
    st.markdown("**Most frequent optimal-set confusions** (Nederhof's Table 11 form: the reference's "
                "optimal set, the first oracle's, how often, their share of all confusions; each row opens "
                "its first example in the stepper)")
    st.caption(confusion_summary(records))
    frame = confusion_table(records, spec)
    if frame.empty:
        return
    frame = with_sentences(frame, lambda index: words_of(spec, index))
    headers = [spec.exact, spec.approx, "configurations", "share %", "sentence", "example"]
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    for row in frame.itertuples(index=False):
        cells = [*(str(x) for x in row[:4]), inert(str(row[5])), f"[open in the stepper]({row[6]})"]
        lines.append("| " + " | ".join(cells) + " |")
    st.markdown("\n".join(lines))
    table_download(frame, "lab-confusions", f"{key}.confusions")


# -- the chosen run, drawn again every second while it runs ----------------------------------------
def agreement_view(job: TrainingJob) -> None:
    records = job_state(job)
    spec = spec_of(job)
    if spec is None:
        st.error("This run's spec cannot be read.")
        return
    results(records, spec, "lab.agreement")


def speed_view(job: TrainingJob) -> None:
    spec = spec_of(job)
    if spec is not None:
        speed(job.events(), spec, "lab.speed")


VIEWS = {"agreement": agreement_view, "speed": speed_view}


@st.fragment(run_every=1.0)
def live(folder: str, view: str) -> None:
    """The view of a running job, refreshed every second; once the job has ended, the whole page
    is drawn again (and the view no longer refreshes)."""
    job = TrainingJob(Path(folder))
    if job.status() not in LIVE:
        st.rerun()
    VIEWS[view](job)


def show(job: TrainingJob, view: str) -> None:
    """The job's results in ``view`` ("agreement" or "speed"), live while it runs."""
    if job.status() in LIVE:
        live(str(job.folder), view)
    else:
        VIEWS[view](job)
