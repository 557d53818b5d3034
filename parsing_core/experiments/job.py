"""Run an Oracle lab job: ``python -m parsing_core.experiments.job --spec spec.json --log log.jsonl``.

The jobs board (:mod:`server.jobs`, kind ``lab``) starts it in its own process; it reads a
:class:`~.lab.LabSpec`, loads the treebank, and appends one JSON line per record to ``--log``
(flushed at once, so a page follows the run as it goes): a start line, one line per walk
(:func:`~.lab_runs.agreement_records`), then, with ``speed``, the timings, and an end line.
``--out`` receives the whole log's summary at the end (JSON: the records' count, whether it
was stopped).  SIGTERM (a job's Stop) or Ctrl-C ends it after the record in progress, with an end
line saying it was stopped, and exit status 0: what was measured stands.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import IO, Any

from ..errors import ParsingCoreError
from ..treebanks import load_treebank
from .lab import LabEnd, LabSpec, LabStart
from .lab_runs import Numbered, agreement_records, answered, baseline_records, speed_records


class Stop:
    """Set by SIGTERM or SIGINT once installed (:meth:`install`); asked between records."""

    def __init__(self) -> None:
        self.asked = False

    def __call__(self, number: int, frame: FrameType | None) -> None:
        self.asked = True

    def install(self) -> Stop:
        for number in (signal.SIGTERM, signal.SIGINT):
            signal.signal(number, self)
        return self


def numbered(spec: LabSpec) -> tuple[list[Numbered], list[Numbered], int]:
    """(the sentences to walk, every sentence of the file with a gold tree, how many were left out):
    the first ``spec.sentences`` of the file, less those without gold or refused by an oracle."""
    budget = list(enumerate(load_treebank(spec.treebank, spec.split, spec.folder)))
    with_gold = [(i, s) for i, s in budget if s.has_gold]
    budget = budget[: spec.sentences]
    chosen = answered(spec.system, (spec.approx, spec.exact), budget)
    return chosen, with_gold, len(budget) - len(chosen)


def records(spec: LabSpec, stop: Stop) -> Iterator[Any]:
    """Every record of the job, in order, until done or stopped."""
    chosen, with_gold, left_out = numbered(spec)
    yield LabStart(len(chosen), left_out)
    if stop.asked:
        return
    rnd = random.Random(spec.seed)
    parts: list[Iterator[Any]] = [agreement_records(spec.system, spec.approx, spec.exact, chosen, spec.follow,
                                                    rnd)]
    if spec.speed:
        parts.append(speed_records(spec.system, [s for _, s in with_gold], spec.lengths, spec.samples, rnd))
        if spec.system == "arc-standard" and with_gold:
            parts.append(baseline_records(with_gold, spec.baseline_lengths))
    for part in parts:
        for record in part:
            yield record
            if stop.asked:
                return


def write(log: IO[str], record: Any) -> None:
    log.write(json.dumps(record.to_json()) + "\n")
    log.flush()


def run(spec: LabSpec, log_path: Path, out: Path | None, stop: Stop) -> int:
    """Write the job's records to ``log_path``; returns how many."""
    start, count = time.perf_counter(), 0
    with open(log_path, "a", encoding="utf-8") as log:
        for record in records(spec, stop):
            write(log, record)
            count += 1
        write(log, LabEnd(round(time.perf_counter() - start, 2), stop.asked))
    if out is not None:
        out.write_text(json.dumps({"records": count, "stopped": stop.asked}) + "\n", encoding="utf-8")
    return count


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m parsing_core.experiments.job",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--spec", type=Path, required=True, help="a LabSpec as JSON")
    ap.add_argument("--log", type=Path, required=True, help="JSON-lines records, appended")
    ap.add_argument("--out", type=Path, help="the summary at the end (JSON)")
    args = ap.parse_args(argv)
    try:
        spec = LabSpec.from_json(json.loads(args.spec.read_text(encoding="utf-8")))
        run(spec, args.log, args.out, Stop().install())
    except (ParsingCoreError, OSError, ValueError, TypeError) as err:  # a spec or a file it cannot use
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
