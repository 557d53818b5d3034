"""Shared by the benchmark scripts: treebanks, markdown tables and the docs' benchmark pages.

The experiments themselves (walks, sampling, agreement, timing) live in
:mod:`parsing_core.experiments`; the benchmarks run them and print what they return.  With
``--write`` (:func:`add_write_flag`) a script also writes what it printed to
``docs/benchmarks/<name>.md`` through :func:`write_page`, which names the date and the machine
once at the top, so the documentation's tables are never pasted by hand.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import os
import platform
import sys
import time
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import parsing_core as pc

T = TypeVar("T")

#: Where the benchmark pages of the documentation site live (``mkdocs.yml`` lists them).
PAGES = Path(__file__).resolve().parents[1] / "docs" / "benchmarks"

#: A section of a benchmark page: its heading and its Markdown (a table and the lines around it).
Section = tuple[str, str]


def treebank(name: str) -> list[pc.Sentence]:
    """Sentences of ``<name>.conllu`` in the data directory (e.g. ``en_lines-ud-dev``)."""
    directory = pc.data_dir()
    if directory is None:
        raise SystemExit("set PARSING_DATA_DIR to the folder holding the UD .conllu files")
    return [s for s in pc.read_conllu_file(Path(directory) / f"{name}.conllu") if s.has_gold]


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A markdown table."""
    lines = [row_line(header), "|" + "---|" * len(header)]
    lines += [row_line(row) for row in rows]
    return "\n".join(lines)


def row_line(row: Sequence[object]) -> str:
    """One row of a markdown table (a table printed row by row, as each is measured).

    >>> row_line(["cuda", "graphs, compiled steps", 1, "1.25"])
    '| cuda | graphs, compiled steps | 1 | 1.25 |'
    """
    return "| " + " | ".join(str(x) for x in row) + " |"


def timings(work: Callable[[], object], repeat: int) -> list[float]:
    """Seconds of each of ``repeat`` runs of ``work`` (the caller takes the best or the median).

    >>> len(timings(lambda: None, 3)), all(t >= 0 for t in timings(lambda: None, 2))
    (3, True)
    """
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return times


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` to its end on a fresh event loop in a worker thread.

    ``asyncio.run`` refuses to start inside a thread whose loop is already running, which
    is the case under pytest once Playwright's sync API is open; a thread of its own
    always has none.
    """
    with ThreadPoolExecutor(max_workers=1) as worker:
        return worker.submit(asyncio.run, coroutine).result()


def add_write_flag(parser: argparse.ArgumentParser, name: str) -> None:
    """Give a benchmark's command line ``--write``: also write its tables to its docs page."""
    parser.add_argument("--write", action="store_true",
                        help=f"also write the tables to docs/benchmarks/{name}.md")


def show(sections: list[Section], heading: str, body: str) -> None:
    """Print a section as soon as it is measured, and keep it for the page :func:`write_page` writes."""
    print(f"\n## {heading}\n\n{body}", flush=True)
    sections.append((heading, body))


def cpu_model() -> str:
    """The processor's name as the kernel reports it (``platform.processor()`` elsewhere)."""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "an unknown processor"


def memory_gib() -> float:
    """The machine's memory in GiB."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30


def machine(gpu: str | None = None) -> str:
    """The machine in one phrase: processor, cores, memory, load, and the GPU when one was used.

    >>> "cores" in machine() and "GiB of memory" in machine()
    True
    """
    load = os.getloadavg()[0]
    words = (f"{cpu_model()}, {os.cpu_count()} cores, {memory_gib():.0f} GiB of memory, "
             f"load average {load:.1f}")
    return f"{words}; GPU: {gpu}" if gpu else words


def page(name: str, title: str, sections: Sequence[Section], intro: str = "",
         gpu: str | None = None, today: datetime.date | None = None, arguments: str = "--write") -> str:
    """A benchmark page's Markdown: the title, when and where it was measured (once), the sections.

    >>> text = page("search", "Search", [("Times", "| a |\\n|---|\\n| 1 |")], today=datetime.date(2026, 1, 2))
    >>> text.splitlines()[0], "2026-01-02" in text, text.count("## Times")
    ('# Search', True, 1)
    """
    day = (today or datetime.date.today()).isoformat()
    lines = [f"# {title}", "",
             f"Measured on {day} on {machine(gpu)}; written by `python -m benchmarks.{name} {arguments}`, "
             "which replaces this page when it is run again.", ""]
    if intro:
        lines += [intro.strip(), ""]
    for heading, body in sections:
        lines += [f"## {heading}", "", body.strip(), ""]
    return "\n".join(lines)


def write_page(name: str, title: str, sections: Sequence[Section], intro: str = "",
               gpu: str | None = None, directory: Path = PAGES) -> Path:
    """Write :func:`page` to ``<directory>/<name>.md`` (``docs/benchmarks/`` by default); its path."""
    path = directory / f"{name}.md"
    path.write_text(page(name, title, sections, intro, gpu, arguments=" ".join(sys.argv[1:]) or "--write"))
    print(f"wrote {path}")
    return path
