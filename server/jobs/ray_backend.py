"""The Ray backend: a job is a job of a Ray cluster, submitted through Ray's Jobs API.

``PARSING_JOBS_BACKEND=ray`` and ``RAY_ADDRESS=http://<head>:8265`` (the cluster's dashboard,
where the Jobs API answers) send every new job here.  A job runs the command the local backend
would run, inside the relay (:mod:`.relay`), which prints the metrics log's lines to the job's
output; Ray keeps that output, and any process holding the job's folder reads it back
(``get_job_logs``).  Ray is imported only when this backend talks to a cluster.  A cluster that
wants a token (``RAY_AUTH_MODE=token``) gets it from Ray's client, which reads it from
``RAY_AUTH_TOKEN_PATH`` (see ``deploy/ray_head.py``).

The folder holds what a local job's does (``spec.json``, ``kind``, ``owner``, ``command.json``)
and ``ray.json``: the cluster's address and the submission id.  Ray's statuses become the
board's: PENDING → queued (running while Ray starts a job it has room for: :mod:`.ray_queue`),
RUNNING → running, SUCCEEDED → finished, FAILED → failed, STOPPED → stopped.  Once the job has
ended, the backend *settles* it: it writes the log, the output and the exit code into the
folder, which then reads like an ended local job's (and outlives the cluster's memory of it).

Each job asks for one CPU (``entrypoint_num_cpus=1``), and one GPU when its spec asks for CUDA,
and says so in its metadata.  A job the cluster has no room for waits, queued;
:meth:`RayBackend.ahead` counts the queued jobs submitted before it.  Stop is ``stop_job``: Ray
sends SIGTERM, then SIGKILL after ``RAY_JOB_STOP_WAIT_TIME_S`` (15 s, the local backend's grace).
A queued job is marked stopped at once; its relay sees the mark and exits once it starts.

The cluster's nodes must see the repository and the jobs folder at the same paths (one
machine, or a shared filesystem): the command reads its spec and writes its checkpoint there.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from .kinds import JobError
from .local import ROOT
from .log import split_output, write_whole
from .ray_queue import Room, asked, capacity_of, starting, status_name, waiting_before
from .status import LIVE, told_status

ADDRESS_ENV = "RAY_ADDRESS"
INSTALL = "pip install -r requirements-ray.txt"
STATUSES = {"PENDING": "queued", "RUNNING": "running", "SUCCEEDED": "finished", "FAILED": "failed",
            "STOPPED": "stopped"}
STOP_WAIT_S = 15
FRESH_S = 0.5  # how long one answer of the cluster serves: a page asks many times per redraw
CAPACITY_FRESH_S = 10.0  # the cluster's CPUs and GPUs change only when a node comes or goes
#: Lines Ray itself adds to a job's output ("Runtime env is setting up.", "Running entrypoint ...").
RAY_LINE = re.compile(r"(\d{4}-\d\d-\d\d [\d:,]+\s+[A-Z]+ job_\w+\.py:\d+ -- |Running entrypoint for job )")
T = TypeVar("T")


def client_class() -> Any:
    """Ray's ``JobSubmissionClient``, imported now (Ray is optional)."""
    try:
        from ray.job_submission import JobSubmissionClient
    except ImportError:
        raise JobError(f"the ray jobs backend needs Ray, which is not installed: {INSTALL}") from None
    return JobSubmissionClient


def asks_for_cuda(spec: Any) -> bool:
    """Does a spec's JSON ask for a CUDA device anywhere (``"device": "cuda"``)?

    >>> asks_for_cuda({"train": {"device": "cuda"}}), asks_for_cuda({"train": {"device": "auto"}})
    (True, False)
    """
    if not isinstance(spec, dict):
        return False
    return any((k == "device" and str(v).startswith("cuda")) or asks_for_cuda(v) for k, v in spec.items())


def entrypoint(folder: Path, command: list[str]) -> str:
    """The shell line Ray runs: in the repository, the relay, then ``command`` less its ``--log``
    (the relay gives its own).

    >>> entrypoint(Path("/jobs/a b"), ["python", "-m", "m", "--log", "/jobs/a b/log.jsonl", "--out", "o"])
    ... # doctest: +ELLIPSIS
    "cd ... && exec python -m server.jobs.relay '/jobs/a b' python -m m --out o"
    """
    at = command.index("--log")
    relayed = [command[0], "-m", "server.jobs.relay", str(folder), *command[:at], *command[at + 2:]]
    return f"cd {shlex.quote(str(ROOT))} && exec {shlex.join(relayed)}"


