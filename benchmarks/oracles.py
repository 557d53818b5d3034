"""Oracle speed and agreement, printed as markdown tables (the README's "Oracles" section).

1. **Speed**: milliseconds per configuration (costs of all legal moves, a fresh oracle each
   time, so per-sentence caches start cold) for n = 10, 20, 40, 80, on configurations of
   random legal walks over real sentences of en_lines dev and la_perseus train.
2. **Whole sentence**: exact-oracle costs at every step of one parse (the oracle's own
   optimal path), per sentence and per step, where caches along a parse are reused.
3. **Agreement** of each approximate oracle with the exact one, by the thesis's protocol
   (§6.2): one walk per training sentence, taking an approximate min-cost move with
   probability 0.1 and a random legal move otherwise; at every configuration with two or
   more legal moves, the share of the approximate min-cost set inside the exact one, and
   Spearman's ρ between the two cost vectors.  Projective and non-projective separately.
4. **Nederhof's Table 11** protocol on de_gsd dev: how often the exact and approximate
   canonical sets (each policy's optimal step) differ, and the most frequent confusions.

    python -m benchmarks.oracles [--quick]
"""

from __future__ import annotations

import argparse
import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

import parsing_core as pc
from benchmarks.arc_standard_baseline import whole_sentence_speedup
from benchmarks.common import (
    cold_ms,
    median,
    milliseconds,
    near_length,
    sample_configurations,
    table,
    treebank,
    walk,
)
from parsing_core.oracles import min_cost_moves
from parsing_core.oracles.nederhof import NederhofOracle, PolicyOracle
from parsing_core.oracles.nederhof_linear import NederhofLinearOracle
from parsing_core.oracles.search import MAX_LENGTH

LENGTHS = (10, 20, 40, 80)
BUCKETS = (100.0, 66.67, 50.0, 33.33, 0.0)  # % of the approximate optimal set inside the exact one
# (system, approximate oracle, exact oracle, options of both)
AGREEMENT_PAIRS = [
    ("arc-standard", "thesis-approx", "exact", {}),
    ("arc-eager-corrected", "nederhof-linear", "nederhof", {"policy": "sbr"}),
]
THESIS_TABLES = {  # thesis Tables 6.3-6.4 (arc-standard, its data: UD 2.7 via HF), % in 100-bucket, mean ρ
    ("en_lines", True): "99.22 / 0.996", ("en_lines", False): "98.74 / 0.988",
    ("grc_perseus", True): "99.25 / 0.995", ("grc_perseus", False): "98.38 / 0.977",
}


def cost_oracles(system: pc.TransitionSystem) -> list[str]:
    return [name for name in pc.list_oracles(system) if name != "static"]


def speed_cell(system: pc.TransitionSystem, oracle_name: str, sentences: Sequence[pc.Sentence], n: int,
               per_length: int, rnd: random.Random) -> str:
    pool = near_length(sentences, n)
    if oracle_name == "search":
        if n > MAX_LENGTH[system.name]:
            return f"refused (> {MAX_LENGTH[system.name]})"
        pool = [s for s in pool if s.n <= MAX_LENGTH[system.name]]
    if not pool:
        return "no sentence"
    samples = sample_configurations(system, pool, per_length, rnd)
    return f"{median([cold_ms(system, oracle_name, c, s) for c, s in samples]):.3g}"


def speed_rows(sentences: Sequence[pc.Sentence], per_length: int, rnd: random.Random) -> list[list[object]]:
    rows: list[list[object]] = []
    for system_name in pc.list_systems():
        system = pc.get_system(system_name)
        for oracle_name in cost_oracles(system):
            cells = [speed_cell(system, oracle_name, sentences, n, per_length, rnd) for n in LENGTHS]
            rows.append([system_name, oracle_name, *cells])
            print(f"  timed {system_name} / {oracle_name}", flush=True)
    return rows


def optimal_parse_ms(system: pc.TransitionSystem, oracle_name: str, s: pc.Sentence) -> tuple[float, int]:
    """(ms, steps) of one parse following the oracle's first optimal move, with costs at every step."""
    oracle = pc.get_oracle(system, oracle_name)
    steps: list[pc.Configuration] = []
    ms = milliseconds(lambda: steps.extend(walk(system, s, lambda c: oracle.optimal(c, s)[0])))
    return ms, len(steps)


def closest(sentences: Sequence[pc.Sentence], n: int) -> pc.Sentence:
    """The sentence whose length is nearest ``n``."""
    return min(sentences, key=lambda x: abs(x.n - n))


def exact_oracles(system: pc.TransitionSystem) -> list[str]:
    """The fast exact oracles of a system (search excluded)."""
    return [o for o in cost_oracles(system) if o != "search" and pc.get_oracle(system, o).exact_for == "any"]


