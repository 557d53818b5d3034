"""nginx in front of the replicas, run by an ordinary user from a folder of its own.

``render`` fills in ``nginx.conf.template``: the port, the replicas, and the prefix folder that
holds everything nginx writes (pid, logs, temporary files of uploads).  ``Proxy.start`` runs
Debian's ``/usr/sbin/nginx -p <prefix> -c <prefix>/nginx.conf -e <prefix>/error.log`` in the
foreground (``daemon off``), so the launcher owns the process and stops it like any other.

>>> conf = render(8500, [8501, 8502], Path("/tmp/lab"))
>>> "listen 127.0.0.1:8500;" in conf and "server 127.0.0.1:8502 max_fails=0;" in conf
True
>>> print(pinned_upstream(8502, [8501, 8502]))
    upstream replica_8502 {
        server 127.0.0.1:8502 max_fails=0;
        server 127.0.0.1:8501 max_fails=0 backup;
    }
>>> "8501 replica_8501;" in conf and "pid /tmp/lab/nginx.pid;" in conf
True
"""

from __future__ import annotations

import getpass
import grp
import os
import signal
import socket
import string
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

NGINX = Path("/usr/sbin/nginx")
TEMPLATE = Path(__file__).with_name("nginx.conf.template")
COOKIE = "lab_replica"  # the sticky cookie nginx sets: the port of the replica that answered
REPLICA_HEADER = "X-Lab-Replica"  # the replica that answered, as host:port
MAX_BODY = "210m"  # above Streamlit's own 200 MB cap, so Streamlit's message is the one shown
TEMP_FOLDERS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
START_TIMEOUT_S = 10


class ConfTemplate(string.Template):
    """``@{name}`` fields, so nginx's ``$variables`` pass through untouched."""

    delimiter = "@"


def user_line() -> str:
    """nginx started by root hands its workers to ``nobody``, who could not write the prefix
    folder; keep them as the launching user.  For anyone else nginx needs no such line."""
    if os.geteuid() != 0:
        return ""
    return f"user {getpass.getuser()} {grp.getgrgid(os.getegid()).gr_name};"


def server(port: int, backup: bool = False) -> str:
    """One replica in an upstream.  ``max_fails=0``: nginx never marks a replica down.  With its
    default (one failure: down for 10 s) a replica killed and a backup refused once in the same
    seconds left an upstream with "no live upstreams", and a browser's request for one of
    Streamlit's scripts got a 502, which the browser keeps for the tab's life.  A dead replica on
    loopback refuses at once, and ``proxy_next_upstream`` goes on to the next."""
    return f"server 127.0.0.1:{port} max_fails=0{' backup' if backup else ''};"


def pinned_upstream(port: int, replica_ports: Sequence[int]) -> str:
    """The upstream of the browsers pinned to ``port``: that replica, then the others, in the
    order after it (so the browsers of a dead replica do not all land on the same one)."""
    at = list(replica_ports).index(port)
    others = [*replica_ports[at + 1:], *replica_ports[:at]]
    lines = [server(port), *(server(p, backup=True) for p in others)]
    return "\n".join([f"    upstream replica_{port} {{", *(f"        {line}" for line in lines), "    }"])


def render(port: int, replica_ports: Sequence[int], prefix: Path) -> str:
    """The nginx.conf text for a proxy on 127.0.0.1:``port`` in front of ``replica_ports``."""
    return ConfTemplate(TEMPLATE.read_text()).substitute(
        port=port, prefix=prefix, user=user_line(), cookie=COOKIE, max_body=MAX_BODY,
        servers="\n".join(f"        {server(p)}" for p in replica_ports),
        pins="\n".join(f"        {p} replica_{p};" for p in replica_ports),
        pinned_upstreams="\n".join(pinned_upstream(p, replica_ports) for p in replica_ports))


def listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


@dataclass
class Proxy:
    """One nginx process (master and its worker) serving on 127.0.0.1:``port``."""

    port: int
    prefix: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def error_log(self) -> Path:
        return self.prefix / "error.log"

    def start(self, replica_ports: Sequence[int], nginx: Path = NGINX) -> Proxy:
        """Write the configuration and start nginx; RuntimeError with its error log if it does not
        listen within a few seconds (a bad configuration, a port in use)."""
        self.prefix.mkdir(parents=True, exist_ok=True)
        for folder in TEMP_FOLDERS:
            (self.prefix / folder).mkdir(exist_ok=True)
        conf = self.prefix / "nginx.conf"
        conf.write_text(render(self.port, replica_ports, self.prefix))
        self.process = subprocess.Popen(
            [str(nginx), "-p", str(self.prefix), "-c", str(conf), "-e", str(self.error_log)],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + START_TIMEOUT_S
        while not listening(self.port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"nginx did not start on port {self.port}:\n{self.errors()}")
            time.sleep(0.1)
        return self

    def errors(self) -> str:
        return self.error_log.read_text(errors="replace")[-2000:] if self.error_log.exists() else ""

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, timeout: float = 5) -> None:
        """SIGQUIT: nginx's graceful stop (requests in flight finish); SIGKILL after ``timeout``."""
        if not self.alive():
            return
        assert self.process is not None
        self.process.send_signal(signal.SIGQUIT)
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)  # the master and its worker
            self.process.wait()
