"""A process that has imported what jobs import and forks one child per job.

A training run started as a new process spends seconds before its first batch doing nothing
of its own: importing torch (1.3–2.1 s on this project's 2-core machine) and, the first time an
optimiser is made, torch's compiler as well (``torch._dynamo``, 1.0–1.9 s: torch imports it to
keep it away from the optimiser's methods).  So the local backend keeps one process standing
by.  Started as ``python -m server.jobs.standby``, it imports all that once, says ``ready`` and
reads its standard input: one line of JSON per job (a command ``python -m <module>
<arguments>``, its folder, the environment to run it in and how far it gives way to the app's
pages, :mod:`.priority`).  For each it *forks*: the child leads a session of its own at that
priority, sends what it prints to the job's ``stderr.txt`` and runs the module
as ``python -m`` does (``runpy``), exiting with the job's status; the standby answers
``started <pid>`` and stays, ready for the next job.  When a child ends, the standby reaps it and
says ``ended <pid> <status>`` (a negative status: killed by that signal, as with
:class:`subprocess.Popen`).  A child's first batch thus comes a fraction of a second after the
click, and every job shares the standby's imported pages in memory.

A job run by a standby is the same module with the same arguments in the same environment; only
its imports were made earlier.  If the server goes away, the standby reads the end of its input
and exits; jobs going on then keep going (each in its own session).  ``PARSING_STANDBY=0`` turns
standbys off: every job then starts from nothing.

>>> job = json.loads(order("/jobs/1", ["python", "-m", "parsing_core.train", "--epochs", "3"], {"A": "1"}))
>>> job["folder"], job["command"][2:], job["env"]
('/jobs/1', ['parsing_core.train', '--epochs', '3'], {'A': '1'})
>>> said("ended 41 -9"), said("started 41"), said("ready")
(('ended', 41, -9), ('started', 41, None), ('ready', None, None))
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import runpy
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..settings import Settings, settings
from .priority import give_way

#: ``0`` turns standbys off.
STANDBY_ENV = Settings.variable("standby")
#: What a standby imports while it waits: what every job kind's module imports, not the modules
#: themselves (``runpy`` runs a job's module afresh as ``__main__``, and warns of one imported).
WARM_MODULES = ("torch", "tqdm", "parsing_core.checkpoint", "parsing_core.cli_common",
                "parsing_core.model.trainer")
#: Seconds the server waits for a standby to answer ``started`` before running the job itself.
ANSWER_S = 10.0


def enabled() -> bool:
    return settings().standby


def order(folder: str | Path, command: Sequence[str], env: Mapping[str, str], nice: int = 0) -> str:
    """The line a standby reads: which job to run (``nice``: how far it gives way to the app,
    :mod:`.priority`)."""
    return json.dumps({"folder": str(folder), "command": list(command), "env": dict(env), "nice": nice})


def said(line: str) -> tuple[str, int | None, int | None]:
    """A line of the standby's: what happened, to which process, with which status."""
    word, *numbers = line.split()
    pid, status = (int(n) for n in [*numbers, "0", "0"][:2])
    return word, pid if numbers else None, status if len(numbers) > 1 else None


def can_become(command: Sequence[str]) -> bool:
    """A standby runs ``<this Python> -m <module> ...`` commands, which is what every job is."""
    return len(command) >= 3 and command[0] == sys.executable and command[1] == "-m"


# -- in the standby's own process --------------------------------------------------------------
def warm() -> None:
    """Import what every job imports, and make one optimiser (which imports torch's compiler).
    Nothing runs a tensor operation: the children are forked from a process without threads."""
    import importlib

    for module in WARM_MODULES:
        importlib.import_module(module)
    import torch

    torch.optim.Adam([torch.zeros(1, requires_grad=True)])


def say(words: str) -> None:
    """One line to the server, in one unbuffered write (a signal handler says things too)."""
    os.write(1, (words + "\n").encode())


