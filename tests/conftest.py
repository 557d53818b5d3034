"""Shared test setup: where the treebanks are, and a local HTTP server to download from.

Tests read UD treebanks from ``PARSING_DATA_DIR``; when it is not set we use the CI layout,
a ``shared/data/ud`` folder beside the repository.  Learners' progress goes to a database of
the test session's own (``PARSING_DATABASE_URL``), never to the user's, and no learned DQN
model of the user's (``PARSING_DQN_MODEL``, or a run in the machine's jobs folder) joins the oracles
under test.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from postgres_server import postgres_server  # noqa: F401  (a fixture: the session's PostgreSQL server)
from progress_fixtures import clock, database_url, new_database, store  # noqa: F401  (fixtures: SQLite and PostgreSQL)

REPO = Path(__file__).resolve().parent.parent
# Which of the variables below this file set itself, in this process or in the one that started it:
# a pytest-xdist worker inherits its controller's environment, and makes such folders again, its own.
MADE_HERE = "TESTS_MADE_FOLDERS"


def own_folder(variable: str, prefix: str, database: str = "") -> None:
    """Point ``variable`` at a new temporary folder, removed when the process ends (with
    ``database``, at a SQLite file of that name in it), unless whoever runs the tests set it."""
    made = set(os.environ.get(MADE_HERE, "").split())
    if variable in os.environ and variable not in made:
        return
    folder = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    os.environ[variable] = f"sqlite:///{folder}/{database}" if database else folder
    os.environ[MADE_HERE] = " ".join(sorted(made | {variable}))


os.environ.setdefault("PARSING_DATA_DIR", str(REPO.parent / "shared" / "data" / "ud"))
own_folder("PARSING_DATABASE_URL", "progress-", database="progress.sqlite3")
os.environ.pop("PARSING_DQN_MODEL", None)
# The suite's runs keep the app's priority (nice 0): the suite keeps both cores busy all along,
# and at the default (nice 10) a run a test waits on got so little CPU that its first epoch came
# after the test's minute (a Train page in Chromium, a lab job: two failures in one full run).
# The default's own test asks for it (tests/test_jobs.py).
os.environ["PARSING_JOB_NICE"] = "0"
# The server's runs (trained parsers, DQN oracles listed as ``dqn:<run>``) come from a folder of the
# session's own, never from the machine's default jobs folder, so the oracles under test are known.
own_folder("PARSING_JOBS_DIR", "jobs-")
# Jobs start by the dozen here, each forked by its process's standby as on a server (the default):
# the standby imports torch once, where each job started from nothing would import it again.
os.environ["PARSING_STANDBY"] = "1"
# The suite starts Python by the hundred (workers, app servers, replicas, training jobs): without
# cached bytecode each one compiles the project from source again (half a second or more apiece,
# and 6 s more for a worker's collection).  The processes started from here may write it (the
# ``__pycache__`` folders are ignored by git), whatever the shell asked; so may this process, for
# what it imports from here on (the project, and the test modules pytest rewrites: 77 of them, 2-3 s
# of a worker's collection, are rewritten again at every start when their rewrite is not kept).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False
for _cap in ("EXERCISES", "JOBS", "UPLOAD"):  # the suite's AppTests share one session id: caps tested alone
    os.environ.setdefault(f"PARSING_LIMIT_{_cap}", "1e12/1e12")


SHARED_SCOPES = {"module", "class", "package"}
SPARE_WORKERS = 2  # workers beyond the CPUs: a test waiting on a server, a job or a page leaves its
                   # CPU idle (3 workers kept 2 CPUs 1.4 busy on average in a full run)
MOST_WORKERS = 6  # each worker may start a Streamlit server, a browser and PostgreSQL of its own


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """How many pytest-xdist workers ``-n auto`` (pyproject.toml's addopts) starts.

    None when the command names its tests (a file, a folder, a test id): a run of a few tests is
    quicker in one process than with workers to start.  For the whole suite, :data:`SPARE_WORKERS`
    more than the machine's CPUs, at most :data:`MOST_WORKERS`.  ``-n 0`` runs everything in one process.
    """
    if config.args_source == pytest.Config.ArgsSource.ARGS:
        return 0
    return min((os.cpu_count() or 1) + SPARE_WORKERS, MOST_WORKERS)


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> Iterator[None]:
    """Keep a module's tests on one pytest-xdist worker when they share a module's fixture, and
    hand out the longest work first.

    The suite runs on several workers (``-n`` in pyproject.toml, ``--dist loadgroup``); each worker
    sets up the fixtures its own tests need.  A module fixture (a server of its own, a trained model,
    a search's remembered costs) is made to be paid once: its tests are grouped, so only one worker
    pays it (a test that names its own ``xdist_group`` keeps it).  Tests of other modules are handed
    out one by one.  Marked before the other plugins' hooks run, since xdist's reads the marks.

    Once every hook has run (xdist's has named each test's group in its id), a worker orders the
    units it will be handed -- a group, or a test of none -- longest first by :data:`DURATIONS`, so
    that no long unit starts last and leaves one worker busy while the others idle.
    """
    for item in items:
        if shares_fixture(item) and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
    yield
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items[:] = longest_first(items, read_durations(DURATIONS))


# -- which tests start first ------------------------------------------------------------------

#: Seconds each unit of work took in a full run (``--record-durations`` rewrites it), longest first.
DURATIONS = Path(__file__).with_name("durations.txt")


def unit_of(nodeid: str) -> str:
    """The unit of work pytest-xdist's ``loadgroup`` hands to one worker: the group an id ends with
    (``test_x.py::test_y@group``), else the test itself."""
    return nodeid.rpartition("@")[2] if nodeid.rfind("@") > nodeid.rfind("]") else nodeid


def read_durations(path: Path) -> dict[str, float]:
    """``unit -> seconds`` from a table of ``seconds unit`` lines (none if the file is missing)."""
    if not path.exists():
        return {}
    rows = (line.split(maxsplit=1) for line in path.read_text().splitlines() if line.strip())
    return {unit: float(seconds) for seconds, unit in rows}


def longest_first(items: list[pytest.Item], seconds: dict[str, float]) -> list[pytest.Item]:
    """``items`` with each unit's tests together, the units by their seconds, longest first (units
    not in the table last, in collection order); a unit's tests keep their order."""
    units: dict[str, list[pytest.Item]] = {}
    for item in items:
        units.setdefault(unit_of(item.nodeid), []).append(item)
    ranked = sorted(units.items(), key=lambda unit: -seconds.get(unit[0], 0.0))
    return [item for _, tests in ranked for item in tests]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--record-durations", action="store_true",
                     help=f"after a full run, rewrite {DURATIONS.name}: the seconds of each unit of work")


