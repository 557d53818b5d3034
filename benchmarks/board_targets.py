"""The Stepper board's targets, measured in one command on one server.

    python -m benchmarks.board_targets [--seconds 60] [--budget 360] [--write] [--save FILE]

One ``streamlit run serve.py`` (warmed by a first student), then, one after the other (the
students, protocol or Chromium, click the quick way the board offers, as a browser does:
``benchmarks.class_load`` says how):

* the server's CPU per "Oracle step" click on the 12-token sentence: one protocol student
  (``benchmarks.class_load``) clicking without pause, three rounds of 20 clicks, the server's idle
  CPU (5 s with the session open) taken off, the median round;
* 100 protocol students clicking after 1–3 s of thought for ``--seconds`` (60), and classes of 10
  and 50 for half as long, as detail;
* one Chromium tab clicking "Oracle step" under the DevTools profiler (``benchmarks.click_floor``):
  its renderer's main thread per click, and the Streamlit elements and blocks of the page;
* 20 Chromium students on the same server (``benchmarks.load``), for ``--chromium-seconds``.

The whole run keeps to ``--budget`` seconds (6 minutes): a part whose usual length would pass it
is left out, and reads "—".  It prints the targets table and the details; ``--write`` writes
them to ``docs/benchmarks/board.md``, naming the date, the commit, the machine and its load once.
``--save FILE`` keeps the figures as JSON, and ``--baseline FILE`` (by default
``docs/benchmarks/board-before.json`` when it exists) fills the table's "before" column from such
a file, saved by this command on the code before the board became one component.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import class_load, click_floor, load
from benchmarks.common import run_async, table
from deploy.launch import stop_on_sigterm

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "benchmarks" / "board.md"
BEFORE = DOC.with_name("board-before.json")
CLASSES = (10, 50, 100)
CLASS = 100  # the class of the targets


@dataclass
class Figures:
    """What the targets ask about, as measured (milliseconds unless said)."""

    server_ms_per_click: float = float("nan")
    browser_main_thread_ms: float = float("nan")
    board_elements: float = float("nan")
    classes: list[class_load.Row] = field(default_factory=list)  # protocol students, one server
    chromium: list[load.Row] = field(default_factory=list)

    def row(self, students: int) -> class_load.Row | None:
        return next((r for r in self.classes if r.students == students), None)


async def idle_cpu_per_s(pid: int, seconds: float = 5) -> float:
    start = load.cpu_seconds(pid)
    await asyncio.sleep(seconds)
    return (load.cpu_seconds(pid) - start) / seconds


async def cpu_round(session: class_load.Session, pid: int, idle_per_s: float, clicks: int) -> float:
    """``clicks`` clicks without pause: the server's CPU ms per click, its idle CPU taken off."""
    start, since = load.cpu_seconds(pid), time.monotonic()
    for _ in range(clicks):
        await session.click(session.next_click())
    busy, idle = load.cpu_seconds(pid) - start, idle_per_s * (time.monotonic() - since)
    return 1000 * (busy - idle) / clicks


def server_cpu_per_click(at: Sequence[load.Servers], clicks: int = 20, rounds: int = 3) -> list[float]:
    """One student per server clicking without pause: each server's CPU ms per click, the median
    of ``rounds`` rounds; with two servers the rounds alternate, so both meet the same machine."""
    async def clicking() -> list[float]:
        sessions = [await class_load.Session.open(s.url) for s in at]
        try:
            idle = [await idle_cpu_per_s(s.pids[0]) for s in at]
            spent: list[list[float]] = [[] for _ in at]
            for _ in range(rounds):
                for i, session in enumerate(sessions):
                    spent[i].append(await cpu_round(session, at[i].pids[0], idle[i], clicks))
            return [statistics.median(s) for s in spent]
        finally:
            for session in sessions:
                await session.close()

    return run_async(clicking())


def browser_profile(at: load.Servers, clicks: int) -> click_floor.Profile:
    """One Chromium tab clicking Oracle step under the profiler (its own browser, this server)."""
    profile, step = click_floor.Profile(), load.STEPPER.step
    run_async(click_floor.measure(at.url + load.STEPPER.path, step, load.STEPPER.changed, clicks,
                                    at.pids[0], profile))
    return profile


