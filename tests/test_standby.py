"""The standby job process (server/jobs/standby.py): a job handed to it runs as the same
command would, in the environment of the moment it was started, with its output in its folder,
its exit status recorded and its process recognised as the job's; the next standby is started."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.jobs import local, process_alive, standby


def wait_for(condition, seconds: float = 90) -> None:  # type: ignore[no-untyped-def]
    deadline = time.time() + seconds
    while not condition():
        assert time.time() < deadline, "timed out"
        time.sleep(0.05)


@pytest.fixture
def standby_on(monkeypatch: pytest.MonkeyPatch) -> Iterator[standby.Standby]:
    monkeypatch.setenv(standby.STANDBY_ENV, "1")
    waiting = standby.Standby(local.ROOT, next_after=0.5)
    monkeypatch.setattr(local, "STANDBY", waiting)
    yield waiting
    waiting.close()


def test_a_job_becomes_the_waiting_standby_and_runs_as_its_command_would(
        standby_on: standby.Standby, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    standby_on.ensure()
    waiting = standby_on.waiting_pid
    assert waiting is not None
    time.sleep(0.5)
    monkeypatch.setenv("PARSING_PROBE", "set after the standby started")
    out = tmp_path / "probe.json"
    process = local.LOCAL.launch(tmp_path, [sys.executable, "-m", "tests.standby_probe", str(out)])
    assert process.pid == waiting and standby_on.waiting_pid is None
    wait_for(lambda: standby_on.waiting_pid is not None)  # the next one, half a second later
    assert standby_on.waiting_pid != waiting
    wait_for(out.exists)
    seen = json.loads(out.read_text())
    assert seen["pid"] == waiting and seen["argv"][1:] == [str(out)]
    assert seen["argv"][0].endswith("standby_probe.py")
    assert seen["probe"] == "set after the standby started"
    assert seen["torch_imported_before"]  # its imports were made while it waited
    assert process_alive(waiting, str(tmp_path))  # recognised as the job's process by its files
    assert local.exit_code(tmp_path) is None
    out.with_suffix(".go").touch()
    wait_for(lambda: local.exit_code(tmp_path) is not None)
    assert local.exit_code(tmp_path) == 3
    assert (tmp_path / "stderr.txt").read_text() == "the probe ran\n"
    assert not process_alive(waiting, str(tmp_path))


def test_with_standbys_off_every_job_starts_a_process_of_its_own(
        standby_on: standby.Standby, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(standby.STANDBY_ENV, "0")
    standby_on.ensure()
    assert standby_on.waiting_pid is None
    out = tmp_path / "probe.json"
    (tmp_path / "probe.go").touch()
    process = local.LOCAL.launch(tmp_path, [sys.executable, "-m", "tests.standby_probe", str(out)])
    wait_for(lambda: local.exit_code(tmp_path) is not None)
    assert local.exit_code(tmp_path) == 3 and json.loads(out.read_text())["pid"] == process.pid
    assert standby_on.waiting_pid is None


def test_only_python_module_commands_are_handed_to_a_standby() -> None:
    assert standby.can_become([sys.executable, "-m", "parsing_core.train", "--epochs", "1"])
    assert not standby.can_become(["/bin/echo", "-m", "x"])
    assert not standby.can_become([sys.executable, "script.py"])
