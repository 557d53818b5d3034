"""Shared test setup: where the treebanks are.

Tests read UD treebanks from ``PARSING_DATA_DIR``; when it is not set we use the CI layout,
a ``shared/data/ud`` folder beside the repository.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
os.environ.setdefault("PARSING_DATA_DIR", str(REPO.parent / "shared" / "data" / "ud"))


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The directory of .conllu files the tests read."""
    return Path(os.environ["PARSING_DATA_DIR"])