def whole_sentence_rows(sentences: Sequence[pc.Sentence]) -> list[list[object]]:
    rows: list[list[object]] = []
    for system_name in pc.list_systems():
        system = pc.get_system(system_name)
        for oracle_name in exact_oracles(system):
            for n in (20, 40, 60):
                s = closest(sentences, n)
                ms, steps = optimal_parse_ms(system, oracle_name, s)
                rows.append([system_name, oracle_name, s.n, steps, f"{ms:.0f}", f"{ms / steps:.2f}"])
    return rows


def baseline_rows(sentences: Sequence[pc.Sentence], quick: bool) -> list[list[object]]:
    """The whole-sentence comparison on the en_lines dev sentence closest to 60 tokens (30 if quick)."""
    n = 30 if quick else 60
    s = min(sentences, key=lambda x: (abs(x.n - n), x.sent_id or ""))
    steps, fast, slow = whole_sentence_speedup(s)
    return [[s.n, steps, f"{1e3 * fast:.0f}", f"{slow:.1f}", f"{slow / fast:,.0f}×"]]


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    """Spearman's ρ of two cost vectors (∞ ranks last; two constant vectors agree, ρ = 1)."""
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    if va == 0 or vb == 0:
        return 1.0 if va == vb else 0.0
    return sum((x - ma) * (y - mb) for x, y in zip(ra, rb)) / math.sqrt(va * vb)


def ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2
        i = j + 1
    return out


class Agreement:
    """Inclusion buckets and Spearman ρs of an approximate oracle against an exact one."""

    def __init__(self, approx: pc.Oracle, exact: pc.Oracle) -> None:
        self.approx, self.exact = approx, exact
        self.buckets: Counter[float] = Counter()
        self.rhos: list[float] = []

    def observe(self, c: pc.Configuration, s: pc.Sentence) -> dict[pc.Transition, float]:
        """Compare the two oracles at ``c``; return the approximate costs."""
        a, e = self.approx.costs(c, s), self.exact.costs(c, s)
        if len(a) >= 2:
            best_a, best_e = set(min_cost_moves(a)), set(min_cost_moves(e))
            self.buckets[round(100 * len(best_a & best_e) / len(best_a), 2)] += 1
            moves = sorted(a)
            self.rhos.append(spearman([a[t] for t in moves], [e[t] for t in moves]))
        return a

    def summary(self) -> tuple[int, str, str]:
        total = sum(self.buckets.values()) or 1
        shares = " / ".join(f"{100 * self.buckets[b] / total:.2f}" for b in BUCKETS)
        mean = sum(self.rhos) / max(len(self.rhos), 1)
        sd = math.sqrt(sum((r - mean) ** 2 for r in self.rhos) / max(len(self.rhos), 1))
        return total, shares, f"{mean:.3f} ± {sd:.3f}"


class Observer(Protocol):
    def observe(self, c: pc.Configuration, s: pc.Sentence) -> dict[pc.Transition, float]: ...


def observed_walks(system: pc.TransitionSystem, observer: Observer, sentences: Sequence[pc.Sentence],
                   follow: float, rnd: random.Random) -> None:
    """One walk per sentence; at each step the observer compares the oracles and returns the
    approximate costs; a min-cost move is taken with probability ``follow``, else a random legal one.
    The thesis protocol uses follow = 0.1; a parser that is right 90 % of the time, 0.9."""
    for s in sentences:
        def choose(c: pc.Configuration, s: pc.Sentence = s) -> pc.Transition:
            a = observer.observe(c, s)
            return rnd.choice(min_cost_moves(a) if rnd.random() < follow else list(a))

        walk(system, s, choose)


def agreement_rows(corpora: dict[str, list[pc.Sentence]], limit: int,
                   rnd: random.Random) -> list[list[object]]:
    rows: list[list[object]] = []
    for system_name, approx_name, exact_name, options in AGREEMENT_PAIRS:
        system = pc.get_system(system_name)
        if not {approx_name, exact_name} <= set(pc.list_oracles(system)):
            continue
        for corpus, sentences in corpora.items():
            for projective in (True, False):
                chosen = [s for s in sentences if s.is_projective == projective][:limit]
                agreement = Agreement(pc.get_oracle(system, approx_name, **options),
                                      pc.get_oracle(system, exact_name, **options))
                observed_walks(system, agreement, chosen, 0.1, rnd)
                thesis = THESIS_TABLES.get((corpus.split("-")[0], projective), "")
                rows.append([system_name, f"{approx_name} vs {exact_name}", corpus,
                             "projective" if projective else "non-projective", len(chosen),
                             *agreement.summary(), thesis if system_name == "arc-standard" else ""])
                print(f"  agreement {system_name} {corpus} {projective}", flush=True)
    return rows


