"""What one click costs a browser: a bare Streamlit page against the stepper, one tab alone.

    python -m benchmarks.click_floor [--clicks 25] [--profile]

``benchmarks.load`` finds that the browsers, not the server, are what a class on one machine
runs out of.  This asks how much of that any Streamlit page costs.  One Chromium tab (Debian's,
1440×900) clicks a button ``--clicks`` times, a second apart, on three pages: a page of one
button and one line of text that counts the clicks; the same with a 12-node Graphviz chart
redrawn at each click (``st.graphviz_chart``, as the stepper draws); and the stepper itself on
the load benchmark's 12-token arc-standard sentence ("Oracle step").  It prints the CPU of all
the Chromium processes per click, less what the open tab uses when idle (measured over 10 s
beforehand), and the median latency from the click to the changed page.

With ``--profile`` it also asks the renderer of the tab (Chrome DevTools Protocol) what the
clicks cost its main thread (all its tasks; the script in them; style and layout; with no
profiler attached, the idle time before the clicks left out), how many Streamlit elements and
blocks the main area holds, and, from a sampling profile of a second tab's clicks, the script's
own time per click by the file it runs in (React, its styling library, the Graphviz
chart, the data grid, Markdown...): where a page's browser time goes.

With ``--profile`` it also splits the Chromium processes' CPU per click by process and thread (``/proc``: the
renderer's main thread, where Streamlit's React and the board's script run, its other threads,
which rasterise and composite what changed, the browser process and the GPU process): CPU time,
unlike the main thread's task time, holds still on a busy machine.

It also reads the server's own CPU over the clicks (``/proc``: user plus system time of the
``streamlit run`` process), per click.  The stepper's board is one component drawing inside a
shadow root: the element count is Streamlit's (the component counts as one, whatever it draws).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import re
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Browser, CDPSession, Page, Playwright, async_playwright

from benchmarks.common import run_async, table
from benchmarks.load import (
    ARGS,
    CHROMIUM,
    DRAWING,
    QUERY,
    STEPPER,
    TICKS,
    BrowserCPU,
    bare_target,
    changed_after,
    chromium_cpu,
    cpu_seconds,
    free_port,
    start_server,
)

#: A page to click: what it is, its script, its path, the button, what changes, clicks, a script run first.
Target = tuple[str, str, str, str, str, int, "str | None"]

#: The stepper's setting "Show each move as it happens" turned on, as the browser remembers it
#: (ui/stepper/board.js, MOTION_KEY).
MOTION_ON = "localStorage.setItem('parsing-board-motion', 'on')"


async def open_page(url: str, changed: str, init: str | None = None) -> tuple[Playwright, Browser, Page]:
    """A fresh Chromium on ``url`` once ``changed`` is drawn (``init``: a script run before the page's)."""
    pw = await async_playwright().start()
    browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    context = await browser.new_context(viewport={"width": 1440, "height": 900})
    if init:
        await context.add_init_script(init)
    page = await context.new_page()
    await page.goto(url, timeout=90_000)
    await page.locator(changed).first.wait_for(timeout=90_000)
    await asyncio.sleep(3)  # the first load's work settles
    return pw, browser, page


METRICS = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")
# Streamlit's elements and blocks in the main area: what the browser rebuilds at a rerun
ELEMENTS = ("() => document.querySelectorAll('[data-testid=stMain] :is([data-testid=stElementContainer], "
            "[data-testid=stVerticalBlock], [data-testid=stHorizontalBlock], "
            "[data-testid=stColumn])').length")


@dataclass
class Profile:
    """The renderer's main thread per click (ms), the page's elements, script time by file, and
    Chromium's CPU per click by thread (ms)."""

    task: float = 0.0
    script: float = 0.0
    style_and_layout: float = 0.0
    elements: int = 0
    by_file: dict[str, float] = field(default_factory=dict)
    by_thread: dict[str, float] = field(default_factory=dict)


def process_kind(pid: int) -> str:
    """A Chromium process's kind, from its command line: renderer, gpu-process, utility, browser."""
    try:
        found = re.search(rb"--type=([\w-]+)", Path(f"/proc/{pid}/cmdline").read_bytes())
    except OSError:
        return "gone"
    return found.group(1).decode() if found else "browser"


def thread_cpu() -> dict[tuple[int, int], tuple[str, float]]:
    """CPU seconds so far of each thread of the Chromium processes started here, with its kind
    ("renderer main": a process's main thread, "renderer other": its other threads)."""
    seen = {}
    for pid in chromium_cpu():
        kind = process_kind(pid)
        for stat in Path(f"/proc/{pid}").glob("task/*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:  # the thread ended meanwhile
                continue
            tid = int(stat.parent.name)
            seen[(pid, tid)] = (f"{kind} {'main' if tid == pid else 'other'}",
                                (int(fields[11]) + int(fields[12])) / TICKS)
    return seen


def cpu_by_thread(before: dict[tuple[int, int], tuple[str, float]],
                  after: dict[tuple[int, int], tuple[str, float]], clicks: int) -> dict[str, float]:
    """ms per click by kind of thread, between two readings of :func:`thread_cpu`."""
    spent: dict[str, float] = collections.defaultdict(float)
    for key, (kind, seconds) in after.items():
        spent[kind] += seconds - before.get(key, (kind, 0.0))[1]
    ordered = sorted(spent.items(), key=lambda item: -item[1])
    return {kind: 1000 * s / clicks for kind, s in ordered if s > 0}


async def metrics(cdp: CDPSession) -> dict[str, float]:
    return {m["name"]: m["value"] for m in (await cdp.send("Performance.getMetrics"))["metrics"]}


def script_by_file(profile: dict, clicks: int) -> dict[str, float]:  # type: ignore[type-arg]
    """Self time (ms per click) of a CDP sampling profile by script file, its build hash dropped;
    the renderer's own work ("(program)", "(garbage collector)") under its own name, idle left out."""
    frames = {node["id"]: node["callFrame"] for node in profile["nodes"]}
    spent: collections.Counter[str] = collections.Counter()
    for node, micros in zip(profile["samples"], profile["timeDeltas"]):
        frame = frames[node]
        name = frame["url"].rsplit("/", 1)[-1] or frame["functionName"] or "(anonymous)"
        spent[re.sub(r"\.[-\w]{8}\.js$", ".js", name)] += micros
    spent.pop("(idle)", None)
    return {name: micros / 1000 / clicks for name, micros in spent.most_common()}


async def measure(url: str, button: str, changed: str, clicks: int, server: int,
                  profile: Profile | None = None, init: str | None = None) -> tuple[float, float, float]:
    """(browser CPU ms per click less idle, median ms from click to changed page, the CPU ms per
    click of process ``server``); with ``profile``, fill it in too: the main thread's metrics and
    the CPU by thread over these clicks (no profiler attached), the script's time by file from a
    second tab's clicks under the sampling profiler (its own cost would weigh on the first)."""
    pw, browser, page = await open_page(url, changed, init)
    cdp = await page.context.new_cdp_session(page) if profile else None
    if cdp:
        await cdp.send("Performance.enable")
    idle = BrowserCPU()
    idle.start()
    await asyncio.sleep(10)
    idle.poll()
    idle_per_s = idle.seconds() / 10
    cpu, latencies, threads = BrowserCPU(), [], thread_cpu()
    before_metrics = await metrics(cdp) if cdp else {}
    cpu.start()
    started, server_before = time.monotonic(), cpu_seconds(server)
    for _ in range(clicks):
        latencies.append(await changed_after(page, page.locator(button).first, changed))
        await asyncio.sleep(1.0)
        cpu.poll()
    busy = cpu.seconds() - idle_per_s * (time.monotonic() - started)
    server_ms = 1000 * (cpu_seconds(server) - server_before) / clicks
    if cdp and profile:
        after = await metrics(cdp)
        spent = {m: 1000 * (after[m] - before_metrics[m]) / clicks for m in METRICS}
        profile.task, profile.script = spent["TaskDuration"], spent["ScriptDuration"]
        profile.style_and_layout = spent["LayoutDuration"] + spent["RecalcStyleDuration"]
        profile.elements = int(await page.evaluate(ELEMENTS))
        profile.by_thread = cpu_by_thread(threads, thread_cpu(), clicks)
    await browser.close()
    await pw.stop()
    if profile:
        profile.by_file = await sampled(url, button, changed, clicks, init)
    return 1000 * busy / clicks, 1000 * statistics.median(latencies), server_ms


async def sampled(url: str, button: str, changed: str, clicks: int, init: str | None = None
                  ) -> dict[str, float]:
    """The script's self time by file over ``clicks`` clicks of a fresh tab under CDP's sampling
    profiler (:func:`script_by_file`)."""
    pw, browser, page = await open_page(url, changed, init)
    cdp = await page.context.new_cdp_session(page)
    await cdp.send("Profiler.enable")
    await cdp.send("Profiler.start")
    for _ in range(clicks):
        await changed_after(page, page.locator(button).first, changed)
        await asyncio.sleep(1.0)
    by_file = script_by_file((await cdp.send("Profiler.stop"))["profile"], clicks)
    await browser.close()
    await pw.stop()
    return by_file


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clicks", type=int, default=25)
    ap.add_argument("--profile", action="store_true",
                    help="also the renderer's main thread per click and the script's time by file")
    ap.add_argument("--motion", action="store_true",
                    help="also the stepper with its setting 'Show each move as it happens' on")
    args = ap.parse_args()
    rows, profiles = [], {}
    step = ".st-key-step button"
    stepper = min(args.clicks, 20)  # the stepper's parse has 24 steps
    pages: list[Target] = [
        ("one button, one line of text", "bare", "/?kind=text", step, "#out", args.clicks, None),
        ("one button, a 12-node Graphviz chart", "bare", "/?kind=graph", step, "#out", args.clicks, None),
        ("the stepper, Oracle step", "app", QUERY, STEPPER.step, DRAWING, stepper, None)]
    if args.motion:
        pages.append(("the stepper, Oracle step, each move shown as it happens", "app", QUERY, STEPPER.step,
                      DRAWING, stepper, MOTION_ON))
    with tempfile.TemporaryDirectory() as folder:
        bare = bare_target(Path(folder)).script
        for what, script, path, button, changed, clicks, init in pages:
            port = free_port()
            server = start_server(port, script=bare if script == "bare" else "serve.py")
            profile = Profile() if args.profile else None
            try:
                url = f"http://127.0.0.1:{port}{path}"
                ms, p50, server_ms = run_async(measure(url, button, changed, clicks, server.pid, profile,
                                                       init))
            finally:
                server.kill()
            rows.append([what, clicks, f"{ms:.0f}", f"{p50:.0f}", f"{server_ms:.1f}"])
            if profile:
                profiles[what] = profile
    print(table(["page", "clicks", "browser CPU ms / click", "p50 ms", "server CPU ms / click"], rows))
    if profiles:
        print_profiles(profiles)


def print_profiles(profiles: dict[str, Profile]) -> None:
    """The renderer's main thread per click, and the script's own time by file (the top ten of
    any page)."""
    print("\nThe renderer's main thread, ms per click (Chrome DevTools Protocol):\n")
    print(table(["page", "elements and blocks", "all tasks", "script", "style and layout"],
                [[what, p.elements, f"{p.task:.0f}", f"{p.script:.0f}", f"{p.style_and_layout:.1f}"]
                 for what, p in profiles.items()]))
    files: list[str] = []
    for p in profiles.values():
        files += [f for f in list(p.by_file)[:10] if f not in files]
    print("\nSampled time by script file, ms per click (self time; (program): the renderer's own work):\n")
    print(table(["file", *profiles], [[f, *(f"{p.by_file.get(f, 0.0):.1f}" for p in profiles.values())]
                                      for f in files]))
    kinds: list[str] = []
    for p in profiles.values():
        kinds += [k for k in p.by_thread if k not in kinds]
    print("\nChromium's CPU by process and thread, ms per click (idle not taken off):\n")
    print(table(["thread", *profiles], [[k, *(f"{p.by_thread.get(k, 0.0):.0f}" for p in profiles.values())]
                                        for k in kinds]))


if __name__ == "__main__":
    main()
