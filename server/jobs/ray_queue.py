"""Where a job Ray has not started yet stands: starting, or waiting for room.

Ray says PENDING from the moment it takes a job until the job's command runs, and that covers
two different waits.  On a cluster with room, Ray is already *starting* the job (it places the
job's supervisor, prepares its environment, starts a worker: a few seconds on a busy machine);
on a full cluster the job *waits* until a running one ends.  Only the second is a queue, so
only the second is shown as "queued, N ahead"; a starting job is running as far as the board
goes (its page says "starting…" until its first record).

Ray keeps no queue position, so it is worked out as Ray roughly starts jobs: in the order it
took them.  A PENDING job is starting when the CPUs and GPUs asked by the running jobs, by the
jobs waiting before it and by itself fit in the cluster's (:func:`capacity_of`, from the
dashboard's list of nodes).  What a job asks for is in the metadata the backend gives it
(``cpus``, ``gpus``); a job of someone else's, without it, is counted as Ray counts a job that
asks for nothing: no room at all.

>>> from types import SimpleNamespace as Job
>>> def job(status, start, cpus="1", gpus="0"):
...     return Job(status=status, start_time=start, submission_id=f"j{start}", type="SUBMISSION",
...                metadata={"cpus": cpus, "gpus": gpus})
>>> running, first, second = job("RUNNING", 1), job("PENDING", 2), job("PENDING", 3)
>>> jobs = [running, first, second]
>>> starting(first, jobs, Room(cpus=2, gpus=0)), starting(second, jobs, Room(cpus=2, gpus=0))
(True, False)
>>> waiting_before(second, jobs, Room(cpus=2, gpus=0)), waiting_before(second, jobs, Room(cpus=1))
(0, 1)
>>> starting(job("PENDING", 4, gpus="1"), [], Room(cpus=4, gpus=0))  # no GPU: it waits
False
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Room:
    """CPUs and GPUs: what a cluster has, or what jobs ask for."""

    cpus: float = 0.0
    gpus: float = 0.0

    def __add__(self, other: Room) -> Room:
        return Room(self.cpus + other.cpus, self.gpus + other.gpus)

    def fits_in(self, capacity: Room) -> bool:
        return self.cpus <= capacity.cpus and self.gpus <= capacity.gpus


def asked(cpus: int, gpus: int) -> dict[str, str]:
    """The metadata that says what a job asks for (Ray's metadata values are strings)."""
    return {"cpus": str(cpus), "gpus": str(gpus)}


def needs(details: Any) -> Room:
    """What a job asks of the cluster, as its metadata says: nothing when it does not say, one
    CPU for a job of ours from before the metadata said (its ``folder`` gives it away)."""
    metadata = details.metadata or {}
    cpus = metadata.get("cpus", 1 if "folder" in metadata else 0)
    return Room(float(cpus), float(metadata.get("gpus", 0)))


def status_name(status: Any) -> str:
    """Ray's ``JobStatus`` (a str enum) as its name: ``"PENDING"``, ``"RUNNING"``, ..."""
    return str(getattr(status, "value", status))


def order(details: Any) -> tuple[int, str]:
    """Submission order: the time Ray took the job (ms), then its id."""
    return details.start_time or 0, details.submission_id or ""


def withdrawn(details: Any) -> bool:
    """Was this queued job stopped (its folder, named in its metadata, holds ``stopped``)?"""
    folder = str((details.metadata or {}).get("folder") or "")
    return bool(folder) and (Path(folder) / "stopped").exists()


def before(details: Any, jobs: Iterable[Any]) -> list[Any]:
    """The PENDING jobs Ray took before ``details``, stopped ones left out."""
    return [j for j in jobs if status_name(j.status) == "PENDING" and order(j) < order(details)
            and not withdrawn(j)]


def waiting_before(details: Any, jobs: list[Any], capacity: Room | None) -> int:
    """How many jobs wait in the queue before ``details`` (those being started do not wait)."""
    return sum(1 for j in before(details, jobs) if not starting(j, jobs, capacity))


def starting(details: Any, jobs: list[Any], capacity: Room | None) -> bool:
    """Is the PENDING job ``details`` being started (room for it and for those before it)?
    Not when the cluster's capacity is unknown: then it is shown waiting, as Ray's PENDING says."""
    if capacity is None:
        return False
    taken = [j for j in jobs if status_name(j.status) == "RUNNING"] + before(details, jobs) + [details]
    return sum((needs(j) for j in taken), Room()).fits_in(capacity)


def capacity_of(nodes: Iterable[Mapping[str, Any]]) -> Room:
    """The CPUs and GPUs of the cluster's live nodes (the dashboard's ``/api/v0/nodes`` rows).

    >>> capacity_of([{"state": "ALIVE", "resources_total": {"CPU": 4.0, "GPU": 1.0}},
    ...              {"state": "DEAD", "resources_total": {"CPU": 8.0}}])
    Room(cpus=4.0, gpus=1.0)
    """
    alive = [n.get("resources_total") or {} for n in nodes if n.get("state") == "ALIVE"]
    return sum((Room(r.get("CPU", 0.0), r.get("GPU", 0.0)) for r in alive), Room())
