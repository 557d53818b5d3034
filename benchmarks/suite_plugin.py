"""A pytest plugin for :mod:`benchmarks.suite`: each test process says which test it is running.

Loaded with ``-p benchmarks.suite_plugin``; it does nothing unless ``SUITE_TESTS_FOLDER`` names
a folder.  Then, as each test starts, the process running it (a pytest-xdist worker, or pytest
itself) writes the test's id to ``<folder>/<its pid>``, so that the benchmark, reading ``/proc``
every second, can charge the CPU of that process and of everything it started (an app server,
Chromium, a training job) to the test file running there at that moment.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

FOLDER_ENV = "SUITE_TESTS_FOLDER"  # read by this plugin only: not a setting of the app


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    folder = os.environ.get(FOLDER_ENV)
    if folder:
        Path(folder, str(os.getpid())).write_text(item.nodeid)
    yield
