"""Show the library's errors as messages for a person, never as a traceback.

Every error ``parsing_core`` raises on purpose is a :class:`parsing_core.ParsingCoreError`
whose ``str`` is written for the user ("cycle 1 → 2 → 1: every token must reach ROOT").
Anything else is a bug and is left to Streamlit's traceback.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from parsing_core import ParsingCoreError


@contextmanager
def show_errors() -> Iterator[None]:
    """Run the block; if it raises a ParsingCoreError, show ``st.error(str(e))`` and go on.

    ::

        with show_errors():
            st.table(derivation_table(pc.replay(system, sentence, moves)))
    """
    try:
        yield
    except ParsingCoreError as e:
        st.error(str(e))
