"""A class at once: N students in real browsers clicking through stepper parses on one server.

    python -m benchmarks.load [--users 5 10 20] [--seconds 45] [--settle 60] [--replicas 1] [--page stepper]

Starts ``streamlit run serve.py`` on a free port of 127.0.0.1 (with ``--replicas N`` above 1, N of
them behind nginx with sticky sessions, as ``python -m deploy.launch`` serves a class), then for
each class size opens one
Chromium (Debian's) with N contexts, each a student on the stepper with a 12-token arc-standard
sentence, clicking "Oracle step" (Reset at the end of the parse) with 1–3 s of thought between
clicks, for ``--seconds``.  A click's latency runs from the click to the new drawing on screen.
Then the tabs close and the server is left alone for ``--settle`` seconds.  It prints one table
row per class size: clicks, latency p50/p95/p99, failed sessions (an error, or a click with no
new drawing within 30 s), the server's CPU milliseconds per click, its resident memory at the
start, at the peak and ``--settle`` seconds after the tabs closed, and the clicks per second the
class sustained (clicks answered over the time from the first click to the last answer); then,
from the server's own memory log (``ui.diagnostics``, one server only), its Python heap in
thousands of allocated blocks at the start, the peak and the end, and how many sessions it still
holds at the end (``server.disconnectedSessionTTL`` frees a closed tab's); and last, the CPU of
the Chromium processes it started itself per click (their process tree: another Chromium on the
machine is left out), the browsers' share of the machine.  The CPU counts from
the moment every page is open (a page's first load is not a click).  With replicas, CPU and
memory are the replicas' together (nginx's are left out: a few MB, little CPU).  The browsers run
on the same machine, so their drawing competes with the server for its cores.

``--page bare`` puts the same class on the lightest page Streamlit has instead (one button, one
line of text and a 12-node Graphviz chart redrawn at each click: ``benchmarks.click_floor``'s
page), for the floor any Streamlit page sets on this machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Browser, Locator, Page, async_playwright

from benchmarks.common import run_async, table
from deploy.launch import serve
from deploy.proxy import REPLICA_HEADER
from deploy.replicas import shared_environment
from ui.diagnostics import VARIABLE as MEMORY_LOG

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
QUERY = "/stepper?s=woman-at-the-party-who-speaks&sys=arc-standard"
# The board component's picture (inside the component's shadow root: Playwright's CSS locators
# reach it, document.querySelector does not; see click_and_wait).
DRAWING = ".st-key-stepper-board .picture"
CLICK_TIMEOUT_S = 30
OPENING_AT_ONCE = 4  # pages loading together while the class opens them
OPEN_S = 120  # the whole class opens its pages within this


def left_ms(deadline: float) -> float:
    """Milliseconds from now to ``deadline`` (a time.monotonic()), at least 1."""
    return max(1.0, 1000 * (deadline - time.monotonic()))
TICKS = os.sysconf("SC_CLK_TCK")


# -- the server -----------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class Target:
    """What the students open and click: the page's path, its step and reset buttons (CSS
    selectors), and the element whose change answers a click."""

    script: str  # what ``streamlit run`` serves: app.py, or a page of its own (the bare page)
    path: str
    step: str
    reset: str | None
    changed: str


# The lightest page: one button, a line of text and (?kind=graph) a 12-node Graphviz chart
# redrawn at each click; benchmarks.click_floor and --page bare measure against it.
BARE_PAGE = '''
import streamlit as st

clicks = st.session_state.get("clicks", 0)
if st.button("Step", key="step"):
    clicks = st.session_state["clicks"] = clicks + 1
st.markdown(f"<div id='out'>clicks {clicks}</div>", unsafe_allow_html=True)
if st.query_params.get("kind") == "graph":
    nodes = " ".join(f'w{i} [label="word{i}"];' for i in range(12))
    arcs = " ".join(f"w{i} -> w{(i * 7 + clicks) % 12};" for i in range(clicks % 12))
    st.graphviz_chart(f"digraph {{ rankdir=LR; {nodes} {arcs} }}", key=f"drawing-{clicks}")
'''


# The Stepper's Oracle step and Reset are buttons of its board component (ui/stepper/board.js).
STEP_BUTTON = ".st-key-stepper-board button[data-do='oracle']"
RESET_BUTTON = ".st-key-stepper-board button[data-do='reset']"
STEPPER = Target("serve.py", QUERY, STEP_BUTTON, RESET_BUTTON, DRAWING)


def start_server(port: int, memory_log: Path | None = None, script: str = "serve.py",
                 folder: Path = REPO) -> subprocess.Popen[bytes]:
    """``streamlit run serve.py`` (the app with its quick board clicks; ``app.py`` in a checkout
    older than ``serve.py``) or another ``script``, of ``folder`` (this checkout, or another one) on
    ``port``; with ``memory_log``, the app writes its memory there every second
    (``ui.diagnostics``)."""
    if script == "serve.py" and not (folder / script).exists():
        script = "app.py"
    command = [sys.executable, "-m", "streamlit", "run", script, "--server.headless", "true",
               "--server.port", str(port), "--server.address", "127.0.0.1",
               "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    env = {**os.environ, **({MEMORY_LOG: str(memory_log)} if memory_log else {})}
    server = subprocess.Popen(command, cwd=folder, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 90
    try:
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                    if r.read() == b"ok":
                        return server
            except OSError:
                time.sleep(0.3)
    except BaseException:  # interrupted while it starts: it is stopped all the same
        server.kill()
        raise
    server.kill()
    raise SystemExit("the server did not start")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def processes() -> dict[int, tuple[str, int, float]]:
    """Every process on the machine: pid → (name, parent pid, user plus system CPU seconds so far)."""
    seen = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # the process ended meanwhile
            continue
        name, rest = text.rsplit(")", 1)
        fields = rest.split()  # state, ppid, ... utime and stime at 11 and 12
        seen[int(stat.parent.name)] = (name.split("(", 1)[1], int(fields[1]),
                                       (int(fields[11]) + int(fields[12])) / TICKS)
    return seen


def descendants(root: int, table: dict[int, tuple[str, int, float]]) -> set[int]:
    """The processes started, directly or not, by ``root``."""
    children: dict[int, list[int]] = {}
    for pid, (_, parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found, todo = set(), [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def chromium_cpu(root: int | None = None) -> dict[int, float]:
    """CPU seconds so far of the Chromium processes this benchmark started (those descended from
    ``root``, this process by default: Playwright's driver starts the browsers, which start their
    tabs' processes), by pid.  Another Chromium on the machine is not counted."""
    table = processes()
    ours = descendants(os.getpid() if root is None else root, table)
    return {pid: table[pid][2] for pid in ours if table[pid][0].startswith("chrom")}


@dataclass
class BrowserCPU:
    """The browsers' CPU over a stretch of time, polled: a tab's process ends when its tab closes,
    taking its account with it, so each process's last reading is kept."""

    first: dict[int, float] = field(default_factory=dict)
    last: dict[int, float] = field(default_factory=dict)

    def start(self) -> None:
        self.first, self.last = chromium_cpu(), {}

    def poll(self) -> None:
        self.last.update(chromium_cpu())

    def seconds(self) -> float:
        return sum(cpu - self.first.get(pid, 0.0) for pid, cpu in self.last.items())


def last_memory(log: Path) -> dict[str, float]:
    """The newest line of a server's memory log (empty before its first line)."""
    try:
        lines = log.read_text().splitlines()
    except OSError:
        return {}
    return json.loads(lines[-1]) if lines else {}


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@dataclass
class Servers:
    """What the students open (``url``), and the processes behind it: one, or N replicas."""

    url: str
    direct_urls: list[str]  # each process's own address, to warm each one
    pids: list[int]
    memory_logs: list[Path] = field(default_factory=list)  # one server's own account of its memory

    def cpu_seconds(self) -> float:
        return sum(cpu_seconds(pid) for pid in self.pids)

    def rss_mb(self) -> float:
        return sum(rss_mb(pid) for pid in self.pids)

    def heap(self) -> tuple[float, float]:
        """(Python heap in thousands of blocks, sessions held), summed over the logs; NaN without."""
        if not self.memory_logs:
            return float("nan"), float("nan")
        lines = [last_memory(log) for log in self.memory_logs]
        return (sum(line.get("heap_blocks", 0) for line in lines) / 1000,
                sum(line.get("sessions", 0) for line in lines))


@contextmanager
def servers(replicas: int, script: str = "serve.py", memory_log: bool = True, folder: Path = REPO
            ) -> Iterator[Servers]:
    """One ``streamlit run`` of ``script`` (``replicas`` = 1; of ``folder``, this checkout by
    default), or that many of the app behind nginx (``deploy.launch.serve``).  With
    ``memory_log`` one server writes its memory every second."""
    if replicas == 1:
        port = free_port()
        with tempfile.TemporaryDirectory(prefix="load-memory-") as logs:
            log = Path(logs) / "memory.jsonl"
            server = start_server(port, log if memory_log else None, script, folder)
            url = f"http://127.0.0.1:{port}"
            try:
                yield Servers(url, [url], [server.pid], [log] if memory_log else [])
            finally:
                server.terminate()
                server.wait()
        return
    with tempfile.TemporaryDirectory(prefix="load-jobs-") as jobs, \
            serve(replicas, shared_environment(Path(jobs))) as deployment:
        yield Servers(deployment.url, [r.url for r in deployment.replicas],
                      [r.process.pid for r in deployment.replicas if r.process])


# -- the students ----------------------------------------------------------------------------------
@dataclass
class Student:
    latencies: list[float] = field(default_factory=list)
    failed: str = ""
    last_answer: float = 0.0  # time.perf_counter() when its last click was answered
    replica: str = ""  # with replicas, the one nginx sent this student to


# True once the element changed: the one held (found through any shadow root by Playwright), or,
# when the page replaced it, the one the selector now finds in the page.
CHANGED = """([selector, held, old]) => {
  const now = held && held.isConnected ? held : document.querySelector(selector);
  return !!now && now.innerHTML !== old;
}"""


async def changed_after(page: Page, control: Locator, changed: str) -> float:
    """Click ``control`` and wait until the element ``changed`` (a selector) shows something new;
    seconds taken."""
    held = await page.locator(changed).first.element_handle()
    before = await held.inner_html()
    start = time.perf_counter()
    await control.click()
    await page.wait_for_function(CHANGED, arg=[changed, held, before], timeout=CLICK_TIMEOUT_S * 1000)
    return time.perf_counter() - start


async def click_and_wait(page: Page, button: str, changed: str) -> float:
    """Click ``button`` (a CSS selector) and wait for ``changed`` to change; seconds taken."""
    return await changed_after(page, page.locator(button).first, changed)


async def student(browser: Browser, url: str, seconds: float, seed: int, ready: asyncio.Barrier,
                  target: Target = STEPPER, opening: asyncio.Semaphore | None = None,
                  open_by: float | None = None) -> Student:
    """Open the page (by ``open_by``, a time.monotonic(), or within OPEN_S), wait for the class,
    then click after 1–3 s of thought for ``seconds``."""
    me, rng, context = Student(), random.Random(seed), None
    deadline = open_by or time.monotonic() + OPEN_S
    try:
        try:
            async with opening or asyncio.Semaphore(1):
                context = await browser.new_context(viewport={"width": 1440, "height": 900})
                page = await context.new_page()
                response = await page.goto(url + target.path, timeout=left_ms(deadline))
                me.replica = response.headers.get(REPLICA_HEADER.lower(), "") if response else ""
                await page.locator(target.changed).first.wait_for(timeout=left_ms(deadline))
        finally:
            await ready.wait()  # the class starts together, once every page is open (or failed to)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            await asyncio.sleep(rng.uniform(1, 3))
            step = page.locator(target.step).first
            button = target.step if target.reset is None or await step.is_enabled() else target.reset
            me.latencies.append(await click_and_wait(page, button, target.changed))
            me.last_answer = time.perf_counter()
    except Exception as err:  # noqa: BLE001 - any failure of a session is counted, with its reason
        me.failed = f"{type(err).__name__}: {str(err)[:120]}"
    finally:
        if context:
            with suppress(Exception):  # a tab that cannot close in time is left to the browser's close
                await asyncio.wait_for(context.close(), CLICK_TIMEOUT_S)
    return me


async def class_of(n: int, url: str, seconds: float, on_start: Callable[[], None] = lambda: None,
                   target: Target = STEPPER, chromium: str = CHROMIUM) -> list[Student]:
    """N students; ``on_start`` is called when every page is open, before the first click (the
    pages' first loads are not counted in the clicks' CPU).  The pages open a few at a time, as a
    class arrives: twenty first loads at once on two cores can take longer than a page may."""
    ready, opening = asyncio.Barrier(n + 1), asyncio.Semaphore(OPENING_AT_ONCE)
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=chromium, args=ARGS)
        open_by = time.monotonic() + OPEN_S  # a page not open by then fails its student
        tasks = [asyncio.create_task(student(browser, url, seconds, i, ready, target, opening, open_by))
                 for i in range(n)]
        await ready.wait()
        on_start()
        done, late = await asyncio.wait(tasks, timeout=seconds + 4 * CLICK_TIMEOUT_S)
        for task in late:  # a student stuck past every timeout (a hung tab) fails; the class ends
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)
        students = [t.result() if t in done else Student(failed="still busy when the class ended")
                    for t in tasks]
        with suppress(Exception):
            await asyncio.wait_for(browser.close(), CLICK_TIMEOUT_S)
    return list(students)


