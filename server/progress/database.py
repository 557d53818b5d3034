"""Where progress is kept, and how to reach it safely from many tabs and processes at once.

``PARSING_DATABASE_URL`` names the database (any SQLAlchemy URL: ``sqlite:///path``,
``postgresql+psycopg://...``).  Without it the store is a SQLite file in the user's data folder
(:func:`default_url`), created on first use.

SQLite is made safe for concurrent writers three ways:

* WAL journal: readers never block the writer, the writer never blocks readers;
* a busy timeout: a writer that finds the file locked waits for it (up to :data:`BUSY_TIMEOUT_S`)
  instead of failing at once;
* writes begin with ``BEGIN IMMEDIATE``: a write transaction takes the write lock before it reads,
  so two writers queue rather than both reading and then one failing when it tries to write.

PostgreSQL needs less: its writers never lock each other out of the database, only out of the
rows they touch.  Two things remain to arrange: one process migrates at a time (an advisory lock,
:func:`migrate`), and one learner's writes take turns, since a transaction sees only what was
committed before each of its statements (the learner's row is locked, ``FOR UPDATE``, by every
write of theirs: :func:`server.progress.learners.existing`).  The same migrations, models
and queries serve both.

On top of that, :func:`retrying` runs a write again when the database reports itself locked or
a concurrent writer won a race, until :data:`BUSY_TIMEOUT_S` has passed: a database locked for
longer (a backup, a long import elsewhere) is unavailable, and a page says so rather than hang.
Every other database error becomes :class:`StoreUnavailable`, so a page has one thing to catch.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from alembic.util.exc import CommandError
from sqlalchemy import URL, Connection, Engine, create_engine, event, exc, make_url, text
from sqlalchemy.orm import Session

from parsing_core.settings import data_folder

from ..settings import PROGRESS_FILE, Settings, settings
from .errors import StoreUnavailable

URL_VARIABLE = Settings.variable("database_url")
BUSY_TIMEOUT_S = 5.0  # how long a write waits for a locked database, retries included
CONNECT_TIMEOUT_S = 5  # a PostgreSQL server that does not answer at all is unavailable after this
ATTEMPTS = 5  # a write that loses a race (a deadlock, a key inserted meanwhile) is tried this often
MIGRATIONS = Path(__file__).with_name("migrations")
MIGRATION_LOCK = 4_711_012  # a PostgreSQL advisory lock: one process migrates at a time

T = TypeVar("T")


PASSWORD_IN_URL = re.compile(r"(://[^/\s:@'\"]*:)[^@\s'\"]*@")


def default_url() -> str:
    """``PARSING_DATABASE_URL`` if set, else the SQLite file ``progress.sqlite3`` in the user's data
    folder (:func:`parsing_core.settings.data_folder`, by platform)."""
    return settings().database_url or f"sqlite:///{data_folder() / PROGRESS_FILE}"


def connect(url: str) -> Engine:
    """An engine for ``url``; for a SQLite file, its folder is created and the pragmas set."""
    try:
        parsed = make_url(url)
        if parsed.get_backend_name() != "sqlite":
            return create_engine(parsed, pool_pre_ping=True, connect_args=server_options(parsed))
        if parsed.database and parsed.database != ":memory:" and not parsed.database.startswith("file:"):
            Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(parsed, connect_args={"timeout": BUSY_TIMEOUT_S})
    except (exc.ArgumentError, exc.NoSuchModuleError, ImportError, OSError) as error:
        raise StoreUnavailable(masked(f"the progress database {url!r} cannot be opened: {error}")) from error
    event.listen(engine, "connect", _sqlite_pragmas)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def masked(text: str) -> str:
    """``text`` with the password of every database URL in it replaced by ``***``: an error a page
    shows or a log keeps never holds a password.

    >>> masked("the progress database 'postgresql://lab:s3cret@db/lab' cannot be opened")
    "the progress database 'postgresql://lab:***@db/lab' cannot be opened"
    """
    return PASSWORD_IN_URL.sub(r"\1***@", text)


def server_options(url: URL) -> dict[str, Any]:
    """PostgreSQL gives up on a server that does not answer after :data:`CONNECT_TIMEOUT_S`,
    unless the URL says otherwise (libpq alone would wait for the network's own timeout)."""
    if url.get_backend_name() == "postgresql" and "connect_timeout" not in url.query:
        return {"connect_timeout": CONNECT_TIMEOUT_S}
    return {}


def _sqlite_pragmas(dbapi_connection: Any, record: Any) -> None:
    dbapi_connection.isolation_level = None  # we send BEGIN ourselves (see _sqlite_begin)
    cursor = dbapi_connection.cursor()
    try:
        _write_ahead_log(cursor)
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()


def _write_ahead_log(cursor: Any) -> None:
    """Put the file in WAL mode, which it keeps: done once per file, later connections only read
    the mode.  Processes opening a fresh file at the same moment may find it locked while one of
    them switches it, and SQLite does not wait on that lock by itself (its busy timeout does not
    cover it), so this tries again until :data:`BUSY_TIMEOUT_S` has passed."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            if str(cursor.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error).lower() or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _sqlite_begin(connection: Connection) -> None:
    mode = "IMMEDIATE" if connection.get_execution_options().get("write") else "DEFERRED"
    connection.exec_driver_sql(f"BEGIN {mode}")


@contextmanager
def transaction(engine: Engine, write: bool) -> Iterator[Session]:
    """A session in one transaction, committed at the end (a write one takes the write lock first)."""
    with engine.connect() as connection:
        connection.execution_options(write=write)
        with Session(bind=connection, expire_on_commit=False) as session, session.begin():
            yield session


def retrying(engine: Engine, write: bool, work: Callable[[Session], T]) -> T:
    """``work(session)`` in a transaction, again while the database is busy; its errors → StoreUnavailable.

    ``work`` must be safe to run again (it is, when it only reads and adds rows in its transaction:
    a failed attempt leaves nothing behind).  The library's own errors pass through unchanged.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    for attempt in range(ATTEMPTS):
        try:
            with transaction(engine, write) as session:
                return work(session)
        except (exc.OperationalError, exc.IntegrityError) as error:
            if attempt + 1 == ATTEMPTS or time.monotonic() > deadline or not _worth_retrying(error):
                raise _unavailable(error) from error
            time.sleep(0.05 * 2**attempt)
        except exc.SQLAlchemyError as error:
            raise _unavailable(error) from error
    raise AssertionError("unreachable: the last attempt returns or raises")


def _worth_retrying(error: exc.DBAPIError) -> bool:
    """Locked (SQLite), a serialization failure or deadlock (PostgreSQL), or a lost race to insert a key."""
    message = str(error.orig).lower()
    if isinstance(error, exc.IntegrityError):
        return "unique" in message or "duplicate" in message
    return any(word in message for word in ("locked", "busy", "deadlock", "could not serialize"))


def _unavailable(error: Exception) -> StoreUnavailable:
    reason = str(getattr(error, "orig", None) or error).splitlines()[0]
    return StoreUnavailable(masked(f"progress is not being saved: the database cannot be used ({reason})"))


def alembic_config(url: str | None = None, location: Path = MIGRATIONS) -> Config:
    """Alembic's configuration, made in code: the migrations folder, and the URL when one is given."""
    config = Config()
    config.set_main_option("script_location", str(location))
    config.set_main_option("path_separator", "os")
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def migrate(engine: Engine, location: Path = MIGRATIONS) -> None:
    """Bring the database to the newest schema revision, in one transaction that holds the write lock.

    Two processes starting at once on a fresh file cannot both create the tables: the second
    waits for the first's transaction, then finds the schema at head and does nothing.
    """
    config = alembic_config(location=location)
    try:
        with transaction(engine, write=True) as session:
            connection = session.connection()
            if engine.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    except CommandError as error:
        raise StoreUnavailable(f"progress is not being saved: the database's schema is not one this "
                               f"version of the lab knows ({error})") from error
    except exc.SQLAlchemyError as error:
        raise _unavailable(error) from error
