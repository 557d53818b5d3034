"""The stepper's downloads: the derivation as CSV, LaTeX and a homework sheet, the drawing as DOT,
SVG and PNG."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from ui.views import exports, worksheet


def download(label: str, data: Callable[[], str | bytes], name: str, mime: str, key: str,
             help: str | None = None) -> None:
    st.download_button(label, data, file_name=name, mime=mime, key=key, on_click="ignore", help=help)


def history_downloads(history: pd.DataFrame, prefix: str = "stepper", system: str | None = None) -> None:
    """The derivation up to the current row; the homework sheet keeps its transitions and leaves
    the stack, buffer and arcs blank (``system`` names the parser on the sheet)."""
    csv, latex, sheet = st.columns(3)
    with csv:
        download("CSV", lambda: exports.csv_text(history), "derivation.csv", "text/csv", f"{prefix}.csv")
    with latex:
        download("LaTeX", lambda: exports.latex_text(history), "derivation.tex", "text/x-tex",
                 f"{prefix}.tex")
    with sheet:
        download("Homework sheet", lambda: worksheet.sheet_html(history, system), "derivation-sheet.html",
                 "text/html", f"{prefix}.sheet",
                 help="A printable page: the transitions given, the stack, buffer and arcs left blank to "
                      "fill in.  The CSV and LaTeX files are its answer key.")


def drawing_downloads(dot: str, prefix: str = "stepper") -> None:
    """The drawing as DOT text, and as SVG and PNG laid out by Graphviz's library (``pygraphviz``)."""
    columns = st.columns(3)
    with columns[0]:
        download("DOT", lambda: dot, "configuration.dot", "text/vnd.graphviz", f"{prefix}.dot")
    if not exports.can_render():
        columns[1].caption("SVG/PNG need the `pygraphviz` package (`pip install -r requirements.txt`).")
        return
    with columns[1]:
        download("SVG", lambda: exports.render(dot, "svg"), "configuration.svg", "image/svg+xml",
                 f"{prefix}.svg")
    with columns[2]:
        download("PNG", lambda: exports.render(dot, "png"), "configuration.png", "image/png", f"{prefix}.png",
                 help=f"{exports.PNG_DPI} dots per inch, sharp on a slide (fewer for a very long "
                      f"sentence, to keep the picture under {exports.MAX_PNG_PX:,} pixels long).")