class Clock:
    """The run's time budget: each part runs only if its usual length still fits, and says on
    stderr how long it took; a part left out reads "—" in the table."""

    def __init__(self, budget_s: float) -> None:
        self.deadline = time.monotonic() + budget_s

    @contextmanager
    def part(self, name: str, needs_s: float) -> Iterator[bool]:
        start = time.monotonic()
        if start + needs_s > self.deadline:
            print(f"  {name}: left out, {needs_s:.0f} s would pass the time budget", file=sys.stderr)
            yield False
            return
        yield True
        print(f"  {name}: {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)


def class_seconds(students: int, seconds: float) -> float:
    """The targets' class clicks for ``seconds``; the smaller classes, detail, for half of it."""
    return seconds if students == CLASS else seconds / 2


def started(folder: Path, stack: ExitStack) -> load.Servers:
    """A server of the app in ``folder``, warmed by a first student (torch imported, the sentence
    read), stopped when ``stack`` closes."""
    start = time.monotonic()
    at = stack.enter_context(load.servers(1, memory_log=False, folder=folder))
    run_async(class_load.class_of(1, at.url, 3))
    print(f"  server of {folder} started and warm: {time.monotonic() - start:.0f} s", file=sys.stderr)
    return at


def measure(args: argparse.Namespace) -> tuple[Figures, Figures | None]:
    """The figures of this checkout, and with ``--before`` those of the other one's server side
    (its CPU per click, rounds alternating, and its class of 100, just before this one's)."""
    figures, earlier, clock = Figures(), Figures() if args.before else None, Clock(args.budget)
    with ExitStack() as ours, ExitStack() as theirs:
        at = started(REPO, ours)
        other = started(args.before, theirs) if args.before else None
        with clock.part("server CPU per click", 30 + 25 * bool(other)) as go:
            if go:
                spent = server_cpu_per_click([at, *([other] if other else [])])
                figures.server_ms_per_click = spent[0]
                if earlier:
                    earlier.server_ms_per_click = spent[1]
        for n in args.students:
            seconds = class_seconds(n, args.seconds)
            if other and earlier and n == CLASS:
                with clock.part(f"{n} protocol students, before", seconds + 10 + n / 5) as go:
                    if go:
                        earlier.classes.append(class_load.measure(n, other.url, other.pids, seconds))
                time.sleep(3)
            with clock.part(f"{n} protocol students", seconds + 10 + n / 5) as go:
                if go:
                    figures.classes.append(class_load.measure(n, at.url, at.pids, seconds))
            time.sleep(3)  # the closed sessions go quiet before the next class
        theirs.close()  # the earlier server stops before the browsers come
        with clock.part("one Chromium tab profiled", 30 + 1.5 * args.clicks) as go:
            if go and args.chromium:
                profile = browser_profile(at, args.clicks)
                figures.browser_main_thread_ms, figures.board_elements = profile.task, profile.elements
        with clock.part(f"{args.chromium} Chromium students", args.chromium_seconds + 40) as go:
            if go and args.chromium:
                figures.chromium.append(load.measure(args.chromium, at, args.chromium_seconds, 0))
    return figures, earlier


# -- the table ---------------------------------------------------------------------------------
def ms(value: float) -> str:
    return "—" if value != value else f"{value:,.0f} ms"


def class_figure(figures: Figures | None, students: int) -> str:
    row = figures.row(students) if figures else None
    if row is None:
        return "—"
    return f"p95 {ms(1000 * row.p95)}, {row.clicks_per_s:.1f} clicks/s, {row.failed} failed"


def chromium_figure(figures: Figures | None) -> str:
    if not figures or not figures.chromium:
        return "—"
    row = figures.chromium[0]
    return f"p95 {ms(1000 * row.p95)}, {row.failed} failed"


def at_most(value: float, target: float) -> str:
    """Whether a figure meets its target ("—" where it was not measured)."""
    return met(None if value != value else value <= target)


def met(value: bool | None) -> str:
    return "—" if value is None else "yes" if value else "**no**"


def figure(figures: Figures | None, name: str, unit: str = " ms") -> str:
    value = getattr(figures, name, float("nan"))
    return "—" if value != value else f"{value:,.0f}{unit}"


def targets_rows(now: Figures, before: Figures | None) -> list[list[str]]:
    """figure, before, target, now, met?"""
    big, chromium = now.row(CLASS), now.chromium[0] if now.chromium else None
    return [
        ["server CPU per stepper click (12-token sentence)", figure(before, "server_ms_per_click"),
         "≤ 10 ms", figure(now, "server_ms_per_click"), at_most(now.server_ms_per_click, 10)],
        ["browser main-thread time per click (`click_floor --profile`)",
         figure(before, "browser_main_thread_ms"), "≤ 60 ms", figure(now, "browser_main_thread_ms"),
         at_most(now.browser_main_thread_ms, 60)],
        [f"one server process, {CLASS} protocol students, 1–3 s think", class_figure(before, CLASS),
         "p95 ≤ 500 ms, 0 failed", class_figure(now, CLASS),
         met(None if big is None else big.p95 <= 0.5 and big.failed == 0)],
        [f"{chromium.users if chromium else 20} Chromium students on the same 2 cores (`benchmarks.load`)",
         chromium_figure(before),
         "p95 ≤ 1 s", chromium_figure(now), met(None if chromium is None else chromium.p95 <= 1)],
        ["elements in the board per click", figure(before, "board_elements", ""), "≤ 15",
         figure(now, "board_elements", ""), at_most(now.board_elements, 15)],
    ]


TARGETS_HEADER = ["figure", "before", "target", "now", "met"]
CHROMIUM_COLUMNS = ["students", "clicks", "p50 ms", "p95 ms", "p99 ms", "failed sessions",
                    "server CPU ms/click", "clicks/s", "browser CPU ms/click"]
HOW = ("How each figure is taken: the server's CPU per click from one protocol student clicking "
       "without pause (three rounds of 20 clicks, the server's idle CPU taken off, the median round); "
       "the browser's main thread per click from the DevTools metrics (`TaskDuration`) of one tab "
       "clicking 15 times a second apart (no profiler attached: `click_floor --profile` samples "
       "a second tab's clicks); the elements as Streamlit's elements and blocks in the "
       "page's main area after those clicks; the classes as below.")


# -- where and when ----------------------------------------------------------------------------
def machine() -> str:
    """The CPU, its cores and the memory, in words."""
    info = Path("/proc/cpuinfo").read_text()
    model = next((line.split(":", 1)[1].strip() for line in info.splitlines()
                  if line.startswith("model name")), "an unnamed CPU")
    memory_kb = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                     if line.startswith("MemTotal:"))
    return f"{os.cpu_count()} cores of {model}, {memory_kb / 2**20:.0f} GiB of memory"


