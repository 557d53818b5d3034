"""The standby job process (server/jobs/standby.py): a job handed to it is forked from it and runs
as the same command would, in the environment of the moment it was started, with its output in
its folder, its exit status recorded (a signal's too) and its process recognised as the job's;
one standby forks job after job, side by side; a job that outlives its standby is judged by its
folder."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.jobs import local, process_alive, standby
from server.jobs.status import JobProcess
from tests.conftest import parent_of


def wait_for(condition, seconds: float = 90) -> None:  # type: ignore[no-untyped-def]
    deadline = time.time() + seconds
    while not condition():
        assert time.time() < deadline, "timed out"
        time.sleep(0.05)


@pytest.fixture
def standby_on(monkeypatch: pytest.MonkeyPatch) -> standby.Standby:
    """The standby of this process (each test worker has one), ready."""
    monkeypatch.setenv(standby.STANDBY_ENV, "1")
    assert local.STANDBY.ready(90), "the standby did not get ready"
    return local.STANDBY


@pytest.fixture
def own_standby(monkeypatch: pytest.MonkeyPatch) -> Iterator[standby.Standby]:
    """A standby of the test's own, ready (for a test that ends it)."""
    monkeypatch.setenv(standby.STANDBY_ENV, "1")
    waiting = standby.Standby(local.ROOT)
    monkeypatch.setattr(local, "STANDBY", waiting)
    assert waiting.ready(90), "the standby did not get ready"
    yield waiting
    waiting.close()


def probe(folder: Path, go: bool = False) -> tuple[JobProcess, Path]:
    """Start the probe job in ``folder`` (told at once to end, with ``go``); its process and
    where it writes what it saw."""
    folder.mkdir(exist_ok=True)
    out = folder / "probe.json"
    if go:
        out.with_suffix(".go").touch()
    return local.LOCAL.launch(folder, [sys.executable, "-m", "tests.standby_probe", str(out)]), out


def test_jobs_are_forked_by_the_standby_side_by_side_and_run_as_their_commands_would(
        standby_on: standby.Standby, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    waiting = standby_on.waiting_pid
    monkeypatch.setenv("PARSING_PROBE", "set after the standby started")
    (first, out), (second, out2) = probe(tmp_path / "a"), probe(tmp_path / "b")
    assert isinstance(first, standby.ForkedJob) and isinstance(second, standby.ForkedJob)
    assert parent_of(first.pid) == parent_of(second.pid) == waiting != first.pid != second.pid
    assert standby_on.waiting_pid == waiting  # still there, for the next job
    wait_for(lambda: out.exists() and out2.exists())
    assert Path(f"/proc/{first.pid}/comm").read_text().strip() == "parsing-job"  # as top names it
    seen = json.loads(out.read_text())
    assert seen["pid"] == first.pid and seen["argv"][1:] == [str(out)]
    assert seen["argv"][0].endswith("standby_probe.py")
    assert seen["probe"] == "set after the standby started"
    assert seen["torch_imported_before"]  # its imports were made while it waited
    folder = str(tmp_path / "a")
    assert process_alive(first.pid, folder)  # recognised as the job's process by its files
    assert local.exit_code(tmp_path / "a") is None and first.poll() is None
    out.with_suffix(".go").touch()
    wait_for(lambda: local.exit_code(tmp_path / "a") is not None)
    assert local.exit_code(tmp_path / "a") == 3 and first.returncode == 3
    assert (tmp_path / "a" / "stderr.txt").read_text() == "the probe ran\n"
    assert not process_alive(first.pid, folder) and not Path(f"/proc/{first.pid}").exists()  # reaped
    assert second.poll() is None  # the other one goes on
    out2.with_suffix(".go").touch()
    assert second.wait(30) == 3


def test_a_killed_job_reports_the_signal(standby_on: standby.Standby, tmp_path: Path) -> None:
    job, out = probe(tmp_path)
    wait_for(out.exists)
    os.killpg(job.pid, signal.SIGKILL)  # the job leads its own process group
    assert job.wait(30) == -signal.SIGKILL
    wait_for(lambda: local.exit_code(tmp_path) is not None)
    assert local.exit_code(tmp_path) == -signal.SIGKILL and standby_on.waiting_pid is not None


def test_a_job_that_outlives_its_standby_is_judged_by_its_folder(own_standby: standby.Standby,
                                                                 tmp_path: Path) -> None:
    job, out = probe(tmp_path)
    wait_for(out.exists)
    own_standby.close()
    assert job.poll() is None and process_alive(job.pid, str(tmp_path))  # it goes on
    assert own_standby.ready(90)  # a new standby, which did not fork it, cannot say how it ends
    out.with_suffix(".go").touch()
    assert job.wait(30) is None  # its status went with its standby
    wait_for(lambda: local.exit_code(tmp_path) is not None)
    assert local.exit_code(tmp_path) == 1  # no model, no test line: failed, as after a server restart


def test_with_standbys_off_every_job_starts_a_process_of_its_own(
        standby_on: standby.Standby, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(standby.STANDBY_ENV, "0")
    process, out = probe(tmp_path, go=True)
    wait_for(lambda: local.exit_code(tmp_path) is not None)
    assert not isinstance(process, standby.ForkedJob)
    assert local.exit_code(tmp_path) == 3 and json.loads(out.read_text())["pid"] == process.pid


def test_only_python_module_commands_are_handed_to_a_standby() -> None:
    assert standby.can_become([sys.executable, "-m", "parsing_core.train", "--epochs", "1"])
    assert not standby.can_become(["/bin/echo", "-m", "x"])
    assert not standby.can_become([sys.executable, "script.py"])
