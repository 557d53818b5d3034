"""How long the exhaustive-search oracle takes, by system and sentence length.

For each system and length n, times ``costs`` at the initial configuration (the worst case:
the whole search space) on random gold trees of n tokens, half of them non-projective, and
prints the median and the maximum.  The last column is the longest n whose maximum stays
under the budget (default 1 s): the limit the oracle enforces (``search.MAX_LENGTH``).

    python -m benchmarks.search [--trees 5] [--budget 1.0] [--max-n 16] [--write]

``--write`` also writes the table to ``docs/benchmarks/search.md``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import parsing_core as pc
from benchmarks.common import add_write_flag, table, write_page
from parsing_core.oracles.search import MAX_LENGTH, SearchOracle
from parsing_core.trees import is_projective

VARIANTS = [
    ("arc-standard", {}), ("arc-eager", {}), ("arc-eager-corrected", {}), ("arc-hybrid", {}),
    ("arc-hybrid", {"root_last": True}), ("arc-hybrid-swap", {}), ("arc-standard-swap", {}),
]


def header(budget: float) -> list[str]:
    return ["system", "n", "median ms", "max ms", "another tree, median ms", f"longest n under {budget:g} s",
            "enforced limit"]


INTRO = """The search oracle explores every parse reachable from a configuration, so its work grows
exponentially with the sentence.  It refuses sentences longer than it can answer in about a
second at the initial configuration (the worst case): for each system and length, the median and
the worst time over random trees, half of them non-projective; the bold row gives the longest
length under the budget and the limit the oracle enforces (`parsing_core.oracles.search.MAX_LENGTH`).
From the second tree of a length on, the oracle keeps the graph of keys it explores, and a
later tree of that length is answered from the graph: the column "another tree" is a third
tree asked of the same oracle (the second builds the graph).  The limit is set by the first tree."""


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


def time_costs(system: pc.TransitionSystem, trees: list[tuple[int, ...]]) -> tuple[float, float]:
    """Seconds of a fresh oracle's costs at the initial configuration of the first of three trees
    of one length, and of the same oracle's for the third (the second builds the graph of keys)."""
    oracle = SearchOracle(system, max_length=len(trees[0]))
    seconds = []
    for tree in trees:
        s = pc.Sentence.from_heads([f"w{i}" for i in range(1, len(tree) + 1)], tree)
        start = time.perf_counter()
        oracle.costs(system.initial(s), s)
        seconds.append(time.perf_counter() - start)
    return seconds[0], seconds[2]


def system_rows(label: str, system: pc.TransitionSystem, args: argparse.Namespace,
                rnd: random.Random) -> list[list[object]]:
    """One row per length until the worst time passes twice the budget, then the system's verdict."""
    rows: list[list[object]] = []
    longest = 0
    for n in range(4, args.max_n + 1):
        pairs = [time_costs(system, [random_tree(n, rnd, (k + j) % 2 == 0) for j in range(3)])
                 for k in range(args.trees)]
        times, again = [first for first, _ in pairs], [second for _, second in pairs]
        if max(times) <= args.budget:
            longest = n
        rows.append([label, n, f"{statistics.median(times) * 1e3:.0f}", f"{max(times) * 1e3:.0f}",
                     f"{statistics.median(again) * 1e3:.1f}", "", ""])
        print(table(header(args.budget), rows[-1:]).splitlines()[-1], flush=True)
        if max(times) > 2 * args.budget:
            break
    rows.append([f"**{label}**", "", "", "", "", f"**{longest}**", MAX_LENGTH[system.name]])
    print(table(header(args.budget), rows[-1:]).splitlines()[-1], flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trees", type=int, default=6)
    ap.add_argument("--budget", type=float, default=1.0)
    ap.add_argument("--max-n", type=int, default=16)
    add_write_flag(ap, "search")
    args = ap.parse_args()
    rnd = random.Random(0)
    print(table(header(args.budget), []))
    rows = []
    for name, options in VARIANTS:
        label = name + (" (ROOT last)" if options else "")
        rows += system_rows(label, pc.get_system(name, **options), args, rnd)
    if args.write:
        heading = f"Time of the costs at the initial configuration, {args.trees} random trees per length"
        write_page("search", "Search limits", [(heading, table(header(args.budget), rows))], intro=INTRO)


if __name__ == "__main__":
    main()