def commit(folder: Path = REPO) -> str:
    """The commit of a checkout, marked when the app's files differ from it (the benchmarks' own
    files and the docs do not change what is measured)."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True).stdout.strip()
    changed = git("status", "--porcelain", "--untracked-files=no", "--", ".", ":!benchmarks", ":!docs")
    return git("rev-parse", "--short", "HEAD") + (" with uncommitted changes" if changed else "")


@dataclass
class Run:
    """One run of this command: its figures and where and when they were taken."""

    figures: Figures
    started: str
    commit: str
    machine: str
    load_start: float
    load_end: float
    earlier: Figures | None = None  # with --before: the earlier code's server side, same run
    earlier_commit: str = ""


def before_column(run: Run, saved_run: Run | None) -> Figures | None:
    """The "before" figures: the server's side measured in this run where it was (--before), the
    rest from a saved run (--baseline)."""
    old = saved_run.figures if saved_run else None
    if run.earlier is None:
        return old
    old = old or Figures()
    return Figures(run.earlier.server_ms_per_click, old.browser_main_thread_ms, old.board_elements,
                   run.earlier.classes or old.classes, old.chromium)


def document(run: Run, saved_run: Run | None) -> str:
    """The Markdown written to docs/benchmarks/board.md."""
    f = run.figures
    lines = ["# The Stepper board's targets", "",
             f"Measured {run.started} at commit {run.commit} on {run.machine}; load average "
             f"{run.load_start:.1f} at the start and {run.load_end:.1f} at the end (the run's own "
             "servers, students and browsers included).  `python -m benchmarks.board_targets --write` "
             "measured and wrote this file.", ""]
    if run.earlier:
        lines += [f"*Before*, the server's rows: commit {run.earlier_commit} in the same run (`--before`), "
                  "its CPU rounds alternating with this code's, its class just before this code's.", ""]
    if saved_run:
        lines += [f"*Before*{', the browser rows' if run.earlier else ''}: the same command on commit "
                  f"{saved_run.commit}, {saved_run.started} (load {saved_run.load_start:.1f} to "
                  f"{saved_run.load_end:.1f}).", ""]
    before = before_column(run, saved_run)
    lines += [table(TARGETS_HEADER, targets_rows(f, before)), "", HOW, "",
              "## Protocol students, one server process", "",
              "`python -m benchmarks.class_load`: each student a websocket speaking Streamlit's "
              "protocol, clicking Oracle step after 1–3 s of thought; the client's own CPU is in the "
              "last column.", "", table(["code", *class_load.HEADER],
                                        [["before", *r.cells()] for r in (before.classes if before else [])]
                                        + [["now", *r.cells()] for r in f.classes])]
    if f.chromium:
        keep = [load.HEADER.index(c) for c in CHROMIUM_COLUMNS]
        lines += ["", "## Chromium students on the same machine", "",
                  "`python -m benchmarks.load`: one Chromium, a tab per student, clicking Oracle step after "
                  "1–3 s of thought; a student fails when its page is not open within two minutes or a "
                  "click goes unanswered for 30 s.", "",
                  table(CHROMIUM_COLUMNS, [[r.cells()[i] for i in keep] for r in f.chromium])]
    return "\n".join(lines) + "\n"


def saved(path: Path) -> Run:
    """A run read back from ``--save``'s JSON."""
    data = json.loads(path.read_text())
    earlier = data.pop("earlier", None)
    return Run(figures_of(data.pop("figures")), **data, earlier=figures_of(earlier) if earlier else None)


