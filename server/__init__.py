"""The app's server side: what serves a class, beside the parsing library, never inside it.

``parsing_core`` is the library (configurations, transitions, oracles, models); it runs alone in a
notebook and never imports this package.  ``server`` holds what only the app needs:

* ``progress/`` — learners' progress in a database (SQLAlchemy, Alembic migrations);
* ``jobs/`` — background runs (train, rl, lab) on a board, as local processes or on a Ray cluster;
* ``limits`` — caps per minute, per learner and for everyone together.

It imports ``parsing_core`` (its error classes, the specs it launches), never Streamlit.
"""
