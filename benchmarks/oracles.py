"""Oracle speed and agreement, printed as markdown tables (the docs' page ``docs/benchmarks/oracles.md``).

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

    python -m benchmarks.oracles [--quick] [--write]

``--write`` also writes the tables to ``docs/benchmarks/oracles.md``.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

import parsing_core as pc
from benchmarks.common import Section, add_write_flag, show, table, treebank, write_page
from parsing_core.experiments.agreement import BUCKETS, SetComparison, agreement_rows, table_11
from parsing_core.experiments.baseline import whole_sentence_speedup
from parsing_core.experiments.timing import (
    cost_oracles,
    length_limit,
    speed_ms,
    speed_pool,
    whole_sentence_timings,
)

LENGTHS = (10, 20, 40, 80)


def speed_cell(system: pc.TransitionSystem, oracle_name: str, sentences: Sequence[pc.Sentence], n: int,
               per_length: int, rnd: random.Random) -> str:
    limit = length_limit(system, oracle_name)
    if limit is not None and n > limit:
        return f"refused (> {limit})"
    pool = speed_pool(system, oracle_name, sentences, n)
    if not pool:
        return "no sentence"
    return f"{speed_ms(system, oracle_name, pool, per_length, rnd):.3g}"


def speed_rows(sentences: Sequence[pc.Sentence], per_length: int, rnd: random.Random) -> list[list[object]]:
    rows: list[list[object]] = []
    for system_name in pc.list_systems():
        system = pc.get_system(system_name)
        for oracle_name in cost_oracles(system):
            cells = [speed_cell(system, oracle_name, sentences, n, per_length, rnd) for n in LENGTHS]
            rows.append([system_name, oracle_name, *cells])
            print(f"  timed {system_name} / {oracle_name}", flush=True)
    return rows


def whole_sentence_rows(sentences: Sequence[pc.Sentence]) -> list[list[object]]:
    return [[t.system, t.oracle, t.tokens, t.steps, f"{t.ms:.0f}", f"{t.ms_per_step:.2f}"]
            for t in whole_sentence_timings(sentences)]


def baseline_rows(sentences: Sequence[pc.Sentence], quick: bool) -> list[list[object]]:
    """The whole-sentence comparison on the en_lines dev sentence closest to 60 tokens (30 if quick)."""
    n = 30 if quick else 60
    s = min(sentences, key=lambda x: (abs(x.n - n), x.sent_id or ""))
    steps, fast, slow = whole_sentence_speedup(s)
    return [[s.n, steps, f"{1e3 * fast:.0f}", f"{slow:.1f}", f"{slow / fast:,.0f}×"]]


def agreement_table_rows(corpora: dict[str, list[pc.Sentence]], limit: int,
                         rnd: random.Random) -> list[list[object]]:
    rows: list[list[object]] = []
    for row in agreement_rows(corpora, limit, rnd):
        summary = row.summary
        rows.append([row.system, f"{row.approx} vs {row.exact}", row.corpus,
                     "projective" if row.projective else "non-projective", row.sentences,
                     summary.configurations or 1, " / ".join(f"{x:.2f}" for x in summary.shares),
                     f"{summary.rho_mean:.3f} ± {summary.rho_sd:.3f}", row.thesis])
        print(f"  agreement {row.system} {row.corpus} {row.projective}", flush=True)
    return rows


def set_comparison_report(policy: str, comparison: SetComparison) -> list[str]:
    """Nederhof's Table 11 counts for one policy: a summary line and the most frequent confusions."""
    wrong, seen = comparison.canonical_differ, max(comparison.seen, 1)
    head = (f"**policy {policy}**: {comparison.seen} configurations; score vectors ρ differ in "
            f"{100 * comparison.scores_differ / seen:.1f} %, canonical sets (the policy's optimal step) in "
            f"{100 * wrong / seen:.2f} % (approximate set strictly inside the exact one in "
            f"{100 * comparison.inside / max(wrong, 1):.1f} % of those); the true optimal sets (by cost) "
            f"differ in {100 * comparison.optimal_differ / seen:.2f} %")
    rows = [[e, a, f"{100 * k / wrong:.1f} %"] for (e, a), k in comparison.confusions.most_common(7)]
    return [head, table(["exact", "approximation", "share of errors"], rows)]


def nederhof_table_11(sentences: Sequence[pc.Sentence], rnd: random.Random) -> list[str]:
    """Exact vs linear canonical sets along walks that follow the linear oracle 90 % of the time."""
    out: list[str] = []
    for policy, comparison in table_11(sentences, rnd).items():
        out += set_comparison_report(policy, comparison)
    return out


SECTIONS = ("speed", "sentence", "baseline", "agreement", "table11")
INTRO = """Targets: exact arc-standard ≤ 10 ms per configuration at 40 tokens and ≥ 50× faster than the
thesis's Algorithm 1 over a whole 60-token sentence; Nederhof exact ≤ 30 ms at 40 tokens; linear
oracles ≤ 0.1 ms at 40 tokens.  Speed: the costs of all legal moves, a fresh oracle each time, on
configurations of random legal walks over en_lines dev and la_perseus train sentences of about n
tokens (medians).  Agreement: the thesis's protocol (§6.2), one walk per training sentence taking
an approximate min-cost move with probability 0.1 and a random legal move otherwise."""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer samples (a smoke run)")
    ap.add_argument("--per-length", type=int, default=30, help="configurations timed per cell")
    ap.add_argument("--limit", type=int, default=100_000, help="sentences per agreement row at most")
    ap.add_argument("--sections", nargs="+", choices=SECTIONS, default=list(SECTIONS))
    add_write_flag(ap, "oracles")
    args = ap.parse_args()
    per_length = 5 if args.quick else args.per_length
    limit = 30 if args.quick else args.limit
    rnd = random.Random(0)
    real = treebank("en_lines-ud-dev") + treebank("la_perseus-ud-train")
    out: list[Section] = []
    if "speed" in args.sections:
        show(out, "Speed: ms per configuration (all legal moves, cold caches)",
             table(["system", "oracle", *(f"n={n}" for n in LENGTHS)], speed_rows(real, per_length, rnd)))
    if "sentence" in args.sections:
        show(out, "Whole sentence: exact costs at every step of a parse",
             table(["system", "oracle", "tokens", "steps", "ms per sentence", "ms per step"],
                   whole_sentence_rows(real)))
    if "baseline" in args.sections:
        header = ["tokens", "steps", "exact (ms)", "Algorithm 1 (s)", "speed-up"]
        show(out, "Exact arc-standard vs the thesis's Algorithm 1, costs at every step of one sentence",
             table(header, baseline_rows(real, args.quick)))
    if "agreement" in args.sections:
        corpora = {name: treebank(name) for name in ("en_lines-ud-train", "la_perseus-ud-train")}
        header = ["system", "oracles", "corpus", "gold", "sentences", "configurations",
                  "% inclusion " + " / ".join(f"{b:g}" for b in BUCKETS), "Spearman ρ (mean ± sd)",
                  "thesis (100 % / mean ρ)"]
        show(out, "Agreement with the exact oracle (thesis protocol)",
             table(header, agreement_table_rows(corpora, limit, rnd)))
    if "table11" in args.sections:
        dev = treebank("de_gsd-ud-dev")[: 40 if args.quick else None]
        show(out, "Nederhof's Table 11 protocol, de_gsd dev", "\n\n".join(nederhof_table_11(dev, rnd)))
    if args.write:
        write_page("oracles", "Oracles", out, intro=INTRO)


if __name__ == "__main__":
    main()
