"""A local run gives way to the app: it runs at a lower CPU priority than the pages.

A training run keeps its cores busy for as long as it goes; the app's clicks need a few
milliseconds each, at once.  On a machine with CPU to spare the priority changes nothing: the
run takes what is free.  On a busy one the pages come first, and a class clicking through the
Stepper while someone trains still gets its boards in time.

On Linux a process's *nice* value (0 by default, 19 the most giving) weighs it against the
processes of its own session only: with the scheduler's autogroups (on by default on desktop and
server kernels) every session is one group, and the groups share the CPU equally.  A run leads a
session of its own (so that Stop ends it and its children), so by default it would weigh as much
as the whole app server.  :func:`give_way` therefore lowers both the run's nice value and that of
its session's group (``/proc/<pid>/autogroup``); where the system has neither, nothing changes.

How far runs give way is the setting ``PARSING_JOB_NICE`` (``server.settings``, 10 by default).
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path


def give_way(pid: int, nice: int) -> None:
    """Lower the CPU priority of process ``pid`` (a session leader: a run) to ``nice``, and that
    of its session's scheduling group.  Only ever lowers: a process may not raise it again
    without privileges, and a run has no need to."""
    if nice <= 0:
        return
    with contextlib.suppress(OSError):  # every thread of the process group (the run and its children)
        os.setpriority(os.PRIO_PGRP, os.getpgid(pid), nice)
    with contextlib.suppress(OSError):  # no autogroups here (another system, or a kernel without them)
        Path(f"/proc/{pid}/autogroup").write_text(str(nice))


def nice_of(pid: int) -> int:
    """The process's nice value (``/proc/<pid>/stat``, its 19th field)."""
    return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[16])


def group_nice_of(pid: int) -> int | None:
    """The nice value of the process's scheduling group, None where there are no autogroups
    (no file, or, in some sandboxed kernels, a file that reads empty)."""
    try:
        text = Path(f"/proc/{pid}/autogroup").read_text()  # "/autogroup-123 nice 10"
    except OSError:
        return None
    return autogroup_nice(text)


def autogroup_nice(text: str) -> int | None:
    """The nice value in the text of a ``/proc/<pid>/autogroup`` file, None if it has none.

    >>> autogroup_nice("/autogroup-123 nice 10\\n"), autogroup_nice("/autogroup-7 nice -5")
    (10, -5)
    >>> autogroup_nice("") is None
    True
    """
    found = re.search(r"\bnice\s+(-?\d+)", text)
    return int(found.group(1)) if found else None
