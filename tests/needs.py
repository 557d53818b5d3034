"""What a test needs from the machine (Chromium, nginx, PostgreSQL, Ray): skipped on a workstation
without it, a failure in CI (``CI=true``), where the README's test command installs it all."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def unavailable(reason: str) -> NoReturn:
    """Skip the test for ``reason``, or fail it under ``CI=true``."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must run this test, but {reason}")
    pytest.skip(reason)
