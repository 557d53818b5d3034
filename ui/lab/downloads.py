"""Downloads under every table and plot of the lab: a table as CSV; a figure as its data (CSV)
and as a standalone HTML page.  PNG comes from the camera button of the plot's own toolbar (drawn
by the browser: the server has no image exporter, plotly's kaleido is not installed)."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

#: The plot toolbar's camera button saves a PNG at twice the size shown, named after the plot.
PNG_NOTE = "PNG: the camera button at the top right of the plot.  The HTML file keeps the plot interactive."


def table_download(frame: pd.DataFrame, name: str, key: str, label: str = "CSV") -> None:
    st.download_button(label, frame.to_csv(index=False).encode(), f"{name}.csv", "text/csv",
                       key=f"{key}.csv", icon=":material/download:")


def plot(fig: go.Figure, name: str, key: str, data: pd.DataFrame | None = None) -> None:
    """The figure, with its PNG button named after it, and downloads of its HTML (and data)."""
    st.plotly_chart(fig, key=key, config={"toImageButtonOptions": {"filename": name, "scale": 2}})
    left, right, note = st.columns([2, 3, 6], vertical_alignment="center")
    left.download_button("HTML", fig.to_html(include_plotlyjs="cdn").encode(), f"{name}.html", "text/html",
                         key=f"{key}.html", icon=":material/download:")
    if data is not None:
        with right:
            table_download(data, name, f"{key}.data", "data CSV")
    note.caption(PNG_NOTE)
