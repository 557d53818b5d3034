"""Live demonstrations a lesson step may run beside its board (``demo = "training"``).

The training demo trains two small arc-hybrid parsers on the same synthetic treebank, 80 %
non-projective: one with the static oracle (which learns only from the trees arc-hybrid can build)
and one with the dynamic oracle and exploration.  Each epoch's dev UAS is drawn as it comes; the
numbers are those of this run, on this machine, with a fixed seed.
"""

from __future__ import annotations

from functools import partial

import pandas as pd
import streamlit as st

from parsing_core.model import ModelConfig, TrainConfig
from parsing_core.synthetic import synthetic_treebank

SENTENCES, DEV, RATE, EPOCHS, SEED = 300, 60, 0.8, 6, 1
NETWORK = ModelConfig(word_dim=32, lstm_dim=32, lstm_layers=1, mlp_dim=32)
RESULT, REQUESTED = "lessons.demo.training", "lessons.demo.requested"


def training_run() -> pd.DataFrame:
    """Train static, then dynamic; the chart grows by one point per epoch.  Returns the curves."""
    from parsing_core.model import Callbacks, Trainer  # torch: imported when a learner starts the demo

    train = synthetic_treebank(SENTENCES, RATE, seed=SEED)
    dev = synthetic_treebank(DEV, RATE, seed=SEED + 1)
    curves: dict[str, list[float]] = {"static": [], "dynamic (k=1, p=0.9)": []}
    chart = st.empty()

    def epoch_done(name: str, report: dict[str, object]) -> None:
        curves[name].append(100 * float(str(report["dev_uas"])))
        chart.line_chart(frame(curves), x_label="epoch", y_label="dev UAS (%)")

    for name, regime in (("static", "static"), ("dynamic (k=1, p=0.9)", "dynamic")):
        config = TrainConfig(regime=regime, epochs=EPOCHS, explore_after=1, explore_p=0.9, seed=SEED)
        Trainer(train, dev, "arc-hybrid", train_config=config, model_config=NETWORK,
                callbacks=Callbacks(on_epoch=partial(epoch_done, name))).run()
    return frame(curves)


def frame(curves: dict[str, list[float]]) -> pd.DataFrame:
    longest = max(len(v) for v in curves.values())
    padded = {k: v + [float("nan")] * (longest - len(v)) for k, v in curves.items()}
    return pd.DataFrame(padded, index=pd.RangeIndex(1, longest + 1, name="epoch"))


def training() -> None:
    """The button, the live curves, and what they show once the run is over."""
    st.markdown(f"**A small live run.**  Two arc-hybrid parsers, {SENTENCES} synthetic training sentences "
                f"({RATE:.0%} non-projective), {EPOCHS} epochs, a small network; dev UAS on {DEV} sentences "
                "after each epoch.  It takes some seconds (10 s measured on a busy two-core machine).")
    st.button("Run the small experiment", key="lessons.demo.run", icon=":material/play_arrow:",
              on_click=st.session_state.__setitem__, args=(REQUESTED, True))
    if st.session_state.pop(REQUESTED, False):
        with st.spinner("Training…"):
            st.session_state[RESULT] = training_run()
        return
    curves = st.session_state.get(RESULT)
    if curves is not None:
        st.line_chart(curves, x_label="epoch", y_label="dev UAS (%)")
        last = ", ".join(f"{name} {value:.1f} %" for name, value in curves.iloc[-1].items())
        st.caption(f"After the last epoch: {last} (this run, seed {SEED}; one measurement).")


DEMOS = {"training": training}
