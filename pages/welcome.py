"""Welcome: what transition-based parsing is, what this lab offers, one derivation to look at."""

from __future__ import annotations

import pandas as pd
import streamlit as st

import parsing_core as pc
from parsing_core import default_sentence
from ui.views.tables import derivation_table, oracles_table, systems_table
from ui.widgets.errors import show_errors
from ui.widgets.pickers import system_picker

INTRO = """
A **transition-based parser** reads a sentence left to right and builds its dependency tree
one small decision at a time.  Its whole state is a **configuration** c = (σ, β, A): a
**stack** σ of partly processed tokens, a **buffer** β of tokens not yet read, and the
**arcs** A built so far.  A **transition** such as SHIFT, LEFT-ARC or RIGHT-ARC turns one
configuration into the next; a **transition system** says which transitions exist and when
each is legal.  An **oracle** knows the gold tree and says which moves are right: a *static*
oracle gives one gold sequence, a *dynamic* oracle gives the **cost** of every move, even
after a mistake.  Token 0 is **ROOT**, an imaginary word that heads the whole sentence.
Every term in bold has an entry in the **Glossary** (in the menu, on every page).
"""


@st.cache_data
def gold_derivation(system_name: str) -> pd.DataFrame:
    """The static oracle's derivation of the default sentence, as a table."""
    system, sentence = pc.get_system(system_name), default_sentence()
    return derivation_table(pc.replay(system, sentence, pc.gold_sequence(system, sentence)))


def data_dir_note() -> str:
    """Where treebanks come from, and the other ways to get some."""
    folder = pc.data_dir()
    elsewhere = ("The Stepper (*Treebank*) and the Train page also read any folder you type, and the "
                 "Train page downloads a Universal Dependencies treebank by name.")
    if folder is None:
        return (f"No data directory yet (set `PARSING_DATA_DIR`); the teaching sentences work without "
                f"one.  {elsewhere}")
    return f"Data directory: `{folder}`.  {elsewhere}"


GUIDE = """
* **Stepper** — pick a sentence and a transition system, click transitions, watch the stack,
  the buffer and the arcs, and see what every move costs; load a trained model to see its
  scores beside the oracle's costs, or to parse sentences of your own.
* **Train** — train a neural parser with a static or a dynamic oracle and watch it learn.
"""


st.title("Transition parsing lab")
st.markdown(INTRO)
st.markdown(GUIDE)

st.header("Transition systems")
st.table(systems_table(), hide_index=True)

st.header("Oracles")
st.table(oracles_table(), hide_index=True)

st.header("A derivation to look at")
st.markdown(
    f"The static oracle parses “{' '.join(default_sentence().words)}”.  Each row is one "
    "configuration: the move just made, the stack (top on the right), the buffer (front on the "
    "left) and the arc the move added.  Row 1 is the initial configuration."
)
with st.container(key="welcome-derivation"):
    name = system_picker("welcome", pc.list_systems()[0], with_options=False)[0]
    with show_errors():
        st.table(gold_derivation(name), hide_index=True)

st.header("Data")
st.markdown(data_dir_note())
