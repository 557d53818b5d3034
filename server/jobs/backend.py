"""Where a job runs: a *backend* starts its command and answers for it afterwards.

Two backends share one interface, :class:`Backend`:

* ``local`` (the default): the command is a process of this machine (:mod:`.local`);
* ``ray``: the command is a job of a Ray cluster, through Ray's Jobs API (:mod:`.ray_backend`);
  chosen with ``PARSING_JOBS_BACKEND=ray`` and ``RAY_ADDRESS`` (the cluster's dashboard).

The environment chooses the backend of *new* jobs only.  A job's folder says which backend
it went to (a Ray job's folder holds ``ray.json``: the cluster's address and the submission
id), so any process can follow it, whatever its own environment says.

What every backend answers, and the statuses it answers with, are in :mod:`.status`.

>>> backend_named("local").name
'local'
>>> backend_named("slurm")
Traceback (most recent call last):
...
server.jobs.kinds.JobError: no jobs backend 'slurm'; choose local or ray
"""

from __future__ import annotations

from pathlib import Path

from ..settings import Settings, settings
from .kinds import JobError
from .status import Backend

BACKEND_ENV = Settings.variable("jobs_backend")
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
    return backend_named(settings().jobs_backend)


def backend_of(folder: Path) -> Backend:
    """The backend a job's folder was started on (its ``ray.json`` names a Ray cluster)."""
    if (folder / "ray.json").exists():
        from .ray_backend import ray_backend_of

        return ray_backend_of(folder)
    return backend_named("local")
