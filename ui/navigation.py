"""Make a deep link (``/stepper?...``) on a freshly started server run through ``app.py``.

This is the app's one patch of a Streamlit internal (Streamlit 1.67.0); the internal it
depends on is checked by ``tests/test_navigation_patch.py``, which fails the day an upgrade
removes or changes it.

The internal: the class attribute
``streamlit.runtime.pages_manager.PagesManager.uses_pages_directory`` (``bool | None``).

* ``PagesManager.__init__`` sets it, while it is still ``None``, to whether a folder named
  ``pages`` sits beside the main script (ours does: ``pages/``).
* ``ScriptRunner._run_script`` (``streamlit/runtime/scriptrunner/script_runner.py``) reads it
  on every run: when true it does not execute ``app.py`` but calls ``_mpa_v1``, Streamlit's
  old multipage mode, which builds a navigation from the files of ``pages/`` (titles "app",
  "stepper", "train") with the private ``_navigation`` and runs the requested page alone.
* Only the public ``st.navigation`` sets it to ``False`` (``streamlit/commands/navigation.py``);
  ``_mpa_v1`` does not call it.  So until someone opens the front page (running ``app.py``,
  whose ``st.navigation`` leaves the old mode for the whole server), a link straight to a page
  runs that page file without ``app.py``'s page configuration, titles and navigation.

:func:`run_through_app` notices the old mode, leaves it as ``st.navigation`` would, and reruns:
the rerun executes ``app.py`` with the same page and query parameters.

No public API of Streamlit 1.67 turns the old mode off while a ``pages/`` folder sits beside
the entry script.  The public fix is to rename that folder (e.g. ``app_pages/``, with the
paths in ``app.py``'s ``st.Page`` calls): then the flag starts ``False`` and this patch can go.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager


def run_through_app() -> None:
    """Call first on a page: if ``app.py`` did not start this run, rerun so that it does."""
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False  # what st.navigation does (Streamlit 1.67)
        st.rerun()
