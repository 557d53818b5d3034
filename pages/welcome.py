"""Welcome: where to start (three cards: learn, explore, practise), the other pages for teachers and the
curious, the ideas in one paragraph, the systems and oracles, one derivation to look at."""

from __future__ import annotations

import streamlit as st

from ui.navigation import run_through_app
from ui.views.tables import oracles_table, systems_table
from ui.welcome.derivation import derivation_to_look_at
from ui.welcome.doors import for_teachers, start_here
from ui.welcome.welcome_view import data_dir_note, intro

run_through_app()
st.title("Transition parsing lab")
st.markdown("Watch a parser build a sentence's dependency tree one move at a time, make the moves "
            "yourself, and see what every move costs.")
start_here()
for_teachers()

st.header("The ideas in one paragraph")
st.markdown(intro(), unsafe_allow_html=True)

st.header("Transition systems")
st.table(systems_table(), hide_index=True)

st.header("Oracles")
st.table(oracles_table(), hide_index=True)

st.header("A derivation to look at")
derivation_to_look_at()

with st.expander("For whoever runs the server: where the treebanks come from"):
    st.markdown(data_dir_note())
