"""A Ray head for the class's training runs: one machine, loopback only, a token on every call.

    python -m deploy.ray_head --cpus 4 [--dashboard-port 8265] [--folder DIR]

Anyone who can reach a Ray cluster can run code on it as the user who started it, so the
head is locked down twice:

* **Loopback only.**  ``ray start --head --node-ip-address=127.0.0.1`` alone is not enough:
  Ray swaps 127.0.0.1 for the machine's network address, and its GCS, raylet, agents and
  client server then listen on every interface.  With ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``
  Ray keeps to a one-machine cluster and binds them all to 127.0.0.1 (no other node can join,
  which is the point).  :meth:`RayHead.start` then reads the listening sockets of the head's
  processes and refuses to go on if one is on another address.
* **A token.**  ``RAY_AUTH_MODE=token``: every request to the dashboard (where the Jobs API
  answers) and every gRPC call between Ray's processes must carry the token, which sits in a
  file only the server's user may read (``RAY_AUTH_TOKEN_PATH``, mode 600), never on a
  command line.  A local user who is not the server's user cannot submit a job.

:meth:`RayHead.environment` is what the app's replicas need to send it jobs (the backend,
the address, the token's file); the Jobs client reads the token from that file by itself.
``ray start --block`` stays in the foreground, so the launcher owns the head, and
:meth:`RayHead.stop` ends every process under it (``ray stop`` would end every Ray of the
machine, another user's included).
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from deploy.credentials import write_private
from deploy.proxy import listening
from deploy.signals import stop_on_sigterm
from deploy.sockets import descendants, exposed, free_ports
from server.settings import Settings

START_TIMEOUT_S = 180  # a head starts in about 40 s on a busy two-core machine
START_TRIES = 3
STOP_GRACE_S = 10
KILL_WAIT_S = 10  # after SIGKILL, how long stop() waits for the processes to be torn down
#: Ray's own settings for a one-machine head: loopback addresses, token auth, no usage report.
LOCKED = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "token", "RAY_DISABLE_USAGE_STATS": "1"}


class RayHeadError(RuntimeError):
    """The head did not start, or listens where it must not."""


def ray_command() -> list[str]:
    """Ray's command-line tool, from the Python environment the launcher runs in."""
    beside = Path(sys.executable).with_name("ray")
    found = str(beside) if beside.exists() else shutil.which("ray")
    if found is None:
        raise RayHeadError("Ray is not installed: pip install -r requirements-ray.txt")
    return [found]


