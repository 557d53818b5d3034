"""The Train page's ended runs: the table of their results, their failures, and their curves
overlaid for the runs chosen (each run that ends joins by itself), with their downloads."""

from __future__ import annotations

import streamlit as st

from server.jobs import TrainingJob
from ui.train.runs import spec_of, started, title
from ui.views.safe_text import inert
from ui.views.training import (
    accuracy_figure,
    legend_names,
    loss_figure,
    records,
    result_row,
    results_table,
    with_new_runs,
)

SEEN = "train.compare.seen"


def results(ended: list[TrainingJob]) -> None:
    """The table of ended runs, failures, and the comparison of their curves."""
    if not ended:
        return
    st.subheader("Results")
    rows = [result_row(title(j), started(j), j.status(), spec_of(j), records(j)) for j in ended]
    st.table(results_table(rows).style.format(precision=2, na_rep="—").hide())
    st.caption("Scores in %.  Trained on: the training sentences the run learned from (a static-oracle "
               "run leaves out the trees its system cannot build, so two runs compare on equal data "
               "only when they trained on the same sentences).  Dev: the kept epoch's (the first with "
               "the best dev UAS, whose weights the model keeps; a stopped run keeps its best epoch so "
               "far).  Test: that model on the test set.  —: none (no test set, or stopped before an "
               "epoch ended).")
    for job in ended:
        if job.status() == "failed":
            kept = ("  Its best epoch's model was kept: the Stepper can load it."
                    if job.checkpoint.exists() else "")
            st.error(f"{inert(title(job))} failed:\n\n```\n{job.failure()}\n```{kept}")
        if job.skipped_lines():
            st.caption(f"{inert(title(job))}: {job.skipped_lines()} unreadable line(s) of its log were "
                       "skipped.")
    compare([j for j in ended if j.status() in ("finished", "stopped")])


def compare(done: list[TrainingJob]) -> None:
    """Overlay the curves of chosen runs (each run that ends joins by itself); their downloads."""
    if not done:
        return
    names = {j.folder.name: j for j in done}
    seen = st.session_state.get(SEEN)
    chosen = st.session_state.get("train.compare", list(names)[-4:] if seen is None else [])
    st.session_state["train.compare"] = with_new_runs(chosen, seen or list(names), list(names))
    st.session_state[SEEN] = list(names)
    picked = st.multiselect("Compare runs", list(names), key="train.compare",
                            format_func=lambda n: f"{started(names[n])} · {title(names[n])}")
    runs = dict(zip(legend_names([title(names[n]) for n in picked]), [records(names[n]) for n in picked],
                    strict=True))
    left, right = st.columns(2)
    left.plotly_chart(loss_figure(runs), key="train.cmp_loss")
    right.plotly_chart(accuracy_figure(runs), key="train.cmp_acc")
    for name in picked:
        job = names[name]
        cols = st.columns([4, 1, 1])
        cols[0].caption(inert(title(job)))
        if job.checkpoint.exists():
            cols[1].download_button("checkpoint", job.checkpoint.read_bytes(), f"{name}.pt", key=f"ck.{name}")
        cols[2].download_button("log", job.log.read_text() if job.log.exists() else "", f"{name}.jsonl",
                                key=f"log.{name}")
