"""A job's process started before it is asked for: torch imported, waiting for its job.

A training run started as a new process spends seconds before its first batch doing nothing
of its own: importing torch (1.3–1.8 s on this project's 2-core machine) and, the first time an
optimiser is made, torch's compiler as well (``torch._dynamo``, 1.0–1.9 s: torch imports it to
keep it away from the optimiser's methods).  So the local backend keeps one process standing
by.  Started as ``python -m server.jobs.standby``, it imports all that and waits on its
standard input for one line of JSON: a job's command (``python -m <module> <arguments>``), its
folder and the environment to run it in.  It then *becomes* that job: what it prints goes to the
job's ``stderr.txt``, and it runs the module as ``python -m`` does (``runpy``), exiting with the
job's status.  The backend starts the next standby a little after one is taken.

A job run by a standby is the same module with the same arguments in the same environment; only
its imports were made earlier.  If the server goes away first, the standby reads the end of its
input and exits.  ``PARSING_STANDBY=0`` turns standbys off: every job then starts from nothing.

>>> job = json.loads(order("/jobs/1", ["python", "-m", "parsing_core.train", "--epochs", "3"], {"A": "1"}))
>>> job["folder"], job["command"][2:], job["env"]
('/jobs/1', ['parsing_core.train', '--epochs', '3'], {'A': '1'})
"""

from __future__ import annotations

import json
import os
import runpy
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..settings import Settings, settings

#: ``0`` turns standbys off.
STANDBY_ENV = Settings.variable("standby")
#: What a standby imports while it waits: what every job kind's module imports, not the modules
#: themselves (``runpy`` runs a job's module afresh as ``__main__``, and warns of one imported).
WARM_MODULES = ("torch", "tqdm", "parsing_core.checkpoint", "parsing_core.cli_common",
                "parsing_core.model.trainer")


def enabled() -> bool:
    return settings().standby


def order(folder: str | Path, command: Sequence[str], env: Mapping[str, str]) -> str:
    """The line a standby reads: which job to become."""
    return json.dumps({"folder": str(folder), "command": list(command), "env": dict(env)})


def can_become(command: Sequence[str]) -> bool:
    """A standby runs ``<this Python> -m <module> ...`` commands, which is what every job is."""
    return len(command) >= 3 and command[0] == sys.executable and command[1] == "-m"


# -- in the standby's own process --------------------------------------------------------------
def warm() -> None:
    """Import what every job imports, and make one optimiser (which imports torch's compiler)."""
    import importlib

    for module in WARM_MODULES:
        importlib.import_module(module)
    import torch

    torch.optim.Adam([torch.zeros(1, requires_grad=True)])


def become(line: str) -> None:
    """Run the job that ``line`` names, in this process (returns only if the job's module does)."""
    job = json.loads(line)
    folder, command = Path(job["folder"]), job["command"]
    os.environ.clear()
    os.environ.update(job["env"])
    err = os.open(folder / "stderr.txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(err, 2)
    os.close(err)
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)
    os.close(nothing)
    sys.argv = [command[2], *command[3:]]  # runpy puts the module's file in sys.argv[0]
    runpy.run_module(command[2], run_name="__main__", alter_sys=True)


def main() -> int:
    warm()
    line = sys.stdin.readline()
    if not line.strip():  # the server is gone before asking for a job
        return 0
    become(line)
    return 0


# -- in the server's process ------------------------------------------------------------------
class Standby:
    """The one process waiting for this server's next job.

    Once a job takes it, the next standby starts ``next_after`` seconds later, so that its
    imports do not take a core from the job's first seconds (a job started within that time
    starts a process of its own, as without standbys)."""

    def __init__(self, root: Path, next_after: float = 10.0) -> None:
        self.root = root
        self.next_after = next_after
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._next: threading.Timer | None = None

    @property
    def waiting_pid(self) -> int | None:
        """The process id of the standby waiting now (None when none is)."""
        process = self._process
        return process.pid if process is not None and process.poll() is None else None

    def ensure(self) -> None:
        """Start a standby unless one is waiting (or standbys are off)."""
        if not enabled():
            return
        with self._lock:
            if self._process is None or self._process.poll() is not None:
                self._process = self._start()

    def take(self, folder: Path, command: Sequence[str]) -> subprocess.Popen[bytes] | None:
        """Hand the job to the waiting standby and start the next; None when there was none to
        take (or it cannot run this command), and the job must start a process of its own."""
        if not enabled() or not can_become(command):
            return None
        with self._lock:
            process, self._process = self._process, None
            if self._next is not None:
                self._next.cancel()
            self._next = threading.Timer(self.next_after, self.ensure)
            self._next.daemon = True
            self._next.start()
        if process is None or process.poll() is not None or process.stdin is None:
            return None
        try:
            process.stdin.write((order(folder, command, os.environ) + "\n").encode())
            process.stdin.close()
        except OSError:  # it died in between
            return None
        return process

    def close(self) -> None:
        """End the waiting standby, if any (a server ending does it by closing its input)."""
        with self._lock:
            process, self._process = self._process, None
            if self._next is not None:
                self._next.cancel()
        if process is not None:
            process.kill()
            process.wait()

    def _start(self) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, "-m", "server.jobs.standby"], stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.root, start_new_session=True,
        )


if __name__ == "__main__":
    sys.exit(main())
