"""A training job starts in its own process, reports through its log, stops and cleans up."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from parsing_core.checkpoint import load_checkpoint
from parsing_core.settings import SettingError
from server.jobs import JobBoard, JobError, TrainingJob, ray_backend
from server.jobs.priority import give_way, group_nice_of, nice_of
from server.jobs.ray_backend import RayBackend, submission_of
from server.settings import Settings
from tests.conftest import parent_of

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
    TrainingJob(job.folder).stop()  # Stop clicked as it ended: it stays finished
    assert job.status() == "finished"


def test_a_failed_job_says_why(tmp_path):
    job = JobBoard(tmp_path).start("bad", ["--system", "no-such-system"])
    wait_for(lambda: job.status() != "running")
    assert job.status() == "failed"
    assert "no-such-system" in job.failure()


def proc_state(pid: int) -> str | None:
    """The process's state letter in /proc (``Z``: a zombie), None once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return None


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process states in /proc")
def test_a_finished_job_is_reaped_though_nobody_asks_its_status(tmp_path):
    job = JobBoard(tmp_path).start("short", [*TINY[:2], "--epochs", "1", *TINY[4:]])
    pid = job.process.pid
    wait_for(lambda: (job.folder / "exitcode").exists())  # written by the thread that waits on it
    wait_for(lambda: proc_state(pid) is None, 5)  # no <defunct> left behind
    assert (job.folder / "exitcode").read_text() == "0"
    assert TrainingJob(job.folder).status() == "finished"


def test_a_job_found_on_disk_is_stopped_for_real_and_keeps_its_best_epoch(tmp_path, waiting_standby):
    """As after a browser refresh: the page holds only the folder, not the process (a job forked
    by the standby is known as the job's process by the job's files it holds open)."""
    first = waiting_standby.waiting_pid if waiting_standby else None
    job = JobBoard(tmp_path).start("tiny", TINY)
    assert first is None or parent_of(job.process.pid) == first
    wait_for(lambda: sum(r["event"] == "epoch" for r in job.reports()) >= 2)
    found = TrainingJob(job.folder)
    assert found.process is None and found.status() == "running"
    found.stop()
    wait_for(lambda: proc_state(job.process.pid) is None, 5)
    assert found.status() == "stopped" and job.process.returncode == 0, job.failure()
    epochs = [r for r in found.reports() if r["event"] == "epoch"]
    assert 2 <= len(epochs) < 50
    checkpoint = load_checkpoint(found.checkpoint)
    best = max(epochs, key=lambda r: r["dev_uas"])["epoch"]  # the first epoch of the best dev UAS
    assert checkpoint.info["stopped"] is True and checkpoint.info["best_epoch"] == best
    assert checkpoint.info["epochs_done"] == len(epochs) and "test_uas" in checkpoint.info


def test_a_job_stopped_before_its_first_epoch_saves_no_model(tmp_path):
    job = JobBoard(tmp_path).start("early", ["--synthetic", "3000", *TINY[2:]])
    wait_for(lambda: any(r["event"] == "batch" for r in job.reports()))
    TrainingJob(job.folder).stop()
    assert job.process.returncode == 0 and not job.checkpoint.exists()
    assert "no model to save" in (job.folder / "stderr.txt").read_text()


def test_two_runs_of_one_name_in_one_second_get_two_folders(tmp_path):
    board = JobBoard(tmp_path)
    assert board.new_folder("same") != board.new_folder("same")
    assert board.free() == 2


# -- a Ray job's status, from what the cluster says (a cluster of two CPUs, faked) ----------------
class FakeCluster:
    """What Ray's Jobs client answers: the jobs it was given (``JobDetails``-like) and its nodes."""

    def __init__(self, cpus: float) -> None:
        self.jobs: dict[str, SimpleNamespace] = {}
        self.nodes = [{"state": "ALIVE", "resources_total": {"CPU": cpus}}]

    def submit_job(self, submission_id: str, metadata: dict[str, str], **_: object) -> None:
        self.jobs[submission_id] = SimpleNamespace(submission_id=submission_id, status="PENDING",
                                                   start_time=len(self.jobs), metadata=metadata)

    def list_jobs(self) -> list[SimpleNamespace]:
        return list(self.jobs.values())

    def _do_request(self, method: str, endpoint: str) -> SimpleNamespace:
        assert (method, endpoint) == ("GET", "/api/v0/nodes?detail=1")
        answer = {"data": {"result": {"result": self.nodes}}}
        return SimpleNamespace(status_code=200, json=lambda: answer)


