"""The Train page starts a run in its own process, shows it, and stops it."""

from __future__ import annotations

import time

from streamlit.testing.v1 import AppTest

from parsing_core.jobs import TrainingJob


def test_start_watch_and_stop_a_run(tmp_path, monkeypatch):
    monkeypatch.setenv("PARSING_JOBS_DIR", str(tmp_path))
    at = AppTest.from_file("../pages/train.py", default_timeout=60).run()
    assert not at.exception
    at.selectbox(key="train.size").set_value("tiny")
    at.number_input(key="train.epochs").set_value(30)
    at.button(key="train.start").click().run()
    assert not at.exception
    folders = [p for p in tmp_path.iterdir() if p.is_dir()]
    assert len(folders) == 1
    job = TrainingJob(folders[0])
    assert job.status() == "running"
    deadline = time.time() + 60
    while not any(r["event"] == "epoch" for r in job.reports()):
        assert time.time() < deadline
        time.sleep(0.3)
    at.run()
    assert any("epoch" in p.text for p in at.get("progress")) or at.get("plotly_chart")
    at.button(key="train.stop").click().run()
    assert job.status() == "stopped"
    assert not at.exception
