"""The local backend: a job is a process of this machine, in a session of its own, giving way to
the app's pages on a busy machine (:mod:`.priority`).

The process's life is written in the job's folder, so any process can read it: ``pid`` while
it runs, ``exitcode`` once it has ended, ``stopped`` when someone stopped it.  The process
that starts a job keeps a thread waiting on it, which writes ``exitcode`` and reaps the process
at once: no job is left as a ``<defunct>`` zombie, whether or not a page is watching.
:meth:`LocalBackend.stop` works from any process: it sends SIGTERM to the job's process group
(the trainer then stops after its current batch and keeps its best weights) and, if the job
has not ended within the timeout, SIGKILL.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from pathlib import Path

from ..settings import settings
from .log import parse_log, write_whole
from .priority import give_way
from .standby import Standby
from .status import JobProcess

#: The repository root: the jobs' working directory, where ``python -m parsing_core...`` works.
ROOT = Path(__file__).resolve().parents[2]

#: The threads that wait on the jobs this process started (by folder): each reaps its process
#: as soon as it ends and writes its exit code, so none is left a zombie.
_WAITERS: dict[str, tuple[threading.Thread, JobProcess]] = {}
#: The jobs known to have ended, with how: a page lists every run in the folder at every look, and
#: an ended run's ``stopped`` or ``exitcode`` file, once written, never changes.  By folder, its
#: inode and when its entries last changed: a folder made again at the same path is another job.
_ENDED: dict[tuple[str, int, int], str] = {}


def _wait_for(process: JobProcess, folder: Path) -> threading.Thread:
    """Start a thread that waits for ``process`` to end, then writes its exit code to ``folder``
    (unless it was lost: the folder's files then tell, :func:`exit_code`)."""
    def wait() -> None:
        code = process.wait()
        if code is not None:  # whole or not at all: a reader may remember what it reads (:data:`_ENDED`)
            write_whole(folder / "exitcode", str(code))

    thread = threading.Thread(target=wait, name=f"wait-{folder.name}", daemon=True)
    thread.start()
    _WAITERS[str(folder)] = thread, process
    return thread


def process_alive(pid: int, mark: str) -> bool:
    """Is ``pid`` alive, and (where ``/proc`` tells) still a job's process: one whose command line
    holds ``mark`` (the job's folder), or, for a job forked by the standby, that holds a file of
    the folder open (its ``stderr.txt``)?  (After a reboot the number may belong to another
    program.)  A zombie is dead."""
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
    return state != "Z" and (mark.encode() in command or _holds_open(proc, mark))


def _holds_open(proc: Path, mark: str) -> bool:
    """Does the process of ``/proc/<pid>`` hold open a file whose path starts with ``mark``?"""
    try:
        links = [os.readlink(fd) for fd in (proc / "fd").iterdir()]
    except OSError:
        return False
    return any(link.startswith(mark.rstrip("/") + "/") for link in links)


def read_pid(folder: Path) -> int | None:
    try:
        return int((folder / "pid").read_text())
    except (OSError, ValueError):
        return None


def exit_code(folder: Path) -> int | None:
    """The process's exit status; None while it runs.

    A job this process started is waited on by its thread (see :func:`_wait_for`); a job
    found on disk (after a refresh, or started by another server) is looked up by its pid.
    """
    exit_file = folder / "exitcode"
    waiter, process = _WAITERS.get(str(folder), (None, None))
    if waiter is not None and waiter.is_alive():
        if process is None or process.poll() is None:
            return None
        waiter.join()  # the process has ended: its thread is writing the exit code
    if exit_file.exists():
        return int(exit_file.read_text() or 1)
    pid = read_pid(folder)
    if pid is not None and process_alive(pid, str(folder)):
        return None
    return _code_from_files(folder)


def _code_from_files(folder: Path) -> int:
    """0 when the job left the signs of a finished run (a checkpoint, a ``test`` line), else 1.
    (A page asks this of such a job at every look: the log is read only when there is no
    checkpoint, and parsed only when it names a test.)"""
    if (folder / "model.pt").exists():
        return 0
    log = folder / "log.jsonl"
    text = log.read_text(errors="replace") if log.exists() else ""
    finished = '"test"' in text and any(r.get("event") == "test" for r in parse_log(text)[0])
    return 0 if finished else 1


class LocalBackend:
    """Jobs as processes of this machine (the default backend)."""

    name = "local"
    queues = False

    def launch(self, folder: Path, command: list[str]) -> JobProcess:
        """Run ``command`` for the job in ``folder``: forked by the standby if one is ready
        (:mod:`.standby`: the same command with its imports made), else in a new process."""
        process: JobProcess | None = STANDBY.take(folder, command)
        if process is None:
            with open(folder / "stderr.txt", "wb") as err:
                process = subprocess.Popen(
                    command, stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL,
                    cwd=ROOT, start_new_session=True,
                )
                give_way(process.pid, settings().job_nice)  # its session is made: exec has happened
        (folder / "pid").write_text(str(process.pid))
        _wait_for(process, folder)
        return process

    def status(self, folder: Path) -> str:
        try:
            made = folder.stat()
            key = (str(folder), made.st_ino, made.st_mtime_ns)
        except OSError:  # no such folder (any more)
            key = (str(folder), -1, -1)
        if key in _ENDED:
            return _ENDED[key]
        if (folder / "stopped").exists():
            status = "stopped"
        else:
            code = exit_code(folder)
            if code is None:
                return "running"
            status = "finished" if code == 0 else "failed"
        if status == "stopped" or (folder / "exitcode").exists():  # written once, when it ended
            _ENDED[key] = status
        return status

    def exit_code(self, folder: Path) -> int | None:
        return exit_code(folder)

    def log_text(self, folder: Path) -> str:
        log = folder / "log.jsonl"
        return log.read_text(errors="replace") if log.exists() else ""

    def output(self, folder: Path) -> str:
        err = folder / "stderr.txt"
        return err.read_text(errors="replace") if err.exists() else ""

    def stop(self, folder: Path, timeout: float) -> None:
        """Mark the job stopped and end its process: SIGTERM, then SIGKILL after ``timeout`` s.

        Returns once the process has ended.  A job that has already ended keeps its status.
        """
        pid = read_pid(folder)
        if pid is None or exit_code(folder) is not None:
            return
        (folder / "stopped").touch()
        _signal(pid, signal.SIGTERM)
        if not _ended_within(folder, timeout):
            _signal(pid, signal.SIGKILL)
            _ended_within(folder, 5)

    def ahead(self, folder: Path) -> int | None:
        return None  # a local job never waits: the board refuses to start one too many


def _signal(pid: int, number: signal.Signals) -> None:
    """Send ``number`` to the job's process group (the job leads its own session)."""
    try:
        os.killpg(pid, number)
    except (ProcessLookupError, PermissionError):
        pass


def _ended_within(folder: Path, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while exit_code(folder) is None:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


#: This server's standby job process (started by :meth:`Standby.ensure`, e.g. as the app starts).
STANDBY = Standby(ROOT)
LOCAL = LocalBackend()
