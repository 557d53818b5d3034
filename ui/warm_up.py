"""What the server prepares in the background: compiled loops as it starts, a job process once
someone opens a page that starts runs.

The exact arc-standard oracle and Nederhof's run compiled loops (numba): about 8 s and 1 s to
compile on a fresh install, under a second to load from the disk cache after that.  Started
with the first page run, a learner who picks either a moment later finds them ready.

Where jobs run on this machine, a process stands by with torch imported
(:mod:`server.jobs.standby`) and forks each run started from a page, which so shows its first
point seconds sooner.  It is started by the first visit to a page that trains networks (Train,
RL oracle: :func:`job_process_ready`), 3–4 s of a core before anyone has filled in a run, so a
server only used for the Stepper, the Lessons and Practice never holds its 300 MB.
"""

from __future__ import annotations

import threading

import streamlit as st

from parsing_core.oracles import arc_standard_exact, nederhof_grammar
from server.jobs import chosen_backend
from server.jobs.local import STANDBY


def warm_up() -> None:
    """Compile the exact oracles' loops (or load them from numba's disk cache)."""
    arc_standard_exact.warm_up()
    nederhof_grammar.warm_up()


@st.cache_resource(show_spinner=False)
def warm_up_in_background() -> threading.Thread:
    """Start the warm-up once per server (later calls return the same thread)."""
    thread = threading.Thread(target=warm_up, name="warm-up", daemon=True)
    thread.start()
    return thread


def job_process_ready() -> None:
    """For a page that starts runs: have the job process standing by (started, if none is, in
    the background; nothing when runs go to a cluster or standbys are off)."""
    if chosen_backend().name == "local":
        STANDBY.ensure()
