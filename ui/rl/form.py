"""The RL oracle page's form: how many synthetic sentences, which reward, how many updates; and
the button that starts the run it describes."""

from __future__ import annotations

import streamlit as st

from parsing_core.model import DataSpec
from parsing_core.rl import RLConfig, RLSpec
from ui.rl import runs
from ui.views.safe_text import inert

REWARDS = {"exact": "exact: −cost from the exact oracle (Q* = −cost)",
           "thesis": "the thesis's reward (its bonuses and discount, as written)"}


def choice() -> RLSpec:
    """The form: sentences, reward, length of the run."""
    left, right = st.columns(2)
    sentences = left.number_input("Synthetic training sentences", 50, 5000, 600, step=50,
                                  key="rl.sentences")
    updates = right.number_input("Updates (gradient steps)", 200, 50_000, 3000, step=200,
                                 key="rl.updates")
    reward = st.radio("Reward", list(REWARDS), format_func=REWARDS.__getitem__, key="rl.reward")
    config = RLConfig(reward=reward, updates=int(updates), eval_every=max(200, int(updates) // 6),
                      eval_sentences=100, baseline=True)  # the untrained network first: the score to beat
    return RLSpec(DataSpec(synthetic=int(sentences), nonprojective=0.3), config)


def start_button(spec: RLSpec) -> None:
    """Start the DQN run the form describes (one at a time), and say why a run did not start."""
    free = runs.board().free()
    # Not a callback: its arguments would be the form of the run before, without an edit made just
    # before the click (a number typed, then Start).  The page is drawn again at once instead.
    if st.button("Start the DQN run", type="primary", key="rl.start", disabled=not free,
                 help=None if free else "One run at a time: stop the one going, or wait for it."):
        runs.start(spec, f"dqn-{spec.config.reward}")
        st.rerun()
    note = st.session_state.pop("rl.note", None)
    if note:
        st.warning(inert(note))
