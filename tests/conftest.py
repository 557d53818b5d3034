"""Shared test setup: where the treebanks are, and a local HTTP server to download from.

Tests read UD treebanks from ``PARSING_DATA_DIR``; when it is not set we use the CI layout,
a ``shared/data/ud`` folder beside the repository.  Learners' progress goes to a database of
the test session's own (``PARSING_DATABASE_URL``), never to the user's, and no learned DQN
model of the user's (``PARSING_DQN_MODEL``) joins the oracles under test.
"""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from postgres_server import postgres_server  # noqa: F401  (a fixture: the session's PostgreSQL server)
from progress_fixtures import database_url, new_database  # noqa: F401  (fixtures: SQLite and PostgreSQL)

REPO = Path(__file__).resolve().parent.parent
os.environ.setdefault("PARSING_DATA_DIR", str(REPO.parent / "shared" / "data" / "ud"))
os.environ.setdefault("PARSING_DATABASE_URL", f"sqlite:///{tempfile.mkdtemp(prefix='progress-')}/progress.sqlite3")
os.environ.pop("PARSING_DQN_MODEL", None)
os.environ.setdefault("PARSING_STANDBY", "0")  # jobs start by the dozen here: standbys are tested apart
for _cap in ("EXERCISES", "JOBS", "UPLOAD"):  # the suite's AppTests share one session id: caps tested alone
    os.environ.setdefault(f"PARSING_LIMIT_{_cap}", "1e12/1e12")


@pytest.fixture(scope="session", autouse=True)
def compiled_loops() -> None:
    """Compile the exact arc-standard oracle's loops before any test times a page (as the app
    does in the background when it starts: ui/warm_up.py)."""
    from parsing_core.oracles.arc_standard_exact import warm_up

    warm_up()


@pytest.fixture(scope="session", autouse=True)
def components_scanned_once() -> Iterator[None]:
    """Scan the installed packages for Streamlit components once per session, not once per AppTest.

    Each new ``AppTest`` makes its own component registry and fills it by reading the metadata of
    every installed distribution (``scan_component_manifests``): about 0.25 s, paid again by each of
    the suite's hundreds of AppTests, and by each of a fuzzer's links.  A server scans once, when
    it starts; the packages do not change during a test session, so every AppTest here gets the
    result of one scan, still registered into a registry of its own.
    """
    from streamlit.components.v2 import manifest_scanner

    found = manifest_scanner.scan_component_manifests()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(manifest_scanner, "scan_component_manifests", lambda max_workers=None: list(found))
        yield


@pytest.fixture(scope="session", autouse=True)
def scripts_compiled_once() -> Iterator[None]:
    """Compile each page script once per session, as a server does, not at every AppTest run.

    AppTest gives every run a new, empty ``ScriptCache``, so each run read the page again, rewrote
    its syntax tree for Streamlit's "magic" and compiled it: half of a stepper rerun's time.  A
    server keeps one cache for all its sessions; here every AppTest run shares one too.  Pages do
    not change during a test session, and AppTest names a script it writes itself
    (``from_string``, ``from_function``) by the hash of its text.
    """
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.testing.v1 import app_test, local_script_runner

    shared = ScriptCache()
    with pytest.MonkeyPatch.context() as patch:
        for module in (app_test, local_script_runner):
            patch.setattr(module, "ScriptCache", lambda: shared)
        yield


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The directory of .conllu files the tests read."""
    return Path(os.environ["PARSING_DATA_DIR"])


# -- a local stand-in for raw.githubusercontent.com ------------------------------------------


@dataclass
class Server:
    """Serves ``files`` (URL path -> bytes) and records every path requested."""

    files: dict[str, bytes]
    requests: list[str] = field(default_factory=list)
    base_url: str = ""


@pytest.fixture
def server() -> Iterator[Server]:
    state = Server(files={})

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            state.requests.append(self.path)
            body = state.files.get(self.path)
            self.send_response(200 if body is not None else 404)
            self.send_header("Content-Length", str(len(body or b"")))
            self.end_headers()
            self.wfile.write(body or b"")

        def log_message(self, format: str, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    state.base_url = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


@pytest.fixture(params=["own process", "standby"])
def waiting_standby(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """Run the test twice: its local jobs start a process of their own, then are handed to a
    standby that waits for them (parsing_core/jobs/standby.py; the fixture's value, else None)."""
    from parsing_core.jobs import local
    from parsing_core.jobs.standby import Standby

    if request.param == "own process":
        yield None
        return
    monkeypatch.setenv("PARSING_STANDBY", "1")
    waiting = Standby(local.ROOT, next_after=0.5)
    monkeypatch.setattr(local, "STANDBY", waiting)
    waiting.ensure()
    yield waiting
    waiting.close()
