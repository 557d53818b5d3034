"""A class of five in real browsers on one server, briefly: every session clicks through and none
fails (the full measurement, 5 to 20 students, is ``python -m benchmarks.load``).  The benchmark
runs in its own process: it drives Chromium with Playwright's asyncio API, which cannot run
inside the event loop of the other browser tests' Playwright.  No ``--settle``: the quiet time
after the tabs close is for the memory columns, which this smoke test does not read.  The last
column, the CPU of the Chromium processes the benchmark started, is found through its process
tree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser.conftest import require_chromium

pytestmark = pytest.mark.browser
REPO = Path(__file__).resolve().parents[2]


def test_five_students_click_through_without_a_failure() -> None:
    chromium = require_chromium()
    done = subprocess.run([sys.executable, "-m", "benchmarks.load", "--users", "5", "--seconds", "12",
                           "--settle", "0", "--chromium", str(chromium)],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    row = done.stdout.strip().splitlines()[-1].strip("|").split("|")
    users, clicks, failed, browser_ms = int(row[0]), int(row[1]), int(row[5]), float(row[-1])
    assert users == 5 and clicks >= 10 and failed == 0, done.stdout + done.stderr[-2000:]
    assert browser_ms > 0, "the browsers it started (its own process tree) were not found"
