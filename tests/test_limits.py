"""Caps per minute: one learner cannot flood the server, nor a class together; refusals say how long
to wait; the Practice page, the Lab page and uploads obey them."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from server.limits import Caps, LimitReached, RateLimit
from server.settings import settings
from ui.practice import source
from ui.widgets import limits

ROOT = Path(__file__).resolve().parents[1]


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_one_session_is_capped_and_others_are_not_held_up_by_it() -> None:
    clock = Clock()
    cap = RateLimit("exercises", per_session=3, in_all=100, clock=clock)
    for _ in range(3):
        cap.take("a")
    with pytest.raises(LimitReached, match="3 exercises a minute is the most one person may ask for: "
                                           "wait 60 s"):
        cap.take("a")
    cap.take("b")  # another learner still gets items
    assert (cap.used("a"), cap.used("b"), cap.used()) == (3, 1, 4)


def test_the_class_together_is_capped() -> None:
    clock = Clock()
    cap = RateLimit("runs started", per_session=5, in_all=4, clock=clock)
    for session in "abcd":
        cap.take(session)
        clock.now += 10
    with pytest.raises(LimitReached, match="most everyone together may ask for: wait 20 s"):
        cap.take("e")


def test_the_window_slides_and_a_refusal_counts_nothing() -> None:
    clock = Clock()
    cap = RateLimit("exercises", per_session=2, in_all=10, clock=clock)
    cap.take("a")
    clock.now = 30
    cap.take("a")
    with pytest.raises(LimitReached, match="wait 30 s"):
        cap.take("a")
    assert cap.used("a") == 2
    clock.now = 60.5  # the first has left the window, the second not yet
    cap.take("a")
    with pytest.raises(LimitReached):
        cap.take("a")


def test_an_amount_larger_than_the_cap_is_refused_outright() -> None:
    cap = RateLimit("of uploads", per_session=50e6, in_all=500e6, unit=lambda n: f"{n / 1e6:g} MB")
    with pytest.raises(LimitReached, match="50 MB of uploads a minute is the most one person may ask for, "
                                           "and this alone is 60 MB"):
        cap.take("a", 60e6)
    cap.take("a", 30e6)
    with pytest.raises(LimitReached, match="wait"):
        cap.take("a", 30e6)


def test_many_threads_at_once_never_pass_the_cap() -> None:
    cap = RateLimit("exercises", per_session=1_000, in_all=250)
    granted: list[int] = []
    start = threading.Barrier(8)

    def ask(n: int) -> None:
        start.wait()
        for _ in range(100):
            try:
                cap.take(f"tab-{n}")
                granted.append(1)
            except LimitReached:
                pass

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(granted) == 250 == cap.used()


def test_caps_are_set_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PARSING_LIMIT_EXERCISES")
    assert settings().caps("exercises") == Caps(120, 2000)
    monkeypatch.setenv("PARSING_LIMIT_EXERCISES", "60/1000")
    assert settings().caps("exercises") == Caps(60, 1000)
    monkeypatch.setenv("PARSING_LIMIT_EXERCISES", "lots")
    with pytest.raises(Exception, match="PARSING_LIMIT_EXERCISES='lots'"):
        settings()


@pytest.fixture
def fresh_caps() -> Iterator[None]:
    """Caps made afresh from this test's environment, and forgotten after it."""
    limits.limit.clear()
    source.drawn_spec.clear()
    yield
    limits.limit.clear()


def test_practice_says_to_wait_when_one_learner_draws_too_many_items(
        fresh_caps: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PARSING_DATABASE_URL", f"sqlite:///{tmp_path / 'progress.sqlite3'}")
    monkeypatch.setenv("PARSING_LIMIT_EXERCISES", "3/100")
    at = AppTest.from_file(str(ROOT / "pages" / "practice.py"), default_timeout=60).run()
    assert not at.exception
    for _ in range(2):  # items 2 and 3
        at.button(key="practice.another").click().run()
        assert not at.exception
        assert not any("No new item just now" in w.value for w in at.warning)
    at.button(key="practice.another").click().run()
    assert not at.exception
    assert any("No new item just now" in w.value and "3 exercises a minute" in w.value for w in at.warning)


UPLOADS = """
from types import SimpleNamespace
import streamlit as st
from ui.widgets import limits
for file_id, size in [("a", 30e6), ("a", 30e6), ("b", 30e6), ("c", 10e6)]:
    st.write(f"{file_id}: {limits.upload_refused(SimpleNamespace(file_id=file_id, size=size))}")
"""


def test_an_upload_counts_once_and_the_bytes_per_minute_are_capped(
        fresh_caps: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PARSING_LIMIT_UPLOAD")  # the default caps: 50 MB a minute per person
    at = AppTest.from_string(UPLOADS).run()
    assert not at.exception
    lines = [m.value for m in at.markdown]
    assert lines[:2] == ["a: None", "a: None"]  # the same file read again at a rerun is not counted again
    assert lines[2].startswith("b: The upload is refused: 50 MB of uploads a minute is the most one person")
    assert lines[3] == "c: None"
    assert limits.limit("upload").used() == 40e6


def test_the_lab_refuses_a_start_over_the_cap(fresh_caps: None, monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    from tests.test_lab_experiments import tiny_treebank

    monkeypatch.setenv("PARSING_JOBS_DIR", str(tmp_path / "jobs"))
    monkeypatch.setenv("PARSING_DATA_DIR", str(tiny_treebank(tmp_path / "data")))
    monkeypatch.setenv("PARSING_LIMIT_JOBS", "0/20")
    at = AppTest.from_file(str(ROOT / "pages" / "lab.py"), default_timeout=60).run()
    at.button(key="lab.start").click().run()
    assert not at.exception
    assert any("0 runs started a minute is the most one person may ask for" in w.value for w in at.warning)
    assert not (tmp_path / "jobs" / "lab").exists() or not any((tmp_path / "jobs" / "lab").iterdir())
