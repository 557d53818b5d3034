"""A class without browsers: N students speak Streamlit's own protocol and click "Oracle step".

    python -m benchmarks.class_load [--students 10 50 100] [--seconds 60] [--replicas 1]
    python -m benchmarks.class_load --url http://127.0.0.1:8501 [--pid 1234 ...]
    python -m benchmarks.class_load --students 100 --runs 1      # while a training run goes
    python -m benchmarks.board_targets [--write]             # the board's targets table

A browser tab is, to the server, one websocket.  Each student here is that websocket and nothing
more, so a class of a hundred costs this machine only the server's work (and a little of this
client's, reported beside it).  The conversation, as Streamlit's frontend holds it:

1. Open ``ws://host/_stcore/stream`` with the subprotocol ``streamlit``.  (That header's second
   and third entries carry an XSRF token and a session to resume; a fresh anonymous session needs
   neither: the token only guards the sign-in cookie.)
2. Send a ``BackMsg`` whose ``rerun_script`` is a ``ClientState``: the page's name (``stepper``)
   and the link's query string, as a tab opening ``/stepper?s=…`` does.
3. Read ``ForwardMsg`` after ``ForwardMsg``: ``new_session``, ``navigation`` (the page's script
   hash), ``page_info_changed`` (the query string the script wrote back), the ``delta`` of each
   element — a button's ``id`` is its widget id, and the delta's ``fragment_id`` names the
   ``@st.fragment`` it sits in — and ``script_finished``.  A run that stops to run again
   (``FINISHED_EARLY_FOR_RERUN``) is followed by another.
4. A click is another ``rerun_script``: the page's hash, the current query string, the control's
   fragment and one ``WidgetState``.  For a button: ``trigger_value = true`` for the button's id.
   The Stepper's controls are inside its board, one component (``bidi_component``, its data the
   board's JSON): a click there is the component's trigger widget (its id with ``__events``) with
   ``json_trigger_value``, the list of events the browser sends: ``[{"event": "action", "value":
   {"do": "oracle"}}]``.  Inside a fragment only the fragment runs, and its run ends with
   ``FINISHED_FRAGMENT_RUN_SUCCESSFULLY``.

5. Served by ``serve.py``, the board's data also names a route and the session's token
   (``"quick"``): a browser then sends a click mid-parse as one HTTP ``POST`` there, and the
   answer is the next board's data, with no run of the page (``ui/stepper/board_channel.py``).
   A student does the same: a ``POST`` on a connection of its own (with the replica's cookie,
   behind nginx), the click's latency running to the answer's last byte.  Where the answer is
   "rerun" (409: the click ends the parse), the click goes over the websocket as above, and its
   latency counts both.  ``--reruns`` makes every click go over the websocket, as against
   ``streamlit run app.py``.

Each student opens the stepper on the load benchmark's 12-token arc-standard sentence, then clicks
"Oracle step" (Reset once the parse is over) after 1–3 s of thought, for ``--seconds``; a click's
latency runs from sending it to the end of the run it started.  A student fails at the first click
with no answer in 30 s, a closed connection, an exception on the page, or no "Oracle step" to
click.  The table: students, clicks, p50/p95/max latency, failed students, clicks answered per
second (from the first click to the last answer), the server's CPU per click (``/proc/<pid>/stat``
of the server started here, or of ``--pid``), and this client's own CPU per click.

With ``--runs N`` the class clicks while N training runs go on the same machine, started as the
Train page starts them (local jobs, forked by a standby; a run of 60 epochs of the default network
on synthetic sentences, stopped after the class), once for each of ``--nice``'s values: how far
the runs give way to the app (``PARSING_JOB_NICE``, ``server/jobs/priority.py``).  The runs' CPU
per second of the class is in the table.  ``--write`` writes ``docs/benchmarks/class_load.md``.
"""


