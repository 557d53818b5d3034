"""Faults in training runs: the page never shows a traceback and no finished work is lost.

* a run killed outright (SIGKILL) is shown failed with the end of what it printed, and the model
  of its best epoch so far, saved atomically when that epoch ended, still loads;
* a garbage or cut-off line in a metrics log is skipped and counted, the others still read;
* a loss that stops being a number stops the run itself, with a clear message, keeping the best
  epoch's model;
* a jobs folder that cannot be written gives a clear error at start and leaves nothing behind.
"""

from __future__ import annotations

import errno
import json
import math
import os
import shutil
import signal
import time
from pathlib import Path

import pytest
import torch

import parsing_core as pc
from parsing_core import train as train_cli
from parsing_core.checkpoint import load_checkpoint
from parsing_core.model import DataSpec, ModelConfig, TrainConfig, Trainer, TrainSpec
from parsing_core.model import trainer as trainer_module
from server.jobs import JobBoard, JobError, TrainingJob
from server.jobs.job import UNREADABLE
from server.jobs.kinds import TRAIN
from server.jobs.log import parse_log
from server.jobs.standby import Standby
from tests.conftest import parent_of

TINY_MODEL = ModelConfig(word_dim=16, lstm_dim=16, lstm_layers=1, mlp_dim=16)


def wait_for(condition, seconds: float = 90) -> None:  # type: ignore[no-untyped-def]
    deadline = time.time() + seconds
    while not condition():
        assert time.time() < deadline, "timed out"
        time.sleep(0.2)


def test_a_killed_run_is_failed_and_its_best_epoch_still_loads(
        tmp_path: Path, waiting_standby: Standby | None) -> None:
    first = waiting_standby.waiting_pid if waiting_standby else None
    spec = TrainSpec(DataSpec(synthetic=200), "arc-hybrid", TrainConfig(epochs=40, seed=1), TINY_MODEL)
    job = JobBoard(tmp_path).start("killed", spec)
    assert job.process is not None
    assert first is None or parent_of(job.process.pid) == first  # forked by the standby
    wait_for(lambda: job.checkpoint.exists())  # the first epoch ended and was kept
    os.killpg(os.getpgid(job.process.pid), signal.SIGKILL) if job.process else None
    wait_for(lambda: job.status() != "running")
    found = TrainingJob(job.folder)  # as a page finds it after a refresh
    assert found.status() == "failed"
    assert "training sentences" in found.failure()  # the tail of what it printed
    checkpoint = load_checkpoint(found.checkpoint)
    assert checkpoint.info["partial"] and checkpoint.info["best_epoch"] >= 1


def test_garbage_and_cut_off_log_lines_are_skipped_and_counted(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "kind").write_text("train")
    good = {"event": "test", "test_uas": 0.5, "test_las": 0.4, "test_uas_nopunct": 0.5,
            "test_las_nopunct": 0.4}
    lines = [json.dumps(good), "\x00\x00garbage{", '{"event": "lunch"}', "[1, 2]", json.dumps(good)]
    cut = '{"event": "te'  # the last line, still being written
    (folder / "log.jsonl").write_text("\n".join(lines) + "\n" + cut)
    job = TrainingJob(folder)
    assert job.reports() == [good, {"event": "lunch"}, good]
    assert job.skipped_lines() == 2
    assert [type(e).__name__ for e in job.events()] == ["TestEvent", "TestEvent"]


def test_a_log_read_as_it_grows_gives_what_reading_it_whole_gives(tmp_path: Path) -> None:
    """A page reads a going run's log every second and parses only what was added since
    (``server.jobs.log.GrowingLogs``): at every length, cut lines and garbage included, the records
    are those of the whole log read afresh; a log rewritten shorter or otherwise is read afresh."""
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "kind").write_text("train")
    test = {"event": "test", "test_uas": 0.5, "test_las": 0.4, "test_uas_nopunct": 0.5,
            "test_las_nopunct": 0.4}
    scored = [json.dumps({**test, "test_uas": i / 10}) for i in range(5)]
    junk = ["\x00garbage{", '{"event": "lunch"}', "[1, 2]"]  # not JSON; no record; not an object
    lines = [scored[0], junk[0], scored[1], junk[1], scored[2], junk[2], scored[3], scored[4]]
    text = "".join(line + "\n" for line in lines)
    job = TrainingJob(folder)
    for end in range(len(text) + 1):  # every length: a line cut anywhere, then complete
        (folder / "log.jsonl").write_text(text[:end])
        whole = [e for e in map(_as_test_event, parse_log(text[:end])[0]) if e is not None]
        assert job.events() == whole, end
    for rewritten in (text[:40] + "\n", json.dumps(test) + "\n" + text):  # shorter; a line before the rest
        (folder / "log.jsonl").write_text(rewritten)
        assert job.events() == [e for e in map(_as_test_event, parse_log(rewritten)[0]) if e is not None]


LEFT_BEHIND = [({"model.pt": b"weights"}, "finished"),
               ({"log.jsonl": b'{"event": "batch"}\n{"event": "test"}\n'}, "finished"),
               ({"log.jsonl": b'{"event": "batch", "note": "test"}\n'}, "failed"),
               ({}, "failed")]


