"""One job and its folder: the spec it was given, the records it wrote, how it is going.

A job's folder holds its spec (``spec.json``), its kind, its owner (who started it, when the
starter says), the command it runs (``command.json``), its JSON-lines metrics log
(``log.jsonl``), its checkpoint (``model.pt``) and what it printed (``stderr.txt``); the
backend it went to adds what it needs to follow it (:mod:`.local`: ``pid``, ``exitcode``;
:mod:`.ray_backend`: ``ray.json``).  A :class:`TrainingJob` is nothing but that folder, so
a page that holds only the folder's name (after a refresh, in another app process) follows
the job as well as the one that started it.
"""

from __future__ import annotations

import json
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parsing_core.errors import ParsingCoreError

from .backend import backend_of
from .kinds import TRAIN, JobError, JobKind, Report, Spec, get_kind, kind_of_spec
from .local import LOCAL, read_pid
from .log import GrowingLogs, parse_log
from .status import Backend, JobProcess


def _prepare(folder: Path, spec: Spec | list[str], kind: JobKind, owner: str | None,
             command: list[str]) -> None:
    """A job's folder with its spec, kind, owner and command, before its process starts."""
    folder.mkdir(parents=True, exist_ok=True)
    if not isinstance(spec, list):
        (folder / "spec.json").write_text(json.dumps(spec.to_json(), indent=2) + "\n", encoding="utf-8")
    (folder / "kind").write_text(kind.name)
    if owner is not None:
        (folder / "owner").write_text(owner)
    (folder / "command.json").write_text(json.dumps(command))


def command_of(folder: Path, spec: Spec | list[str], kind: JobKind) -> list[str]:
    """``python -m <kind's module> <spec or flags> --log <folder>/log.jsonl --out <folder>/model.pt``."""
    arguments = list(spec) if isinstance(spec, list) else ["--spec", str(folder / "spec.json")]
    return [sys.executable, "-m", kind.module, *arguments,
            "--log", str(folder / "log.jsonl"), "--out", str(folder / "model.pt")]


#: What a line that is JSON but no record of the job's kind raises when read as one.
UNREADABLE = (ParsingCoreError, TypeError, KeyError, ValueError)
#: The logs this process read last, and their records (a page reads a going run's log every second).
READ_LOGS = GrowingLogs()


@dataclass
class TrainingJob:
    """One job's folder (and, in the process that started it locally, its process)."""

    folder: Path
    process: JobProcess | None = None

    @property
    def log(self) -> Path:
        return self.folder / "log.jsonl"

    @property
    def checkpoint(self) -> Path:
        return self.folder / "model.pt"

    @property
    def spec_file(self) -> Path:
        return self.folder / "spec.json"

    @property
    def kind(self) -> JobKind:
        """The job's kind (``train`` for a folder from before kinds were written down)."""
        file = self.folder / "kind"
        return get_kind(file.read_text().strip() if file.exists() else TRAIN.name)

    @property
    def backend(self) -> Backend:
        """Where the job runs, as its folder says (see :func:`.backend.backend_of`)."""
        return backend_of(self.folder)

    @classmethod
    def start(cls, folder: Path, spec: Spec | list[str], kind: JobKind | None = None,
              owner: str | None = None, backend: Backend | None = None) -> TrainingJob:
        """Start the kind's module on ``spec`` (written to ``spec.json``), writing into ``folder``.

        A spec's kind is found from its class.  ``spec`` may also be command-line flags of the
        kind's module (``["--epochs", "3"]``), as typed at a terminal; the kind is then ``train``
        unless given.  ``owner`` (any string) is kept in the folder, for a page to say whose run
        it is.  ``backend``: where it runs (this machine unless given).
        """
        kind = kind or (TRAIN if isinstance(spec, list) else kind_of_spec(spec))
        command = command_of(folder, spec, kind)
        try:
            _prepare(folder, spec, kind, owner, command)
        except OSError as problem:  # a read-only or full disk: say so, and leave nothing half-written
            shutil.rmtree(folder, ignore_errors=True)
            raise JobError(f"the jobs folder {folder.parent} cannot be written "
                           f"({problem.strerror or problem}); set PARSING_JOBS_DIR to a writable folder"
                           ) from None
        try:
            process = (backend or LOCAL).launch(folder, command)
        except JobError:  # the cluster refused it: no folder of a job that never was
            shutil.rmtree(folder, ignore_errors=True)
            raise
        return cls(folder, process)

    def reports(self) -> list[Report]:
        """Every complete line of the metrics log so far; an unreadable line (garbage, or cut
        off by a crash) is skipped and counted in :meth:`skipped_lines`, and a last line still
        being written is left for the next read."""
        return parse_log(self.backend.log_text(self.folder))[0]

    def skipped_lines(self) -> int:
        """How many lines of the log could not be read (and were skipped)."""
        return parse_log(self.backend.log_text(self.folder))[1]

    def spec(self) -> Any:
        """The spec the job was started with (its kind's spec class), or None if started from flags."""
        return self.kind.read_spec(self.spec_file) if self.spec_file.exists() else None

    def events(self) -> list[Any]:
        """The log's lines as the kind's typed records (for ``train``: ``parsing_core.model.events``);
        a line that is JSON but no record of the kind is skipped (see :meth:`skipped_lines`).
        Read again, only the lines added since are parsed (:data:`READ_LOGS`)."""
        kind, text = self.kind, self.backend.log_text(self.folder)
        return READ_LOGS.records((self.folder, kind.name), text, kind.read_record, UNREADABLE)

    def owner(self) -> str | None:
        """Who started the job, as its starter said (None: not said)."""
        file = self.folder / "owner"
        return file.read_text().strip() if file.exists() else None

    def started(self) -> float:
        """When the job was started (seconds since the epoch)."""
        return (self.folder / "command.json").stat().st_mtime

    def status(self) -> str:
        """"queued" (waiting for room on a cluster), "running", "finished", "stopped" or "failed"."""
        return self.backend.status(self.folder)

    def exit_code(self) -> int | None:
        """The job's exit status; None while it has not ended."""
        return self.backend.exit_code(self.folder)

    def pid(self) -> int | None:
        """The id of the job's process, when it runs on this machine (None on a cluster)."""
        return read_pid(self.folder)

    def ahead(self) -> int | None:
        """While the job is queued, how many queued jobs were submitted before it; else None."""
        return self.backend.ahead(self.folder)

    def failure(self) -> str:
        """The last lines the job printed, to say why it failed."""
        text = self.backend.output(self.folder) if self.folder.exists() else ""
        return "\n".join(text.strip().splitlines()[-5:])

    def stop(self, timeout: float = 15) -> None:
        """Mark the job stopped and end it, from any process (not only the starter's).

        The job is asked first (a training job stops after its current batch, saves its best
        weights and exits) and ended for good after ``timeout`` seconds.  A job that has already
        ended keeps its status (a run that finished as Stop was clicked is finished, not stopped).
        """
        self.backend.stop(self.folder, timeout)

    def remove(self) -> None:
        """Stop if needed and delete the job's folder."""
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
