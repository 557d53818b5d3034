"""A class at once: N students in real browsers clicking through stepper parses on one server.

    python -m benchmarks.load [--users 5 10 20] [--seconds 45] [--settle 60]

Starts ``streamlit run app.py`` on a free port of 127.0.0.1, then for each class size opens one
Chromium (Debian's) with N contexts, each a student on the stepper with a 12-token arc-standard
sentence, clicking "Oracle step" (Reset at the end of the parse) with 1–3 s of thought between
clicks, for ``--seconds``.  A click's latency runs from the click to the new drawing on screen.
Then the tabs close and the server is left alone for ``--settle`` seconds.  It prints one table
row per class size: clicks, latency p50/p95/p99, failed sessions (an error, or a click with no
new drawing within 30 s), the server's CPU milliseconds per click, and its resident memory at
the start, at the peak and ``--settle`` seconds after the tabs closed.  The CPU counts from the
moment every page is open (a page's first load is not a click).  The browsers run on the same
machine, so their drawing competes with the server for its cores.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Browser, Page, async_playwright

from benchmarks.common import table

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
QUERY = "/stepper?s=woman-at-the-party-who-speaks&sys=arc-standard"
DRAWING = ".st-key-stepper-drawing-arcs [data-testid='stGraphVizChart'] svg:has(g.graph)"
CLICK_TIMEOUT_S = 30
TICKS = os.sysconf("SC_CLK_TCK")


# -- the server -----------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
               "--server.port", str(port), "--server.address", "127.0.0.1",
               "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    server = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.read() == b"ok":
                    return server
        except OSError:
            time.sleep(0.3)
    server.kill()
    raise SystemExit("the server did not start")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


# -- the students ----------------------------------------------------------------------------------
@dataclass
class Student:
    latencies: list[float] = field(default_factory=list)
    failed: str = ""


async def drawing(page: Page) -> str:
    return await page.locator(DRAWING).first.inner_html()


async def click_and_wait(page: Page, button: str) -> float:
    """Click ``button`` (a stepper key) and wait for the drawing to change; seconds taken."""
    before = await drawing(page)
    start = time.perf_counter()
    await page.locator(f".st-key-stepper-{button} button").first.click()
    await page.wait_for_function(
        "([sel, old]) => { const e = document.querySelector(sel); return e && e.innerHTML !== old; }",
        arg=[DRAWING, before], timeout=CLICK_TIMEOUT_S * 1000)
    return time.perf_counter() - start


async def student(browser: Browser, url: str, seconds: float, seed: int, ready: asyncio.Barrier) -> Student:
    me, rng = Student(), random.Random(seed)
    context = await browser.new_context(viewport={"width": 1440, "height": 900})
    page = await context.new_page()
    try:
        await page.goto(url + QUERY, timeout=90_000)
        await page.locator(DRAWING).first.wait_for(timeout=90_000)
        await ready.wait()  # the class starts clicking together, once every page is open
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            await asyncio.sleep(rng.uniform(1, 3))
            step = page.locator(".st-key-stepper-oracle_step button").first
            button = "oracle_step" if await step.is_enabled() else "reset"
            me.latencies.append(await click_and_wait(page, button))
    except Exception as err:  # noqa: BLE001 - any failure of a session is counted, with its reason
        me.failed = f"{type(err).__name__}: {str(err)[:120]}"
    finally:
        await context.close()
    return me


async def class_of(n: int, url: str, seconds: float, on_start: Callable[[], None] = lambda: None
                   ) -> list[Student]:
    """N students; ``on_start`` is called when every page is open, before the first click (the
    pages' first loads are not counted in the clicks' CPU)."""
    ready = asyncio.Barrier(n + 1)
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        tasks = [asyncio.create_task(student(browser, url, seconds, i, ready)) for i in range(n)]
        await ready.wait()
        on_start()
        students = await asyncio.gather(*tasks)
        await browser.close()
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

    def cells(self) -> list[object]:
        return [self.users, self.clicks, f"{1000 * self.p50:.0f}", f"{1000 * self.p95:.0f}",
                f"{1000 * self.p99:.0f}", self.failed, f"{self.cpu_ms_per_click:.0f}",
                f"{self.rss_start:.0f}", f"{self.rss_peak:.0f}", f"{self.rss_after:.0f}"]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(n: int, url: str, pid: int, seconds: float, settle: float) -> Row:
    start_rss, start_cpu = rss_mb(pid), cpu_seconds(pid)
    peak = [start_rss]
    done = False

    def clicking_starts() -> None:
        nonlocal start_cpu
        start_cpu = cpu_seconds(pid)

    async def watch_memory() -> None:
        while not done:
            peak.append(rss_mb(pid))
            await asyncio.sleep(0.5)

    async def both() -> list[Student]:
        nonlocal done
        watcher = asyncio.create_task(watch_memory())
        students = await class_of(n, url, seconds, clicking_starts)
        done = True
        await watcher
        return students

    students = asyncio.run(both())
    cpu = cpu_seconds(pid) - start_cpu
    time.sleep(settle)
    latencies = [t for s in students for t in s.latencies]
    for s in students:
        if s.failed:
            print(f"  a session failed: {s.failed}", file=sys.stderr)
    clicks = len(latencies)
    failed = sum(bool(s.failed) for s in students)
    return Row(n, clicks, statistics.median(latencies) if latencies else float("nan"),
               percentile(latencies, 0.95), percentile(latencies, 0.99), failed,
               1000 * cpu / max(clicks, 1), start_rss, max(peak), rss_mb(pid))


HEADER = ["students", "clicks", "p50 ms", "p95 ms", "p99 ms", "failed sessions", "server CPU ms/click",
          "RSS MB start", "RSS MB peak", "RSS MB after"]


def run(users: list[int], seconds: float, settle: float) -> list[Row]:
    port = free_port()
    server = start_server(port)
    url = f"http://127.0.0.1:{port}"
    try:
        asyncio.run(class_of(1, url, 3))  # warm the caches: torch imported, the sentence read
        return [measure(n, url, server.pid, seconds, settle) for n in users]
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--users", type=int, nargs="+", default=[5, 10, 20])
    ap.add_argument("--seconds", type=float, default=45)
    ap.add_argument("--settle", type=float, default=60)
    args = ap.parse_args()
    rows = run(args.users, args.seconds, args.settle)
    print(table(HEADER, [r.cells() for r in rows]))


if __name__ == "__main__":
    main()
