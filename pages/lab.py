"""Oracle lab: the seeds' experiments run live — how well two oracles agree (thesis §6.2,
Nederhof's Table 11), how their time grows with the sentence, every oracle at one configuration,
and two systems deriving one gold tree.

The agreement runs (and their timings) are jobs of the jobs board (kind ``lab``), each in its own
process: the page lists them from the board, so a refresh or another browser finds them, and
shows the chosen one as it fills in.
"""

from __future__ import annotations

import streamlit as st

from ui.lab.agreement import chosen_run, held_run, lab_choice, show, start_button
from ui.lab.sentence import every_oracle
from ui.lab.speed import TIMED
from ui.lab.systems import two_systems
from ui.navigation import run_through_app
from ui.views.glossary import reading, term
from ui.widgets.errors import show_errors

VIEWS = ["Agreement", "Speed and growth", "One sentence, every oracle", "Two systems side by side"]

run_through_app()
st.title("Oracle lab")
st.markdown("An approximate oracle is fast but not always right; an exact one is right but slower.  "
            f"Run the experiment of {reading('arc-standard-thesis')} on a treebank of your choice and "
            "watch it fill in: how often the "
            f"{term('approximate oracle')}'s optimal moves are truly optimal, how alike its costs rank the "
            "moves, where the two disagree (each case opens in the Stepper), and how the time per "
            "configuration grows with the sentence.")
with show_errors():
    # Only the open view runs and is drawn (choosing another reruns the page): five plots and
    # their tables are not laid out in views nobody looks at.
    agreement, speed, one, two = st.tabs(VIEWS, key="lab.view", on_change="rerun")
    job = held_run()  # the run the Agreement view chose, kept while another view is open
    if agreement.open:
        with agreement:
            form, runs = st.columns([2, 5], gap="large")
            with form:
                st.subheader("New run")
                choice = lab_choice()
                start_button(choice)
            with runs:
                st.subheader("Runs")
                job = chosen_run()
                if job is not None:
                    show(job, "agreement")
    if speed.open:
        with speed:
            if job is not None:
                show(job, "speed")
            else:
                st.info(f"Start a run in the Agreement view with *{TIMED}* ticked.")
    if one.open:
        with one:
            every_oracle()
    if two.open:
        with two:
            two_systems()
