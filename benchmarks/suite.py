"""Where the test suite's time goes: its wall time, and the machine's CPU by kind of process.

    python -m benchmarks.suite [--write] [--every 1.0] [-- COMMAND ...]

Runs ``COMMAND`` (by default the test command, ``python -m pytest -p no:cacheprovider -p
benchmarks.suite_plugin``) and, every ``--every`` seconds while it runs, reads the CPU time of
every process on the machine from ``/proc``. At the end it prints the run's wall time and exit
status, how busy the machine's cores were (``/proc/stat``), and the CPU seconds by kind of
process (:func:`kind_of`): the pytest workers themselves (the library's tests and the AppTests
run in them), Chromium's renderers and its browser and GPU processes, the app servers the
browser tests start, the training and lab jobs, Ray, PostgreSQL, nginx; and by test file: each
process's CPU since the last reading goes to the test that its nearest ancestor among the test
processes (pytest-xdist's workers) runs at that moment, as :mod:`benchmarks.suite_plugin` lets
them say (``--tests N`` also lists the N costliest tests).

The suite runs on pytest-xdist workers, a few more than the cores (tests/conftest.py): when the
cores are busy all along, the suite's wall time is its CPU time over the cores, and only less CPU
makes it shorter; the table says which kinds of process hold that CPU.  A process that lives
less than one sampling interval may be missed; the table says how much of the cores' busy time
was not seen in any sampled process.

The command gets a temporary folder of its own (``TMPDIR``), empty as on the fresh machine CI
runs on: what the tests keep there from one run to the next (mypy's cache) does not make a
second run of the benchmark cheaper than CI's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.common import Section, add_write_flag, show, table, write_page
from benchmarks.suite_plugin import FOLDER_ENV

TEST_COMMAND = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "benchmarks.suite_plugin"]
SHOWN_FILES = 25  # the test files the third table names, the costliest first
INTRO = """The test command run once, the machine's CPU read from `/proc` every second meanwhile.  The
suite runs on pytest-xdist workers, a few more than the cores (`tests/conftest.py`): when the
cores are busy all along, the suite's wall time is its CPU time over the cores, and only less CPU
makes it shorter.  The second table says which kinds of process hold that CPU: the pytest workers
(the library's tests and the AppTests run in them), Chromium (the browser tests' pages), the app
servers and jobs the tests start.  The third charges each process's CPU to the test file that
started it (its nearest ancestor among the test processes, each of which says which test it runs
at that moment): a browser test's Chromium, app server and training runs count with that test.
A process that lives less than a second may be missed: the first table says how much of the
cores' busy time was seen in sampled processes."""
TICKS = os.sysconf("SC_CLK_TCK")
FORKED_JOB = "parsing-job"  # the name a job forked by a standby gives itself (server/jobs/standby.py)

#: Kinds of process by a word of their command line, the first that matches.
KINDS = (
    ("--type=renderer", "Chromium renderers"),
    ("--type=gpu-process", "Chromium GPU process"),
    ("--type=", "Chromium helpers"),
    ("chromium", "Chromium browser process"),
    ("playwright", "Playwright's driver"),
    ("streamlit run", "app servers (streamlit run)"),
    ("-u -c import sys;exec(eval(sys.stdin.readline()))", "pytest workers"),
    ("-m pytest", "pytest (the controller)"),
    ("parsing_core.train", "training jobs"),
    ("parsing_core.rl", "DQN jobs"),
    ("parsing_core.experiments", "lab jobs"),
    ("[parsing-job]", "jobs forked by a standby"),
    ("server.jobs", "job standbys and relays"),
    ("deploy.", "deployment launchers"),
    ("ray", "Ray"),
    ("postgres", "PostgreSQL"),
    ("nginx", "nginx"),
    ("mkdocs", "mkdocs"),
)


def kind_of(command: str) -> str:
    """The kind of a process, from its command line (:data:`KINDS`; else "other Python" or "other").

    >>> kind_of("/usr/lib/chromium/chromium --type=renderer --lang=en-US")
    'Chromium renderers'
    >>> kind_of("[parsing-job] python -m server.jobs.standby")
    'jobs forked by a standby'
    >>> kind_of("python -m parsing_core.train --spec /tmp/x.json")
    'training jobs'
    >>> kind_of("/usr/bin/python3 -c print(1)"), kind_of("[kworker/0:1]")
    ('other Python', 'other')
    """
    for word, kind in KINDS:
        if word in command:
            return kind
    return "other Python" if "python" in command.split(" ", 1)[0] else "other"


@dataclass
class Seen:
    """One process: its command line, the largest CPU time read of it, and what it had used before
    the run (when it was there at the first sweep)."""

    command: str
    cpu: float
    before: float


