"""The showing side of the app, filed by concern.  Pages import ``parsing_core`` for the parsing
and this package for the showing; this file is the map.

* ``views/`` — pure builders, no Streamlit: a value in, a value out (a DataFrame, DOT text, a
  figure, a download), so any page and any test can call them without a running app.
  tests/test_boundaries.py imports every module under it with Streamlit blocked.

  - ``tables`` — derivation, systems and oracles tables; ``drawing`` — a configuration as DOT;
  - ``oracle_view`` — what the oracles say, with fallbacks; the best parse still reachable;
  - ``cost_table`` — the coloured cost and verdict frames; ``model_view`` — a trained model's
    columns, its move, its parse;
  - ``sources`` — a sentence named by a short key that fits in a URL; ``state`` — the stepper's
    state (sentence, system, oracles, moves) and its link (Streamlit only inside the functions
    that read the session);
  - ``exports``, ``labels``, ``safe_text`` — downloads, UD relations, user text made inert;
  - ``training`` — the Train page's spec, curves and progress, and where runs are kept.

* ``widgets/`` — Streamlit pieces used by more than one page: ``errors`` (library errors shown
  as messages), ``sentence_inputs`` (typed, uploaded or treebank sentences; a data folder).

* One folder per page for the Streamlit code only that page uses:

  - ``stepper/`` — ``pickers`` (sentence, system, oracles), ``controls`` (the move board,
    history, autoplay, downloads), ``compute`` (the views cached with ``st.cache_data``),
    ``models`` (pick a checkpoint, load it once, score);
  - ``train/`` — ``training_data`` (synthetic data, a data directory, or a UD treebank by name).

* ``navigation`` — deep links on a fresh server run through ``app.py``.

Where a new module goes: a pure builder goes in ``views/``; Streamlit code goes in the folder
of the page that uses it (``ui/<page>/``, next to ``pages/<page>.py``).  A module moves up to
``views/`` or ``widgets/`` when a second page imports it; a page folder never imports another
page's folder.
"""
