"""Glossary: the words of transition-based parsing, each with an anchor other pages link to,
and the reading list its entries come from."""

from __future__ import annotations

import streamlit as st

from parsing_core.references import REFERENCES
from ui.navigation import run_through_app
from ui.views.glossary import READING_LIST, further_reading, load

run_through_app()
st.title("Glossary")
st.markdown("The words the lab uses, in the order a newcomer meets them.  Other pages link here where "
            "a term appears.")
entries = load()
st.markdown(" · ".join(f"[{e.term}](#{e.anchor})" for e in entries) + f" · [reading list](#{READING_LIST})")
for entry in entries:
    st.subheader(entry.term, anchor=entry.anchor)
    st.markdown(entry.text)
    if reading := further_reading(entry):
        st.caption(reading)
st.subheader("Reading list", anchor=READING_LIST)
st.markdown("\n".join(f"* {r.citation}" for r in REFERENCES.values()))