@dataclass
class Sampler:
    """Every process seen in the sweeps of ``/proc``, by pid and start time."""

    seen: dict[tuple[int, int], Seen] = field(default_factory=dict)
    sweeps: int = 0
    #: Where the test processes say which test they run (:mod:`benchmarks.suite_plugin`); None: not asked.
    tests: Path | None = None
    #: CPU seconds charged to each test (or to :data:`OUTSIDE`), when ``tests`` is set.
    by_test: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    parents: dict[int, int] = field(default_factory=dict)

    def sweep(self) -> None:
        used: dict[int, float] = {}
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                pid = int(entry.name)
                used[pid] = self.read(pid)
        if self.tests is not None and self.sweeps:
            self.charge(used)
        self.sweeps += 1

    def charge(self, used: dict[int, float]) -> None:
        """Charge each process's CPU since the last sweep to the test its nearest test-running
        ancestor (itself included) runs now."""
        assert self.tests is not None
        running = {int(f.name): f.read_text() for f in self.tests.iterdir() if f.name.isdigit()}
        for pid, seconds in used.items():
            if seconds > 0:
                self.by_test[running.get(self.ancestor_in(pid, running), OUTSIDE)] += seconds

    def ancestor_in(self, pid: int, among: dict[int, str]) -> int:
        """The process among ``among`` that ``pid`` descends from (itself included); 0 if none."""
        for _ in range(64):  # a chain of parents: never this long, but never a loop either
            if pid in among:
                return pid
            if pid not in self.parents:
                return 0
            pid = self.parents[pid]
        return 0

    def read(self, pid: int) -> float:
        """Read process ``pid``; the CPU seconds it used since the last sweep."""
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            fields = stat[stat.rindex(")") + 2:].split()
            cpu = (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime
            key = (pid, int(fields[19]))  # a pid and its start time: one process
            self.parents[pid] = int(fields[1])
            last = self.seen[key].cpu if key in self.seen else (cpu if self.sweeps == 0 else 0.0)
            if key not in self.seen:
                raw = Path(f"/proc/{pid}/cmdline").read_bytes()
                command = raw.replace(b"\0", b" ").decode(errors="replace")
                name = stat[stat.index("(") + 1:stat.rindex(")")]
                if name == FORKED_JOB:  # a job forked by a standby keeps the standby's command line
                    command = f"[{name}] {command}"
                self.seen[key] = Seen(command.strip() or f"[{name}]", cpu, cpu if self.sweeps == 0 else 0.0)
            else:
                self.seen[key].cpu = max(self.seen[key].cpu, cpu)
            return cpu - last
        except (OSError, ValueError, IndexError):  # gone between the listing and the read
            return 0.0

    def used(self) -> dict[str, float]:
        """CPU seconds each command line used over the run (processes of one command line summed)."""
        seconds: defaultdict[str, float] = defaultdict(float)
        for process in self.seen.values():
            if process.cpu > process.before:
                seconds[process.command] += process.cpu - process.before
        return dict(seconds)

    def by_kind(self) -> tuple[dict[str, float], Counter[str]]:
        """CPU seconds and process counts by :func:`kind_of`."""
        seconds: defaultdict[str, float] = defaultdict(float)
        counts: Counter[str] = Counter()
        for process in self.seen.values():
            used = process.cpu - process.before
            if used > 0:
                kind = kind_of(process.command)
                seconds[kind] += used
                counts[kind] += 1
        return dict(seconds), counts


#: Where CPU used by no test process and no descendant of one is charged: pytest's controller,
#: services that left their parent (a daemon's double fork), the machine's own processes.
OUTSIDE = "(outside any test: the controller, daemons, the machine)"


def file_of(test_id: str) -> str:
    """The file of a test id, or the id itself when it names none.

    >>> file_of("tests/browser/test_replicas.py::test_upload[sqlite]"), file_of(OUTSIDE) == OUTSIDE
    ('tests/browser/test_replicas.py', True)
    """
    return test_id.split("::", 1)[0]


def busy_seconds() -> float:
    """The machine's busy CPU seconds since boot (all cores; idle and iowait left out): ``/proc/stat``."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(values[:8]) - values[3] - values[4]) / TICKS


@dataclass(frozen=True)
class Run:
    """What one run of the command measured."""

    command: str
    exit_code: int
    wall_s: float
    busy_s: float  # the cores' busy time over the run
    cores: int
    seconds: dict[str, float]
    counts: Counter[str]
    by_test: dict[str, float]  # CPU seconds by test (:meth:`Sampler.charge`)
    by_command: dict[str, float]  # CPU seconds by command line (:meth:`Sampler.used`)

    @property
    def by_file(self) -> dict[str, float]:
        """CPU seconds by test file (:func:`file_of`)."""
        files: defaultdict[str, float] = defaultdict(float)
        for test, seconds in self.by_test.items():
            files[file_of(test)] += seconds
        return dict(files)


def measure(command: Sequence[str], every: float = 1.0) -> Run:
    """Run ``command`` with its output passed through, sampling ``/proc`` every ``every`` seconds."""
    folder = tempfile.TemporaryDirectory(prefix="suite-tests-")
    # The run's TMPDIR: a short name (PostgreSQL's socket path has a limit), open to the tests'
    # PostgreSQL, which runs as its own user in a folder inside it.
    scratch = tempfile.TemporaryDirectory(prefix="s", ignore_cleanup_errors=True)
    os.chmod(scratch.name, 0o755)
    sampler = Sampler(tests=Path(folder.name))
    sampler.sweep()
    busy0 = busy_seconds()
    started = time.monotonic()
    env = {**os.environ, FOLDER_ENV: folder.name, "TMPDIR": scratch.name}
    process = subprocess.Popen(list(command), env=env)
    done = threading.Event()

    def sample() -> None:
        while not done.wait(every):
            sampler.sweep()

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    exit_code = process.wait()
    done.set()
    thread.join()
    sampler.sweep()
    wall = time.monotonic() - started
    busy1 = busy_seconds()
    seconds, counts = sampler.by_kind()
    folder.cleanup()
    scratch.cleanup()
    shown = ["python" if word == sys.executable else word for word in command]
    return Run(" ".join(shown), exit_code, wall, busy1 - busy0, os.cpu_count() or 1, seconds, counts,
               dict(sampler.by_test), sampler.used())


def summary(run: Run) -> str:
    seen, capacity = sum(run.seconds.values()), run.wall_s * run.cores
    rows = [("command", f"`{run.command}`"), ("exit status", run.exit_code),
            ("wall time", f"{run.wall_s:.0f} s"),
            ("the cores' busy time", f"{run.busy_s:.0f} CPU-s: {100 * run.busy_s / capacity:.0f} % "
                                     f"of {run.cores} cores"),
            ("seen in sampled processes", f"{seen:.0f} CPU-s")]
    return table(["figure", "value"], rows)


def by_kind(run: Run) -> str:
    seen = sum(run.seconds.values())
    rows = [(kind, f"{s:.0f}", f"{100 * s / seen:.0f} %", run.counts[kind])
            for kind, s in sorted(run.seconds.items(), key=lambda ks: -ks[1]) if s >= 0.5]
    return table(["kind of process", "CPU-s", "share", "processes"], rows)


def by_file(run: Run) -> str:
    """The costliest test files, with everything each started while it ran."""
    files = run.by_file
    total = sum(files.values())
    ranked = sorted(files.items(), key=lambda fs: -fs[1])
    tests = [(name, s) for name, s in ranked if name != OUTSIDE]
    shown, rest = tests[:SHOWN_FILES], tests[SHOWN_FILES:]
    outside = files.get(OUTSIDE, 0.0)
    rows = [(f"`{name}`", s) for name, s in shown]
    rows += [(f"the other {len(rest)} files", sum(s for _, s in rest))] if rest else []
    rows += [(OUTSIDE, outside)]
    return table(["test file (with the servers, browsers and jobs it started)", "CPU-s", "share"],
                 [(name, f"{s:.0f}", f"{100 * s / total:.0f} %") for name, s in rows])


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args[args.index("--") + 1:] if "--" in args else []
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--every", type=float, default=1.0, help="seconds between two readings of /proc")
    ap.add_argument("--tests", type=int, default=0, metavar="N", help="also list the N costliest tests")
    add_write_flag(ap, "suite")
    options = ap.parse_args(args[:args.index("--")] if "--" in args else args)
    run = measure(command or TEST_COMMAND, options.every)
    sections: list[Section] = []
    show(sections, "The run", summary(run))
    show(sections, "CPU by kind of process", by_kind(run))
    if run.by_test:
        show(sections, "CPU by test file", by_file(run))
    if options.tests:
        ranked = sorted(run.by_test.items(), key=lambda ts: -ts[1])[:options.tests]
        show(sections, "The costliest tests", table(["test", "CPU-s"], [(t, f"{s:.1f}") for t, s in ranked]))
    if options.write:
        write_page("suite", "Where the test suite's time goes", sections, intro=INTRO)
    if run.exit_code:
        raise SystemExit(run.exit_code)


if __name__ == "__main__":
    main()
