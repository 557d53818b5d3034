"""Training runs as background jobs: their own process, watched through their metrics log.

A page must not train inside its own script thread (a rerun would stop it, a refresh would
lose it).  A :class:`TrainingJob` starts a job *kind*'s module (``python -m
parsing_core.train --spec spec.json``) in a new process with a folder of its own, where the
job finds its spec (``spec.json``) and writes its JSON-lines log (``log.jsonl``: for training,
one ``start`` line, one line per batch and per epoch, a ``test`` line at the end — the
records of :mod:`parsing_core.model.events`), its checkpoint (``model.pt``) and what it
printed (``stderr.txt``).  Anyone holding the folder can follow the run, so a job survives a
browser refresh; :class:`JobBoard` caps how many run at once.

A job's life is written in its folder, so any process can read it: ``pid`` while it runs,
``exitcode`` once it has ended, ``stopped`` when someone stopped it, and ``owner`` (who started
it, when the starter says).  The process that starts a job keeps a thread waiting on it, which
writes ``exitcode`` and reaps the process at once: no job is left as a ``<defunct>`` zombie,
whether or not a page is watching.  :meth:`TrainingJob.stop` works from any process: it sends
SIGTERM to the job's process group (the trainer then stops after its current batch and keeps its
best weights) and, if the job has not ended within the timeout, SIGKILL.

Adding a kind of job (an RL oracle run, a lab experiment, ...):

1. write its spec, a dataclass with ``to_json() -> dict`` and a classmethod ``from_json(dict)``
   (like :class:`parsing_core.model.TrainSpec`);
2. write its module, runnable as ``python -m <module> --spec FILE --log FILE --out FILE``: it
   reads the spec with ``from_json``, appends one JSON object per line to ``--log`` (flushed
   at once), saves its result to ``--out``, and exits 0 when it finished;
3. give a function that turns one log line (a dict) into a typed record;
4. ``register(JobKind("name", "<module>", "<module>:<SpecClass>", "<module>:<reader>"))``
   here, next to ``train``.  ``JobBoard.start(name, spec)`` then finds the kind from the
   spec's class; the spec and the reader are imported only when needed, so this module
   stays light.

>>> import tempfile
>>> board = JobBoard(root=Path(tempfile.mkdtemp()), limit=2)
>>> board.running()
[]
>>> kind_of_spec(object())
Traceback (most recent call last):
...
parsing_core.jobs.JobError: no kind of job takes a object spec
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from .errors import ParsingCoreError

Report = dict[str, Any]


class Spec(Protocol):
    """What a job is asked to do: JSON out (and, on the class, ``from_json`` back in)."""

    def to_json(self) -> dict[str, Any]: ...


class JobError(ParsingCoreError):
    """A training job could not be started (for instance: too many running)."""


def load(path: str) -> Any:
    """The object ``"package.module:name"`` names."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class JobKind:
    """A kind of job: the module that runs it, its spec class and its log reader (``module:name``)."""

    name: str
    module: str
    spec: str
    reader: str

    def read_spec(self, path: Path) -> Any:
        return load(self.spec).from_json(json.loads(path.read_text(encoding="utf-8")))

    def read_record(self, line: Report) -> Any:
        reader: Callable[[Report], Any] = load(self.reader)
        return reader(line)


KINDS: dict[str, JobKind] = {}


def register(kind: JobKind) -> JobKind:
    KINDS[kind.name] = kind
    return kind


TRAIN = register(JobKind("train", "parsing_core.train", "parsing_core.model.config:TrainSpec",
                         "parsing_core.model.events:read_event"))
RL = register(JobKind("rl", "parsing_core.rl", "parsing_core.rl.config:RLSpec",
                      "parsing_core.rl.events:read_rl_event"))
LAB = register(JobKind("lab", "parsing_core.experiments.job", "parsing_core.experiments.lab:LabSpec",
                       "parsing_core.experiments.lab:read_lab_record"))


def get_kind(name: str) -> JobKind:
    if name not in KINDS:
        raise JobError(f"no kind of job {name!r}; choose {', '.join(KINDS)}")
    return KINDS[name]


def kind_of_spec(spec: object) -> JobKind:
    """The registered kind whose spec class ``spec`` is an instance of."""
    cls = type(spec)
    for kind in KINDS.values():
        if kind.spec == f"{cls.__module__}:{cls.__qualname__}":
            return kind
    raise JobError(f"no kind of job takes a {cls.__name__} spec")


