"""DQN runs on the jobs board: started from the page's choices, watched every second, stopped.

Runs live in ``$PARSING_JOBS_DIR/rl`` (apart from the Train page's, so the stepper never offers
a DQN as a parser); one runs at a time.  A run found on disk after a refresh is watched the same.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from parsing_core.jobs import LIVE, JobBoard, JobError, TrainingJob
from parsing_core.limits import LimitReached
from parsing_core.rl import RLSpec
from ui.views.job_status import waiting
from ui.views.rl_view import curves, progress_of, summary
from ui.views.safe_text import inert
from ui.views.training import jobs_root
from ui.widgets import limits

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


@st.fragment(run_every=1.0)
def watch() -> None:
    """Every run going now: progress, Stop and live curves; the page reruns when one ends."""
    running = board().live()  # queued ones too: they wait for room on the cluster
    if not running:
        if st.session_state.pop("rl.watching", False):
            st.rerun()
        st.caption("No DQN run is going.")
        return
    st.session_state["rl.watching"] = True
    for job in running:
        records = job.events()
        state = progress_of(records)
        bar, button = st.columns([5, 1], vertical_alignment="bottom")
        bar.progress(state.fraction, text=f"**{inert(job.folder.name)}** · {waiting(job) or state.text}")
        button.button("Stop", key=f"rl.stop.{job.folder.name}", on_click=stop, args=(str(job.folder),))
        st.plotly_chart(curves(records), key=f"rl.curves.{job.folder.name}")


def ended() -> None:
    """The ended runs, newest first: status, last evaluation, the model and how to use it."""
    jobs = [j for j in reversed(board().jobs()) if j.status() not in LIVE]
    if not jobs:
        return
    st.subheader("Ended runs")
    for job in jobs:
        records = job.events()
        with st.expander(f"{job.folder.name} · {job.status()}", expanded=job is jobs[0]):
            if job.status() == "failed":
                st.error(f"The run failed:\n\n```\n{job.failure()}\n```")
            facts = summary(records)
            if facts:
                st.table(facts)
            st.plotly_chart(curves(records, height=420), key=f"rl.ended.{job.folder.name}")
            if job.checkpoint.exists():
                st.markdown("Use it as the stepper's **dqn** oracle (arc-standard), or imitate it on the "
                            "Train page: start the app with")
                st.code(f"PARSING_DQN_MODEL={job.checkpoint} streamlit run app.py", language="bash")
