"""What one look at a going run costs the server: reading its log, and drawing its two charts.

    python -m benchmarks.train_looks [--epochs 10] [--repeat 20] [--write]

While a run goes, every open Train page looks at it again every second: it reads the run's
metrics log (``TrainingJob.events``) and builds the loss and accuracy charts from it.  A class
watching a run does this once a second per tab, on one server.  This trains the Train page's
default run (1,000 synthetic sentences, ``--epochs`` epochs) once, on this machine, with its log
kept, then times, at a quarter, half and all of the log's lines, the median of ``--repeat``
reads of:

* the log read whole (what every look did before the logs read were remembered);
* a look now: the same log read again after one more line was written (``GrowingLogs`` parses
  only the lines added since the last read of that log);
* the two charts drawn from its records (Plotly figures, as the page sends them).

A look also finds which runs are going among every run in the jobs folder
(``JobBoard.live``); a class's server keeps hundreds.  The second table times that over folders
of 50, 200 and 800 ended runs: the first look (each run's status read from its folder) and the
looks after it (an ended run's status remembered).

``--write`` also writes the table to ``docs/benchmarks/train_looks.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.common import add_write_flag, cpu_model, table, timings, write_page
from server.jobs import JobBoard
from server.jobs.job import UNREADABLE
from server.jobs.kinds import TRAIN
from server.jobs.log import GrowingLogs
from ui.views.training import PAGE_DEFAULTS, accuracy_figure, loss_figure

INTRO = """One look of a Train page at a going run, on the server: the run's log read, and its two
charts built.  The log is that of the page's default run ({epochs} epochs), trained once on this
machine ({machine}); each figure is the median of {repeat} repetitions, at a quarter, half and
all of the log's lines.  Then the runs going found among the ended ones in a jobs folder, as each
look does."""


def train_log(folder: Path, epochs: int) -> Path:
    """Train the page's default run for ``epochs`` epochs in ``folder``; its metrics log."""
    spec = dataclasses.replace(PAGE_DEFAULTS, train=dataclasses.replace(PAGE_DEFAULTS.train, epochs=epochs))
    log, saved = folder / "log.jsonl", spec.save(folder / "spec.json")
    command = [sys.executable, "-m", "parsing_core.train", "--spec", str(saved), "--log", str(log),
               "--out", str(folder / "model.pt")]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"the run failed:\n{done.stderr[-2000:]}")
    return log


def median_ms(work: Callable[[], Any], repeat: int) -> float:
    return 1000 * statistics.median(timings(work, repeat))


def look_costs(lines: list[str], repeat: int) -> list[str]:
    """(lines, whole read ms, a look now ms, the charts ms) for the log of these ``lines``."""
    text = "".join(lines)
    before = "".join(lines[:-1])

    def whole() -> list[Any]:
        return GrowingLogs().records("log", text, TRAIN.read_record, UNREADABLE)

    def look() -> None:  # the log as the last look saw it, then one more line
        logs = GrowingLogs()
        logs.records("log", before, TRAIN.read_record, UNREADABLE)
        started = time.perf_counter()
        logs.records("log", text, TRAIN.read_record, UNREADABLE)
        looked.append(time.perf_counter() - started)

    looked: list[float] = []
    for _ in range(repeat):
        look()
    runs = {"run": whole()}
    charts = median_ms(lambda: (loss_figure(runs, height=260), accuracy_figure(runs, height=300)), repeat)
    return [str(len(lines)), f"{median_ms(whole, repeat):.2f}", f"{1000 * statistics.median(looked):.2f}",
            f"{charts:.1f}"]


def listing_costs(ended: int, repeat: int) -> list[str]:
    """(ended runs, first look ms, a later look ms) for a jobs folder of ``ended`` ended runs."""
    with tempfile.TemporaryDirectory() as root:
        for i in range(ended):
            folder = Path(root) / f"run-{i:04d}"
            folder.mkdir()
            for name, text in (("kind", "train"), ("command.json", "[]"), ("pid", "999999999"),
                               ("exitcode", "0")):
                (folder / name).write_text(text)
        board = JobBoard(Path(root))
        first = median_ms(board.live, 1)
        later = median_ms(board.live, repeat)
    return [str(ended), f"{first:.1f}", f"{later:.1f}"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=20)
    add_write_flag(ap, "train_looks")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        lines = train_log(Path(folder), args.epochs).read_text().splitlines(keepends=True)
    rows = [look_costs(lines[:max(2, len(lines) * part // 4)], args.repeat) for part in (1, 2, 4)]
    text = table(["lines in the log", "log read whole, ms", "a look now: one new line, ms",
                  "the two charts, ms"], rows)
    print(text)
    listing = table(["ended runs in the jobs folder", "the first look, ms", "a later look, ms"],
                    [listing_costs(n, args.repeat) for n in (50, 200, 800)])
    print(f"\n{listing}")
    if args.write:
        write_page("train_looks", "A look at a going run",
                   [("One look, on the server", text), ("Finding the runs going", listing)],
                   intro=INTRO.format(epochs=args.epochs, repeat=args.repeat, machine=cpu_model()))


if __name__ == "__main__":
    main()
