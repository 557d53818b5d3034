"""The "One sentence, every oracle" view: a configuration from a stepper link, or picked here
(sentence, system, moves), and every oracle's costs there side by side."""

from __future__ import annotations

import urllib.parse

import streamlit as st

import parsing_core as pc
from ui.lab.downloads import table_download
from ui.lab.sentence_view import compare_oracles, read_link, styled
from ui.views.safe_text import inert
from ui.views.sources import DEFAULT_KEY
from ui.views.state import StepperState
from ui.widgets.pickers import sentence_picker, system_picker


def picked_state() -> StepperState | None:
    """The configuration: from the link field if filled, else from the pickers."""
    link = st.text_input("Stepper link (paste one from the stepper or from a confusion row)",
                         key="lab.one.link")
    if link.strip():
        state, problems = read_link(link)
        for message in problems:
            st.warning(inert(message))
        return state
    key, problem = sentence_picker("lab.one", DEFAULT_KEY)
    if problem:
        st.warning(inert(problem))
    system, options, labelled = system_picker("lab.one", "arc-standard", with_options=True)
    typed = st.text_input("Moves from the start, separated by dots (e.g. SH.SH.LA)", key="lab.one.moves")
    moves = tuple(m for m in typed.strip().split(".") if m)
    return StepperState(key, system, options, labelled, moves=moves, cursor=len(moves))


def every_oracle() -> None:
    state = picked_state()
    if state is None:
        return
    try:
        table = compare_oracles(state)
    except pc.ParsingCoreError as err:
        st.error(inert(str(err)))
        return
    st.code(table.text, language=None, wrap_lines=True)
    st.link_button("Open this configuration in the stepper",
                   f"stepper?{urllib.parse.urlencode(state.to_query())}")
    st.dataframe(styled(table.frame), hide_index=True)
    st.caption("Each oracle's column is tinted by its own costs (lightest: optimal; dark: ∞, no complete "
               "parse left).  ≠ optimal: the oracles differ on whether the move is optimal; ≠ cost: only on "
               "its cost.")
    table_download(table.frame, "lab-every-oracle", "lab.one.table")
    for name, verdict in table.verdicts.items():
        st.markdown(f"- **{inert(name)}**: {inert(verdict)}")
    for name, why in table.skipped.items():
        st.caption(f"{name}: no column ({why}).")
