"""The Train page's form: data, system, oracle, regime, epochs, size, exploration and precision,
read into one :class:`~parsing_core.model.TrainSpec` (None while there is no data to train on)."""

from __future__ import annotations

import streamlit as st

import parsing_core as pc
from parsing_core.model import DEFAULT_PRESET, TrainSpec, pick_device
from parsing_core.model.device import bfloat16_native
from parsing_core.model.trainer import learned
from ui.views.glossary import term
from ui.views.training import PAGE_DEFAULTS, SIZES, data_spec, default_choice, run_spec
from ui.widgets.data_sources import training_data
from ui.widgets.pickers import oracle_picker, system_picker

REGIMES = {"static": "static oracle", "nondeterministic": "non-deterministic (follow a min-cost move)",
           "dynamic": "dynamic, with exploration"}
IMITATION = "imitation of the learned DQN oracle (the thesis's chapter 8)"


def run_choice() -> TrainSpec | None:
    """The form of the page; returns the run's spec (None while there is no data to train on)."""
    data = training_data(nonprojective=PAGE_DEFAULTS.data.nonprojective)
    defaults = PAGE_DEFAULTS
    system, _, _ = system_picker("train", defaults.system, with_options=False)
    oracles = [o for o in pc.list_oracles(pc.get_system(system)) if o != "search"]  # search: too slow
    first = default_choice(pc.get_system(system), oracles)
    oracle, _ = oracle_picker(pc.get_system(system), "train", names=oracles, default=first, compare=None)
    models = [o for o in oracles if learned(pc.get_system(system), o)]  # DQNs: dqn, dqn:<run>
    regimes = [*REGIMES, *(["imitation"] if models else [])]  # a learned oracle to imitate
    regime = st.selectbox("Regime", regimes, index=regimes.index(defaults.train.regime),
                          format_func=lambda r: REGIMES.get(r, IMITATION), key="train.regime")
    if regime == "imitation":  # the parser does what the DQN picked (else the first listed) would do
        if oracle not in models:
            st.caption(f"Imitation follows a learned oracle: the run imitates {models[0]}, not {oracle}.")
            oracle = models[0]
    elif regime == "static" and oracle != "static":  # the static regime follows the static oracle alone
        st.caption(f"The static regime follows the {term('static oracle')}'s one derivation: the run "
                   f"trains with it, not with {oracle}.")
        oracle = "static"
    top, bottom = st.columns(2), st.columns(2)
    epochs = top[0].number_input("Epochs", 1, 100, defaults.train.epochs, key="train.epochs")
    size = top[1].selectbox("Model size", SIZES, index=SIZES.index(DEFAULT_PRESET), key="train.size")
    k = bottom[0].number_input("Explore after k epochs", 0, 100, defaults.train.explore_after, key="train.k")
    p = bottom[1].slider("Exploration p", 0.0, 1.0, defaults.train.explore_p, key="train.p")
    st.caption(f"In the dynamic regime, after k epochs the walk follows the model's own mistake with "
               f"probability p ({term('exploration')}); the {term('static oracle')} cannot follow any.")
    precision = precision_choice()
    if data is None:
        return None
    source = data_spec(data.data, data.folder, data.nonprojective)
    return run_spec(source, system, oracle, regime, int(epochs), int(k), p, size, precision)


def precision_choice() -> str:
    """float32, or bfloat16 where this server's processor computes in it (else the box is off, saying why)."""
    native = bfloat16_native(pick_device("auto"))
    why = ("The BiLSTMs compute in bfloat16, the rest in float32: a run goes faster, with the same "
           "accuracy within noise, but a seed's numbers are not float32's." if native else
           "This server's processor has no native bfloat16 (AVX-512 BF16, AMX or a recent GPU): "
           "emulated, it would be slower than float32.")
    mixed = st.checkbox("Mixed precision (bfloat16)", value=False, disabled=not native, help=why,
                        key="train.bfloat16")
    return "bfloat16" if mixed and native else "float32"
