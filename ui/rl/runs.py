"""DQN runs on the jobs board: started from the page's choices, watched every second, stopped.

Runs live in ``$PARSING_JOBS_DIR/rl`` (apart from the Train page's, so the stepper never offers
a DQN as a parser); one runs at a time.  A run found on disk after a refresh is watched the same.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

from parsing_core.rl import RLSpec
from parsing_core.rl.oracle import trained_name
from server.jobs import LIVE, JobBoard, JobError, TrainingJob
from server.limits import LimitReached
from ui.rl.runs_view import curves, progress_of, summary, verdict
from ui.views.job_status import look_every, waiting
from ui.views.safe_text import inert
from ui.views.training import jobs_root
from ui.widgets import limits
from ui.widgets.dqn_runs import reward_of, title_of
from ui.widgets.pickers import use_dqn

LIMIT = 1


def board() -> JobBoard:
    return JobBoard(jobs_root() / "rl", limit=LIMIT)


def start(spec: RLSpec, name: str) -> None:
    """Start the run, or keep the reason it cannot start for the page to show."""
    try:
        limits.take("jobs")
        board().start(name, spec, kind="rl")
    except (JobError, LimitReached) as err:
        st.session_state["rl.note"] = str(err)


def stop(folder: str) -> None:
    TrainingJob(Path(folder)).stop()


def watch() -> None:
    """Every run going now (:func:`runs_going`), looked at again every
    :func:`~ui.views.job_status.look_every` seconds (every second while a run goes, every five
    while none does)."""
    seen = tuple(j.folder.name for j in board().live())
    st.fragment(run_every=look_every(bool(seen)))(runs_going)(seen)


def runs_going(seen: tuple[str, ...]) -> None:
    """Every run going now: progress, Stop and live curves; when a run starts or ends (here or in
    another browser: ``seen`` are the runs the page was drawn with) the whole page is drawn again."""
    running = board().live()  # queued ones too: they wait for room on the cluster
    if tuple(j.folder.name for j in running) != seen:
        st.rerun()
    if not running:
        st.caption("No DQN run is going.")
        return
    for job in running:
        records = job.events()
        state = progress_of(records)
        bar, button = st.columns([5, 1], vertical_alignment="bottom")
        bar.progress(state.fraction, text=f"**{inert(title_of(job))}** · {waiting(job) or state.text}")
        button.button("Stop", key=f"rl.stop.{job.folder.name}", on_click=stop, args=(str(job.folder),))
        st.plotly_chart(curves(records), key=f"rl.curves.{job.folder.name}")


def ended() -> None:
    """The ended runs, newest first: status, the last evaluation beside the untrained network's,
    whether it learned, the curves, and the model with one click to use it in the Stepper."""
    jobs = [j for j in reversed(board().jobs()) if j.status() not in LIVE]
    if not jobs:
        return
    st.subheader("Ended runs")
    for job in jobs:
        with st.expander(inert(title_of(job)), expanded=job is jobs[0]):
            ended_run(job)


def ended_run(job: TrainingJob) -> None:
    records = job.events()
    if job.status() == "failed":
        st.error(f"The run failed:\n\n```\n{job.failure()}\n```")
    facts = summary(records, reward_of(job))
    if not facts.empty:
        st.table(facts)
    said = verdict(records)
    if said:
        (st.warning if said.startswith("It learned nothing") else st.success)(said)
    elif not facts.empty:
        st.caption("No baseline: this run did not evaluate the untrained network.")
    st.plotly_chart(curves(records), key=f"rl.ended.{job.folder.name}")
    if job.checkpoint.exists():
        use_in_stepper(job.folder.name)


def use_in_stepper(run: str) -> None:
    """The button that opens the Stepper with this DQN as its oracle, the exact one beside it."""
    st.caption(f"Its costs (−Q, shifted so the best move costs 0) are the oracle **{trained_name(run)}** "
               "of arc-standard in the Stepper, where the exact oracle's stand beside them.")
    if st.button("Use it in the Stepper", key=f"rl.use.{run}", icon=":material/footprint:"):
        use_dqn(trained_name(run))
        try:
            st.switch_page("pages/stepper.py")
        except StreamlitPageNotFoundError:  # the page run alone, without app.py's navigation
            st.success("The Stepper now shows this oracle: open it from the menu.")
