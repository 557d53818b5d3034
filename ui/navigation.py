"""Make a deep link (``/stepper?...``) on a freshly started server run through ``app.py``.

Streamlit starts in its old multipage mode whenever a ``pages/`` folder sits beside the main
script, and leaves it only when ``st.navigation`` runs for the first time.  A link straight to
a page, opened before anyone opened the app's front page, therefore runs the page file alone:
without ``app.py``'s page configuration and navigation.  :func:`run_through_app` notices that
and reruns, this time through ``app.py``, with the same page and query parameters.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager


def run_through_app() -> None:
    """Call first on a page: if ``app.py`` did not start this run, rerun so that it does."""
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()
