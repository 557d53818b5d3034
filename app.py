"""Transition parsing lab: the entry point (``streamlit run app.py``).

Each page is a file in ``pages/``; this script only names them and runs the one chosen.
"""

from __future__ import annotations

import streamlit as st

from ui.diagnostics import watch_memory
from ui.warm_up import warm_up_in_background

st.set_page_config(page_title="Transition parsing lab", layout="wide")

PAGES = [  # in the order a newcomer meets them
    st.Page("pages/welcome.py", title="Welcome", icon=":material/school:", default=True),
    st.Page("pages/lessons.py", title="Lessons", icon=":material/cast_for_education:"),
    st.Page("pages/stepper.py", title="Stepper", icon=":material/footprint:"),
    st.Page("pages/practice.py", title="Practice", icon=":material/exercise:"),
    st.Page("pages/train.py", title="Train", icon=":material/model_training:"),
    st.Page("pages/rl.py", title="RL oracle", icon=":material/psychology:"),
    st.Page("pages/lab.py", title="Oracle lab", icon=":material/science:"),
    st.Page("pages/glossary.py", title="Glossary", icon=":material/menu_book:"),
]

watch_memory()  # only while a benchmark asks (PARSING_MEMORY_LOG)
warm_up_in_background()  # the exact oracles' compiled loops (arc-standard, Nederhof)
st.navigation(PAGES).run()
