"""``ruff check`` and ``mypy`` are part of the test command, so CI enforces them.

Both read their settings from pyproject.toml: ruff's rules and 110-column lines, mypy's files
(``parsing_core`` strictly; ``ui``, ``pages``, ``app.py`` and ``benchmarks`` normally).  mypy keeps
its cache in the system's temporary folder, so a second run takes a second or two.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MYPY_CACHE = Path(tempfile.gettempdir()) / "parsing-lab-mypy-cache"


def run_tool(*args: str) -> None:
    done = subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    if done.returncode != 0:
        pytest.fail(f"{' '.join(args)} failed:\n{done.stdout}{done.stderr}", pytrace=False)


def test_ruff_check():
    run_tool("ruff", "check", "--no-cache", ".")


def test_mypy():
    run_tool("mypy", "--cache-dir", str(MYPY_CACHE))
