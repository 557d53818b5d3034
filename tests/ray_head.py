"""A Ray head on loopback for the tests and benchmarks of the Ray jobs backend.

``ray.init`` runs in a subprocess of its own, with the dashboard (where the Jobs API answers) on
a free port and its files in a fresh, short temporary folder (Ray's socket paths must stay
short); the subprocess shuts its Ray down when its stdin closes.  So ending the head ends this
head's processes only, never another Ray on the machine (as ``ray stop`` would).  No usage
statistics, no auth token (``RAY_AUTH_MODE=disabled``: a cluster of one machine, on loopback),
a small object store.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

HEAD = """
import sys, ray
ray.init(num_cpus=int(sys.argv[3]), include_dashboard=True, dashboard_host="127.0.0.1",
         dashboard_port=int(sys.argv[1]), object_store_memory=100_000_000, _temp_dir=sys.argv[2],
         log_to_driver=False)
print("ready", flush=True)
sys.stdin.read()
ray.shutdown()
"""
QUIET = {"RAY_DISABLE_USAGE_STATS": "1", "RAY_AUTH_MODE": "disabled"}
START_TRIES = 3


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_head(folder: str, port: int, cpus: int) -> subprocess.Popen[str]:
    """The head's subprocess, once its dashboard answers (at most two minutes)."""
    with open(Path(folder) / "head.err", "w") as err:
        head = subprocess.Popen([sys.executable, "-c", HEAD, str(port), folder, str(cpus)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True,
                                env={**os.environ, **QUIET}, start_new_session=True)
    timer = threading.Timer(120, head.kill)
    timer.start()
    line = "?"
    try:
        while line and line.strip() != "ready":
            line = head.stdout.readline() if head.stdout else ""
    finally:
        timer.cancel()
    if line.strip() != "ready":
        kill_group(head)  # what it started before failing (a GCS, a raylet) goes too
        raise RuntimeError("the Ray head did not start:\n" + (Path(folder) / "head.err").read_text()[-2000:])
    return head


def kill_group(head: subprocess.Popen[str]) -> None:
    try:
        os.killpg(head.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    head.wait()


def start_head_again_if_late(folder: str, port: int, cpus: int,
                             tries: int = START_TRIES) -> subprocess.Popen[str]:
    """:func:`start_head`, tried again when Ray gave up on its own raylet (it waits 30 s for it to
    register, which a loaded machine can miss)."""
    for attempt in range(1, tries + 1):
        try:
            return start_head(folder, port, cpus)
        except RuntimeError as err:
            if attempt == tries or "timed out during startup" not in str(err):
                raise
    raise AssertionError("unreachable: the last try returns or raises")


def stop_head(head: subprocess.Popen[str]) -> None:
    """Close the head's stdin (it shuts Ray down); kill its process group if it lingers."""
    if head.stdin:
        head.stdin.close()
    try:
        head.wait(60)
    except subprocess.TimeoutExpired:
        os.killpg(head.pid, signal.SIGKILL)


@contextmanager
def ray_head(cpus: int = 2) -> Iterator[str]:
    """A Ray head of ``cpus`` CPUs while the block runs; yields its dashboard's address."""
    folder, port = tempfile.mkdtemp(prefix="ray", dir="/tmp"), free_port()
    try:
        head = start_head_again_if_late(folder, port, cpus)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            stop_head(head)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