from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets
from streamlit.components.v2.bidi_component.main import _make_trigger_id
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.BidiComponent_pb2 import BidiComponent
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.Delta_pb2 import Delta
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from benchmarks.common import Section, add_write_flag, run_async, show, table, write_page
from benchmarks.load import CLICK_TIMEOUT_S, QUERY, cpu_seconds, percentile, servers
from deploy.proxy import REPLICA_HEADER
from server.jobs import JobBoard
from server.jobs.local import STANDBY
from server.settings import Settings, nice_value, settings

PAGE_INTRO = """Each student is a websocket speaking Streamlit's protocol to one app process, clicking
Oracle step on the Stepper's 12-token sentence after 1–3 s of thought (`benchmarks/class_load.py`
says how); as a browser does, a click mid-parse goes the board's quick way (one HTTP request
answered with the next board, no run of the page), the click that ends a parse over the
websocket.  Beside training runs: the class clicks while runs started as the Train page starts
them go on the same two cores, at the nice value the row names (`PARSING_JOB_NICE`; 0 is the
priority the runs had before they gave way to the app)."""

STEP, RESET = "Oracle step", "Reset"  # the controls a student clicks, by the words on them
BOARD_ACTIONS = {STEP: "oracle", RESET: "reset"}  # the same controls on the Stepper's board component
PAGE, LINK = QUERY.lstrip("/").split("?", 1)  # the stepper and its 12-token sentence
OPEN_S = 120  # the whole class opens its pages within this
OPENING_AT_ONCE = 8  # pages opening together (a class does not all arrive in the same second)


class StudentError(Exception):
    """Why a student's session failed, in words."""


def words(label: str) -> str:
    """A control's label without its icons and arrows: "⟲ Reset" → "Reset"."""
    return " ".join(re.findall(r"[^\W\d_]+", label))


# -- what a session sees -----------------------------------------------------------------------
@dataclass(frozen=True)
class Control:
    """A control as its delta describes it: the widget id a click sends back, and its fragment; a
    control of a component also has the action its click sends (a button's has none)."""

    id: str
    disabled: bool
    fragment: str
    action: dict[str, str] | None = None

    def widget_state(self) -> dict[str, object]:
        """What a click sets: a button's trigger, or the component's list of one event."""
        if self.action is None:
            return {"id": self.id, "trigger_value": True}
        return {"id": self.id, "json_trigger_value": json.dumps([{"event": "action", "value": self.action}])}


@dataclass
class View:
    """What a session knows of its page, as a browser tab would: the page's script hash, the
    query string the script last wrote, and its buttons by the words on them."""

    page_hash: str = ""
    query: str = ""
    controls: dict[str, Control] = field(default_factory=dict)
    quick: dict[str, str] | None = None  # where the board takes quick clicks, and the session's token
    drawn: tuple[str, int] = ("", 0)  # the session and version of the board drawn last

    def absorb(self, msg: ForwardMsg) -> bool:
        """Take in one message; True when it ends a run (a run stopped to rerun does not)."""
        kind = msg.WhichOneof("type")
        if kind == "navigation":
            self.page_hash = msg.navigation.page_script_hash
        elif kind == "page_info_changed":
            self.query = msg.page_info_changed.query_string
        elif kind == "delta":
            self.element(msg.delta)
        elif kind == "script_finished":
            if msg.script_finished == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                raise StudentError("the page did not compile")
            return msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN
        return False

    def element(self, delta: Delta) -> None:
        """Note a button; an exception on the page fails the student."""
        if delta.WhichOneof("type") != "new_element":
            return
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind == "exception":
            raise StudentError(f"the page raised {element.exception.type}: {element.exception.message[:120]}")
        if kind == "button":
            button = element.button
            self.controls[words(button.label)] = Control(button.id, button.disabled, delta.fragment_id)
        if kind == "bidi_component":
            self.board(element.bidi_component, delta.fragment_id)

    def board(self, component: BidiComponent, fragment: str) -> None:
        """Note the Stepper board's Oracle step and Reset, as its data says (enabled or not)."""
        data = json.loads(component.bytes or component.json or "{}")
        if isinstance(data, dict) and "oracle" in data:
            self.draw(data, _make_trigger_id(component.id, "events"), fragment)

    def draw(self, data: dict[str, Any], trigger: str, fragment: str) -> None:
        """Take in a board's data (from the page, or a quick click's answer)."""
        can = {STEP: bool(data["oracle"].get("move")), RESET: bool(data.get("controls", {}).get("reset"))}
        for label, action in BOARD_ACTIONS.items():
            self.controls[label] = Control(trigger, not can[label], fragment, {"do": action})
        self.quick = data.get("quick")
        self.drawn = (data.get("session", ""), data.get("version", 0))