@dataclass
class RayHead:
    """``ray start --head --block`` with its files in ``folder`` and the dashboard on ``port``."""

    folder: Path
    cpus: int
    port: int
    ports: Sequence[int]  # GCS, client server, dashboard agent: fixed, so no default clashes
    process: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        """Where the Jobs API answers (``RAY_ADDRESS``)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def token_file(self) -> Path:
        return self.folder / "ray-token"

    @property
    def log(self) -> Path:
        return self.folder / "ray-head.log"

    def environment(self) -> dict[str, str]:
        """What a process needs to send this head jobs (no secret in it, only the file's name)."""
        return {Settings.variable("jobs_backend"): "ray", "RAY_ADDRESS": self.address,
                "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(self.token_file)}

    def command(self) -> list[str]:
        gcs, client, agent = self.ports
        return [*ray_command(), "start", "--head", "--block", "--disable-usage-stats",
                "--node-ip-address=127.0.0.1", "--dashboard-host=127.0.0.1", "--include-dashboard=true",
                f"--dashboard-port={self.port}", f"--port={gcs}", f"--ray-client-server-port={client}",
                f"--dashboard-agent-listen-port={agent}", f"--num-cpus={self.cpus}",
                "--object-store-memory=100000000", f"--temp-dir={self.folder / 'ray'}"]

    def start(self, tries: int = START_TRIES) -> RayHead:
        """Start the head; RayHeadError (and nothing left running) if it does not answer in time
        or listens beyond loopback.  A head that exits while starting is started again, up to
        ``tries`` times: Ray gives its raylet 30 s to register, which a loaded machine can miss."""
        self.folder.mkdir(parents=True, exist_ok=True)
        write_private(self.token_file, secrets.token_hex(32))
        for attempt in range(1, tries + 1):
            self.launch()
            try:
                self.wait_ready()
                self.check_loopback()
                return self
            except RayHeadError:
                self.stop()
                if self.ray_started() or attempt == tries:  # a fault a new try would not mend
                    raise
        raise AssertionError("unreachable: the last try returns or raises")

    def launch(self) -> None:
        env = {**os.environ, **LOCKED, "RAY_AUTH_TOKEN_PATH": str(self.token_file)}
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(self.command(), env=env, stdout=out, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True)

    def ray_started(self) -> bool:
        """Did the last ``ray start`` get through (its raylet registered), as its log says?"""
        return "Ray runtime started." in self.log_tail(200_000).rpartition("Local node IP")[2]

    def answers(self) -> bool:
        """Does the Jobs API answer a request carrying the token?"""
        request = urllib.request.Request(f"{self.address}/api/jobs/",
                                         headers={"Authorization": f"Bearer {self.token_file.read_text()}"})
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return bool(response.status == 200)
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False

    def ready(self) -> bool:
        """Is every process up: ``ray start`` done (its raylet registered), the raylet's dashboard
        agent (the last to start) listening, and the Jobs API answering?"""
        return self.ray_started() and listening(self.ports[2]) and self.answers()

    def wait_ready(self, timeout: float = START_TIMEOUT_S) -> None:
        deadline = time.monotonic() + timeout
        while not self.ready():
            if not self.alive() or time.monotonic() > deadline:
                raise RayHeadError(f"the Ray head did not start:\n{self.log_tail()}")
            time.sleep(0.5)

    def check_loopback(self) -> None:
        """RayHeadError naming every socket of the head's processes that is not on loopback."""
        if self.process is not None and (wide := exposed(self.process.pid)):
            raise RayHeadError("Ray listens beyond loopback: " + ", ".join(map(str, wide)))

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, grace: float = STOP_GRACE_S) -> None:
        """SIGTERM to the head and every process under it (runs included), SIGKILL after ``grace``."""
        if self.process is None:
            return
        tree = descendants(self.process.pid)
        signal_all(tree, signal.SIGTERM)
        wait_until_ended(tree, grace, reap=self.process.poll)  # poll() reaps the head itself
        signal_all(descendants(self.process.pid) + tree, signal.SIGKILL)
        self.process.wait()
        # A killed process is gone only once the kernel has torn it down, which a loaded machine
        # can take a moment to do: return when none of them runs any more.
        wait_until_ended(tree, KILL_WAIT_S)

    def log_tail(self, chars: int = 2000) -> str:
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""


def signal_all(pids: Sequence[int], signum: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass


def wait_until_ended(pids: Sequence[int], seconds: float, reap: Callable[[], object] = lambda: None) -> None:
    """Return once none of ``pids`` runs (or after ``seconds``), calling ``reap`` as it waits."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(running(pid) for pid in pids):
        reap()
        time.sleep(0.1)


def running(pid: int) -> bool:
    """Is ``pid`` a process that has not ended (a zombie has)?"""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def ray_head(folder: Path, cpus: int, port: int | None = None) -> RayHead:
    """A head (not started yet) on ``port``, or a free one, with its other fixed ports free ones."""
    ports = free_ports(4)
    return RayHead(folder, cpus, port or ports[0], ports[1:])


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpus", type=int, default=os.cpu_count() or 1, help="CPUs runs may take (default: all)")
    ap.add_argument("--dashboard-port", type=int, default=8265, help="the Jobs API's port (default 8265)")
    ap.add_argument("--folder", type=Path, help="the head's files (default: a new temporary folder)")
    args = ap.parse_args(argv)
    folder = args.folder or Path(tempfile.mkdtemp(prefix="parsing-lab-ray-", dir="/tmp"))
    head = ray_head(folder, args.cpus, args.dashboard_port)
    stop_on_sigterm()
    try:
        head.start()
        print("Ray head on 127.0.0.1 only, token required.  Start the app with:\n"
              + "\n".join(f"  export {k}={v}" for k, v in head.environment().items()), flush=True)
        while head.alive():
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    except RayHeadError as err:
        sys.exit(str(err))
    finally:
        head.stop()
        if args.folder is None:
            shutil.rmtree(folder, ignore_errors=True)
    print("stopped", flush=True)


if __name__ == "__main__":
    main()
