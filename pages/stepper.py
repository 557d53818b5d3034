"""The stepper: click transitions, watch the stack, the buffer and the arcs, see every move's cost.

The settings (a popover beside the title) pick a sentence, a transition system and its oracles,
a trained model and autoplay; the board shows one button per move, the configuration drawn, and
what the oracle thinks of every move.  The whole state
(sentence, system, oracles, moves) is in the URL, so a link reproduces it exactly.  A click on
the board reruns the board alone (:mod:`ui.stepper.board_panel`).
"""

from __future__ import annotations

import streamlit as st

from ui.navigation import run_through_app
from ui.stepper.board_panel import board, board_menus
from ui.stepper.link import link_problems, load_state
from ui.stepper.settings import choices, page_style
from ui.views.safe_text import inert

run_through_app()
state = load_state()
chosen = choices(state)
for problem in link_problems():
    st.warning(f"The link could not be followed completely: {inert(problem)}")
page_style(chosen.presenter)
board(chosen)
board_menus()
