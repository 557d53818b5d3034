"""Small helpers shared by the pages: tables, errors, the default example.

Pages import ``parsing_core`` for the parsing and this package for the showing; nothing here
knows which page it is on.  Table builders are pure functions (a trace in, a DataFrame out)
so any page, and any test, can call them without a running app.
"""

from __future__ import annotations

from .errors import show_errors
from .examples import DEFAULT_HEADS, DEFAULT_WORDS, default_sentence
from .tables import arc_text, derivation_table, oracles_table, systems_table

__all__ = [
    "DEFAULT_HEADS", "DEFAULT_WORDS", "arc_text", "default_sentence", "derivation_table",
    "oracles_table", "show_errors", "systems_table",
]
