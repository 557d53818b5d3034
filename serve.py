"""The app with its quick board clicks (``streamlit run serve.py``): ``app.py``'s pages, plus one
HTTP route through which a click on the Stepper's board gets the next board without a run of
the page (:mod:`ui.stepper.board_channel`).

``streamlit run app.py`` serves the same pages; its board's clicks each rerun the board.
"""

from __future__ import annotations

import streamlit as st

from ui.stepper.board_route import route

app = st.App("app.py", routes=[route()])
