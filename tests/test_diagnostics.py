"""The memory log a load benchmark reads: off unless asked, then a line a second with the server's
resident set, Python heap and sessions."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ui import diagnostics

SCRIPT = """
from ui.diagnostics import watch_memory
watch_memory()
"""


def memory_logs() -> int:
    """How many memory-log threads run (one a test that asked for it started lives on: a daemon)."""
    return sum(t.name == "memory-log" for t in threading.enumerate())


def test_nothing_is_written_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(diagnostics.VARIABLE, raising=False)
    diagnostics.memory_log.clear()
    before = memory_logs()
    AppTest.from_string(SCRIPT).run()
    assert memory_logs() == before


def test_a_line_a_second_once_asked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    log = tmp_path / "memory.jsonl"
    monkeypatch.setenv(diagnostics.VARIABLE, str(log))
    diagnostics.memory_log.clear()
    AppTest.from_string(SCRIPT).run()
    AppTest.from_string(SCRIPT).run()  # a second run starts no second thread
    time.sleep(2.5)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert 2 <= len(lines) <= 4
    first = lines[0]
    assert set(first) == {"t", "rss_mb", "heap_blocks", "sessions", "connected"}
    assert first["rss_mb"] > 10 and first["heap_blocks"] > 10_000
    assert lines[-1]["t"] - first["t"] >= 0.9
