"""Where a job runs: a *backend* starts its command and answers for it afterwards.

Two backends share one interface, :class:`Backend`:

* ``local`` (the default): the command is a process of this machine (:mod:`.local`);
* ``ray``: the command is a job of a Ray cluster, through Ray's Jobs API (:mod:`.ray_backend`);
  chosen with ``PARSING_JOBS_BACKEND=ray`` and ``RAY_ADDRESS`` (the cluster's dashboard).

The environment chooses the backend of *new* jobs only.  A job's folder says which backend
it went to (a Ray job's folder holds ``ray.json``: the cluster's address and the submission
id), so any process can follow it, whatever its own environment says.

A job's status is one of :data:`STATUSES`; it is *live* (:data:`LIVE`) while queued or running.
Only a backend that queues (Ray, when the cluster is full) ever says "queued".

>>> backend_named("local").name
'local'
>>> backend_named("slurm")
Traceback (most recent call last):
...
parsing_core.jobs.kinds.JobError: no jobs backend 'slurm'; choose local or ray
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Protocol

from .kinds import JobError

BACKEND_ENV = "PARSING_JOBS_BACKEND"
STATUSES = ("queued", "running", "finished", "stopped", "failed")
LIVE = ("queued", "running")


class Backend(Protocol):
    """Starts a job's command and answers, from the job's folder alone, how it is going."""

    name: str
    queues: bool  # may a started job wait ("queued") until there is room for it?

    def launch(self, folder: Path, command: list[str]) -> subprocess.Popen[bytes] | None:
        """Start ``command`` (which writes ``folder/log.jsonl``); the process when it is ours."""
        ...

    def status(self, folder: Path) -> str:
        """One of :data:`STATUSES`."""
        ...

    def exit_code(self, folder: Path) -> int | None:
        """The job's exit status; None while it has not ended."""
        ...

    def log_text(self, folder: Path) -> str:
        """The job's metrics log so far (JSON lines)."""
        ...

    def output(self, folder: Path) -> str:
        """What the job printed, apart from its metrics (to say why it failed)."""
        ...

    def stop(self, folder: Path, timeout: float) -> None:
        """Ask the job to stop (after its current batch), ending it for good after ``timeout`` s."""
        ...

    def ahead(self, folder: Path) -> int | None:
        """How many queued jobs were submitted before this one (None: it is not queued)."""
        ...


def told_status(folder: Path) -> str | None:
    """What a job's folder tells by itself: "stopped" once someone stopped it, "finished" or
    "failed" once its exit code is written; None while only its backend knows."""
    if (folder / "stopped").exists():
        return "stopped"
    exit_file = folder / "exitcode"
    if not exit_file.exists():
        return None
    return "finished" if int(exit_file.read_text() or 1) == 0 else "failed"


def backend_named(name: str | None, address: str | None = None) -> Backend:
    """The backend called ``name`` ("local" when None or empty); ``address`` is Ray's."""
    if name in (None, "", "local"):
        from .local import LOCAL

        return LOCAL
    if name == "ray":
        from .ray_backend import ray_backend

        return ray_backend(address)
    raise JobError(f"no jobs backend {name!r}; choose local or ray")


def chosen_backend() -> Backend:
    """The backend new jobs go to: ``PARSING_JOBS_BACKEND`` (local unless it says ray)."""
    return backend_named(os.environ.get(BACKEND_ENV))


def backend_of(folder: Path) -> Backend:
    """The backend a job's folder was started on (its ``ray.json`` names a Ray cluster)."""
    if (folder / "ray.json").exists():
        from .ray_backend import ray_backend_of

        return ray_backend_of(folder)
    return backend_named("local")