def test_a_ray_job_the_cluster_has_room_for_is_starting_not_queued(tmp_path, monkeypatch):
    monkeypatch.setattr(ray_backend, "FRESH_S", 0.0)
    backend, cluster = RayBackend("http://127.0.0.1:9"), FakeCluster(cpus=2)
    backend._client = cluster
    monkeypatch.setitem(ray_backend._BACKENDS, backend.address, backend)  # the one a job's folder names
    jobs = [TrainingJob.start(tmp_path / name, TINY, backend=backend) for name in ("a", "b", "c", "d")]
    assert set(cluster.jobs) == {submission_of(j.folder) for j in jobs}  # Ray says PENDING to all four
    # Two fit in the two CPUs: Ray is starting them, and the page says "starting…", not "queued".
    assert [j.status() for j in jobs] == ["running", "running", "queued", "queued"]
    assert [j.ahead() for j in jobs] == [None, None, 0, 1]
    cluster.jobs[submission_of(jobs[0].folder)].status = "RUNNING"
    assert [j.status() for j in jobs] == ["running", "running", "queued", "queued"]
    (jobs[2].folder / "stopped").touch()  # a queued job withdrawn: the next takes its place
    assert jobs[3].ahead() == 0
    cluster.nodes = [{"state": "ALIVE", "resources_total": {"CPU": 4.0}}]  # a node joins
    monkeypatch.setattr(ray_backend, "CAPACITY_FRESH_S", 0.0)
    assert jobs[3].status() == "running" and jobs[3].ahead() is None


def niceness(pid: int) -> set[int]:
    """The nice values of every thread of process ``pid``."""
    return {nice_of(int(task)) if task == str(pid) else
            int(Path(f"/proc/{pid}/task/{task}/stat").read_text().rpartition(")")[2].split()[16])
            for task in os.listdir(f"/proc/{pid}/task")}


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads priorities in /proc")
def test_a_local_run_gives_way_to_the_app(tmp_path, waiting_standby, monkeypatch):
    """A run goes at nice 10 (the default), every thread of it, and so does its session's
    scheduling group where the kernel groups sessions (else the run, leading a session of its
    own, would weigh as much as the whole app server): on a busy machine the pages come first."""
    monkeypatch.delenv("PARSING_JOB_NICE")  # the default, which the suite sets to 0 (tests/conftest.py)
    mine = nice_of(os.getpid())
    job = JobBoard(tmp_path).start("tiny", TINY)
    try:
        wait_for(lambda: any(r["event"] == "batch" for r in job.reports()))  # its threads are made
        assert niceness(job.process.pid) == {max(10, mine)}
        if group_nice_of(os.getpid()) is not None:
            assert group_nice_of(job.process.pid) == 10
            assert group_nice_of(os.getpid()) != 10 or mine == 10  # the app's own group is left alone
    finally:
        job.stop()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads priorities in /proc")
def test_give_way_lowers_every_thread_and_zero_changes_nothing():
    code = "import threading, time; threading.Thread(target=time.sleep, args=(30,)).start(); time.sleep(30)"
    sleeper = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
    try:
        wait_for(lambda: len(os.listdir(f"/proc/{sleeper.pid}/task")) == 2, 10)
        mine = nice_of(os.getpid())
        give_way(sleeper.pid, 0)
        assert niceness(sleeper.pid) == {mine}
        give_way(sleeper.pid, 15)
        assert niceness(sleeper.pid) == {max(15, mine)}
        assert group_nice_of(sleeper.pid) in (None, 15)
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_nice_value_out_of_range_is_refused():
    assert Settings.from_environ({"PARSING_JOB_NICE": "19"}).job_nice == 19
    for bad in ("20", "-5", "ten"):
        with pytest.raises(SettingError, match="PARSING_JOB_NICE.*0 \\(no change\\) to 19"):
            Settings.from_environ({"PARSING_JOB_NICE": bad})