# -- one student's session ---------------------------------------------------------------------
def stream_url(url: str) -> str:
    """The websocket of a server (or of nginx in front of replicas): http://h:p → ws://h:p/_stcore/stream."""
    return re.sub(r"^http", "ws", url.rstrip("/")) + "/_stcore/stream"


class Session:
    """One student's tab, without the tab: a websocket, and the page as its messages describe it."""

    def __init__(self, socket: websockets.ClientConnection, url: str = "", quick: bool = True) -> None:
        self.socket, self.view, self.url, self.use_quick = socket, View(), url, quick
        self.quick_clicks = 0  # clicks answered the quick way

    @classmethod
    async def open(cls, url: str, page: str = PAGE, query: str = LINK, timeout: float = OPEN_S,
                   quick: bool = True) -> Session:
        """Connect and run ``page`` with ``query``, as a tab opening ``/page?query`` does
        (``quick``: click the quick way where the board offers it, as a browser does)."""
        by = time.monotonic() + timeout
        socket = await websockets.connect(stream_url(url), subprotocols=["streamlit"],  # type: ignore[list-item]
                                          max_size=None, open_timeout=timeout)
        session = cls(socket, url, quick)
        try:
            first = ClientState(page_name=page, query_string=query)
            await session.run(first, max(0.0, by - time.monotonic()))
        except BaseException:
            await session.close()
            raise
        if STEP not in session.view.controls:
            await session.close()
            raise StudentError(f"no {STEP!r} on the page")
        return session

    @property
    def replica(self) -> str:
        """Which replica nginx sent this session to ("" without nginx)."""
        response = self.socket.response
        return response.headers.get(REPLICA_HEADER, "") if response else ""

    async def run(self, state: ClientState, timeout: float) -> float:
        """Ask for a run with ``state`` and read until it ends; seconds from asking to the end."""
        ask = BackMsg()
        ask.rerun_script.CopyFrom(state)
        start = time.perf_counter()
        await self.socket.send(ask.SerializeToString())
        async with asyncio.timeout(timeout):
            while True:
                msg = ForwardMsg()
                msg.ParseFromString(await self.socket.recv())
                if self.view.absorb(msg):
                    return time.perf_counter() - start

    @property
    def cookie(self) -> str:
        """The replica's cookie nginx set on the websocket ("" without nginx)."""
        response = self.socket.response
        return response.headers.get("Set-Cookie", "").split(";", 1)[0] if response else ""

    async def click(self, label: str, timeout: float = CLICK_TIMEOUT_S) -> float:
        """Click the button ``label`` as the browser does; seconds until the board it brings is
        here (the quick way's answer, or the end of the run the click starts)."""
        control = self.view.controls[label]
        start = time.perf_counter()
        if self.use_quick and self.view.quick and control.action is not None:
            async with asyncio.timeout(timeout):
                if await self.quick_click(control):
                    return time.perf_counter() - start
        state = ClientState(page_script_hash=self.view.page_hash, query_string=self.view.query,
                            fragment_id=control.fragment)
        state.widget_states.widgets.add(**control.widget_state())
        await self.run(state, max(0.0, timeout - (time.perf_counter() - start)))
        return time.perf_counter() - start

    async def quick_click(self, control: Control) -> bool:
        """The click as one ``POST`` to the board's route; False when it must go the usual way."""
        assert self.view.quick is not None and control.action is not None
        session, version = self.view.drawn
        body = json.dumps({"token": self.view.quick["token"],
                           "action": {**control.action, "session": session, "on": version}}).encode()
        status, headers, answer = await post(self.url, self.view.quick["url"], body, self.cookie)
        if status != 200:
            return False
        self.view.draw(json.loads(answer), control.id, control.fragment)
        self.view.query = headers.get("x-board-link", self.view.query)
        self.quick_clicks += 1
        return True

    def next_click(self) -> str:
        """Oracle step, or Reset once the parse is over (Oracle step disabled)."""
        return RESET if self.view.controls[STEP].disabled else STEP

    async def close(self) -> None:
        with suppress(Exception):
            await self.socket.close()


