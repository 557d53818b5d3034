"""A real PostgreSQL server for the tests, started from Debian's package in a temporary folder.

``initdb`` makes a cluster in a fresh folder, ``pg_ctl`` starts it on 127.0.0.1 and a free port
(its Unix socket in the same folder, so no system-wide PostgreSQL is touched), and the test
session shares it: it starts once (a few seconds) and stops, ``pg_ctl stop -m fast``, at the end.
Each test takes an empty namespace of its own (:meth:`PostgresServer.fresh_url`: a schema, much
cheaper to make than a database); they all go with the folder, so none is ever dropped.

PostgreSQL refuses to run as root: when the tests do, the server runs as the ``postgres`` user
(``runuser``), which owns the folder and works in it (the checkout may be closed to that user).
Without the binaries the tests that need the server are skipped, except under ``CI=true``, where
they fail: CI must exercise PostgreSQL.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import pytest

from tests.needs import unavailable

DEBIAN_BINARIES = Path("/usr/lib/postgresql")
OWNER = "postgres"  # the user the server runs as when the tests run as root
TESTS_DATABASE = "tests"  # the database of the tests' schemas (one schema per test)
START_TRIES = 3  # a free port can be taken by someone else between choosing it and listening on it


def binaries() -> Path | None:
    """The newest of Debian's PostgreSQL ``bin`` folders with ``initdb`` and ``pg_ctl``, if any."""
    found = [folder for folder in DEBIAN_BINARIES.glob("*/bin")
             if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file()]
    return max(found, key=lambda folder: int(folder.parent.name), default=None)


def as_server_user(command: list[str]) -> list[str]:
    """``command`` run as the server's user: ``postgres`` when we are root, else ourselves."""
    return ["runuser", "-u", OWNER, "--", *command] if os.geteuid() == 0 else command


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class PostgresServer:
    """One cluster in ``folder`` (data in ``data/``, the socket and ``server.log`` beside it)."""

    bin: Path
    folder: Path
    port: int = 0
    names: Iterator[int] = field(default_factory=itertools.count)

    def url(self, database: str = "postgres") -> str:
        """A SQLAlchemy URL of a database of this server (user ``postgres``, trusted on 127.0.0.1)."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def pg_ctl(self, *arguments: str) -> None:
        command = [str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-w", *arguments]
        done = subprocess.run(as_server_user(command), cwd=self.folder, capture_output=True, text=True,
                              timeout=60)
        if done.returncode != 0:
            log = self.folder / "server.log"
            raise RuntimeError(f"pg_ctl {arguments[-1]} failed: {done.stderr.strip()}\n"
                               f"{log.read_text()[-2000:] if log.exists() else ''}")

    def start(self) -> None:
        """Start the server (again, after :meth:`stop`, on the same port)."""
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.pg_ctl("-l", str(self.folder / "server.log"), "-o", options, "start")

    def stop(self) -> None:
        """Stop the server at once: open connections are cut (``-m fast``)."""
        self.pg_ctl("-m", "fast", "stop")

    def execute(self, sql: str, database: str = "postgres") -> None:
        """Run one statement outside a transaction (``CREATE DATABASE`` cannot run in one)."""
        with psycopg.connect(host="127.0.0.1", port=self.port, user="postgres", dbname=database,
                             autocommit=True) as connection:
            connection.execute(sql)  # our own text, no user input

    def fresh_url(self) -> str:
        """The URL of a new, empty namespace: a schema of the tests' database, the connection's only one.

        A schema is quicker to make than a database (25 against 115 ms, medians measured on a busy
        2-core machine, connecting included); to the store, which names no schema, it looks like an
        empty database of its own (``search_path`` is just it).
        """
        name = f"test_{next(self.names)}"
        self.execute(f"CREATE SCHEMA {name}", TESTS_DATABASE)
        return f"{self.url(TESTS_DATABASE)}?options=-csearch_path%3D{name}"


def initdb(bin: Path) -> PostgresServer:
    """A new cluster in a temporary folder, owned by the server's user; not started yet."""
    folder = Path(tempfile.mkdtemp(prefix="pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, OWNER, OWNER)
    command = [str(bin / "initdb"), "-D", str(folder / "data"), "-U", "postgres", "--auth=trust",
               "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"]
    subprocess.run(as_server_user(command), cwd=folder, check=True, capture_output=True, timeout=120)
    return PostgresServer(bin, folder)


def start_server(bin: Path) -> PostgresServer:
    """A running server on a free port of 127.0.0.1 (another port is tried if one is snatched)."""
    server = initdb(bin)
    for attempt in range(START_TRIES):
        server.port = free_port()
        try:
            server.start()
            server.execute(f"CREATE DATABASE {TESTS_DATABASE}")
            return server
        except RuntimeError:
            if attempt + 1 == START_TRIES:
                shutil.rmtree(server.folder, ignore_errors=True)
                raise
    raise AssertionError("unreachable: the last attempt returns or raises")


def missing() -> str | None:
    """Why no server can be started here (None: it can)."""
    if binaries() is None:
        return (f"PostgreSQL's server (initdb, pg_ctl under {DEBIAN_BINARIES}/<version>/bin) is not "
                f"installed: apt-get install postgresql")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(OWNER)
        except KeyError:
            return f"the tests run as root and there is no {OWNER!r} user to run PostgreSQL as"
    return None


def usable_binaries() -> Path:
    """Debian's PostgreSQL ``bin`` folder: the test is skipped where there is none (a failure
    under ``CI=true``)."""
    reason = missing()
    if reason is not None:
        unavailable(reason)
    bin = binaries()
    assert bin is not None
    return bin


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The session's PostgreSQL server: skipped where it cannot start, a failure under ``CI=true``."""
    server = start_server(usable_binaries())
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.folder, ignore_errors=True)