# -- one class size --------------------------------------------------------------------------------
@dataclass
class Row:
    users: int
    clicks: int
    p50: float
    p95: float
    p99: float
    failed: int
    cpu_ms_per_click: float
    rss_start: float
    rss_peak: float
    rss_after: float
    clicks_per_s: float
    heap_start: float  # thousands of blocks the interpreter holds (sys.getallocatedblocks)
    heap_peak: float
    heap_after: float
    sessions_after: float  # sessions the server still holds after --settle seconds
    browser_ms_per_click: float  # CPU of the Chromium processes started here, per click

    def cells(self) -> list[object]:
        return [self.users, self.clicks, f"{1000 * self.p50:.0f}", f"{1000 * self.p95:.0f}",
                f"{1000 * self.p99:.0f}", self.failed, f"{self.cpu_ms_per_click:.0f}",
                f"{self.rss_start:.0f}", f"{self.rss_peak:.0f}", f"{self.rss_after:.0f}",
                f"{self.clicks_per_s:.2f}", f"{self.heap_start:.0f}", f"{self.heap_peak:.0f}",
                f"{self.heap_after:.0f}", f"{self.sessions_after:.0f}", f"{self.browser_ms_per_click:.0f}"]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(n: int, at: Servers, seconds: float, settle: float, target: Target = STEPPER,
            chromium: str = CHROMIUM) -> Row:
    start_rss, start_cpu, browsers = at.rss_mb(), at.cpu_seconds(), BrowserCPU()
    start_heap = at.heap()[0]
    start_time = time.perf_counter()
    peak, heap_peak = [start_rss], [start_heap]
    done = False

    def clicking_starts() -> None:
        nonlocal start_cpu, start_time
        start_cpu, start_time = at.cpu_seconds(), time.perf_counter()
        browsers.start()

    async def watch_memory() -> None:
        while not done:
            peak.append(at.rss_mb())
            heap_peak.append(at.heap()[0])
            if browsers.first:
                browsers.poll()
            await asyncio.sleep(0.5)

    async def both() -> list[Student]:
        nonlocal done
        watcher = asyncio.create_task(watch_memory())
        students = await class_of(n, at.url, seconds, clicking_starts, target, chromium)
        done = True
        await watcher
        return students

    students = run_async(both())
    cpu, browser = at.cpu_seconds() - start_cpu, browsers.seconds()
    clicking = max((s.last_answer for s in students), default=start_time) - start_time
    time.sleep(settle)
    latencies = [t for s in students for t in s.latencies]
    for s in students:
        if s.failed:
            print(f"  a session failed: {s.failed}", file=sys.stderr)
    if len(at.pids) > 1:
        spread = Counter(s.replica for s in students)
        print(f"  {n} students, per replica: " + ", ".join(f"{a} {k}" for a, k in sorted(spread.items())),
              file=sys.stderr)
    clicks = len(latencies)
    failed = sum(bool(s.failed) for s in students)
    heap_after, sessions_after = at.heap()
    return Row(n, clicks, statistics.median(latencies) if latencies else float("nan"),
               percentile(latencies, 0.95), percentile(latencies, 0.99), failed,
               1000 * cpu / max(clicks, 1), start_rss, max(peak), at.rss_mb(),
               clicks / clicking if clicking > 0 else 0.0, start_heap, max(heap_peak), heap_after,
               sessions_after, 1000 * browser / max(clicks, 1))


