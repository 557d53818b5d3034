"""The thesis's exact arc-standard oracle as printed (§5.1, Algorithms 1–2): the speed baseline.

A direct transcription, in gain form (spec §4.4): ``T[i][j]`` maps each possible head h of a
tree reducing γ[i..j] to the most gold arcs such a tree can hold, γ = σβ.  Columns j < b − 1
(spans below the stack top) are never filled, exactly as in Algorithm 1; each cell tries every
split point and every pair of sub-span heads (Algorithm 2), O(|γ|⁵).  Like the thesis's Code
A.5, the costs of one configuration take four runs: the configuration and each successor.

One addition: for ``ArcStandard(single_root=True)`` ROOT takes a single dependent, last, so the
answer there is max over h of T[1][N−1][h] + [h's gold head is ROOT] (the thesis's table lets
ROOT take several; it only differs for gold trees with several roots).

    python -m benchmarks.arc_standard_baseline [--n 60] [--sentences 1] [--speed]

times the exact oracle against this transcription over every step of whole parses of real
sentences near n tokens (en_lines dev), checking that both give the same costs.  ``--speed``
first prints ms per configuration of the exact and the approximate oracle at n = 10, 20, 40,
80: *cold* (a fresh oracle for each configuration, as ``benchmarks/oracles.py`` times) and
*warm* (every configuration of a random walk, in order, by one oracle).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import parsing_core as pc
from benchmarks.common import table
from parsing_core.experiments.timing import cold_ms, median, milliseconds
from parsing_core.experiments.walks import near_length, random_walk, sample_configurations, walk
from parsing_core.oracles.base import Costs

Cell = dict[int, int]


Table = list[list[Cell | None]]


def fill_table_entry(table: Table, i: int, j: int, gamma: list[int], gold: list[int]) -> None:
    """Algorithm 2: combine T[i][k] and T[k+1][j] by LEFT-ARC (h_r heads h_l) or RIGHT-ARC."""
    cell: Cell = {}
    for k in range(i, j):
        left, right = table[i][k], table[k + 1][j]
        if left is None or right is None:
            continue
        for hl, vl in left.items():
            for hr, vr in right.items():
                la = vl + vr + (gold[gamma[hl]] == gamma[hr])
                if la > cell.get(hr, -1):
                    cell[hr] = la
                ra = vl + vr + (gold[gamma[hr]] == gamma[hl])
                if ra > cell.get(hl, -1):
                    cell[hl] = ra
    table[i][j] = cell


def thesis_future(c: pc.Configuration, gold: pc.Sentence, single_root: bool = False) -> float:
    """Algorithm 1: the most gold arcs the moves from ``c`` on can still add."""
    gamma = [*c.stack, *c.buffer]
    heads = [-1, *gold.gold_heads]
    b, size = len(c.stack), len(gamma)
    table: Table = [[None] * size for _ in range(size)]
    for i in range(size):
        table[i][i] = {i: 0}
    for j in range(b - 1, size):
        for i in range(j - 1, -1, -1):
            fill_table_entry(table, i, j, gamma, heads)
    if not single_root:
        return table[0][size - 1].get(0, -math.inf)  # type: ignore[union-attr]
    if size == 1:
        return 0
    top = table[1][size - 1] or {}
    return max((v + (heads[gamma[h]] == 0) for h, v in top.items()), default=-math.inf)


def thesis_best(system: pc.TransitionSystem, c: pc.Configuration, gold: pc.Sentence) -> float:
    built = sum(1 for arc in c.unlabelled_arcs if arc in gold.gold_arcs)
    return built + thesis_future(c, gold, getattr(system, "single_root", False))


def thesis_costs(system: pc.TransitionSystem, c: pc.Configuration, gold: pc.Sentence) -> Costs:
    """cost(t) = best(c) − best(t(c)), by one table for ``c`` and one for each successor (Code A.5)."""
    now = thesis_best(system, c, gold)
    return {t: now - thesis_best(system, after, gold) for t, _, after in system.successors(c)}


# -- the benchmark ------------------------------------------------------------------------------
def parse_configurations(system: pc.TransitionSystem, s: pc.Sentence) -> list[pc.Configuration]:
    """The configurations of one parse that follows the exact oracle's first optimal move."""
    oracle = pc.get_oracle(system, "exact")
    return walk(system, s, lambda c: oracle.optimal(c, s)[0])


def warm_ms(system: pc.TransitionSystem, name: str, s: pc.Sentence, rnd: random.Random) -> float:
    """Mean time per configuration of one random walk, asked in order of one oracle."""
    configurations, oracle = random_walk(system, s, rnd), pc.get_oracle(system, name)
    return milliseconds(lambda: [oracle.costs(c, s) for c in configurations]) / len(configurations)


def speed_rows(sentences: list[pc.Sentence], per_length: int = 30) -> list[list[object]]:
    system, rnd = pc.get_system("arc-standard"), random.Random(0)
    rows: list[list[object]] = []
    for name in ("exact", "thesis-approx"):
        for n in (10, 20, 40, 80):
            pool = near_length(sentences, n)
            samples = sample_configurations(system, pool, per_length, rnd)
            cold = [cold_ms(system, name, c, s) for c, s in samples]
            warm = [warm_ms(system, name, s, rnd) for s in rnd.sample(pool, min(5, len(pool)))]
            rows.append([name, n, f"{median(cold):.3f}", f"{max(cold):.3f}", f"{median(warm):.3f}"])
    return rows


def timed(fn: Callable[[pc.Configuration, pc.Sentence], Costs], configurations: Sequence[pc.Configuration],
          s: pc.Sentence) -> tuple[float, list[Costs]]:
    """(seconds, costs) of ``fn`` at every configuration, in order."""
    start = time.perf_counter()
    out = [fn(c, s) for c in configurations]
    return time.perf_counter() - start, out


def whole_sentence_speedup(s: pc.Sentence) -> tuple[int, float, float]:
    """(steps, exact seconds, Algorithm 1 seconds) for the costs at every step of one parse."""
    system = pc.get_system("arc-standard")
    configurations = parse_configurations(system, s)
    fast, ours = timed(pc.get_oracle(system, "exact").costs, configurations, s)
    slow, theirs = timed(lambda c, s: thesis_costs(system, c, s), configurations, s)
    assert ours == theirs, "the exact oracle and the transcription disagree"
    return len(configurations), fast, slow


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=60, help="sentence length (nearest in en_lines dev)")
    ap.add_argument("--sentences", type=int, default=1)
    ap.add_argument("--speed", action="store_true", help="first the ms-per-configuration table")
    args = ap.parse_args()
    data = Path(pc.data_dir() or "../shared/data/ud") / "en_lines-ud-dev.conllu"
    sentences = [s for s in pc.read_conllu_file(data) if s.has_gold]
    if args.speed:
        header = ["oracle", "n", "cold ms (median)", "cold ms (max)", "warm ms per configuration"]
        print(table(header, speed_rows(sentences)), flush=True)
    pool = sorted(sentences, key=lambda s: (abs(s.n - args.n), s.sent_id or ""))
    for s in random.Random(0).sample(pool[: 5 * args.sentences], args.sentences):
        steps, fast, slow = whole_sentence_speedup(s)
        print(f"{s.sent_id}: {s.n} tokens, {steps} steps; exact {1e3 * fast:.0f} ms, "
              f"thesis Algorithm 1 {slow:.1f} s: {slow / fast:.0f}x faster")


if __name__ == "__main__":
    main()
