"""The "Two systems side by side" view: one gold tree, two systems' static-oracle derivations,
aligned by the arc each step builds."""

from __future__ import annotations

import streamlit as st

import parsing_core as pc
from ui.lab.downloads import plot, table_download
from ui.lab.systems_view import aligned, derivation, step_counts, timing_figure
from ui.views.sources import DEFAULT_KEY, sentence_from_key
from ui.widgets.pickers import sentence_picker


def two_systems() -> None:
    key, problem = sentence_picker("lab.two", DEFAULT_KEY)
    if problem:
        st.warning(problem)
    names = pc.list_systems()
    left, right = st.columns(2)
    first = left.selectbox("First system", names, index=names.index("arc-standard"), key="lab.two.a")
    second = right.selectbox("Second system", names, index=names.index("arc-eager"), key="lab.two.b")
    try:
        s = sentence_from_key(key)
        if not s.has_gold:
            raise pc.ParsingCoreError("this sentence has no gold tree to derive")
        a, b = derivation(first, s), derivation(second, s)
    except pc.ParsingCoreError as err:
        st.error(str(err))
        return
    counts = step_counts([a, b])
    st.dataframe(counts, hide_index=True)
    table_download(counts, "lab-step-counts", "lab.two.counts")
    table = aligned(a, b)
    st.markdown("**Aligned by the arc each step builds** (step: the move that builds the arc, counting "
                "from 1; moves: those since the system's previous arc)")
    st.dataframe(table, hide_index=True)
    table_download(table, "lab-aligned", "lab.two.table")
    plot(timing_figure(a, b), "lab-arc-steps", "lab.two.fig", table)
    st.caption(f"A point per arc both systems build.  On the dotted line both build it at the same step; "
               f"below it {second} builds it earlier, above it later.")