async def post(url: str, path: str, body: bytes, cookie: str = "") -> tuple[int, dict[str, str], bytes]:
    """``POST`` JSON ``body`` to ``path`` of the server at ``url`` (HTTP/1.1 on a connection of its
    own, closed after); the status, the headers (lower-case names) and the body."""
    found = re.match(r"^http://([^:/]+)(?::(\d+))?", url)
    if not found:
        raise StudentError(f"not a plain http:// address: {url}")
    host, port = found.group(1), int(found.group(2) or 80)
    reader, writer = await asyncio.open_connection(host, port)
    try:
        head = (f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n"
                + (f"Cookie: {cookie}\r\n" if cookie else "") + "\r\n")
        writer.write(head.encode() + body)
        await writer.drain()
        raw = await reader.read()
    finally:
        writer.close()
        with suppress(Exception):
            await writer.wait_closed()
    top, _, payload = raw.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    headers = dict((k.strip().lower(), v.strip()) for k, _, v in (line.partition(":") for line in lines[1:]))
    if headers.get("transfer-encoding") == "chunked":
        payload = unchunked(payload)
    return int(lines[0].split()[1]), headers, payload


def unchunked(payload: bytes) -> bytes:
    r"""A chunked HTTP body put back together.

    >>> unchunked(b"3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")
    b'abcde'
    """
    out, rest = b"", payload
    while rest:
        size, _, rest = rest.partition(b"\r\n")
        count = int(size.split(b";")[0], 16)
        if not count:
            break
        out, rest = out + rest[:count], rest[count + 2:]
    return out


# -- a class -----------------------------------------------------------------------------------
@dataclass
class Student:
    latencies: list[float] = field(default_factory=list)
    failed: str = ""
    last_answer: float = 0.0  # time.perf_counter() when its last click was answered
    replica: str = ""
    quick: int = 0  # clicks answered the quick way


async def student(url: str, seconds: float, seed: int, ready: asyncio.Barrier,
                  opening: asyncio.Semaphore, open_by: float, quick: bool = True) -> Student:
    """Open the stepper, wait for the class, then click after 1–3 s of thought for ``seconds``."""
    me, rng, session = Student(), random.Random(seed), None
    try:
        try:
            async with opening:  # the page opens by open_by (a time.monotonic()), or the student fails
                session = await Session.open(url, timeout=max(0.0, open_by - time.monotonic()), quick=quick)
            me.replica = session.replica
        finally:
            await ready.wait()  # the class starts together, once every page is open (or failed to)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            await asyncio.sleep(rng.uniform(1, 3))
            me.latencies.append(await session.click(session.next_click()))
            me.last_answer = time.perf_counter()
            me.quick = session.quick_clicks
    except Exception as err:  # noqa: BLE001 - any failure of a session is counted, with its reason
        me.failed = f"{type(err).__name__}: {str(err)[:160]}"
    finally:
        if session:
            await session.close()
    return me


