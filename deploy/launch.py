"""Serve a class: N replicas of the app behind nginx, in one command.

    python -m deploy.launch --replicas 2 --port 8500 [--database-url postgresql+psycopg://...]
                            [--jobs-dir DIR] [--data-dir DIR] [--replica-ports 8601 8602]

Starts the replicas (``streamlit run app.py`` on 127.0.0.1, ports ``--port``+1, +2, … unless
given), waits until each answers ``/_stcore/health``, starts nginx on 127.0.0.1:``--port``, checks
that a request through it reaches a replica, and prints the address.  A replica that dies is
started again (its learners are already on the others, and their URLs hold their work).
Ctrl-C or SIGTERM stops nginx, then the replicas, and removes the working folder.

From Python (the tests and ``benchmarks/load.py`` do this)::

    with serve(2, shared_environment(jobs_dir)) as deployment:    # on free ports
        deployment.url, deployment.replicas[0].kill()
"""

from __future__ import annotations

import argparse
import shutil
import signal
import socket
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from deploy.proxy import REPLICA_HEADER, Proxy
from deploy.replicas import (
    Replica,
    ReplicaError,
    default_jobs_dir,
    described,
    shared_environment,
    start_replicas,
    wait_healthy,
)


@dataclass
class Deployment:
    """The running set-up: the proxy learners open, and the replicas behind it."""

    proxy: Proxy
    replicas: list[Replica]
    workdir: Path

    @property
    def url(self) -> str:
        return self.proxy.url

    def replica_at(self, address: str) -> Replica:
        """The replica nginx names ``address`` (``127.0.0.1:8501``, as in its X-Lab-Replica header)."""
        return next(r for r in self.replicas if r.address == address)

    def stop(self) -> None:
        """nginx first (no new requests), then every replica (all told at once, then awaited)."""
        self.proxy.stop()
        for replica in self.replicas:
            replica.terminate()
        for replica in self.replicas:
            replica.wait_or_kill()


def replica_through(url: str) -> str:
    """Which replica answers a fresh request at ``url`` (nginx's X-Lab-Replica header)."""
    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=5) as response:
        return str(response.headers.get(REPLICA_HEADER, ""))


def free_ports(n: int) -> list[int]:
    """``n`` distinct free ports of 127.0.0.1 (the sockets are held together, so none comes twice)."""
    with ExitStack() as stack:
        sockets = [stack.enter_context(socket.socket()) for _ in range(n)]
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [int(s.getsockname()[1]) for s in sockets]


@contextmanager
def serve(replicas: int, env: Mapping[str, str], port: int | None = None,
          replica_ports: Sequence[int] | None = None, workdir: Path | None = None) -> Iterator[Deployment]:
    """Start ``replicas`` replicas and nginx on ``port``; everything is stopped on leaving, and a
    working folder made here is removed.  Without ``port``, every port is a free one."""
    if port is None:
        port, *replica_ports = free_ports(1 + replicas)
    ports = list(replica_ports or range(port + 1, port + 1 + replicas))
    if len(ports) != replicas:
        raise ValueError(f"{replicas} replicas need {replicas} ports, not {len(ports)}")
    made = workdir is None
    folder = workdir or Path(tempfile.mkdtemp(prefix="parsing-lab-serve-"))
    folder.mkdir(parents=True, exist_ok=True)
    deployment = Deployment(Proxy(port, folder / "nginx"), [], folder)
    try:
        deployment.replicas = start_replicas(ports, dict(env), folder)
        wait_healthy(deployment.replicas)
        deployment.proxy.start(ports)
        replica_through(deployment.url)  # one request through nginx to a replica, or an error here
        yield deployment
    finally:
        deployment.stop()
        if made:
            shutil.rmtree(folder, ignore_errors=True)


# -- the command --------------------------------------------------------------------------------
def stop_on_sigterm() -> None:
    """SIGTERM ends the launcher as Ctrl-C does, through ``serve``'s clean-up."""
    def handler(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, handler)


def supervise(deployment: Deployment, every: float = 2.0) -> None:
    """Until interrupted: start again any replica that died; give up if nginx itself exits."""
    while deployment.proxy.alive():
        for replica in deployment.replicas:
            if not replica.alive():
                print(f"replica {replica.address} exited; starting it again", flush=True)
                replica.start()
        time.sleep(every)
    raise SystemExit(f"nginx exited:\n{deployment.proxy.errors()}")


def arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replicas", type=int, default=2, help="how many streamlit processes (default 2)")
    ap.add_argument("--port", type=int, default=8500, help="nginx's port on 127.0.0.1 (default 8500)")
    ap.add_argument("--replica-ports", type=int, nargs="+", help="the replicas' ports (default: --port+1, …)")
    ap.add_argument("--database-url", help="progress store shared by all (default: $PARSING_DATABASE_URL, "
                                           "else the SQLite file in the user's data folder)")
    ap.add_argument("--jobs-dir", type=Path, default=default_jobs_dir(),
                    help="training runs' folder shared by all (default: %(default)s)")
    ap.add_argument("--data-dir", help="treebank folder (default: $PARSING_DATA_DIR)")
    ap.add_argument("--shared-server", action=argparse.BooleanOptionalAction, default=True,
                    help="a tab may stop only its own runs (PARSING_SHARED_SERVER=1; default on)")
    return ap.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(argv)
    stop_on_sigterm()
    args.jobs_dir.mkdir(parents=True, exist_ok=True)
    env = shared_environment(args.jobs_dir, args.database_url, args.data_dir, args.shared_server)
    try:
        with serve(args.replicas, env, args.port, args.replica_ports) as deployment:
            print(f"{len(deployment.replicas)} replicas ({', '.join(r.address for r in deployment.replicas)})"
                  f" behind nginx, sharing:\n{described(env)}", flush=True)
            if not env.get("PARSING_DATABASE_URL"):
                print("  progress: the SQLite file in the user's data folder (set --database-url for "
                      "PostgreSQL)", flush=True)
            print(f"Open {deployment.url}  (Ctrl-C stops everything)", flush=True)
            supervise(deployment)
    except KeyboardInterrupt:
        print("stopped", flush=True)
    except (ReplicaError, RuntimeError, OSError) as err:  # a replica, nginx, or the request through it
        sys.exit(str(err))


if __name__ == "__main__":
    main()
