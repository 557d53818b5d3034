"""The store's schema migrations, in Alembic's layout: ``env.py`` and one file per revision in ``versions/``.

:func:`server.progress.database.migrate` runs them to the newest revision every time a store
is opened, configuring Alembic in code (no ``alembic.ini``): a fresh database gets the schema, an
older one is brought up to date, an up-to-date one is left alone.

A change of schema is a change of :mod:`server.progress.schema` *and* a new revision here: a
file ``versions/vNNNN_what.py`` whose ``down_revision`` is the newest one before it, with
``upgrade()`` written against ``alembic.op`` (portable types only, ``op.batch_alter_table`` for
changes SQLite cannot make in place).  ``python -m server.progress.migrations "what changed"``
writes a draft of it, compared against a database migrated to the current head; the tests check
that the migrated schema equals the models'.
"""
