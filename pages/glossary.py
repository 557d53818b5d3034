"""Glossary: the words of transition-based parsing, each with an anchor other pages link to."""

from __future__ import annotations

import streamlit as st

from ui.navigation import run_through_app
from ui.views.glossary import load

SEEDS = {"000": "arc-eager oracle notes", "001": "exact and approximate oracles (thesis)",
         "002": "arc-hybrid, dynamic oracles and swap (lecture)", "003": "shift-reduce parsing (lecture)",
         "004": "Nederhof's optimal step for arc-eager"}

run_through_app()
st.title("Glossary")
st.markdown("The words the lab uses, in the order a newcomer meets them.  Other pages link here where "
            "a term appears.")
entries = load()
st.markdown(" · ".join(f"[{e.term}](#{e.anchor})" for e in entries))
for entry in entries:
    st.subheader(entry.term, anchor=entry.anchor)
    st.markdown(entry.text)
    if entry.seed:
        st.caption(f"From the reading list: {SEEDS.get(entry.seed, entry.seed)}.")
