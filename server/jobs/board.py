"""The jobs board: the jobs under one folder, and the rule for how many may start.

Locally, at most ``limit`` jobs run at once: the board refuses one more.  On a Ray cluster,
the cluster runs what fits and queues the rest, so the board refuses a start only when
``limit`` of its jobs already wait in that queue.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from .backend import chosen_backend
from .job import TrainingJob
from .kinds import JobError, Spec, get_kind
from .status import LIVE, Backend


@dataclass
class JobBoard:
    """The jobs under one folder, oldest first; new ones go to ``backend`` (None: the one
    ``PARSING_JOBS_BACKEND`` names, local unless it says ray)."""

    root: Path
    limit: int = 2
    backend: Backend | None = None

    def where(self) -> Backend:
        """The backend new jobs go to."""
        return self.backend or chosen_backend()

    def jobs(self) -> list[TrainingJob]:
        if not self.root.exists():
            return []
        return [TrainingJob(p) for p in sorted(self.root.iterdir()) if (p / "command.json").exists()]

    def running(self) -> list[TrainingJob]:
        return [j for j in self.jobs() if j.status() == "running"]

    def queued(self) -> list[TrainingJob]:
        return [j for j in self.jobs() if j.status() == "queued"]

    def live(self) -> list[TrainingJob]:
        """The jobs not ended yet: queued or running."""
        return [j for j in self.jobs() if j.status() in LIVE]

    def free(self) -> int:
        """How many more jobs may start now (see the module's docstring)."""
        if self.where().queues:
            return max(0, self.limit - len(self.queued()))
        return max(0, self.limit - len(self.running()))

    def start(self, name: str, spec: Spec | list[str], kind: str | None = None, owner: str | None = None
              ) -> TrainingJob:
        """Start a job on ``spec`` in a new folder ``<time>-<name>`` (see :meth:`TrainingJob.start`)."""
        backend = self.where()
        if not self.free():
            if backend.queues:
                raise JobError(f"{self.limit} runs are already waiting for the cluster; wait for one to "
                               "start or stop one")
            raise JobError(f"{self.limit} training runs are already going; wait for one to end or stop one")
        chosen = get_kind(kind) if kind else None
        return TrainingJob.start(self.new_folder(name), spec, chosen, owner, backend)

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
