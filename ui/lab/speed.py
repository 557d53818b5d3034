"""The Speed and growth view: the chosen run's timings (a run started with "time every oracle"),
as a log–log plot with a fitted slope per oracle and a table; for arc-standard, the thesis's
Algorithm 1 beside the exact oracle over whole parses of short sentences."""

from __future__ import annotations

from typing import Any

import streamlit as st

from parsing_core.experiments.lab import LabSpec
from ui.lab.downloads import plot, table_download
from ui.lab.speed_view import baseline_figure, baseline_table, speed_figure, speed_frame, speed_table

#: The Agreement form's box that adds the timings (short: a checkbox's label never wraps).
TIMED = "Also time every oracle"

ABOUT = ("Median milliseconds for the costs of all legal moves at one configuration, asked of a fresh "
         "oracle each time (no per-sentence cache helps), over configurations of random walks on the "
         "run's sentences near each length.  On log scales a cost growing like n^k is a straight line of "
         "slope k: about 0 for a constant time, 1 linear, 3 cubic.  A slope measured over these lengths "
         "need not match the claimed growth (each oracle's worst case, in the table's last column).  "
         "Timings come from a shared machine and a few configurations per point: the slopes "
         "are estimates.")


def speed(records: list[Any], spec: LabSpec, key: str) -> None:
    table = speed_table(records, spec.system)
    if table.empty:
        if spec.speed:
            st.info("The timings come after the agreement walks: they will appear here.")
        else:
            st.info(f"This run was started without timings: tick *{TIMED}* in the "
                    "Agreement view and start a run.")
        return
    st.caption(ABOUT)
    plot(speed_figure(records), "lab-speed", f"{key}.speed", speed_frame(records))
    st.dataframe(table, hide_index=True)
    table_download(table, "lab-speed", f"{key}.speed.table")
    baseline(records, key)


def baseline(records: list[Any], key: str) -> None:
    table = baseline_table(records)
    if table.empty:
        return
    st.markdown("**The thesis's Algorithm 1 beside the exact oracle** (arc-standard; the costs at every step "
                "of one parse that follows the exact oracle, on the run's sentence closest to each length; "
                "both give the same costs, checked at every step; exact: the fastest of three runs, "
                "Algorithm 1: one run)")
    plot(baseline_figure(records), "lab-algorithm1", f"{key}.baseline", table)
    st.dataframe(table, hide_index=True)
    table_download(table, "lab-algorithm1", f"{key}.baseline.table")
