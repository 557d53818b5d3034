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
import uuid
from pathlib import Path

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