def figures_of(data: dict[str, Any]) -> Figures:
    figures = Figures(**{k: v for k, v in data.items() if k not in ("classes", "chromium")})
    figures.classes = [class_load.Row(**r) for r in data["classes"]]
    figures.chromium = [load.Row(**r) for r in data["chromium"]]
    return figures


def arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60,
                    help=f"clicking time of the {CLASS} protocol students (the smaller classes: half)")
    ap.add_argument("--students", type=int, nargs="+", default=list(CLASSES))
    ap.add_argument("--chromium", type=int, default=20, help="Chromium students (0: no browser rows)")
    ap.add_argument("--chromium-seconds", type=float, default=30)
    ap.add_argument("--clicks", type=int, default=15, help="clicks of the profiled Chromium tab")
    ap.add_argument("--budget", type=float, help="seconds the whole run may take (default 360, with "
                    "--before 600); a part that would not fit is left out")
    ap.add_argument("--before", type=Path, help="a checkout of the code before (e.g. git worktree add DIR "
                    "COMMIT): its server's side is measured in the same run, for the 'before' column")
    ap.add_argument("--write", action="store_true", help=f"write {DOC.relative_to(REPO)}")
    ap.add_argument("--save", type=Path, help="also save the figures as JSON here")
    ap.add_argument("--baseline", type=Path, default=BEFORE if BEFORE.exists() else None,
                    help="a JSON of --save for the 'before' column")
    args = ap.parse_args(argv)
    if args.budget is None:
        args.budget = 600 if args.before else 360
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(argv)
    stop_on_sigterm()  # a stopped run still stops its server and browsers
    started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load_start, commit_measured = os.getloadavg()[0], commit()
    figures, earlier = measure(args)
    run = Run(figures, started, commit_measured, machine(), load_start, os.getloadavg()[0], earlier,
              commit(args.before) if args.before else "")
    text = document(run, saved(args.baseline) if args.baseline else None)
    print(text)
    if args.write:
        DOC.parent.mkdir(parents=True, exist_ok=True)
        DOC.write_text(text)
    if args.save:
        args.save.parent.mkdir(parents=True, exist_ok=True)
        args.save.write_text(json.dumps(asdict(run), indent=1) + "\n")


if __name__ == "__main__":
    main()
