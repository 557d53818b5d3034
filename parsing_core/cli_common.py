"""What the training command lines share: ``python -m parsing_core.train`` and ``python -m parsing_core.rl``.

Both read their sentences from the same data flags (a treebank of the data directory, CoNLL-U
files, or a synthetic treebank), write a JSON-lines log another process can follow, and end the
same way: status 0 when the run ends, 1 with ``error: <message>`` on stderr when the library
refuses something (a :class:`~parsing_core.errors.ParsingCoreError`), 130 on Ctrl-C.

>>> clock(75), clock(3725)
('1:15', '1:02:05')
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from .conllu_io import read_conllu_file
from .errors import ParsingCoreError
from .model.config import DataSpec
from .model.events import Event
from .records import Record
from .sentence import Sentence
from .synthetic import synthetic_treebank
from .treebanks import load_treebank

Data = tuple[list[Sentence], list[Sentence], list[Sentence], str]


def clock(seconds: float) -> str:
    """``m:ss``, or ``h:mm:ss`` from an hour on."""
    minutes, s = divmod(int(seconds), 60)
    return f"{minutes // 60}:{minutes % 60:02d}:{s:02d}" if minutes >= 60 else f"{minutes}:{s:02d}"


class JsonLog:
    """One JSON object per line; flushed at once so another process can follow it."""

    def __init__(self, path: str | None) -> None:
        try:
            self.file = open(path, "w", encoding="utf-8") if path else None  # noqa: SIM115
        except OSError as err:  # a folder that is not there, a folder given for a file
            raise ParsingCoreError(f"could not write the log {path}: {err.strerror or err}") from err

    def write(self, record: Event | Record) -> None:
        if self.file:
            line = record if isinstance(record, dict) else record.to_json()
            self.file.write(json.dumps(line) + "\n")
            self.file.flush()

    def close(self) -> None:
        if self.file:
            self.file.close()


def exit_status(log_path: str | None, work: Callable[[JsonLog], None]) -> int:
    """Run ``work`` with its log open: 0 when it ends, 1 when the library refuses, 130 on Ctrl-C."""
    try:
        log = JsonLog(log_path)
    except ParsingCoreError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    try:
        work(log)
        return 0
    except ParsingCoreError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    finally:
        log.close()


def add_data_arguments(parser: argparse.ArgumentParser, test: bool) -> None:
    """The data flags (the fields of :class:`DataSpec`); ``--test`` only where the run tests."""
    data = parser.add_argument_group("data (default: a synthetic treebank)")
    data.add_argument("--treebank", help="a treebank name in the data directory, e.g. en_lines")
    data.add_argument("--data-dir", help="where --treebank looks (default: PARSING_DATA_DIR)")
    data.add_argument("--train", help="a CoNLL-U training file")
    data.add_argument("--dev", help="a CoNLL-U development file")
    if test:
        data.add_argument("--test", help="a CoNLL-U test file")
    data.add_argument("--synthetic", type=int, default=2000, help="sentences of synthetic training data")
    data.add_argument("--nonprojective", type=float, default=0.3, help="synthetic non-projectivity rate")


def load_data(data: DataSpec, seed: int) -> Data:
    """(train, dev, test, description) from the spec's data source."""
    if data.treebank:
        name, folder = data.treebank, data.data_dir
        return (load_treebank(name, "train", folder), optional(name, "dev", folder),
                optional(name, "test", folder), name)
    if data.train:
        dev = read_conllu_file(data.dev) if data.dev else []
        test = read_conllu_file(data.test) if data.test else []
        return read_conllu_file(data.train), dev, test, data.train
    rate, n = data.nonprojective, data.synthetic
    sizes = [n, n // 10, n // 10]
    train, dev, test = (synthetic_treebank(size, rate, seed=seed + i) for i, size in enumerate(sizes))
    return train, dev, test, f"synthetic ({n}, {rate:.0%} non-projective)"


def optional(name: str, split: str, folder: str | None) -> list[Sentence]:
    """A split of a treebank, or no sentences where the treebank has none."""
    try:
        return load_treebank(name, split, folder)
    except ParsingCoreError:
        return []