class DurationRecorder:
    """Adds up each unit's setup, call and teardown seconds as the reports come in (from every
    worker, on the controller) and writes them to :data:`DURATIONS` at the end of the session."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        unit = unit_of(report.nodeid)
        self.seconds[unit] = self.seconds.get(unit, 0.0) + report.duration

    def pytest_sessionfinish(self) -> None:
        ranked = sorted(self.seconds.items(), key=lambda unit: -unit[1])
        DURATIONS.write_text("".join(f"{s:.1f} {unit}\n" for unit, s in ranked if s >= MIN_RECORDED_S))


MIN_RECORDED_S = 1.0  # shorter units are handed out in collection order, after the listed ones


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("record_durations") and not os.environ.get("PYTEST_XDIST_WORKER"):
        config.pluginmanager.register(DurationRecorder(), "duration-recorder")
    if os.environ.get("PYTEST_XDIST_WORKER"):
        from server.jobs.local import STANDBY

        STANDBY.ensure()  # a worker starts jobs by the dozen: its standby imports while it collects


def shares_fixture(item: pytest.Item) -> bool:
    """Whether ``item`` uses a fixture kept for a module, a class or a package."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:  # a doctest, or a README example
        return False
    return any(definitions[-1].scope in SHARED_SCOPES for definitions in info.name2fixturedefs.values())


#: The project's folders of code, imported by the processes the suite starts.
CODE = ("parsing_core", "ui", "server", "deploy", "pages", "benchmarks")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist starts its workers
def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the exact arc-standard oracle's loops into numba's disk cache before the workers
    start: in a fresh checkout each worker (and each app server it starts) would compile them at
    the same moment, about 14 CPU-s each, where loading the cache takes about one.  The project's
    bytecode too, which each Python process started in the first minutes would compile again."""
    if session.config.getoption("numprocesses", None) and not os.environ.get("PYTEST_XDIST_WORKER"):
        import compileall

        from parsing_core.oracles.arc_standard_exact import warm_up

        for folder in CODE:
            compileall.compile_dir(REPO / folder, quiet=1)
        compileall.compile_file(REPO / "app.py", quiet=1)
        warm_up()


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


def parent_of(pid: int) -> int:
    """The parent of process ``pid`` (``/proc``)."""
    return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1])


@pytest.fixture(params=["own process", "standby"])
def waiting_standby(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """Run the test twice: its local jobs start a process of their own, then are forked by the
    standby of this process (server/jobs/standby.py; the fixture's value, else None)."""
    from server.jobs import local

    if request.param == "own process":
        monkeypatch.setenv("PARSING_STANDBY", "0")
        yield None
        return
    monkeypatch.setenv("PARSING_STANDBY", "1")
    assert local.STANDBY.ready(90), "the standby did not get ready"
    yield local.STANDBY
