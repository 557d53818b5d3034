"""Training runs as background jobs: their own process, watched through their metrics log.

A page must not train inside its own script thread (a rerun would stop it, a refresh would
lose it).  A :class:`TrainingJob` starts ``python -m parsing_core.train`` in a new process
with a folder of its own, where the trainer writes its JSON-lines log (``log.jsonl``: one
``start`` line, one line per batch and per epoch, a ``test`` line at the end), its
checkpoint (``model.pt``) and what it printed (``stderr.txt``).  Anyone holding the folder can
follow the run, so a job survives a browser refresh; :class:`JobBoard` caps how many run at
once.

>>> import tempfile
>>> board = JobBoard(root=Path(tempfile.mkdtemp()), limit=2)
>>> board.running()
[]
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import ParsingCoreError

Report = dict[str, Any]


class JobError(ParsingCoreError):
    """A training job could not be started (for instance: too many running)."""


@dataclass
class TrainingJob:
    """One training process and its folder."""

    folder: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def log(self) -> Path:
        return self.folder / "log.jsonl"

    @property
    def checkpoint(self) -> Path:
        return self.folder / "model.pt"

    @classmethod
    def start(cls, folder: Path, arguments: list[str]) -> TrainingJob:
        """Start ``python -m parsing_core.train <arguments>`` writing into ``folder``."""
        folder.mkdir(parents=True, exist_ok=True)
        command = [sys.executable, "-m", "parsing_core.train", *arguments,
                   "--log", str(folder / "log.jsonl"), "--out", str(folder / "model.pt")]
        (folder / "command.json").write_text(json.dumps(command))
        with open(folder / "stderr.txt", "wb") as err:
            process = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL,
                cwd=Path(__file__).resolve().parents[1], start_new_session=True,
            )
        (folder / "pid").write_text(str(process.pid))
        return cls(folder, process)

    def reports(self) -> list[Report]:
        """Every complete line of the metrics log so far."""
        if not self.log.exists():
            return []
        lines = self.log.read_text().splitlines()
        out = []
        for line in lines:
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                break  # a line still being written
        return out

    def status(self) -> str:
        """"running", "finished", "stopped" or "failed"."""
        if (self.folder / "stopped").exists():
            return "stopped"
        code = self.process.poll() if self.process else self._exit_code_from_pid()
        if code is None:
            return "running"
        return "finished" if code == 0 else "failed"

    def failure(self) -> str:
        """The last lines the process printed, to say why it failed."""
        text = (self.folder / "stderr.txt").read_text(errors="replace") if self.folder.exists() else ""
        return "\n".join(text.strip().splitlines()[-5:])

    def stop(self, timeout: float = 10) -> None:
        """Stop the process (and its children) and mark the job stopped."""
        (self.folder / "stopped").touch()
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def remove(self) -> None:
        """Stop if needed and delete the job's folder."""
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _exit_code_from_pid(self) -> int | None:
        """For a job found on disk (after a refresh): None while its process is alive.

        A process this one started but no longer holds (the page that started it reran) is
        reaped here; otherwise it would linger as a zombie and look alive for ever.
        """
        exit_file = self.folder / "exitcode"
        if exit_file.exists():
            return int(exit_file.read_text() or 1)
        try:
            pid = int((self.folder / "pid").read_text())
        except (OSError, ValueError):
            return self._code_from_files()
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:  # not our child: ask whether it is alive
            try:
                os.kill(pid, 0)
            except OSError:
                return self._code_from_files()
            return None
        if done == 0:
            return None
        code = os.waitstatus_to_exitcode(status)
        exit_file.write_text(str(code))
        return code

    def _code_from_files(self) -> int:
        finished = self.checkpoint.exists() or any(r.get("event") == "test" for r in self.reports())
        return 0 if finished else 1


@dataclass
class JobBoard:
    """The jobs under one folder, at most ``limit`` running at once."""

    root: Path
    limit: int = 2

    def jobs(self) -> list[TrainingJob]:
        if not self.root.exists():
            return []
        return [TrainingJob(p) for p in sorted(self.root.iterdir()) if (p / "command.json").exists()]

    def running(self) -> list[TrainingJob]:
        return [j for j in self.jobs() if j.status() == "running"]

    def start(self, name: str, arguments: list[str]) -> TrainingJob:
        if len(self.running()) >= self.limit:
            raise JobError(f"{self.limit} training runs are already going; wait for one to end or stop one")
        folder = self.root / f"{time.strftime('%Y%m%d-%H%M%S')}-{name}"
        return TrainingJob.start(folder, arguments)
