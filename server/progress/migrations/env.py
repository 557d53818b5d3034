"""Alembic runs this file to migrate: on the connection the store hands it, or on a URL of its own.

The store (:func:`server.progress.database.migrate`) passes an open connection, already in
a transaction that holds the write lock, as ``config.attributes["connection"]``.  Run from
Alembic's command line instead, the file connects to ``sqlalchemy.url`` or, without one, to the
store's own URL (``PARSING_DATABASE_URL`` or the default file).  Offline (``--sql``) it writes the
SQL without connecting.

Imported as a module (a package walk, the doctest finder) it does nothing: Alembic's ``context``
only exists while Alembic runs it.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from server.progress.database import connect, default_url
from server.progress.schema import Base


def run_on(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=Base.metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    given = context.config.attributes.get("connection")
    if isinstance(given, Connection):
        run_on(given)
        return
    engine = connect(context.config.get_main_option("sqlalchemy.url") or default_url())
    with engine.begin() as connection:
        run_on(connection)
    engine.dispose()


def run_offline() -> None:
    context.configure(url=context.config.get_main_option("sqlalchemy.url") or default_url(),
                      target_metadata=Base.metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


try:
    offline = context.is_offline_mode()
except NameError:  # imported, not run by Alembic: nothing to migrate
    pass
else:
    run_offline() if offline else run_online()