async def class_of(n: int, url: str, seconds: float, on_start: Callable[[], None] = lambda: None,
                   quick: bool = True) -> list[Student]:
    """N students; ``on_start`` is called once every page is open, before the first click
    (``quick``: the students click the quick way where the board offers it)."""
    ready, opening = asyncio.Barrier(n + 1), asyncio.Semaphore(OPENING_AT_ONCE)
    open_by = time.monotonic() + OPEN_S
    tasks = [asyncio.create_task(student(url, seconds, i, ready, opening, open_by, quick)) for i in range(n)]
    await ready.wait()
    on_start()
    return list(await asyncio.gather(*tasks))


@dataclass(frozen=True)
class Row:
    """One class size, measured."""

    students: int
    clicks: int
    p50: float  # seconds
    p95: float
    max: float
    failed: int
    clicks_per_s: float
    server_ms_per_click: float  # NaN when no server pid is known
    client_ms_per_click: float  # this process: the students' protocol work

    def cells(self) -> list[object]:
        return [self.students, self.clicks, f"{1000 * self.p50:.0f}", f"{1000 * self.p95:.0f}",
                f"{1000 * self.max:.0f}", self.failed, f"{self.clicks_per_s:.1f}",
                f"{self.server_ms_per_click:.1f}", f"{self.client_ms_per_click:.1f}"]


HEADER = ["students", "clicks", "p50 ms", "p95 ms", "max ms", "failed students", "clicks/s",
          "server CPU ms/click", "client CPU ms/click"]


def server_cpu(pids: Sequence[int]) -> float:
    """The servers' CPU seconds so far (NaN without a pid to read)."""
    return sum(cpu_seconds(pid) for pid in pids) if pids else float("nan")


def measure(n: int, url: str, pids: Sequence[int], seconds: float, quick: bool = True) -> Row:
    """A class of ``n`` on the server at ``url``; CPU counted from the moment every page is open
    (``quick``: the students click the quick way where the board offers it, as browsers do)."""
    start: dict[str, float] = {}

    def clicking_starts() -> None:
        start.update(cpu=server_cpu(pids), client=time.process_time(), time=time.perf_counter())

    students = run_async(class_of(n, url, seconds, clicking_starts, quick))
    server, client = server_cpu(pids) - start["cpu"], time.process_time() - start["client"]
    latencies = [t for s in students for t in s.latencies]
    for reason, count in Counter(s.failed for s in students if s.failed).items():
        print(f"  {count} of {n} students failed: {reason}", file=sys.stderr)
    if len({s.replica for s in students}) > 1:
        spread = Counter(s.replica for s in students)
        print(f"  {n} students, per replica: {dict(sorted(spread.items()))}", file=sys.stderr)
    clicks, last = len(latencies), max((s.last_answer for s in students), default=0.0)
    print(f"  {n} students: {sum(s.quick for s in students)} of {clicks} clicks answered the quick way",
          file=sys.stderr)
    return Row(n, clicks, statistics.median(latencies) if latencies else float("nan"),
               percentile(latencies, 0.95), max(latencies, default=float("nan")),
               sum(bool(s.failed) for s in students),
               clicks / (last - start["time"]) if last > start["time"] else 0.0,
               1000 * server / max(clicks, 1), 1000 * client / max(clicks, 1))


RUN = ["--synthetic", "400", "--epochs", "60"]  # a training run that outlasts any class here


