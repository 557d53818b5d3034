"""The progress store's tests run on both databases it supports: a SQLite file and PostgreSQL.

A test asks for ``database_url`` (a fresh, empty database) or ``new_database`` (a maker of as many
as it needs: a second store "elsewhere", say); both are parametrised by backend, so the test runs
twice, ``[sqlite]`` and ``[postgresql]``.  The PostgreSQL databases live on the session's one
server (:mod:`postgres_server`), one new schema per call, so no test sees another's rows.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import pytest

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