def reap(_signal: int = 0, _frame: object = None) -> None:
    """On SIGCHLD: collect every child that ended and say how."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        say(f"ended {pid} {os.waitstatus_to_exitcode(status)}")


def become(line: str) -> None:
    """Run the job that ``line`` names, in this process (returns only if the job's module does)."""
    job = json.loads(line)
    folder, command = Path(job["folder"]), job["command"]
    os.environ.clear()
    os.environ.update(job["env"])
    err = os.open(folder / "stderr.txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(err, 2)
    os.close(err)
    nothing = os.open(os.devnull, os.O_RDWR)
    os.dup2(nothing, 0)
    os.dup2(nothing, 1)
    os.close(nothing)
    sys.argv = [command[2], *command[3:]]  # runpy puts the module's file in sys.argv[0]
    runpy.run_module(command[2], run_name="__main__", alter_sys=True)


def exit_status(end: SystemExit) -> int:
    """The status ``sys.exit(code)`` asks for, as the interpreter reads it."""
    if end.code is None or isinstance(end.code, int):
        return end.code or 0
    print(end.code, file=sys.stderr)
    return 1


def child(line: str) -> int:
    """In the forked child: the job, then its exit status."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
    os.setsid()
    give_way(os.getpid(), json.loads(line).get("nice", 0))  # the job's session, before any of its threads
    with contextlib.suppress(OSError):  # its name in top and ps -o comm (its command line is the standby's)
        Path("/proc/self/comm").write_text("parsing-job")
    try:
        become(line)
        status = 0
    except SystemExit as end:
        status = exit_status(end)
    except BaseException:
        traceback.print_exc()
        status = 1
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    return status


def main() -> int:
    warm()
    signal.signal(signal.SIGCHLD, reap)
    say("ready")
    for line in sys.stdin:
        if not line.strip():
            continue
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})  # "started" comes before "ended"
        pid = os.fork()
        if pid == 0:  # the child never comes back to this loop
            status = 1
            try:
                status = child(line)
            finally:
                os._exit(status)
        say(f"started {pid}")
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
    return 0


# -- in the server's process ------------------------------------------------------------------
class Standby:
    """This server's standby process, and what it says about the jobs it forked."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._ready = threading.Event()
        self._started: queue.Queue[int] = queue.Queue()
        self._ended: dict[int, int] = {}
        self._heard = threading.Condition()

    @property
    def waiting_pid(self) -> int | None:
        """The process id of the standby, while one is up and ready (None otherwise)."""
        process = self._process
        if process is None or process.poll() is not None or not self._ready.is_set():
            return None
        return process.pid

    def ready(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for the standby to have made its imports (started if none is)."""
        self.ensure()
        return self._ready.wait(seconds) and self.waiting_pid is not None

    def ensure(self) -> None:
        """Start a standby unless one is up (or standbys are off)."""
        if not enabled():
            return
        with self._lock:
            if self._process is None or self._process.poll() is not None:
                self._start()

    def take(self, folder: Path, command: Sequence[str]) -> ForkedJob | None:
        """Have the standby fork the job; None when none is ready (or it cannot run this
        command), and the job must start a process of its own.  (It does not start a standby:
        the app's pages that train networks do, with :meth:`ensure`; a Lab job needs no torch.)"""
        if not enabled() or not can_become(command):
            return None
        with self._lock:
            process = self._process
            if process is None or process.stdin is None or not self._ready.is_set():
                return None
            try:
                line = order(folder, command, os.environ, settings().job_nice)
                process.stdin.write((line + "\n").encode())
                process.stdin.flush()
                pid = self._started.get(timeout=ANSWER_S)
            except (OSError, queue.Empty):  # it died in between, or hangs: the next job starts a new one
                process.kill()
                self._process = None
                return None
        return ForkedJob(pid, self, process)

    def ended(self, pid: int) -> int | None:
        """The exit status the standby reported for its child ``pid`` (None: not ended, or not
        reported)."""
        with self._heard:
            return self._ended.get(pid)

    def wait_for_news(self, seconds: float) -> None:
        with self._heard:
            self._heard.wait(seconds)

    def close(self) -> None:
        """End the standby (its jobs go on: each leads a session of its own)."""
        with self._lock:
            process, self._process = self._process, None
        if process is not None:
            process.kill()
            process.wait()

    def _start(self) -> None:
        self._ready = threading.Event()
        self._started = queue.Queue()
        self._process = subprocess.Popen(
            [sys.executable, "-m", "server.jobs.standby"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, cwd=self.root, start_new_session=True,
        )
        threading.Thread(target=self._listen, args=(self._process, self._ready, self._started),
                         name="standby-listener", daemon=True).start()

    def _listen(self, process: subprocess.Popen[bytes], ready: threading.Event,
                started: queue.Queue[int]) -> None:
        """Read what the standby says until it ends."""
        for raw in process.stdout or ():
            word, pid, status = said(raw.decode())
            if word == "ready":
                ready.set()
            elif word == "started" and pid is not None:
                with self._heard:
                    self._ended.pop(pid, None)  # an earlier child's, whose number this one got again
                started.put(pid)
            elif word == "ended" and pid is not None and status is not None:
                with self._heard:
                    self._ended[pid] = status
                    self._heard.notify_all()
        with self._heard:
            self._heard.notify_all()


class ForkedJob:
    """A job the standby forked, as the server holds it: like a :class:`subprocess.Popen`
    (``pid``, ``poll``, ``wait``, ``returncode``, ``terminate``, ``kill``).  Its status comes from
    the standby, which reaped it; a job that ends after its standby has ended has lost its status:
    ``wait`` then answers None, and the job's folder tells how it went."""

    def __init__(self, pid: int, standby: Standby, forked_by: subprocess.Popen[bytes]) -> None:
        self.pid = pid
        self.standby = standby
        self.forked_by = forked_by  # the standby process that reaps it (a later one does not)
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self.standby.ended(self.pid)
        return self.returncode

    def over(self) -> bool:
        """Has the job ended, whether or not its status is known?"""
        return self.poll() is not None or (self.forked_by.poll() is not None and gone(self.pid))

    def wait(self, timeout: float | None = None) -> int | None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.over():
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"job {self.pid}", timeout or 0)
            self.standby.wait_for_news(0.2)
        return self.returncode

    def terminate(self) -> None:
        self._signal(signal.SIGTERM)

    def kill(self) -> None:
        self._signal(signal.SIGKILL)

    def _signal(self, number: signal.Signals) -> None:
        if not self.over():
            try:
                os.kill(self.pid, number)
            except ProcessLookupError:
                pass


def gone(pid: int) -> bool:
    """Has process ``pid`` ended (and been reaped, or been left a zombie)?"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] == "Z"
    except (OSError, IndexError):
        return True


if __name__ == "__main__":
    sys.exit(main())
