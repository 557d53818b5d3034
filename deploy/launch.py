"""Serve a class: N replicas of the app behind nginx, in one command.

    python -m deploy.launch --replicas 2 --port 8500 [--database-url-file FILE] [--ray-cpus 4]
                            [--jobs-dir DIR] [--data-dir DIR] [--replica-ports 8601 8602]

Checks that the progress database answers, starts a Ray head locked to loopback with a token
when ``--ray-cpus`` asks for one (:mod:`deploy.ray_head`), starts the replicas (``streamlit run
serve.py`` on 127.0.0.1, ports ``--port``+1, +2, … unless given), waits until each answers
``/_stcore/health``, starts nginx on 127.0.0.1:``--port``, checks that a request through it
reaches a replica, and prints the address.  A replica that dies is started again (its learners
are already on the others, and their URLs hold their work).  Ctrl-C or SIGTERM stops nginx, the
replicas, then Ray, and removes the working folders.

The database URL's password never goes on a command line (see :mod:`deploy.credentials`): it
comes from ``PARSING_DATABASE_URL`` or a file only its owner may read, reaches the replicas in
their environment, and is printed as ``***``, as is anything else secret the launcher says.

From Python (the tests and ``benchmarks/load.py`` do this)::

    with serve(2, shared_environment(jobs_dir)) as deployment:    # on free ports
        deployment.url, deployment.replicas[0].kill()
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from deploy.credentials import Masker, SecretError, masked_url, password_of, read_private, refuse_in_argv
from deploy.proxy import REPLICA_HEADER, Proxy
from deploy.ray_head import RayHead, RayHeadError, ray_head
from deploy.replicas import (
    Replica,
    ReplicaError,
    default_jobs_dir,
    described,
    shared_environment,
    start_replicas,
    wait_healthy,
)
from deploy.signals import stop_on_sigterm
from deploy.sockets import free_ports
from server.settings import settings

__all__ = ["Deployment", "free_ports", "replica_through", "serve"]


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
def supervise(deployment: Deployment, head: RayHead | None, say: Callable[[str], None],
              every: float = 2.0) -> None:
    """Until interrupted: start again any replica that died; give up if nginx or Ray exits, or
    if Ray ever listens beyond loopback."""
    while deployment.proxy.alive():
        for replica in deployment.replicas:
            if not replica.alive():
                say(f"replica {replica.address} exited; starting it again")
                replica.start()
        if head is not None:
            if not head.alive():
                raise RayHeadError(f"the Ray head exited:\n{head.log_tail()}")
            head.check_loopback()
        time.sleep(every)
    raise SystemExit(f"nginx exited:\n{deployment.proxy.errors()}")


def arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replicas", type=int, default=2, help="how many streamlit processes (default 2)")
    ap.add_argument("--port", type=int, default=8500, help="nginx's port on 127.0.0.1 (default 8500)")
    ap.add_argument("--replica-ports", type=int, nargs="+", help="the replicas' ports (default: --port+1, …)")
    ap.add_argument("--database-url-file", type=Path,
                    help="a file (mode 600) holding the progress store's URL, password included "
                         "(default: $PARSING_DATABASE_URL, else the SQLite file in the user's data folder)")
    ap.add_argument("--database-url", help="a URL without a password (peer authentication over the local "
                                           "socket, for instance postgresql+psycopg:///lab); one with a "
                                           "password is refused, since `ps` shows it to everyone")
    ap.add_argument("--ray-cpus", type=int, help="start a Ray head of this many CPUs, on loopback with a "
                                                 "token, and send the training runs to it")
    ap.add_argument("--jobs-dir", type=Path, default=default_jobs_dir(),
                    help="training runs' folder shared by all (default: %(default)s)")
    ap.add_argument("--data-dir", help="treebank folder (default: $PARSING_DATA_DIR)")
    ap.add_argument("--shared-server", action=argparse.BooleanOptionalAction, default=True,
                    help="a tab may stop only its own runs (PARSING_SHARED_SERVER=1; default on)")
    return ap.parse_args(argv)


def database_url(args: argparse.Namespace) -> str | None:
    """The progress store's URL: from the file, the option (no password) or the environment."""
    refuse_in_argv(args.database_url, "--database-url")
    if args.database_url_file:
        return read_private(args.database_url_file)
    return args.database_url or settings().database_url


def check_database(url: str) -> None:
    """Connect once, so a wrong password or a missing database shows now, not in a learner's tab."""
    from sqlalchemy import exc, text

    from server.progress.database import connect

    try:
        with connect(url).connect() as connection:
            connection.execute(text("SELECT 1"))
    except exc.SQLAlchemyError as err:
        said = str(getattr(err, "orig", None) or err).strip().splitlines()[0]
        raise RuntimeError(f"the progress database {masked_url(url)} does not let us in: {said}") from None


@contextmanager
def local_ray(cpus: int | None) -> Iterator[RayHead | None]:
    """A Ray head of ``cpus`` CPUs in a short temporary folder while the block runs (None: no head)."""
    if not cpus:
        yield None
        return
    head = ray_head(Path(tempfile.mkdtemp(prefix="lab-ray-", dir="/tmp")), cpus)
    try:
        yield head.start()
    finally:
        head.stop()
        shutil.rmtree(head.folder, ignore_errors=True)


def serve_class(args: argparse.Namespace, url: str | None, say: Callable[[str], None]) -> None:
    """Database, Ray, replicas and nginx, until interrupted."""
    args.jobs_dir.mkdir(parents=True, exist_ok=True)
    env = shared_environment(args.jobs_dir, url, args.data_dir, args.shared_server)
    if url:
        check_database(url)
    with local_ray(args.ray_cpus) as head:
        env.update(head.environment() if head else {})
        with serve(args.replicas, env, args.port, args.replica_ports) as deployment:
            say(f"{len(deployment.replicas)} replicas ({', '.join(r.address for r in deployment.replicas)})"
                f" behind nginx, sharing:\n{described(env)}")
            if not url:
                say("  progress: the SQLite file in the user's data folder (see --database-url-file for "
                    "PostgreSQL)")
            if head:
                say(f"  training runs: Ray at {head.address}, on 127.0.0.1 only, token in {head.token_file}")
            say(f"Open {deployment.url}  (Ctrl-C stops everything)")
            supervise(deployment, head, say)


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(argv)
    stop_on_sigterm()
    mask = Masker([os.environ.get("RAY_AUTH_TOKEN")])

    def say(text: str) -> None:
        print(mask(text), flush=True)

    try:
        url = database_url(args)
        mask.add(password_of(url) if url else None)
        if url:
            say(f"progress: {masked_url(url)}")
        serve_class(args, url, say)
    except KeyboardInterrupt:
        say("stopped")
    except (SecretError, ReplicaError, RayHeadError, RuntimeError, OSError) as err:  # ours, or nginx's
        sys.exit(mask(str(err)))
    except Exception as err:  # the database's driver: its message may quote what it was given
        sys.exit(mask(f"cannot serve the class: {type(err).__name__}: {err}"))


if __name__ == "__main__":
    main()
