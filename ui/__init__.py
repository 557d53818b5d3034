"""Small helpers shared by the pages: tables, errors, the stepper's parts.

Pages import ``parsing_core`` for the parsing and this package for the showing; nothing here
knows which page it is on.  Table builders are pure functions (a trace in, a DataFrame out)
so any page, and any test, can call them without a running app.

The stepper's parts, pure ones first:

* ``sources`` — a sentence named by a short key that fits in a URL;
* ``state`` — the stepper's state (sentence, system, oracles, moves) and its link;
* ``oracle_view`` — what the oracles say, with fallbacks; the best parse still reachable;
* ``drawing`` — a configuration as DOT text; ``cost_table`` — the coloured cost table;
* ``exports``, ``labels``, ``safe_text`` — downloads, UD relations, user text made inert;
* ``compute`` — all of the above cached by source data (``st.cache_data``);
* ``pickers``, ``sentence_inputs``, ``controls`` — the widgets, each returning the user's choice;
* ``navigation`` — deep links on a fresh server run through ``app.py``.

The model in the stepper and the Train page:

* ``model_view`` — a trained model's columns in the cost table, its move, its parse (pure);
* ``models`` — pick a checkpoint (a finished run or an upload), load it once, score (cached);
* ``training`` — the Train page's command line, curves and progress (pure);
* ``training_data`` — synthetic data, a data directory, or a UD treebank downloaded by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .tables import arc_text, derivation_table, oracles_table, systems_table

if TYPE_CHECKING:
    from .errors import show_errors

__all__ = ["arc_text", "derivation_table", "oracles_table", "show_errors", "systems_table"]


def __getattr__(name: str) -> object:
    """``ui.show_errors`` needs Streamlit: it is loaded on first use, so that importing ``ui`` (and
    its pure builders, checked by tests/test_boundaries.py) never imports Streamlit."""
    if name == "show_errors":
        from .errors import show_errors

        return show_errors
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
