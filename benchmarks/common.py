"""Shared by the benchmark scripts: treebanks, random walks, sampling, formatting."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import parsing_core as pc

Walk = list[pc.Configuration]


def treebank(name: str) -> list[pc.Sentence]:
    """Sentences of ``<name>.conllu`` in the data directory (e.g. ``en_lines-ud-dev``)."""
    directory = pc.data_dir()
    if directory is None:
        raise SystemExit("set PARSING_DATA_DIR to the folder holding the UD .conllu files")
    return [s for s in pc.read_conllu_file(Path(directory) / f"{name}.conllu") if s.has_gold]


def walk(system: pc.TransitionSystem, s: pc.Sentence, choose: Callable[[pc.Configuration], pc.Transition]
         ) -> Walk:
    """The non-final configurations of one parse driven by ``choose``."""
    c, seen = system.initial(s), []
    while not system.is_terminal(c):
        seen.append(c)
        c = system.apply(c, choose(c))
    return seen


def random_walk(system: pc.TransitionSystem, s: pc.Sentence, rnd: random.Random) -> Walk:
    return walk(system, s, lambda c: rnd.choice(system.legal(c)))


def near_length(sentences: Sequence[pc.Sentence], n: int) -> list[pc.Sentence]:
    """Sentences within 10 % of n tokens."""
    return [s for s in sentences if 0.9 * n <= s.n <= 1.1 * n]


def sample_configurations(system: pc.TransitionSystem, sentences: Sequence[pc.Sentence], k: int,
                          rnd: random.Random) -> Iterator[tuple[pc.Configuration, pc.Sentence]]:
    """k configurations, each a random point of a random legal walk over a random sentence."""
    for _ in range(k):
        s = rnd.choice(sentences)
        yield rnd.choice(random_walk(system, s, rnd)), s


def milliseconds(fn: Callable[[], object], repeat: int = 1) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) * 1e3 / repeat


def cold_ms(system: pc.TransitionSystem, oracle_name: str, c: pc.Configuration, s: pc.Sentence) -> float:
    """Time of one ``costs`` call by a fresh oracle (no per-sentence caches yet)."""
    oracle = pc.get_oracle(system, oracle_name)
    return milliseconds(lambda: oracle.costs(c, s))


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)
