"""A training job starts in its own process, reports through its log, stops and cleans up."""

from __future__ import annotations

import time

import pytest

from parsing_core.jobs import JobBoard, JobError, TrainingJob

TINY = ["--synthetic", "40", "--epochs", "50", "--lstm-dim", "16", "--word-dim", "16", "--mlp-dim", "16"]


def wait_for(condition, seconds: float = 60) -> None:
    deadline = time.time() + seconds
    while not condition():
        assert time.time() < deadline, "timed out"
        time.sleep(0.2)


def test_a_job_starts_reports_stops_and_cleans_up(tmp_path):
    board = JobBoard(tmp_path, limit=1)
    job = board.start("tiny", TINY)
    assert job.status() == "running"
    wait_for(lambda: any(r["event"] == "epoch" for r in job.reports()))
    assert job.reports()[0]["event"] == "start" and "device" in job.reports()[0]
    with pytest.raises(JobError, match="already going"):
        board.start("second", TINY)
    again = TrainingJob(job.folder)  # as found after a browser refresh
    assert again.status() == "running"
    job.stop()
    assert job.status() == "stopped" and job.process.poll() is not None
    assert board.running() == []
    job.remove()
    assert not job.folder.exists()


def test_a_finished_job_leaves_its_checkpoint(tmp_path):
    job = JobBoard(tmp_path).start("short", [*TINY[:2], "--epochs", "1", *TINY[4:]])
    wait_for(lambda: job.status() != "running")
    assert job.status() == "finished" and job.checkpoint.exists()
    assert job.reports()[-1]["event"] == "test"
    assert TrainingJob(job.folder).status() == "finished"


def test_a_failed_job_says_why(tmp_path):
    job = JobBoard(tmp_path).start("bad", ["--system", "no-such-system"])
    wait_for(lambda: job.status() != "running")
    assert job.status() == "failed"
    assert "no-such-system" in job.failure()
