"""What the server prepares once, in the background, as it starts.

The exact arc-standard oracle runs compiled loops (numba): about 8 s to compile on a fresh
install, under a second to load from the disk cache after that.  Started with the first page
run, a learner who picks arc-standard a moment later finds them ready.  Where jobs run on this
machine, a process stands by with torch imported (:mod:`server.jobs.standby`) and forks each
training run started from a page, which so shows its first point seconds sooner.
"""

from __future__ import annotations

import threading

import streamlit as st

from parsing_core.oracles.arc_standard_exact import warm_up
from server.jobs import chosen_backend
from server.jobs.local import STANDBY


@st.cache_resource(show_spinner=False)
def warm_up_in_background() -> threading.Thread:
    """Start the warm-up once per server (later calls return the same thread)."""
    thread = threading.Thread(target=warm_up, name="warm-up", daemon=True)
    thread.start()
    if chosen_backend().name == "local":
        STANDBY.ensure()
    return thread