@pytest.mark.parametrize(("left", "status"), LEFT_BEHIND)
def test_a_job_found_ended_without_its_exit_status_is_judged_by_what_it_left(
        tmp_path: Path, left: dict[str, bytes], status: str) -> None:
    """A run whose server went away while it ran has no exit status written: finished if it left a
    checkpoint or a test line, else failed (a "test" that is no test line does not count)."""
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "kind").write_text("train")
    (folder / "pid").write_text("999999999")  # no such process
    for name, content in left.items():
        (folder / name).write_bytes(content)
    assert TrainingJob(folder).status() == status


def test_an_ended_job_keeps_its_status_and_a_folder_made_again_is_judged_again(tmp_path: Path) -> None:
    """A page lists every run at every look: an ended run's status is remembered (its exit status
    or its stop, once written, never changes), but a run folder removed and made again at the same
    path is another run."""
    folder = tmp_path / "run"

    def ended(how: str) -> TrainingJob:
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        (folder / "kind").write_text("train")
        sign = "stopped" if how == "stopped" else "exitcode"
        (folder / sign).write_text("0" if how == "finished" else "1")
        return TrainingJob(folder)

    assert ended("finished").status() == "finished"
    (folder / "exitcode").write_text("1")  # never happens; were it read again, it would say "failed"
    assert TrainingJob(folder).status() == "finished"
    for how in ("failed", "stopped", "finished"):
        kept = tmp_path / "kept"  # the old folder stays on disk: the new one cannot reuse its inode
        folder.rename(kept)
        assert ended(how).status() == how
        shutil.rmtree(kept)


def _as_test_event(report: dict) -> object:
    """The record of a report as a fresh reader makes it (None where it is no record)."""
    try:
        return TRAIN.read_record(report)
    except UNREADABLE:
        return None


def test_a_loss_that_is_not_a_number_stops_the_run_and_keeps_the_best_epoch(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sentences = pc.teaching_sentences()
    real = trainer_module.supervision_loss
    calls = {"n": 0}

    def poisoned(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        move, label = real(*args, **kwargs)
        return (move * math.nan, label) if calls["n"] > 12 else (move, label)  # from the 13th batch on

    monkeypatch.setattr(trainer_module, "supervision_loss", poisoned)
    trainer = Trainer(sentences, sentences, "arc-hybrid", train_config=TrainConfig(epochs=20, batch_size=8),
                      model_config=TINY_MODEL)
    result = trainer.run()
    assert result.stopped and result.diverged and "loss became nan" in result.diverged
    assert result.best_epoch is not None and result.best_epoch < 20
    assert all(torch.isfinite(p).all() for p in trainer.parser.network.parameters())  # weights unspoilt


def test_the_command_line_says_why_a_diverged_run_stopped(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    real = trainer_module.supervision_loss
    calls = {"n": 0}

    def poisoned(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        move, label = real(*args, **kwargs)
        return (move * math.nan, label) if calls["n"] > 30 else (move, label)

    monkeypatch.setattr(trainer_module, "supervision_loss", poisoned)
    out = tmp_path / "model.pt"
    code = train_cli.main(["--synthetic", "120", "--epochs", "30", "--word-dim", "16", "--lstm-dim", "16",
                           "--lstm-layers", "1", "--mlp-dim", "16", "--out", str(out)])
    assert code == 1
    assert load_checkpoint(out).info["diverged"].startswith("the training loss became nan")


def test_an_unwritable_jobs_folder_is_a_clear_error_and_leaves_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = TrainSpec(DataSpec(synthetic=20), "arc-hybrid", TrainConfig(epochs=1), TINY_MODEL)
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    with pytest.raises(JobError, match="cannot be written"):
        JobBoard(blocked / "jobs").start("x", spec)
    real_write = Path.write_text

    def full_disk(self: Path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if self.name == "command.json":
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full_disk)
    with pytest.raises(JobError, match="No space left on device"):
        JobBoard(tmp_path / "jobs").start("x", spec)
    assert list((tmp_path / "jobs").iterdir()) == []  # nothing half-written


def test_the_train_page_shows_a_failed_run_with_its_kept_model_and_skipped_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest

    folder = tmp_path / "20260101-000000-broken"
    folder.mkdir()
    (folder / "kind").write_text("train")
    (folder / "command.json").write_text("[]")
    (folder / "exitcode").write_text("-9")
    (folder / "stderr.txt").write_text("epoch 3/30 …\nKilled\n")
    (folder / "log.jsonl").write_text("garbage\n")
    trainer = Trainer(pc.teaching_sentences(), [], "arc-hybrid", train_config=TrainConfig(epochs=1),
                      model_config=TINY_MODEL)
    trainer.run()
    from parsing_core.checkpoint import save_checkpoint
    save_checkpoint(folder / "model.pt", trainer.parser, trainer.config, {"partial": True})
    monkeypatch.setenv("PARSING_JOBS_DIR", str(tmp_path))
    at = AppTest.from_file(str(Path(__file__).resolve().parents[1] / "pages" / "train.py"),
                           default_timeout=60).run()
    assert not at.exception
    failed = " ".join(e.value for e in at.error)
    assert "failed" in failed and "Killed" in failed and "best epoch's model was kept" in failed
    assert any("1 unreadable line(s)" in c.value for c in at.caption)
