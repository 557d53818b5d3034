"""The configuration as a picture: words and arcs, stack and buffer, legend; any page with a board
shows its configuration through here.

The three pieces come from :func:`ui.widgets.compute.pieces_of` (cached by source data).  The
words and their arcs are an arc diagram, SVG text the server draws (:mod:`ui.views.arc_diagram`),
put on the page as it is with ``st.markdown`` (raw HTML allowed: the SVG is built here, every
user string in it escaped; ``st.html``'s sanitiser would strip SVG); the stack and buffer and the
legend are DOT, laid out in the browser by ``st.graphviz_chart`` (no Graphviz program needed).
Each keeps its natural size, so the type never shrinks with the sentence: words are 18.7 px type
(28 px in presenter mode) on any screen, never below 12 px, and a row of words wider than its
column scrolls sideways, with a shadow at the edge that has more to see and, for a row wider than
a laptop's column, a line saying so.  Two rules of Streamlit's chart style are undone for the
DOT pieces: the picture's width is no longer capped at the column's, and its text keeps the
sizes and font Graphviz laid it out with instead of the page's small type (``revert-layer``
brings back the SVG's own ``font-size`` and ``font-family``).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable

import streamlit as st

from ui.widgets import compute

PRESENTER_SCALE = 1.5
LAPTOP_COLUMN_PX = 900  # a row of words wider than this says it scrolls (the main column at 1366 px)
# The edge of the row with more to see is shaded: a white cover that scrolls with the words
# hides the shade at either end (the two ``local`` layers over the two ``scroll`` ones).
COVER, SHADE = "#FFFFFF 40%, rgba(255,255,255,0)", "rgba(0,0,0,.22), rgba(0,0,0,0)"
SCROLL_SHADOWS = (f"background: linear-gradient(to right, {COVER}) left / 48px 100% no-repeat local, "
                  f"linear-gradient(to left, {COVER}) right / 48px 100% no-repeat local, "
                  f"linear-gradient(to right, {SHADE}) left / 18px 100% no-repeat scroll, "
                  f"linear-gradient(to left, {SHADE}) right / 18px 100% no-repeat scroll;")
SCROLL_HINT = "A long sentence: scroll the row of words sideways (shift + wheel, or swipe)."


def natural_size_css(key: str) -> str:
    """Style for the pieces under the container ``{key}-drawing``: natural size, scroll sideways."""
    chart = f".st-key-{key}-drawing [data-testid='stGraphVizChart']"
    return ("<style>"
            f"{chart} svg {{ max-width: none; }}"
            f"{chart} * {{ font-size: revert-layer; font-family: revert-layer; }}"
            f".st-key-{key}-drawing-memory "
            "{ overflow-x: auto; max-width: 100%; }"
            f".st-key-{key}-drawing .arc-row {{ overflow-x: auto; max-width: 100%; margin-bottom: 1rem; "
            f"{SCROLL_SHADOWS} }}"  # the margin makes up for Markdown's -1rem
            f".st-key-{key}-drawing .arc-row svg {{ display: block; max-width: none; }}"
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


def tree_picture(key: str, tree_svg: str, beside: Callable[[], None] | None = None) -> None:
    """The gold tree alone (:func:`ui.views.arc_diagram.gold_tree_svg`: every arc alike, none marked
    crossing or lost), the picture of a question about the tree not answered yet; ``beside`` is
    drawn under it."""
    st.html(natural_size_css(key))
    with st.container(key=f"{key}-drawing"):
        with st.container(key=f"{key}-drawing-arcs"):
            chart(key, "arcs", tree_svg, "The gold tree")
        st.caption("The gold tree, every arc drawn alike, each with its label.")
        if beside is not None:
            with st.container(key=f"{key}-drawing-beside"):
                beside()


def chart(key: str, piece: str, drawing: str, alt: str) -> None:
    """One piece of the picture: an SVG arc diagram as it is (:func:`arc_row`), a DOT graph laid
    out by Graphviz in a container of its own drawing (:func:`fresh`)."""
    if drawing.startswith("<svg"):
        arc_row(drawing)
        return
    with st.container(key=fresh(key, piece, drawing)):
        st.graphviz_chart(drawing, width="content", alt=alt)


def svg_width(svg: str) -> float:
    """The width an SVG asks for, in px (0 if it does not say)."""
    found = re.match(r'<svg[^>]* width="([\d.]+)"', svg)
    return float(found[1]) if found else 0.0


def arc_row(svg: str) -> None:
    """The arc diagram in a row that scrolls sideways when wider than its column, shaded at the
    edge that has more to see; a row wider than a laptop's column says so in words too."""
    st.markdown(f'<div class="arc-row">{svg}</div>', unsafe_allow_html=True)
    if svg_width(svg) > LAPTOP_COLUMN_PX:
        st.caption(SCROLL_HINT)


def legend(key: str, dot: str) -> None:
    """The legend: only the kinds of arc and word the picture shows, so it changes now and then."""
    with st.container(width="content", key=f"{key}-drawing-legend"):
        chart(key, "legend", dot, "Legend")
