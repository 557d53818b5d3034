"""nginx's stickiness (``deploy/nginx.conf.template``), with two tiny HTTP servers as replicas.

The cookie ``lab_replica`` names the replica that last answered; a request carrying it goes
there.  When that replica is gone, the request goes to another, whose answer re-pins the
cookie; once the first is back, the browser stays where its session now lives.  (The browser
test of the same, with Streamlit and a live tab, is in ``tests/browser/test_replicas.py``.)
"""

from __future__ import annotations

import http.server
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from deploy.proxy import COOKIE, NGINX, REPLICA_HEADER, Proxy
from deploy.sockets import free_ports
from tests.needs import unavailable


class Replica:
    """An HTTP server on 127.0.0.1:``port`` that answers every GET with its own port."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.server: http.server.ThreadingHTTPServer | None = None

    def start(self) -> Replica:
        port = self.port

        class Answer(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
                body = str(port).encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Answer)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        assert self.server is not None
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[Proxy, list[Replica]]]:
    if not NGINX.exists():
        unavailable(f"{NGINX} is missing; install it with `apt-get install -y nginx`")
    port, *ports = free_ports(3)
    replicas = [Replica(p).start() for p in ports]
    proxy = Proxy(port, tmp_path / "nginx").start(ports)
    try:
        yield proxy, replicas
    finally:
        proxy.stop()
        for replica in replicas:
            if replica.server is not None and replica.server.socket.fileno() != -1:
                replica.stop()


def get(proxy: Proxy, cookie: str | None = None) -> tuple[str, str | None, str]:
    """(the body: the port that answered, the cookie nginx set, nginx's X-Lab-Replica)."""
    headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
    request = urllib.request.Request(f"{proxy.url}/", headers=headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        set_cookie = answer.headers.get("Set-Cookie")
        value = set_cookie.split(";")[0].partition("=")[2] if set_cookie else None
        return answer.read().decode(), value, str(answer.headers.get(REPLICA_HEADER))


def test_the_cookie_follows_the_replica_that_answers(proxied: tuple[Proxy, list[Replica]]) -> None:
    proxy, (first, second) = proxied
    fresh = {get(proxy)[0] for _ in range(4)}
    assert fresh == {str(first.port), str(second.port)}  # new browsers spread over both
    answered, pinned, _ = get(proxy)
    assert pinned == answered  # the cookie names the replica that answered
    for replica in (first, second):
        assert get(proxy, str(replica.port))[:2] == (str(replica.port), str(replica.port))
    assert get(proxy, "9")[0] in fresh and get(proxy, "../etc")[0] in fresh  # no replica of ours
    first.stop()  # killed: its browsers go to the other one, and are pinned there
    answered, pinned, tried = get(proxy, str(first.port))
    assert (answered, pinned) == (str(second.port), str(second.port))
    assert tried == f"127.0.0.1:{first.port}, 127.0.0.1:{second.port}"
    proxied[1][0] = Replica(first.port).start()  # back: a browser pinned to the second stays there
    assert get(proxy, str(second.port))[:2] == (str(second.port), str(second.port))
