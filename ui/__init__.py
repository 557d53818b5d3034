"""The showing side of the app, filed by concern.  Pages import ``parsing_core`` for the parsing
and this package for the showing; this file is the map.

* ``views/`` — pure builders, no Streamlit: a value in, a value out (a DataFrame, DOT text, a
  figure, a download), so any page and any test can call them without a running app.
  tests/test_boundaries.py imports every module under it with Streamlit blocked.

  - ``tables`` — derivation, systems and oracles tables; ``drawing`` — a configuration as DOT,
    whole or in three pieces;
  - ``mistakes`` — each move's cost where it was made, a finished parse summed up;
    ``buildable`` — why a system cannot build a gold tree; ``rules`` — moves and cost rules
    as the seeds write them; ``glossary`` — the terms and links to them;
  - ``oracle_view`` — what the oracles say, with fallbacks; the best parse still reachable;
  - ``cost_table`` — the coloured cost and verdict frames; ``names`` — moves and reasons in
    words; ``arc_diagram``, ``arc_layout`` — the words in a row and their arcs, as SVG;
  - ``sources`` — a sentence named by a short key that fits in a URL; ``state`` — a board's
    state (sentence, system, oracles, moves) and its link;
  - ``labels``, ``safe_text`` — UD relations, user text made inert;
  - ``training``, ``training_titles``, ``job_status`` — the jobs' specs, curves, titles and
    progress, and where runs are kept (Train, RL oracle and Oracle lab all start jobs).

* ``widgets/`` — Streamlit pieces any page uses; each takes a ``key`` and returns the choice:

  - ``board`` — the move board: one button per move, history (undo, redo, reset, jump), the
    oracle's step and autoplay, all changing the state of one :class:`~ui.widgets.board.Board`
    (a key in the session), so a lesson or an exercise embeds the board with its own state;
  - ``picture`` (the configuration drawn at natural size), ``pickers`` (sentence, system,
    oracles), ``sentence_inputs`` (typed, uploaded or treebank sentences; a data folder),
    ``checkpoints`` (the Train page's runs that kept a model, each loaded once), ``compute``
    (the views cached by source data, shared by every session), ``data_sources``
    (synthetic sentences, a data directory, or a UD treebank downloaded by name), ``errors``
    (library errors shown as messages), ``progress_store`` (the progress store opened once per
    process, and the learner Practice signed in, which Lessons records for too), ``limits``
    (the caps per minute on exercises, runs and uploads), ``dqn_runs`` (the server's DQN runs
    named by what they are, for the RL oracle's list and the Stepper's ``dqn:<run>`` oracles),
    ``held`` (a value the page gives a widget, sent with every run, so a widget in a closed
    popover never falls back to its default).

* One folder per page for the code only that page uses, its Streamlit panels beside their pure
  twins, each named ``*_view`` (no Streamlit, imported with it blocked like ``views/``):

  - ``stepper/`` — ``link`` (the board's state read from and written to the URL),
    ``downloads`` (derivation and drawing; ``exports_view``, ``worksheet_view``), ``models``
    (pick a checkpoint, load it once, score; ``model_view``), ``sidebar`` (what the learner
    chose), ``board_panel`` (the fragment a click reruns; what it draws: ``board_drawing``), the
    board component (``board_component``, ``board.js``; its data: ``board_data``, ``board_state``),
    its quick clicks with no run of the page (``board_channel``; the route ``serve.py`` adds:
    ``board_route``, ``board_address``), ``panels`` and ``menus`` below it;
  - ``lessons/`` — the lessons loaded once, their answer widgets, the live training demo;
    ``lesson_view``;
  - ``practice/`` — sign-in, answer inputs, sets and progress; ``items_view``,
    ``progress_view``;
  - ``train/`` — the Train page's form, runs, curves and models;
  - ``rl/`` — the RL oracle's runs; ``runs_view``;
  - ``lab/`` — the Oracle lab, one module per view (agreement, speed, sentence, systems), each
    with its ``*_view``;
  - ``welcome/`` — ``welcome_view``, where a newcomer starts.

* ``navigation`` — deep links on a fresh server run through ``app.py``; ``diagnostics`` — the
  server's memory, logged for the load benchmark; ``warm_up`` — what the server prepares once,
  in the background, as it starts (the exact arc-standard oracle's compiled loops).

Where a new module goes: Streamlit code and pure builders (``*_view``) go in the folder of the
page that uses them (``ui/<page>/``, next to ``pages/<page>.py``).  A module moves up to
``views/`` or ``widgets/`` when a second page imports it; a page folder never imports another
page's folder.
"""
