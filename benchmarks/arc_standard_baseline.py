"""The thesis's exact arc-standard oracle as printed (§5.1, Algorithms 1–2): the speed baseline.

The transcription lives in :mod:`parsing_core.experiments.baseline` (the Oracle lab runs it
too); this script prints its tables.  A direct transcription, in gain form (spec §4.4):
``T[i][j]`` maps each possible head h of a tree reducing γ[i..j] to the most gold arcs such a
tree can hold, γ = σβ.  Columns j < b − 1 (spans below the stack top) are never filled, exactly
as in Algorithm 1; each cell tries every split point and every pair of sub-span heads
(Algorithm 2), O(|γ|⁵).  Like the thesis's Code
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
import random
from pathlib import Path

import parsing_core as pc
from benchmarks.common import table
from parsing_core.experiments.baseline import whole_sentence_speedup
from parsing_core.experiments.timing import cold_ms, median, milliseconds
from parsing_core.experiments.walks import near_length, random_walk, sample_configurations


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
