"""What every backend answers (:class:`Backend`), and the statuses it answers with.

A job's status is one of :data:`STATUSES`; it is *live* (:data:`LIVE`) while queued or running.
Only a backend that queues (Ray, when the cluster is full) ever says "queued".  The backends
(:mod:`.local`, :mod:`.ray_backend`) and the chooser (:mod:`.backend`) import this module; it
imports none of them.

>>> import tempfile; folder = Path(tempfile.mkdtemp())
>>> told_status(folder) is None
True
>>> _ = (folder / "exitcode").write_text("0"); told_status(folder)
'finished'
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

STATUSES = ("queued", "running", "finished", "stopped", "failed")
LIVE = ("queued", "running")


class JobProcess(Protocol):
    """A job's process as the server that started it holds it: a :class:`subprocess.Popen`, or a
    job forked by the standby (:class:`~server.jobs.standby.ForkedJob`).  ``wait`` answers None
    when the status was lost (a forked job that ended after its standby)."""

    pid: int
    returncode: int | None

    def poll(self) -> int | None: ...

    def wait(self, timeout: float | None = None) -> int | None: ...

    def terminate(self) -> None: ...

    def kill(self) -> None: ...


class Backend(Protocol):
    """Starts a job's command and answers, from the job's folder alone, how it is going."""

    name: str
    queues: bool  # may a started job wait ("queued") until there is room for it?

    def launch(self, folder: Path, command: list[str]) -> JobProcess | None:
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
