"""The stepper's downloads: the derivation as CSV, LaTeX and a homework sheet, the drawing as DOT,
SVG and PNG, each set in a menu of its own."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ui.views import exports, worksheet


def download(label: str, data: Callable[[], str | bytes], name: str, mime: str, key: str,
             help: str | None = None) -> None:
    st.download_button(label, data, file_name=name, mime=mime, key=key, on_click="ignore", help=help,
                       icon=":material/download:", width="stretch")


def menu(label: str, key: str) -> DeltaGenerator:
    """A button that opens a menu of downloads.

    The browser builds a popover's content only when it is opened, so the buttons inside cost
    nothing on a click on the board (on a bare page, 40 buttons cost each click 143–166 ms of
    Chromium's time laid out, 53–59 ms in a closed popover, about what the bare page costs)."""
    return st.popover(label, icon=":material/download:", key=key)


def history_downloads(history: pd.DataFrame, prefix: str = "stepper", system: str | None = None) -> None:
    """The derivation up to the current row; the homework sheet keeps its transitions and leaves
    the stack, buffer and arcs blank (``system`` names the parser on the sheet)."""
    with menu("Download the derivation", f"{prefix}.derivation-menu"):
        download("CSV", lambda: exports.csv_text(history), "derivation.csv", "text/csv", f"{prefix}.csv")
        download("LaTeX", lambda: exports.latex_text(history), "derivation.tex", "text/x-tex",
                 f"{prefix}.tex")
        download("Homework sheet", lambda: worksheet.sheet_html(history, system), "derivation-sheet.html",
                 "text/html", f"{prefix}.sheet",
                 help="A printable page: the transitions given, the stack, buffer and arcs left blank to "
                      "fill in.  The CSV and LaTeX files are its answer key.")


def drawing_downloads(dot: str, prefix: str = "stepper") -> None:
    """The drawing as DOT text, and as SVG and PNG laid out by Graphviz's library (``pygraphviz``)."""
    with menu("Download the drawing", f"{prefix}.drawing-menu"):
        download("DOT", lambda: dot, "configuration.dot", "text/vnd.graphviz", f"{prefix}.dot")
        if not exports.can_render():
            st.caption("SVG/PNG need the `pygraphviz` package (`pip install -r requirements.txt`).")
            return
        download("SVG", lambda: exports.render(dot, "svg"), "configuration.svg", "image/svg+xml",
                 f"{prefix}.svg")
        download("PNG", lambda: exports.render(dot, "png"), "configuration.png", "image/png", f"{prefix}.png",
                 help=f"{exports.PNG_DPI} dots per inch, sharp on a slide (fewer for a very long "
                      f"sentence, to keep the picture under {exports.MAX_PNG_PX:,} pixels long).")
