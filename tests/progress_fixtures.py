"""The progress store's tests run on both databases it supports: a SQLite file and PostgreSQL.

A test asks for ``database_url`` (a fresh, empty database) or ``new_database`` (a maker of as many
as it needs: a second store "elsewhere", say); both are parametrised by backend, so the test runs
twice, ``[sqlite]`` and ``[postgresql]``.  The PostgreSQL databases live on the session's one
server (:mod:`postgres_server`), one new schema per call, so no test sees another's rows.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from server.progress import Store, open_store

BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(params=BACKENDS)
def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], str]:
    """Makes the URL of a fresh, empty database of the test's backend at each call."""
    if request.param == "sqlite":
        numbers = itertools.count()
        return lambda: f"sqlite:///{tmp_path / f'progress-{next(numbers)}.sqlite3'}"
    server = request.getfixturevalue("postgres_server")
    return server.fresh_url


@pytest.fixture
def database_url(new_database: Callable[[], str]) -> str:
    """A fresh, empty database of the test's backend."""
    return new_database()


class Clock:
    """Stands still until the test moves it."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def wait(self, span: timedelta) -> datetime:
        self.now += span
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(database_url: str, clock: Clock) -> Iterator[Store]:
    """A store on ``database_url`` whose time is ``clock``'s."""
    opened = open_store(database_url, clock=clock)
    yield opened
    opened.close()
