"""The configuration as a picture: words and arcs, stack and buffer, legend; any page with a board
shows its configuration through here.

The DOT text comes from :func:`ui.widgets.compute.drawing_of` (cached by source data) and is
shown with ``st.graphviz_chart``, which renders in the browser (no Graphviz program needed).
"""

from __future__ import annotations

import streamlit as st

from ui.widgets import compute


def configuration_picture(parse: compute.Parse, moves: compute.Moves, oracle: str, presenter: bool = False,
                          key: str = "stepper") -> str:
    """Draw the configuration after ``moves`` (arcs classified with ``oracle``); returns its DOT
    text (for downloads).  ``presenter`` draws larger, for a projector."""
    dot = compute.drawing_of(parse, moves, oracle, 1.5 if presenter else 1.0)
    with st.container(key=f"{key}-drawing"):
        st.graphviz_chart(dot, width="stretch")
    return dot
