"""The stepper's downloads: the derivation as CSV and LaTeX, the drawing as DOT, SVG and PNG."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from ui.views import exports


def download(label: str, data: Callable[[], str | bytes], name: str, mime: str, key: str) -> None:
    st.download_button(label, data, file_name=name, mime=mime, key=key, on_click="ignore")


def history_downloads(history: pd.DataFrame, prefix: str = "stepper") -> None:
    csv, latex = st.columns(2)
    with csv:
        download("CSV", lambda: exports.csv_text(history), "derivation.csv", "text/csv", f"{prefix}.csv")
    with latex:
        download("LaTeX", lambda: exports.latex_text(history), "derivation.tex", "text/x-tex",
                 f"{prefix}.tex")


def drawing_downloads(dot: str, prefix: str = "stepper") -> None:
    """DOT always; SVG and PNG where Graphviz's ``dot`` program is installed."""
    columns = st.columns(3)
    with columns[0]:
        download("DOT", lambda: dot, "configuration.dot", "text/vnd.graphviz", f"{prefix}.dot")
    if not exports.can_render():
        columns[1].caption("SVG/PNG need Graphviz's `dot` program.")
        return
    with columns[1]:
        download("SVG", lambda: exports.render(dot, "svg"), "configuration.svg", "image/svg+xml",
                 f"{prefix}.svg")
    with columns[2]:
        download("PNG", lambda: exports.render(dot, "png"), "configuration.png", "image/png", f"{prefix}.png")
