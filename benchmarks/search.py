"""How long the exhaustive-search oracle takes, by system and sentence length.

For each system and length n, times ``costs`` at the initial configuration (the worst case:
the whole search space) on random gold trees of n tokens, half of them non-projective, and
prints the median and the maximum.  The last column is the longest n whose maximum stays
under the budget (default 1 s): the limit the oracle enforces (``search.MAX_LENGTH``).

    python -m benchmarks.search [--trees 5] [--budget 1.0] [--max-n 16]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import parsing_core as pc
from parsing_core.oracles.search import MAX_LENGTH, SearchOracle
from parsing_core.trees import is_projective

VARIANTS = [
    ("arc-standard", {}), ("arc-eager", {}), ("arc-eager-corrected", {}), ("arc-hybrid", {}),
    ("arc-hybrid", {"root_last": True}), ("arc-hybrid-swap", {}), ("arc-standard-swap", {}),
]


def random_tree(n: int, rnd: random.Random, projective: bool) -> tuple[int, ...]:
    """A random single-rooted tree, redrawn until its projectivity is as asked (when n allows)."""
    for _ in range(1000):
        order = rnd.sample(range(1, n + 1), n)
        heads = [0] * (n + 1)
        for k, tok in enumerate(order[1:], start=1):
            heads[tok] = rnd.choice(order[:k])
        tree = tuple(heads[1:])
        if is_projective(tree) == projective or n < 4:
            return tree
    return tree


def time_costs(system: pc.TransitionSystem, heads: tuple[int, ...]) -> float:
    s = pc.Sentence.from_heads([f"w{i}" for i in range(1, len(heads) + 1)], heads)
    oracle = SearchOracle(system, max_length=len(heads))
    start = time.perf_counter()
    oracle.costs(system.initial(s), s)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trees", type=int, default=6)
    ap.add_argument("--budget", type=float, default=1.0)
    ap.add_argument("--max-n", type=int, default=16)
    args = ap.parse_args()
    rnd = random.Random(0)
    print(f"| system | n | median ms | max ms | longest n under {args.budget:g} s | enforced limit |")
    print("|---|---|---|---|---|---|")
    for name, options in VARIANTS:
        system = pc.get_system(name, **options)
        label = name + (" (ROOT last)" if options else "")
        longest = 0
        for n in range(4, args.max_n + 1):
            times = [time_costs(system, random_tree(n, rnd, k % 2 == 0)) for k in range(args.trees)]
            if max(times) <= args.budget:
                longest = n
            print(f"| {label} | {n} | {statistics.median(times) * 1e3:.0f} | {max(times) * 1e3:.0f} | | |")
            if max(times) > 2 * args.budget:
                break
        print(f"| **{label}** | | | | **{longest}** | {MAX_LENGTH[name]} |", flush=True)


if __name__ == "__main__":
    main()