#: The threads that wait on the jobs this process started (by folder): each reaps its process
#: as soon as it ends and writes its exit code, so none is left a zombie.
_WAITERS: dict[str, threading.Thread] = {}


def _wait_for(process: subprocess.Popen[bytes], folder: Path) -> threading.Thread:
    """Start a thread that waits for ``process`` to end, then writes its exit code to ``folder``."""
    def wait() -> None:
        code = process.wait()
        (folder / "exitcode").write_text(str(code))

    thread = threading.Thread(target=wait, name=f"wait-{folder.name}", daemon=True)
    thread.start()
    _WAITERS[str(folder)] = thread
    return thread


def process_alive(pid: int, mark: str) -> bool:
    """Is ``pid`` alive, and (where ``/proc`` tells) still a job's process, one whose command line
    holds ``mark``?  (After a reboot the number may belong to another program.)  A zombie is dead."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, but someone else's
        return True
    proc = Path(f"/proc/{pid}")
    if not proc.exists():
        return True
    try:
        state = (proc / "stat").read_text().rpartition(")")[2].split()[0]
        command = (proc / "cmdline").read_bytes()
    except (OSError, IndexError):
        return False
    return state != "Z" and mark.encode() in command


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

    @property
    def spec_file(self) -> Path:
        return self.folder / "spec.json"

    @property
    def kind(self) -> JobKind:
        """The job's kind (``train`` for a folder from before kinds were written down)."""
        file = self.folder / "kind"
        return get_kind(file.read_text().strip() if file.exists() else TRAIN.name)

    @classmethod
    def start(cls, folder: Path, spec: Spec | list[str], kind: JobKind | None = None,
              owner: str | None = None) -> TrainingJob:
        """Start the kind's module on ``spec`` (written to ``spec.json``), writing into ``folder``.

        A spec's kind is found from its class.  ``spec`` may also be command-line flags of the
        kind's module (``["--epochs", "3"]``), as typed at a terminal; the kind is then ``train``
        unless given.  ``owner`` (any string) is kept in the folder, for a page to say whose run
        it is.
        """
        if isinstance(spec, list):
            kind = kind or TRAIN
            arguments = list(spec)
        else:
            kind = kind or kind_of_spec(spec)
            arguments = ["--spec", str(folder / "spec.json")]
        command = [sys.executable, "-m", kind.module, *arguments,
                   "--log", str(folder / "log.jsonl"), "--out", str(folder / "model.pt")]
        try:
            _prepare(folder, spec, kind, owner, command)
        except OSError as problem:  # a read-only or full disk: say so, and leave nothing half-written
            shutil.rmtree(folder, ignore_errors=True)
            raise JobError(f"the jobs folder {folder.parent} cannot be written "
                           f"({problem.strerror or problem}); set PARSING_JOBS_DIR to a writable folder"
                           ) from None
        with open(folder / "stderr.txt", "wb") as err:
            process = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL,
                cwd=Path(__file__).resolve().parents[1], start_new_session=True,
            )
        (folder / "pid").write_text(str(process.pid))
        _wait_for(process, folder)
        return cls(folder, process)

    def reports(self) -> list[Report]:
        """Every complete line of the metrics log so far; an unreadable line (garbage, or cut
        off by a crash) is skipped and counted in :meth:`skipped_lines`, and a last line still
        being written is left for the next read."""
        return self._read_log()[0]

    def skipped_lines(self) -> int:
        """How many lines of the log could not be read (and were skipped)."""
        return self._read_log()[1]

    def _read_log(self) -> tuple[list[Report], int]:
        if not self.log.exists():
            return [], 0
        text = self.log.read_text(errors="replace")
        lines = text.splitlines()
        if lines and not text.endswith("\n"):
            lines = lines[:-1]  # still being written
        out, skipped = [], 0
        for line in lines:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                skipped += 1
                continue
            if isinstance(record, dict):
                out.append(record)
            else:
                skipped += 1
        return out, skipped

    def spec(self) -> Any:
        """The spec the job was started with (its kind's spec class), or None if started from flags."""
        return self.kind.read_spec(self.spec_file) if self.spec_file.exists() else None

    def events(self) -> list[Any]:
        """The log's lines as the kind's typed records (for ``train``: ``parsing_core.model.events``);
        a line that is JSON but no record of the kind is skipped (see :meth:`skipped_lines`)."""
        kind, records = self.kind, []
        for line in self.reports():
            try:
                records.append(kind.read_record(line))
            except (ParsingCoreError, TypeError, KeyError, ValueError):
                continue
        return records

    def owner(self) -> str | None:
        """Who started the job, as its starter said (None: not said)."""
        file = self.folder / "owner"
        return file.read_text().strip() if file.exists() else None

    def started(self) -> float:
        """When the job was started (seconds since the epoch)."""
        return (self.folder / "command.json").stat().st_mtime

    def status(self) -> str:
        """"running", "finished", "stopped" or "failed"."""
        if (self.folder / "stopped").exists():
            return "stopped"
        code = self.exit_code()
        if code is None:
            return "running"
        return "finished" if code == 0 else "failed"

    def exit_code(self) -> int | None:
        """The process's exit status; None while it runs.

        A job this process started is waited on by its thread (see :func:`_wait_for`); a job
        found on disk (after a refresh, or started by another server) is looked up by its pid.
        """
        exit_file = self.folder / "exitcode"
        waiter = _WAITERS.get(str(self.folder))
        if waiter is not None and waiter.is_alive():
            return None
        if exit_file.exists():
            return int(exit_file.read_text() or 1)
        pid = self.pid()
        if pid is not None and process_alive(pid, str(self.folder)):
            return None
        return self._code_from_files()

    def pid(self) -> int | None:
        try:
            return int((self.folder / "pid").read_text())
        except (OSError, ValueError):
            return None

    def failure(self) -> str:
        """The last lines the process printed, to say why it failed."""
        text = (self.folder / "stderr.txt").read_text(errors="replace") if self.folder.exists() else ""
        return "\n".join(text.strip().splitlines()[-5:])

    def stop(self, timeout: float = 15) -> None:
        """Mark the job stopped and end its process, from any process (not only the starter's).

        SIGTERM first: a training job stops after its current batch, saves its best weights and
        exits; after ``timeout`` seconds, SIGKILL.  Returns once the process has ended.  A job
        that has already ended keeps its status (a run that finished as Stop was clicked is
        finished, not stopped).
        """
        pid = self.pid()
        if pid is None or self.exit_code() is not None:
            return
        (self.folder / "stopped").touch()
        self._signal(pid, signal.SIGTERM)
        if not self._ended_within(timeout):
            self._signal(pid, signal.SIGKILL)
            self._ended_within(5)

    def _signal(self, pid: int, number: signal.Signals) -> None:
        """Send ``number`` to the job's process group (the job leads its own session)."""
        try:
            os.killpg(pid, number)
        except (ProcessLookupError, PermissionError):
            pass

    def _ended_within(self, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while self.exit_code() is None:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    def remove(self) -> None:
        """Stop if needed and delete the job's folder."""
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _code_from_files(self) -> int:
        finished = self.checkpoint.exists() or any(r.get("event") == "test" for r in self.reports())
        return 0 if finished else 1


@dataclass
class JobBoard:
    """The jobs under one folder, oldest first, at most ``limit`` running at once."""

    root: Path
    limit: int = 2

    def jobs(self) -> list[TrainingJob]:
        if not self.root.exists():
            return []
        return [TrainingJob(p) for p in sorted(self.root.iterdir()) if (p / "command.json").exists()]

    def running(self) -> list[TrainingJob]:
        return [j for j in self.jobs() if j.status() == "running"]

    def free(self) -> int:
        """How many more jobs may start now."""
        return max(0, self.limit - len(self.running()))

    def start(self, name: str, spec: Spec | list[str], kind: str | None = None, owner: str | None = None
              ) -> TrainingJob:
        """Start a job on ``spec`` in a new folder ``<time>-<name>`` (see :meth:`TrainingJob.start`)."""
        if not self.free():
            raise JobError(f"{self.limit} training runs are already going; wait for one to end or stop one")
        return TrainingJob.start(self.new_folder(name), spec, get_kind(kind) if kind else None, owner)

    def new_folder(self, name: str) -> Path:
        """A new folder ``<time>-<name>``, with ``-2``, ``-3``, ... when runs of that name start in
        the same second (made here, so two starts never share one)."""
        base = self.root / f"{time.strftime('%Y%m%d-%H%M%S')}-{name}"
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            for n in range(1, 1000):
                folder = base if n == 1 else base.with_name(f"{base.name}-{n}")
                try:
                    folder.mkdir()
                    return folder
                except FileExistsError:
                    continue
        except OSError as problem:  # read-only, full, or a file where the folder should be
            raise JobError(f"the jobs folder {self.root} cannot be written ({problem.strerror or problem}); "
                           "set PARSING_JOBS_DIR to a writable folder") from None
        raise JobError(f"too many runs named {name!r} started in one second")
