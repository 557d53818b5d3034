"""The app's replicas: N ``streamlit run serve.py`` processes, one per loopback port, one environment.

Every replica reads and writes the same stores, so a learner's work outlives the replica that
served it:

* ``PARSING_DATABASE_URL`` — Practice progress and exercise sets (PostgreSQL for a class; without
  it each replica opens the same SQLite file in the user's data folder, fine on one machine);
* ``PARSING_JOBS_DIR`` — the training runs' folders (spec, log, checkpoint, pid, owner), which the
  Train page lists and stops by reading the folder, never a session;
* ``PARSING_JOBS_BACKEND``, ``RAY_ADDRESS`` — where new runs go: processes of this machine (the
  default) or jobs of a Ray cluster (``ray``), which any replica on any machine can stop;
  ``RAY_AUTH_MODE=token`` and ``RAY_AUTH_TOKEN_PATH`` — the token Ray's Jobs client sends
  (:mod:`deploy.ray_head`);
* ``PARSING_DATA_DIR``, ``PARSING_CACHE_DIR``, ``PARSING_ALLOWED_DIRS`` — the treebanks;
* ``PARSING_SHARED_SERVER=1`` — a tab may stop only its own runs (its token rides in the URL);
* ``STREAMLIT_SERVER_COOKIE_SECRET`` — one secret, so a cookie one replica signs the others read.

What a session keeps in memory (its widgets, an uploaded file, a download's bytes) stays on its
replica; the proxy sends each browser back to the same one (see ``deploy/nginx.conf.template``).
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from deploy.credentials import masked_url
from server.settings import Settings, settings

REPO = Path(__file__).resolve().parents[1]
HEALTH_TIMEOUT_S = 90  # a replica's first start imports torch; on a busy two-core machine, slowly

#: The variables every replica must see alike (passed on from the launcher's environment).
SHARED_VARIABLES = (*(Settings.variable(name) for name in (
    "database_url", "jobs_dir", "jobs_backend", "data_dir", "cache_dir", "allowed_dirs", "shared_server",
    "folder_field")), "RAY_ADDRESS", "RAY_AUTH_MODE", "RAY_AUTH_TOKEN_PATH")


class ReplicaError(RuntimeError):
    """A replica that exited or never answered its health check."""


def default_jobs_dir() -> Path:
    """The jobs folder the app itself would use (``PARSING_JOBS_DIR``), made explicit."""
    return settings().jobs_dir


def shared_environment(jobs_dir: Path, database_url: str | None = None, data_dir: str | None = None,
                       shared_server: bool = True, base: Mapping[str, str] = os.environ) -> dict[str, str]:
    """The environment all replicas run with: ``base`` plus the shared stores named here."""
    env = dict(base)
    env[Settings.variable("jobs_dir")] = str(jobs_dir)
    if database_url:
        env[Settings.variable("database_url")] = database_url
    if data_dir:
        env[Settings.variable("data_dir")] = data_dir
    env[Settings.variable("shared_server")] = "1" if shared_server else "0"
    env.setdefault("STREAMLIT_SERVER_COOKIE_SECRET", secrets.token_hex(32))
    return env


def described(env: Mapping[str, str]) -> str:
    """The shared settings that are set, one per line (the cookie secret left out, a password masked).

    >>> print(described({"PARSING_DATABASE_URL": "postgresql://lab:pw@db/lab", "PARSING_JOBS_DIR": "/j"}))
      PARSING_DATABASE_URL=postgresql://lab:***@db/lab
      PARSING_JOBS_DIR=/j
    """
    return "\n".join(f"  {name}={masked_url(env[name])}" for name in SHARED_VARIABLES if env.get(name))


def command(port: int) -> list[str]:
    """``streamlit run serve.py`` headless on 127.0.0.1:``port`` (the repository's .streamlit/config.toml
    applies: the upload cap, the disconnected sessions' lifetime)."""
    return [sys.executable, "-m", "streamlit", "run", "serve.py", "--server.headless", "true",
            "--server.port", str(port), "--server.address", "127.0.0.1",
            "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]


@dataclass
class Replica:
    """One ``streamlit run`` process and where its output goes."""

    port: int
    env: dict[str, str]
    log: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def address(self) -> str:
        """As nginx names it (``$upstream_addr``)."""
        return f"127.0.0.1:{self.port}"

    def start(self) -> Replica:
        """Start the process in a session of its own, so a Ctrl-C reaches the launcher only."""
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(command(self.port), cwd=REPO, env=self.env, stdout=out,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        return self

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as response:
                return bool(response.read().strip() == b"ok")
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False

    def kill(self) -> None:
        """SIGKILL, as a crash would: no goodbye to its sessions."""
        if self.alive():
            assert self.process is not None
            self.process.kill()
            self.process.wait()

    def terminate(self) -> None:
        """SIGTERM: Streamlit closes its sessions and exits."""
        if self.alive():
            assert self.process is not None
            self.process.send_signal(signal.SIGTERM)

    def wait_or_kill(self, timeout: float = 10) -> None:
        """Wait for the process to end; SIGKILL it if it has not after ``timeout`` seconds."""
        if self.process is None:
            return
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    def stop(self, timeout: float = 10) -> None:
        """SIGTERM, and SIGKILL if the process has not ended after ``timeout`` seconds."""
        self.terminate()
        self.wait_or_kill(timeout)

    def log_tail(self, chars: int = 2000) -> str:
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""


def start_replicas(ports: Sequence[int], env: dict[str, str], log_dir: Path) -> list[Replica]:
    """Start one replica per port (all at once: they import torch in parallel)."""
    return [Replica(port, env, log_dir / f"replica-{port}.log").start() for port in ports]


def wait_healthy(replicas: Sequence[Replica], timeout: float = HEALTH_TIMEOUT_S) -> None:
    """Poll each replica's ``/_stcore/health`` until it answers ``ok``; ReplicaError with its log
    if one exits first or the time runs out."""
    deadline = time.monotonic() + timeout
    waiting = list(replicas)
    while waiting:
        for replica in list(waiting):
            if not replica.alive():
                raise ReplicaError(f"the replica on port {replica.port} exited:\n{replica.log_tail()}")
            if replica.healthy():
                waiting.remove(replica)
        if waiting and time.monotonic() > deadline:
            raise ReplicaError(f"the replica on port {waiting[0].port} is not healthy after {timeout:.0f} s:"
                               f"\n{waiting[0].log_tail()}")
        time.sleep(0.25 if waiting else 0)
