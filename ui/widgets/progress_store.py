"""The progress store of this server process and the learner signed in, shared by the pages.

Practice signs a learner in; Lessons records its questions' answers for the same learner.  Both
read the store through :func:`opened`, so one server process holds one store (one connection
pool) per database URL, whichever page opened it first.
"""

from __future__ import annotations

import streamlit as st

from parsing_core.progress import Learner, Store, open_store

#: where the signed-in learner is kept in the session (the Practice page signs in and out)
LEARNER = "practice.learner"


@st.cache_resource(show_spinner=False)
def opened(url: str) -> Store:
    """The store at ``url``, opened once per process (a failure is not kept: the next run tries again)."""
    return open_store(url)


def signed_in_learner() -> Learner | None:
    """The learner signed in in this session, if any."""
    return st.session_state.get(LEARNER)
