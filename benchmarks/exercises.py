"""How long an exercise takes to make and grade, by kind.

For every kind, over every system variant: items of the teaching sentences, of short
sentences of a treebank (en_lines dev, 3 to 12 tokens, when the data directory has it) and of
random trees (half of them crossing, 2 to 10 tokens).  Each timing is one item made and graded
twice, the oracle's own answer and a wrong one (the slower path: the wrong move is explained),
on a fresh sentence (no oracle table kept from an earlier item of it).  "refused" counts the
items the kind could not make (no exact oracle answers, too long, nothing to ask).  The
predict-parser kind is timed with a stand-in model (the first legal move), so the time is
the library's, not a network's.

    python -m benchmarks.exercises [--random 60] [--treebank 40] [--write]

``--write`` also writes the table to ``docs/benchmarks/exercises.md``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

import parsing_core as pc
from benchmarks.common import add_write_flag, table, write_page
from parsing_core.driver import Choose
from parsing_core.exercises import ExerciseError, ItemSpec, get_kind, list_kinds, sentence_key
from parsing_core.exercises.setting import oracle_of
from parsing_core.experiments.audit import SYSTEM_VARIANTS, random_heads, sentence_of
from parsing_core.oracles.arc_standard_exact import warm_up

INTRO = """Making and grading an item of every [Practice](../pages/practice.md) kind: the teaching set,
short en_lines dev sentences and random trees, each kind over every system variant; one item made
and graded twice, its key and a wrong answer, on a fresh oracle.  "refused" counts the items a kind
could not make (e.g. no exact oracle for that tree).  predict-parser is timed with a stand-in model
that takes the first legal move, so its time is the library's, not a network's.  Target: every
kind within 50 ms at the 95th percentile."""


def first_legal_model(sentence: pc.Sentence) -> Choose:
    """A stand-in for a trained parser: for any sentence, always the first legal move."""
    return first_legal


def first_legal(c: pc.Configuration, legal: tuple[pc.Transition, ...]) -> pc.Transition:
    return legal[0]


def sentences(random_trees: int, treebank_count: int) -> list[pc.Sentence]:
    rnd = random.Random(0)
    out = pc.teaching_sentences()
    directory = pc.data_dir()
    if directory is not None and (directory / "en_lines-ud-dev.conllu").exists():
        short = [s for s in pc.load_treebank("en_lines", "dev", directory) if s.has_gold and 3 <= s.n <= 12]
        out += short[:treebank_count]
    for k in range(random_trees):
        n = rnd.randint(2, 10)
        out.append(sentence_of(random_heads(rnd, n, projective=n < 3 or k % 2 == 0)))
    return out


def time_item(kind_name: str, spec: ItemSpec, sentence: pc.Sentence) -> float | None:
    """Seconds to make the item and grade its key and a wrong answer; None if refused."""
    kind = get_kind(kind_name)
    oracle_of.cache_clear()  # new oracle objects: no table of this sentence kept from before
    start = time.perf_counter()
    try:
        item = kind.make(spec, sentence, first_legal_model)
    except ExerciseError:
        return None
    kind.grade(item, item.key)
    wrong = kind.wrong(item, random.Random(spec.seed))
    if wrong is not None:
        kind.grade(item, wrong)
    return time.perf_counter() - start


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def row(kind: str, cases: Sequence[pc.Sentence]) -> list[object]:
    times, refused = [], 0
    for k, sentence in enumerate(cases):
        name, options = SYSTEM_VARIANTS[k % len(SYSTEM_VARIANTS)]
        spec = ItemSpec(kind, sentence_key(sentence), name, options, seed=k, level=1 + k % 3)
        took = time_item(kind, spec, sentence)
        if took is None:
            refused += 1
        else:
            times.append(took * 1000)
    if not times:
        return [kind, 0, refused, "–", "–", "–"]
    return [kind, len(times), refused, f"{statistics.median(times):.1f}", f"{percentile(times, 0.95):.1f}",
            f"{max(times):.1f}"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=60, help="random trees")
    ap.add_argument("--treebank", type=int, default=40, help="en_lines dev sentences")
    add_write_flag(ap, "exercises")
    args = ap.parse_args()
    cases = sentences(args.random, args.treebank)
    warm_up()  # the exact arc-standard oracle's compiled loops, loaded once per process, not timed
    rows = []
    for kind in list_kinds():
        rows.append(row(kind, [*cases, *cases]))  # every sentence twice: two system variants each
    heading = f"{len(cases)} sentences, each with two system variants in turn; times in ms"
    text = table(["kind", "items", "refused", "p50 ms", "p95 ms", "max ms"], rows)
    print(f"{heading}\n\n{text}")
    if args.write:
        write_page("exercises", "Exercises", [(heading, text)], intro=INTRO)


if __name__ == "__main__":
    main()
