"""The server's caps per minute (see :mod:`server.limits`), one set for all sessions.

* ``exercises``: Practice items drawn (a new item, a new set) — 120 a minute per person, 2,000 in all;
* ``jobs``: lab and RL runs started — 3 a minute per person, 20 in all (beside the caps on how many
  may run at once);
* ``upload``: bytes uploaded (CoNLL-U, checkpoints, progress files) — 50 MB a minute per person,
  500 MB in all; a file counts once, when it first arrives, not at every rerun that reads it.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from server.limits import LimitReached, RateLimit, megabytes
from server.settings import settings

WHAT = {"exercises": "exercises", "jobs": "runs started", "upload": "of uploads"}  # caps: server.settings
SEEN = "limits.seen_uploads"


@st.cache_resource(show_spinner=False)
def limit(name: str) -> RateLimit:
    """The one :class:`RateLimit` called ``name`` of this server process."""
    what, caps = WHAT[name], settings().caps(name)
    unit = megabytes if name == "upload" else (lambda n: f"{n:g}")
    return RateLimit(what, caps.per_session, caps.in_all, caps.window_s, unit=unit)


def session() -> str:
    """This browser tab's session id ("" outside a running app, e.g. in a bare script)."""
    context = get_script_run_ctx()
    return context.session_id if context is not None else ""


def take(name: str, amount: float = 1.0) -> None:
    """Count ``amount`` of ``name`` for this tab, or raise :class:`LimitReached`."""
    limit(name).take(session(), amount)


def upload_refused(upload: object) -> str | None:
    """Why an uploaded file is refused by the upload cap (None: accepted).  Counted once per file."""
    seen: set[str] = st.session_state.setdefault(SEEN, set())
    file_id = str(getattr(upload, "file_id", id(upload)))
    if file_id in seen:
        return None
    try:
        take("upload", float(getattr(upload, "size", 0)))
    except LimitReached as refusal:
        return f"The upload is refused: {refusal}"
    seen.add(file_id)
    return None