def settled(folder: Path) -> bool:
    """Has the job's end been written into its folder (see :meth:`RayBackend.settle`)?"""
    return (folder / "exitcode").exists()


class RayBackend:
    """Jobs as Ray jobs of the cluster whose dashboard is at ``address``."""

    name = "ray"
    queues = True

    def __init__(self, address: str) -> None:
        self.address = address
        self._client: Any = None
        self._answers: dict[str, tuple[float, Any]] = {}

    def client(self) -> Any:
        if self._client is None:
            cls = client_class()
            try:
                self._client = cls(self.address)
            except Exception as err:  # refused, unreachable, not a Ray dashboard, ...
                raise JobError(f"cannot reach the Ray cluster at {self.address} ({err})") from None
        return self._client

    def fresh(self, key: str, ask: Callable[[], T], seconds: float = FRESH_S) -> T:
        """``ask()``'s answer, or the one it gave less than ``seconds`` ago."""
        now = time.monotonic()
        got = self._answers.get(key)
        if got is not None and now - got[0] < seconds:
            return got[1]  # type: ignore[no-any-return]
        answer = ask()
        self._answers[key] = (now, answer)
        return answer

    def launch(self, folder: Path, command: list[str]) -> None:
        submission = "parsing-" + re.sub(r"[^\w-]", "-", folder.name) + "-" + uuid.uuid4().hex[:8]
        (folder / "ray.json").write_text(json.dumps({"address": self.address, "submission_id": submission}))
        spec = json.loads((folder / "spec.json").read_text()) if (folder / "spec.json").exists() else {}
        gpus = int(asks_for_cuda(spec))
        gpu = {"entrypoint_num_gpus": gpus} if gpus else {}
        try:
            self.client().submit_job(
                entrypoint=entrypoint(folder, command), submission_id=submission, entrypoint_num_cpus=1,
                metadata={"folder": str(folder), **asked(1, gpus)}, **gpu,
                runtime_env={"env_vars": {"RAY_JOB_STOP_WAIT_TIME_S": str(STOP_WAIT_S)}})
        except JobError:
            raise
        except Exception as err:
            raise JobError(f"the Ray cluster at {self.address} did not take the job ({err})") from None
        self._answers.pop("list", None)

    # -- what Ray says -----------------------------------------------------------------------
    def listing(self) -> dict[str, Any]:
        """Every job the cluster knows, by submission id (``JobDetails``)."""
        return self.fresh("list", lambda: {j.submission_id: j for j in self.client().list_jobs()})

    def details(self, folder: Path) -> Any:
        """Ray's record of the job (``JobDetails``); None when the cluster does not know it."""
        submission = submission_of(folder)
        found = self.listing().get(submission)
        if found is not None:
            return found
        try:
            return self.client().get_job_info(submission)
        except RuntimeError:  # 404: no such job
            return None

    def ray_status(self, folder: Path) -> str | None:
        """The board's name for Ray's status (settling an ended job); None when Ray cannot say."""
        try:
            details = self.details(folder)
            if details is None:
                return None
            status = STATUSES[status_name(details.status)]
            if status == "queued" and starting(details, list(self.listing().values()), self.capacity()):
                status = "running"  # Ray is starting it (room for it): no queue to wait in
            if status not in LIVE:
                self.settle(folder, details)
            return status
        except (OSError, RuntimeError, JobError):
            return None

    def capacity(self) -> Room | None:
        """The cluster's CPUs and GPUs (None when its dashboard does not say)."""
        return self.fresh("capacity", self.ask_capacity, CAPACITY_FRESH_S)

    def ask_capacity(self) -> Room | None:
        try:  # the client's own request, which carries the token when the cluster wants one
            answer = self.client()._do_request("GET", "/api/v0/nodes?detail=1")
            ok = answer.status_code == 200
            return capacity_of(answer.json()["data"]["result"]["result"]) if ok else None
        except (AttributeError, KeyError, TypeError, ValueError, OSError, RuntimeError):  # unanswered
            return None

    def settle(self, folder: Path, details: Any) -> None:
        """Write an ended job's log, output and exit code into its folder (the code last: its
        presence says the folder is complete)."""
        metrics, said = split_output(self.client().get_job_logs(submission_of(folder)))
        name = status_name(details.status)
        said = "".join(line for line in said.splitlines(keepends=True) if not RAY_LINE.match(line))
        if name == "FAILED" and details.message:
            said += f"Ray: {details.message.splitlines()[0]}\n"
        write_whole(folder / "log.jsonl", metrics)
        write_whole(folder / "stderr.txt", said)
        if name == "STOPPED":
            (folder / "stopped").touch()
        code = details.driver_exit_code
        write_whole(folder / "exitcode", str(0 if name == "SUCCEEDED" else code or int(name == "FAILED")))

    # -- the backend's interface ---------------------------------------------------------------
    def status(self, folder: Path) -> str:
        if settled(folder):
            return told_status(folder) or "failed"
        status = self.ray_status(folder)
        if (folder / "stopped").exists():
            return "stopped"
        return status or "failed"

    def exit_code(self, folder: Path) -> int | None:
        if not settled(folder):
            self.ray_status(folder)  # settles the job if it has ended
        return int((folder / "exitcode").read_text() or 1) if settled(folder) else None

    def log_text(self, folder: Path) -> str:
        if settled(folder):
            log = folder / "log.jsonl"
            return log.read_text(errors="replace") if log.exists() else ""
        try:
            return split_output(self.output_so_far(folder))[0]
        except (OSError, RuntimeError, JobError):
            return ""

    def output_so_far(self, folder: Path) -> str:
        submission = submission_of(folder)
        return self.fresh(f"logs:{submission}", lambda: str(self.client().get_job_logs(submission)))

    def output(self, folder: Path) -> str:
        if settled(folder):
            return (folder / "stderr.txt").read_text(errors="replace")
        try:
            if self.details(folder) is None:
                return f"the Ray cluster at {self.address} has no job {submission_of(folder)} (restarted?)"
            return split_output(self.output_so_far(folder))[1]
        except (OSError, RuntimeError, JobError) as err:
            return f"cannot reach the Ray cluster at {self.address}: {err}"

    def stop(self, folder: Path, timeout: float) -> None:
        """Mark the job stopped and ask Ray to stop it; wait (``timeout`` + 5 s, Ray's SIGKILL
        included) for a running job to end.  A job that has already ended keeps its status."""
        status = self.status(folder)
        if status not in LIVE:
            return
        (folder / "stopped").touch()
        submission = submission_of(folder)
        try:
            self.client().stop_job(submission)
            if status == "running":
                self.await_end(folder, time.monotonic() + timeout + 5)
        except (OSError, RuntimeError, JobError):
            return  # the cluster is gone: the mark stands

    def await_end(self, folder: Path, deadline: float) -> None:
        """Wait until Ray says the job has ended (then settle it), or until ``deadline``."""
        submission = submission_of(folder)
        while time.monotonic() < deadline:
            if status_name(self.client().get_job_status(submission)) not in ("PENDING", "RUNNING"):
                self.settle(folder, self.client().get_job_info(submission))
                return
            time.sleep(0.1)

    def ahead(self, folder: Path) -> int | None:
        try:
            details = self.details(folder)
            if details is None or status_name(details.status) != "PENDING" or (folder / "stopped").exists():
                return None
            jobs, capacity = list(self.listing().values()), self.capacity()
            return None if starting(details, jobs, capacity) else waiting_before(details, jobs, capacity)
        except (OSError, RuntimeError, JobError):
            return None


def submission_of(folder: Path) -> str:
    return str(json.loads((folder / "ray.json").read_text())["submission_id"])


_BACKENDS: dict[str, RayBackend] = {}


def ray_backend_at(address: str) -> RayBackend:
    """The backend of the cluster at ``address`` (one per address and process: it keeps answers)."""
    return _BACKENDS.setdefault(address, RayBackend(address))


def ray_backend(address: str | None = None) -> RayBackend:
    """The backend new jobs go to: Ray must be installed, and the address given or in ``RAY_ADDRESS``."""
    client_class()
    address = address or os.environ.get(ADDRESS_ENV)
    if not address:
        raise JobError(f"the ray jobs backend needs {ADDRESS_ENV}: the address of the cluster's dashboard "
                       "(for instance http://127.0.0.1:8265)")
    return ray_backend_at(address)


def ray_backend_of(folder: Path) -> RayBackend:
    """The backend of the cluster a job's folder names (Ray is needed only to ask it)."""
    return ray_backend_at(str(json.loads((folder / "ray.json").read_text())["address"]))
