"""RL oracle: train the thesis's DQN oracle for arc-standard and watch it learn the exact costs.

With the reward −cost(t; c) of the exact oracle, the best action value is Q*(c, t) = −cost(t; c):
the learned oracle has a known right answer, so the page shows how often its greedy move is one
of the exact optimal moves, and how far its Q-values are from minus the costs, as it learns.
"""

from __future__ import annotations

import streamlit as st

from parsing_core.model import DataSpec
from parsing_core.rl import RLConfig, RLSpec
from ui.navigation import run_through_app
from ui.rl import runs
from ui.views.glossary import term
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
                      eval_sentences=100)
    return RLSpec(DataSpec(synthetic=int(sentences), nonprojective=0.3), config)


run_through_app()
st.title("RL oracle")
st.markdown(f"A deep Q-network learns to be an {term('oracle')} for arc-standard by parsing with rewards "
            f"(the thesis's chapter 7).  With the exact reward, its Q-values should become minus the "
            f"{term('costs', 'cost')}: the curves show how often its greedy move is one of the exact "
            f"{term('optimal moves')}, first along its own training walks, then on dev parses.  The "
            "run goes on in its own process: refresh or leave, and come back.")
spec = choice()
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
st.subheader("Going now")
runs.watch()
runs.ended()