class SetComparison:
    """Nederhof's §6.2 counts: differing score (ρ) vectors, differing canonical sets (his optimal
    step: the moves of largest ρ), and the confusions; and how often the true optimal sets differ."""

    def __init__(self, exact: PolicyOracle, approx: PolicyOracle) -> None:
        self.exact, self.approx = exact, approx
        self.seen = self.scores_differ = self.inside = self.optimal_differ = 0
        self.confusions: Counter[tuple[str, str]] = Counter()

    def observe(self, c: pc.Configuration, s: pc.Sentence) -> dict[pc.Transition, float]:
        a = self.approx.costs(c, s)
        self.seen += 1
        self.scores_differ += self.exact.scores(c, s) != self.approx.scores(c, s)
        self.optimal_differ += set(min_cost_moves(self.exact.costs(c, s))) != set(min_cost_moves(a))
        best_e, best_a = set(self.exact.canonical(c, s)), set(self.approx.canonical(c, s))
        if best_e != best_a:
            self.confusions[(names(best_e), names(best_a))] += 1
            self.inside += best_a < best_e
        return a

    def report(self, policy: str) -> list[str]:
        wrong = sum(self.confusions.values())
        seen = max(self.seen, 1)
        head = (f"**policy {policy}**: {self.seen} configurations; score vectors ρ differ in "
                f"{100 * self.scores_differ / seen:.1f} %, canonical sets (the policy's optimal step) in "
                f"{100 * wrong / seen:.2f} % (approximate set strictly inside the exact one in "
                f"{100 * self.inside / max(wrong, 1):.1f} % of those); the true optimal sets (by cost) "
                f"differ in {100 * self.optimal_differ / seen:.2f} %")
        rows = [[e, a, f"{100 * k / wrong:.1f} %"] for (e, a), k in self.confusions.most_common(7)]
        return [head, table(["exact", "approximation", "share of errors"], rows)]


def nederhof_table_11(sentences: Sequence[pc.Sentence], rnd: random.Random) -> list[str]:
    """Exact vs linear canonical sets along walks that follow the linear oracle 90 % of the time."""
    system = pc.get_system("arc-eager-corrected")
    out: list[str] = []
    for policy in ("sbr", "rbs"):
        comparison = SetComparison(NederhofOracle(system, policy), NederhofLinearOracle(system, policy))
        observed_walks(system, comparison, sentences, 0.9, rnd)
        out += comparison.report(policy)
    return out


def names(moves: set[pc.Transition]) -> str:
    return "{" + ", ".join(t.kind for t in sorted(moves)) + "}"


SECTIONS = ("speed", "sentence", "baseline", "agreement", "table11")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer samples (a smoke run)")
    ap.add_argument("--per-length", type=int, default=30, help="configurations timed per cell")
    ap.add_argument("--limit", type=int, default=100_000, help="sentences per agreement row at most")
    ap.add_argument("--sections", nargs="+", choices=SECTIONS, default=list(SECTIONS))
    args = ap.parse_args()
    per_length = 5 if args.quick else args.per_length
    limit = 30 if args.quick else args.limit
    rnd = random.Random(0)
    real = treebank("en_lines-ud-dev") + treebank("la_perseus-ud-train")
    if "speed" in args.sections:
        print("## Speed: ms per configuration (all legal moves, cold caches)\n")
        print(table(["system", "oracle", *(f"n={n}" for n in LENGTHS)], speed_rows(real, per_length, rnd)))
    if "sentence" in args.sections:
        print("\n## Whole sentence: exact costs at every step of a parse\n")
        print(table(["system", "oracle", "tokens", "steps", "ms per sentence", "ms per step"],
                    whole_sentence_rows(real)))
    if "baseline" in args.sections:
        print("\n## Exact arc-standard vs the thesis's Algorithm 1, costs at every step of one sentence\n")
        header = ["tokens", "steps", "exact (ms)", "Algorithm 1 (s)", "speed-up"]
        print(table(header, baseline_rows(real, args.quick)))
    if "agreement" in args.sections:
        print("\n## Agreement with the exact oracle (thesis protocol)\n")
        corpora = {name: treebank(name) for name in ("en_lines-ud-train", "la_perseus-ud-train")}
        header = ["system", "oracles", "corpus", "gold", "sentences", "configurations",
                  "% inclusion 100 / 66.67 / 50 / 33.33 / 0", "Spearman ρ (mean ± sd)",
                  "thesis (100 % / mean ρ)"]
        print(table(header, agreement_rows(corpora, limit, rnd)))
    if "table11" in args.sections:
        print("\n## Nederhof's Table 11 protocol, de_gsd dev\n")
        dev = treebank("de_gsd-ud-dev")[: 40 if args.quick else None]
        print("\n\n".join(nederhof_table_11(dev, rnd)))


if __name__ == "__main__":
    main()