@contextmanager
def training_runs(count: int) -> Iterator[Callable[[], float]]:
    """``count`` training runs going meanwhile, as the Train page starts them (local jobs, forked
    by a standby); gives a function that says the runs' CPU seconds so far.  Stopped at the end."""
    if not count:
        yield lambda: 0.0
        return
    STANDBY.ensure()
    STANDBY.ready(120)
    with tempfile.TemporaryDirectory(prefix="class-load-runs-") as folder:
        board = JobBoard(Path(folder), limit=count)
        jobs = [board.start(f"run-{i}", RUN) for i in range(count)]
        try:
            deadline = time.monotonic() + 120
            while not all(any(r["event"] == "batch" for r in job.reports()) for job in jobs):
                if time.monotonic() > deadline or any(job.status() != "running" for job in jobs):
                    raise SystemExit(f"the training runs did not start: {[j.failure() for j in jobs]}")
                time.sleep(0.5)
            pids = [job.process.pid for job in jobs if job.process is not None]

            def cpu() -> float:
                return float(sum(cpu_seconds(pid) for pid in pids))

            yield cpu
        finally:
            for job in jobs:
                job.stop()


def arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--students", type=int, nargs="+", default=[10, 50, 100])
    ap.add_argument("--seconds", type=float, default=60, help="clicking time per class (default 60)")
    ap.add_argument("--replicas", type=int, default=1,
                    help="app processes started here; above 1, behind nginx (deploy.launch's set-up)")
    ap.add_argument("--url", help="a server already running (or nginx in front of replicas), on loopback")
    ap.add_argument("--pid", type=int, nargs="+", default=[], help="with --url: the server processes whose "
                    "CPU to count")
    ap.add_argument("--runs", type=int, default=0, help="training runs going meanwhile on this machine "
                    "(local jobs, as the Train page starts them)")
    ap.add_argument("--nice", type=nice_value, nargs="+", default=[settings().job_nice],
                    help="with --runs: the runs' nice values to measure, one after the other "
                    "(default: PARSING_JOB_NICE's, 10 unless set)")
    ap.add_argument("--reruns", action="store_true", help="every click over the websocket, a run of the "
                    "board each (as against `streamlit run app.py`), not the quick way the board offers")
    add_write_flag(ap, "class_load")
    return ap.parse_args(argv)


RUNS_HEADER = ["runs going", "their nice", "runs' CPU-s per s"]


def classes(args: argparse.Namespace, url: str, pids: Sequence[int]) -> list[list[object]]:
    """Each class size's row; with ``--runs``, first with no run going, then once per nice value
    of the runs going meanwhile, with the runs, their nice value and the CPU they took a second
    (over that value's classes)."""
    rows: list[list[object]] = []
    for runs, nice in [(0, None), *((args.runs, nice) for nice in args.nice)] if args.runs else [(0, None)]:
        if nice is not None:
            os.environ[Settings.variable("job_nice")] = str(nice)  # read as each run starts
        with training_runs(runs) as runs_cpu:
            cpu, began = runs_cpu(), time.monotonic()
            measured = [measure(n, url, pids, args.seconds, not args.reruns) for n in args.students]
            share = (runs_cpu() - cpu) / (time.monotonic() - began)
        going = [runs, "—" if nice is None else nice, f"{share:.2f}"] if args.runs else []
        rows += [[*going, *row.cells()] for row in measured]
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = arguments(argv)
    if args.url:
        if not re.match(r"^https?://(127\.0\.0\.1|localhost|\[::1\])[:/]", args.url + "/"):
            raise SystemExit("--url must be on loopback (127.0.0.1, localhost or [::1])")
        rows = classes(args, args.url, args.pid)
    else:
        with servers(args.replicas, memory_log=False) as at:
            for url in at.direct_urls:  # warm each one's caches: torch imported, the sentence read
                run_async(class_of(1, url, 3))
            rows = classes(args, at.url, at.pids)
    sections: list[Section] = []
    show(sections, "Protocol students" + (" beside training runs" if args.runs else ""),
         table([*RUNS_HEADER, *HEADER] if args.runs else HEADER, rows))
    if args.write:
        write_page("class_load", "A class without browsers", sections, intro=PAGE_INTRO)


if __name__ == "__main__":
    main()