HEADER = ["students", "clicks", "p50 ms", "p95 ms", "p99 ms", "failed sessions", "server CPU ms/click",
          "RSS MB start", "RSS MB peak", "RSS MB after", "clicks/s", "heap k-blocks start",
          "heap k-blocks peak", "heap k-blocks after", "sessions after", "browser CPU ms/click"]


def run(users: list[int], seconds: float, settle: float, replicas: int = 1, target: Target = STEPPER,
        chromium: str = CHROMIUM) -> list[Row]:
    with servers(replicas, target.script) as at:
        for url in at.direct_urls:  # warm the caches: torch imported, the sentence read
            run_async(class_of(1, url, 3, target=target, chromium=chromium))
        return [measure(n, at, seconds, settle, target, chromium) for n in users]


def bare_target(folder: Path) -> Target:
    """The bare page (:data:`BARE_PAGE`), written into ``folder``, as the class's page."""
    script = folder / "bare.py"
    script.write_text(BARE_PAGE)
    return Target(str(script), "/?kind=graph", ".st-key-step button", None, "#out")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--users", type=int, nargs="+", default=[5, 10, 20])
    ap.add_argument("--seconds", type=float, default=45)
    ap.add_argument("--settle", type=float, default=60)
    ap.add_argument("--replicas", type=int, default=1,
                    help="app processes; above 1, behind nginx with sticky sessions (default 1, no nginx)")
    ap.add_argument("--page", choices=("stepper", "bare"), default="stepper",
                    help="the stepper, or the lightest Streamlit page (one button, a small chart)")
    ap.add_argument("--chromium", default=CHROMIUM,
                    help=f"the browser's binary (default {CHROMIUM}, as a learner's: the tests pass the "
                         "lighter headless shell)")
    args = ap.parse_args()
    if args.page == "bare" and args.replicas > 1:
        ap.error("--page bare runs on one server")
    with tempfile.TemporaryDirectory(prefix="load-page-") as folder:
        target = bare_target(Path(folder)) if args.page == "bare" else STEPPER
        rows = run(args.users, args.seconds, args.settle, args.replicas, target, args.chromium)
    if args.replicas > 1:
        print(f"{args.replicas} replicas behind nginx")
    if args.page == "bare":
        print("the bare page: one button, one line of text, a 12-node Graphviz chart redrawn at each click")
    print(table(HEADER, [r.cells() for r in rows]))


if __name__ == "__main__":
    main()
