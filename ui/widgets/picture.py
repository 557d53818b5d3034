"""The configuration as a picture: words and arcs, stack and buffer, legend; any page with a board
shows its configuration through here.

The three pieces come from :func:`ui.widgets.compute.pieces_of` (cached by source data) and are
shown with ``st.graphviz_chart``, which lays them out in the browser (no Graphviz program
needed).  Each keeps its natural size, so the type never shrinks with the sentence: words are
14 pt, drawn as 18.7 px type (28 px in presenter mode) on any screen, never below 12 px, and a
row of words wider than the page scrolls sideways, as does a long buffer.  Two rules of
Streamlit's chart style are undone for that: the picture's width is no longer capped at the
column's, and its text keeps the sizes and font Graphviz laid it out with instead of the page's
small type (``revert-layer`` brings back the SVG's own ``font-size`` and ``font-family``).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

import streamlit as st

from ui.widgets import compute

PRESENTER_SCALE = 1.5
LONG = 9  # tokens from which the row of words is wider than a laptop's column


def natural_size_css(key: str) -> str:
    """Style for the pieces under the container ``{key}-drawing``: natural size, scroll sideways."""
    chart = f".st-key-{key}-drawing [data-testid='stGraphVizChart']"
    return ("<style>"
            f"{chart} svg {{ max-width: none; }}"
            f"{chart} * {{ font-size: revert-layer; font-family: revert-layer; }}"
            f".st-key-{key}-drawing-arcs, .st-key-{key}-drawing-memory "
            "{ overflow-x: auto; max-width: 100%; }"
            "</style>")


def fresh(key: str, piece: str, dot: str) -> str:
    """A container key that changes with the drawing, so the browser draws a new one afresh.

    Streamlit's chart keeps one Graphviz renderer per place on the page and, given new DOT,
    morphs every path of the old drawing into the new one (d3-graphviz's path tweening, on even
    without an animation): for the dotted arcs of a 12-word parse that cost the browser half a
    second of script per click, and more as the parse grew; a legend that gained a line cost
    6,000 path measurements.  A chart in a new container is a new renderer, which only lays out;
    a drawing that did not change keeps its container, and the browser does nothing.
    """
    return f"{key}-drawing-{piece}-{zlib.crc32(dot.encode()):08x}"


def configuration_picture(parse: compute.Parse, moves: compute.Moves, oracle: str, presenter: bool = False,
                          key: str = "stepper", hidden: bool = False,
                          beside: Callable[[], None] | None = None) -> str:
    """Draw the configuration after ``moves`` (arcs classified with ``oracle``); returns the DOT
    text of the whole picture (for downloads).  ``presenter`` draws larger, for a projector;
    ``hidden`` draws the arcs built without the gold tree (the oracle hidden from the class).
    ``beside`` draws something next to the stack and buffer (a projector's cost table), and the
    legend then goes below them."""
    scale = PRESENTER_SCALE if presenter else 1.0
    pieces = compute.pieces_of(parse, moves, oracle, scale, hidden)
    st.html(natural_size_css(key))
    with st.container(key=f"{key}-drawing"):
        with st.container(key=f"{key}-drawing-arcs"):
            chart(key, "arcs", pieces.arcs, "The words and their arcs")
        if compute.sentence_of(parse.sentence).n >= LONG:
            st.caption("A long sentence: scroll the row of words sideways (shift + wheel, or swipe).")
        with st.container(horizontal=True, gap="medium", key=f"{key}-drawing-below"):
            with st.container(width="content", key=f"{key}-drawing-memory"):
                chart(key, "memory", pieces.memory, "The stack and the buffer")
            if beside is None:
                legend(key, pieces.legend)
            else:
                with st.container(key=f"{key}-drawing-beside"):
                    beside()
        if beside is not None:
            legend(key, pieces.legend)
    return compute.drawing_of(parse, moves, oracle, scale, hidden)


def chart(key: str, piece: str, dot: str, alt: str) -> None:
    """One piece of the picture, in a container of its own drawing (:func:`fresh`)."""
    with st.container(key=fresh(key, piece, dot)):
        st.graphviz_chart(dot, width="content", alt=alt)


def legend(key: str, dot: str) -> None:
    """The legend: only the kinds of arc and word the picture shows, so it changes now and then."""
    with st.container(width="content", key=f"{key}-drawing-legend"):
        chart(key, "legend", dot, "Legend")
