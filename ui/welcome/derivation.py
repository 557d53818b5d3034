"""One derivation to look at on the Welcome page: the static oracle parses the default sentence in
the system picked, one row per configuration."""

from __future__ import annotations

import pandas as pd
import streamlit as st

import parsing_core as pc
from parsing_core import default_sentence
from ui.views.tables import derivation_table
from ui.widgets.errors import show_errors
from ui.widgets.pickers import system_picker


@st.cache_data
def gold_derivation(system_name: str) -> pd.DataFrame:
    """The static oracle's derivation of the default sentence, as a table."""
    system, sentence = pc.get_system(system_name), default_sentence()
    return derivation_table(pc.replay(system, sentence, pc.gold_sequence(system, sentence)))


def derivation_to_look_at() -> None:
    """The system picker and the static oracle's derivation in it."""
    st.markdown(
        f"The static oracle parses “{' '.join(default_sentence().words)}”.  Each row is one "
        "configuration: the move just made, the stack (top on the right), the buffer (front on the "
        "left) and the arc the move added.  Row 1 is the initial configuration."
    )
    with st.container(key="welcome-derivation"):
        name = system_picker("welcome", pc.list_systems()[0], with_options=False)[0]
        with show_errors():
            st.table(gold_derivation(name), hide_index=True)
