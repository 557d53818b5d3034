"""A class of five in real browsers on one server, briefly: every session clicks through and none
fails (the full measurement, 5 to 20 students, is ``python -m benchmarks.load``)."""

from __future__ import annotations

import pytest

from benchmarks.load import run
from tests.browser.conftest import require_chromium

pytestmark = pytest.mark.browser


def test_five_students_click_through_without_a_failure() -> None:
    require_chromium()
    [row] = run([5], seconds=12, settle=2)
    assert row.failed == 0 and row.clicks >= 10
    assert row.p95 < 30  # seconds: every click got its new drawing
