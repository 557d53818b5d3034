"""Jobs on a Ray cluster beside local processes: the head's start, a tiny run's round trip, Stop.

    python -m benchmarks.ray_jobs [--repeat 3] [--write]

Starts a Ray head of two CPUs on loopback (``tests/ray_head.py``), then on each backend,
``--repeat`` times, one run at a time: a tiny synthetic run (40 sentences, 1 epoch, the tiny
network) from Start to running, to its first epoch line read back by the board, to finished;
and a long run stopped once its first epoch is read (Stop → stopped, checkpoint kept).
Medians in seconds (min–max); they depend on the machine's load, printed with the table.
``--write`` also writes it to ``docs/benchmarks/ray_jobs.md``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from benchmarks.common import add_write_flag, table, write_page
from parsing_core.model import DataSpec, EpochEvent, ModelConfig, TrainConfig, TrainSpec
from server.jobs import LIVE, LOCAL, Backend, JobBoard, TrainingJob, backend_named
from tests.ray_head import QUIET, ray_head

TINY = TrainSpec(DataSpec(synthetic=40), "arc-hybrid", TrainConfig(epochs=1, seed=1),
                 ModelConfig(word_dim=16, lstm_dim=16, lstm_layers=1, mlp_dim=16))
LONG = replace(TINY, train=replace(TINY.train, epochs=500))
STEPS = ["Start → running", "→ first epoch read", "→ finished", "Stop → stopped"]


def until(condition: Callable[[], bool], began: float, seconds: float = 300) -> float:
    """Seconds from ``began`` until ``condition()`` holds (asked every 50 ms)."""
    while not condition():
        if time.monotonic() - began > seconds:
            raise SystemExit("timed out")
        time.sleep(0.05)
    return time.monotonic() - began


def has_epoch(job: TrainingJob) -> bool:
    return any(isinstance(e, EpochEvent) for e in job.events())


def round_trip(board: JobBoard) -> list[float]:
    """[Start → running, → first epoch read, → finished, Stop → stopped] of one tiny and one long run."""
    began = time.monotonic()
    job = board.start("tiny", TINY)
    running = until(lambda: job.status() != "queued", began)
    epoch = until(lambda: has_epoch(job), began)
    finished = until(lambda: job.status() not in LIVE, began)
    assert job.status() == "finished", job.failure()
    long = board.start("long", LONG)
    until(lambda: has_epoch(long), time.monotonic())
    stopping = time.monotonic()
    long.stop()
    assert long.status() == "stopped" and long.checkpoint.exists(), long.failure()
    return [running, epoch, finished, time.monotonic() - stopping]


def row(name: str, backend: Backend, repeat: int) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="bench-jobs-") as folder:
        board = JobBoard(Path(folder), backend=backend)
        runs = [round_trip(board) for _ in range(repeat)]
    cells = []
    for step in zip(*runs):
        cells.append(f"{statistics.median(step):.1f} ({min(step):.1f}–{max(step):.1f})")
    return [name, *cells]


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    add_write_flag(ap, "ray_jobs")
    args = ap.parse_args(argv)
    os.environ.update(QUIET)
    began = time.monotonic()
    with ray_head(cpus=2) as address:
        head = time.monotonic() - began
        ray = backend_named("ray", address)
        rows = [row("local process", LOCAL, args.repeat), row("Ray job", ray, args.repeat)]
    heading = (f"Ray head (2 CPUs, dashboard) up in {head:.1f} s; load average {os.getloadavg()[0]:.1f} "
               f"on {os.cpu_count()} CPUs; {args.repeat} runs each")
    print(f"{heading}\n")
    print(table(["backend", *STEPS], rows))
    if args.write:
        intro = ("A tiny run (40 synthetic sentences, 1 epoch, the tiny network), one at a time, as a local "
                 "process and as a [Ray job](../operations/ray.md); medians in seconds, min–max in brackets.")
        write_page("ray_jobs", "Ray jobs", [(heading, table(["backend", *STEPS], rows))], intro=intro)


if __name__ == "__main__":
    main()
