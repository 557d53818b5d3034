"""How a page says where a job stands while it waits for room on a cluster, and how often it looks.

On the Ray backend (``PARSING_JOBS_BACKEND=ray``) a job the cluster has no room for is
*queued*: it starts once the jobs before it have found room.  Every page that watches jobs
(Train, RL oracle, Oracle lab) shows such a job as "queued, N ahead", N being the queued jobs
submitted before it, in place of its progress.

>>> queue_text(2)
'queued, 2 ahead'
>>> queue_text(None)
'queued'
"""

from __future__ import annotations

from server.jobs import TrainingJob

#: Seconds between two looks of a page at the jobs going now (Train, RL oracle): while one goes
#: (its curves grow), and while none does (only to notice a run started in another browser).  A
#: look redraws part of the page: every second, an open Train tab with nothing going kept 7 % of
#: a core busy in Chromium; every five, about 2 %.
LIVE_S, IDLE_S = 1.0, 5.0


def look_every(going: bool) -> float:
    """Seconds until a page looks again at the jobs, whether one is ``going`` or none is.

    >>> look_every(True), look_every(False)
    (1.0, 5.0)
    """
    return LIVE_S if going else IDLE_S


def queue_text(ahead: int | None) -> str:
    """"queued, N ahead" (just "queued" when the cluster cannot say)."""
    return "queued" if ahead is None else f"queued, {ahead} ahead"


def waiting(job: TrainingJob) -> str | None:
    """"queued, N ahead" while ``job`` waits for the cluster; None once it runs or has ended."""
    return queue_text(job.ahead()) if job.status() == "queued" else None
