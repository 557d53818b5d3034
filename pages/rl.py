"""RL oracle: train the thesis's DQN oracle for arc-standard and watch it learn the exact costs.

With the reward −cost(t; c) of the exact oracle, the best action value is Q*(c, t) = −cost(t; c):
the learned oracle has a known right answer, so the page shows how often its greedy move is one
of the exact optimal moves, and how far its Q-values are from minus the costs, as it learns.
"""

from __future__ import annotations

import streamlit as st

from ui.navigation import run_through_app
from ui.rl import runs
from ui.rl.form import choice, start_button
from ui.views.glossary import reading, term
from ui.warm_up import job_process_ready

run_through_app()
job_process_ready()  # its runs are forked from a process that imported torch already
st.title("RL oracle")
st.markdown(f"A deep Q-network learns to be an {term('oracle')} for arc-standard by parsing with rewards "
            f"(chapter 7 of {reading('arc-standard-thesis')}).  With the exact reward, its Q-values "
            "should become minus the "
            f"{term('costs', 'cost')}: the curves show how often its greedy move is one of the exact "
            f"{term('optimal moves')}, first along its own training walks, then on dev parses, against "
            "the same network before any update (its score by chance).  The run goes on in its own "
            "process: refresh or leave, and come back.  A finished run's oracle opens in the Stepper "
            "with one click.")
spec = choice()
start_button(spec)
st.subheader("Going now")
runs.watch()
runs.ended()
