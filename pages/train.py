"""Train: choose data, system, oracle and regime; watch parsers learn; compare their results.

Every run is a job of the jobs board (:class:`server.jobs.JobBoard`, a folder per run):
the page lists the runs going now and the ended ones from the board itself, never from the
browser session alone, so a refresh or another browser finds them all, each with its Stop.
The form, the runs and the results are panels of ``ui/train``.
"""

from __future__ import annotations

import streamlit as st

from ui.navigation import run_through_app
from ui.train.form import run_choice
from ui.train.results import results
from ui.train.runs import (
    capacity_note,
    going_and_ended,
    job_board,
    live_runs,
    presets,
    start_buttons,
    this_tab,
    waiting_curves,
)
from ui.views.training import shared_server, stop_rule
from ui.warm_up import job_process_ready
from ui.widgets.errors import show_errors

run_through_app()
job_process_ready()  # its runs are forked from a process that imported torch already
st.title("Train a parser")
st.markdown("A BiLSTM parser learns from an oracle.  Each run goes on in its own process on the "
            "server, so every run going now is listed under *Runs going now*, whoever started it: you "
            "may refresh the page or come back from another browser, and stop a run whenever you "
            "like.  A stopped run keeps the weights of its best epoch so far (once one epoch has "
            "ended), ready for the Stepper like a finished one.  " + capacity_note(board := job_board()))
tab = this_tab()
running, ended = going_and_ended(board)
with show_errors():
    form, watch = st.columns([2, 3], gap="large")
    with form:
        st.subheader("New run")
        top = st.container()  # Start, above the fold; filled once the form below is read
        choice = run_choice()
        presets(tab, board)
    with top:
        start_buttons(choice, tab, board)
    with watch:
        st.subheader("Runs going now")
        live_runs(tuple(j.folder.name for j in running), tab)
        if not running:
            waiting_curves()
        st.caption(stop_rule(shared_server()))
    results(ended)
