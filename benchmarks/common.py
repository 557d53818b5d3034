"""Shared by the benchmark scripts: treebanks and markdown tables.

The experiments themselves (walks, sampling, agreement, timing) live in
:mod:`parsing_core.experiments`; the benchmarks run them and print what they return.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import parsing_core as pc


def treebank(name: str) -> list[pc.Sentence]:
    """Sentences of ``<name>.conllu`` in the data directory (e.g. ``en_lines-ud-dev``)."""
    directory = pc.data_dir()
    if directory is None:
        raise SystemExit("set PARSING_DATA_DIR to the folder holding the UD .conllu files")
    return [s for s in pc.read_conllu_file(Path(directory) / f"{name}.conllu") if s.has_gold]


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)
