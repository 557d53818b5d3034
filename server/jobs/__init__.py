"""Training runs as background jobs: run apart from the page, followed through their metrics log.

A page must not train inside its own script thread (a rerun would stop it, a refresh would
lose it).  A :class:`TrainingJob` runs a job *kind*'s module (``python -m parsing_core.train
--spec spec.json``) apart from the page, with a folder of its own, where the job finds its
spec (``spec.json``) and its JSON-lines log (``log.jsonl``: for training, one ``start``
line, one line per batch and per epoch, a ``test`` line at the end — the records of
:mod:`parsing_core.model.events`), its checkpoint (``model.pt``) and what it printed
(``stderr.txt``).  Anyone holding the folder can follow the run, so a job survives a browser
refresh; :class:`JobBoard` caps how many run (or wait) at once.

The package, one idea a module:

* :mod:`.kinds` — the kinds of job (``train``, ``rl``, ``lab``) and how to add one;
* :mod:`.job` — one job and its folder (:class:`TrainingJob`);
* :mod:`.board` — the jobs under one folder (:class:`JobBoard`);
* :mod:`.backend` — where a job runs, one interface (:class:`Backend`), chosen by
  ``PARSING_JOBS_BACKEND``: :mod:`.local` (a process of this machine, the default) or
  :mod:`.ray_backend` (a job of a Ray cluster, ``RAY_ADDRESS``; Ray is imported only then);
* :mod:`.ray_queue` — whether a job Ray has not started yet is being started or waits for room;
* :mod:`.standby` — a process with torch imported that forks each local job, so it starts sooner;
* :mod:`.priority` — a local job runs at a lower CPU priority than the pages (``PARSING_JOB_NICE``);
* :mod:`.log` and :mod:`.relay` — the metrics log, and how a job on a cluster sends it home.

>>> import tempfile
>>> from pathlib import Path
>>> board = JobBoard(root=Path(tempfile.mkdtemp()), limit=2)
>>> board.running(), board.free()
([], 2)
"""

from __future__ import annotations

from .backend import BACKEND_ENV, backend_named, backend_of, chosen_backend
from .board import JobBoard
from .job import TrainingJob
from .kinds import (
    KINDS,
    LAB,
    RL,
    TRAIN,
    JobError,
    JobKind,
    Report,
    Spec,
    get_kind,
    kind_of_spec,
    load,
    register,
)
from .local import LOCAL, LocalBackend, process_alive
from .status import LIVE, STATUSES, Backend

__all__ = [
    "BACKEND_ENV", "KINDS", "LAB", "LIVE", "LOCAL", "RL", "STATUSES", "TRAIN", "Backend", "JobBoard",
    "JobError", "JobKind", "LocalBackend", "Report", "Spec", "TrainingJob", "backend_named",
    "backend_of", "chosen_backend", "get_kind", "kind_of_spec", "load", "process_alive", "register",
]
