"""The server's memory, written once a second while a benchmark watches (and only then).

With ``PARSING_MEMORY_LOG=<file>`` set, the first page run starts one daemon thread that appends a
JSON line a second: the time, the resident set in MB, the Python heap as the number of memory
blocks the interpreter has allocated (``sys.getallocatedblocks``), and how many sessions the
server still holds (all of them, and those with a browser connected).  ``benchmarks/load.py``
reads it to show that memory and sessions are given back once the tabs close
(``server.disconnectedSessionTTL``).
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path

import streamlit as st
from streamlit import runtime

from server.settings import Settings, settings

VARIABLE = Settings.variable("memory_log")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


def resident_mb() -> float:
    """This process's resident set, in MB (Linux's /proc)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * PAGE_SIZE / 1e6


def sessions() -> tuple[int, int]:
    """(sessions held, sessions with a browser connected) of the running server."""
    manager = getattr(runtime.get_instance(), "_session_mgr", None) if runtime.exists() else None
    if manager is None:  # no server (a test's runtime): nothing to count
        return 0, 0
    return manager.num_sessions(), manager.num_active_sessions()  # Streamlit 1.67's session manager


def sample() -> dict[str, float]:
    held, active = sessions()
    return {"t": time.time(), "rss_mb": round(resident_mb(), 1), "heap_blocks": sys.getallocatedblocks(),
            "sessions": held, "connected": active}


@st.cache_resource(show_spinner=False)
def memory_log(path: str, every_s: float = 1.0) -> threading.Thread:
    """Start (once per server) the thread that appends a :func:`sample` to ``path`` every ``every_s``."""
    def write() -> None:
        while True:
            with open(path, "a", encoding="utf-8") as out:
                out.write(json.dumps(sample()) + "\n")
            time.sleep(every_s)

    thread = threading.Thread(target=write, name="memory-log", daemon=True)
    thread.start()
    return thread


def watch_memory() -> None:
    """Start the memory log when ``PARSING_MEMORY_LOG`` names a file (a no-op otherwise)."""
    if path := settings().memory_log:
        memory_log(str(path))
