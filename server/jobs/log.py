"""A job's metrics log: one JSON object per line, read while the job still writes it.

Run locally, a job writes its log to ``log.jsonl`` in its folder.  Run on a Ray cluster, it
cannot count on that folder, so the relay (:mod:`server.jobs.relay`) prints each line
to the job's output, marked with :data:`MARK`; the cluster keeps that output, and
:func:`split_output` takes the marked lines back out of it.

>>> parse_log('{"event": "start"}\\nnot json\\n{"event": "ep')
([{'event': 'start'}], 1)
>>> split_output(MARK + '{"event": "test"}\\nsaved model.pt\\n' + MARK + '{"ev')
('{"event": "test"}\\n', 'saved model.pt\\n')
"""

from __future__ import annotations

import json
import os
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from pathlib import Path
from typing import Any

from .kinds import Report

#: What starts a metrics line in a job's output (the rest of the line is the log's line).
MARK = "@metrics "


def parse_log(text: str) -> tuple[list[Report], int]:
    """(every complete line of ``text`` that is a JSON object, how many lines were not).

    A last line without its newline is still being written: it is left for the next read, and
    not counted.
    """
    lines = text.splitlines()
    if lines and not text.endswith("\n"):
        lines = lines[:-1]
    records, skipped = [], 0
    for line in lines:
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            skipped += 1
            continue
        if isinstance(record, dict):
            records.append(record)
        else:
            skipped += 1
    return records, skipped


def split_output(output: str) -> tuple[str, str]:
    """(the metrics log, everything else the job printed), from a job's output.

    The output's last line, still being written (no newline yet), is in neither.
    """
    lines = output.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines = lines[:-1]
    metrics = [line[len(MARK):] for line in lines if line.startswith(MARK)]
    said = [line for line in lines if not line.startswith(MARK)]
    return "".join(metrics), "".join(said)


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` so that a reader sees the old file or the new one, never half of it."""
    part = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}")
    part.write_text(text, encoding="utf-8")
    os.replace(part, path)


def typed(reports: Iterable[Report], read: Callable[[Report], Any],
          unreadable: tuple[type[Exception], ...]) -> list[Any]:
    """The reports ``read`` turns into records; one it refuses (one of ``unreadable``) is left out."""
    records = []
    for report in reports:
        try:
            records.append(read(report))
        except unreadable:
            continue
    return records


class GrowingLogs:
    """The records of the logs read before, so that reading a log again parses only its new lines.

    A page showing a run reads its whole log every second or so, and a log grows by appending:
    each read here parses the complete lines added since the last read of the same log (its
    ``key``), and keeps the records of those before.  A log that is not the last one read with
    lines added (another file, rewritten, cut short) is parsed whole.  A last line still being
    written is left for the next read, as :func:`parse_log` does.  The ``most`` logs read last
    are kept; threads may share it (each entry is replaced whole).

    >>> logs, read = GrowingLogs(), lambda report: report["event"]
    >>> logs.records("run", '{"event": "start"}\\n{"event": "ba', read, (KeyError,))
    ['start']
    >>> logs.records("run", '{"event": "start"}\\n{"event": "batch"}\\n{"x": 1}\\n', read, (KeyError,))
    ['start', 'batch']
    """

    def __init__(self, most: int = 64) -> None:
        self.most = most
        self._seen: OrderedDict[Hashable, tuple[str, tuple[Any, ...]]] = OrderedDict()
        self._lock = threading.Lock()

    def records(self, key: Hashable, text: str, read: Callable[[Report], Any],
                unreadable: tuple[type[Exception], ...]) -> list[Any]:
        """The records of the log ``text`` (every complete line ``read`` accepts), for the log ``key``."""
        done = text[:text.rfind("\n") + 1]  # its complete lines
        with self._lock:
            seen = self._seen.get(key)
        start, before = (len(seen[0]), seen[1]) if seen and done.startswith(seen[0]) else (0, ())
        records = before + tuple(typed(parse_log(done[start:])[0], read, unreadable))
        with self._lock:
            self._seen[key] = (done, records)
            self._seen.move_to_end(key)
            while len(self._seen) > self.most:
                self._seen.popitem(last=False)
        return list(records)
