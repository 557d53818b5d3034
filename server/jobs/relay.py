"""Run a job's command with its metrics log relayed to standard output: how a job on a Ray
cluster sends its metrics home (Ray keeps what a job prints and gives it to any client)::

    python -m server.jobs.relay FOLDER python -m parsing_core.train --spec FOLDER/spec.json \\
        --out FOLDER/model.pt

The command is given ``--log /dev/fd/N``, the writing end of a pipe; each line read from the
pipe is printed as ``@metrics <line>`` (:data:`.log.MARK`).  What the command prints itself
passes through, unmarked, to the same output.  A job stopped while it waited in the cluster's
queue (its folder holds ``stopped``) is not started at all.

SIGTERM (Ray's stop) reaches the command itself, which stops after its current batch; the relay
takes no notice of it and goes on relaying the command's last lines.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

from .log import MARK


def relay(command: Sequence[str]) -> int:
    """Run ``command`` with ``--log`` on a pipe, print the pipe's lines marked; its exit status."""
    read, write = os.pipe()
    child = subprocess.Popen([*command, "--log", f"/dev/fd/{write}"], pass_fds=(write,),
                             stdin=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            sys.stdout.write(MARK + line)
            sys.stdout.flush()
    return child.wait()


def ignore(number: int, frame: FrameType | None) -> None:
    """A handler, not SIG_IGN: a handler is not inherited by the command (SIG_IGN would be)."""


def main(argv: Sequence[str] | None = None) -> int:
    folder, *command = sys.argv[1:] if argv is None else argv
    if (Path(folder) / "stopped").exists():
        print("stopped while it waited in the queue: not started", file=sys.stderr)
        return 0
    signal.signal(signal.SIGTERM, ignore)
    return relay(command)


if __name__ == "__main__":
    sys.exit(main())
