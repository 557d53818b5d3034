"""Widget values the page sets itself, sent to the browser with every run.

A page that starts a widget on a value of its own (from a shared link, from the board's state)
writes it to ``st.session_state`` before drawing the widget.  Streamlit sends such a value to the
browser only with the run that wrote it.  A widget the browser does not draw during that run, one
in a closed popover such as the Stepper's Settings, never receives it: when the popover is opened
after a later run, the widget shows its default (a selectbox its first option), and the next rerun
sends that default back as the learner's choice.  The Stepper's system turned into arc-standard,
the first of the list, the moment a learner picked a sentence source.

:func:`hold` writes the value again at every run the widget is drawn in, so every run carries it.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import streamlit as st


def hold(key: str, value: Any, allowed: Collection[Any] | None = None) -> Any:
    """Keep the widget ``key`` on the value it holds, or start it on ``value`` if it holds none
    (or one not ``allowed``), and send that value to the browser with this run; returns it.

    Call it just before drawing the widget, in place of ``st.session_state.setdefault``."""
    held = st.session_state.get(key, value)
    if allowed is not None and held not in allowed:
        held = value
    st.session_state[key] = held
    return held
