"""The stepper's downloads: the derivation as CSV, LaTeX and a homework sheet, the drawing as DOT,
SVG and PNG, each set in a menu of its own."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ui.stepper import exports_view as exports
from ui.stepper import worksheet_view as worksheet


def download(label: str, data: Callable[[], str | bytes], name: str, mime: str, key: str,
             help: str | None = None) -> None:
    st.download_button(label, data, file_name=name, mime=mime, key=key, on_click="ignore", help=help,
                       icon=":material/download:", width="stretch")


def menu(label: str, key: str) -> DeltaGenerator | None:
    """A button that opens a menu of downloads; the menu to fill while it is open, else None.

    A closed menu holds nothing: opening it reruns the board, which then draws its buttons, so a
    click on the board neither sends them to the browser nor makes the server build them (on a
    bare page, 40 buttons cost each click 143–166 ms of Chromium's time laid out, 53–59 ms in a
    closed popover, about what the bare page costs)."""
    box = st.popover(label, icon=":material/download:", key=key, on_change="rerun")
    return box if box.open else None


def history_downloads(history: Callable[[], pd.DataFrame], prefix: str = "stepper",
                      system: str | None = None) -> None:
    """The derivation up to the current row (``history`` makes it, only when a file is asked for);
    the homework sheet keeps its transitions and leaves the stack, buffer and arcs blank
    (``system`` names the parser on the sheet)."""
    box = menu("Download the derivation", f"{prefix}.derivation-menu")
    if box is None:
        return
    with box:
        download("CSV", lambda: exports.csv_text(history()), "derivation.csv", "text/csv", f"{prefix}.csv")
        download("LaTeX", lambda: exports.latex_text(history()), "derivation.tex", "text/x-tex",
                 f"{prefix}.tex")
        download("Homework sheet", lambda: worksheet.sheet_html(history(), system), "derivation-sheet.html",
                 "text/html", f"{prefix}.sheet",
                 help="A printable page: the transitions given, the stack, buffer and arcs left blank to "
                      "fill in.  The CSV and LaTeX files are its answer key.")


def drawing_downloads(dot: Callable[[], str], prefix: str = "stepper") -> None:
    """The drawing as DOT text, and as SVG and PNG laid out by Graphviz's library (``pygraphviz``);
    ``dot`` writes the DOT text, only when a file is asked for (not at every click)."""
    box = menu("Download the drawing", f"{prefix}.drawing-menu")
    if box is None:
        return
    with box:
        download("DOT", dot, "configuration.dot", "text/vnd.graphviz", f"{prefix}.dot")
        if not exports.can_render():
            st.caption("SVG/PNG need the `pygraphviz` package (`pip install -r requirements.txt`).")
            return
        download("SVG", lambda: exports.render(dot(), "svg"), "configuration.svg", "image/svg+xml",
                 f"{prefix}.svg")
        download("PNG", lambda: exports.render(dot(), "png"), "configuration.png", "image/png",
                 f"{prefix}.png",
                 help=f"{exports.PNG_DPI} dots per inch, sharp on a slide (fewer for a very long "
                      f"sentence, to keep the picture under {exports.MAX_PNG_PX:,} pixels long).")
