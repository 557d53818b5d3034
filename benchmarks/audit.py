"""Every oracle's exactness claim against exhaustive search, printed as a markdown table.

For each claim of ``parsing_core.experiments.audit.claims()`` (an oracle with its options on a
system variant, exact for "any" or "projective" gold trees), compares its costs with the search
oracle's on every legal move of ``--configurations`` configurations, on walks over random trees
and short treebank sentences (see ``parsing_core/experiments/audit.py``).  Mismatches, if any,
are listed with examples below the table.  ``tests/test_oracle_audit.py`` runs the same audit.

    python -m benchmarks.audit [--configurations 20000] [--seed 0] [--max-n 8] [--per-treebank 120] [--write]

``--write`` also writes the table to ``docs/benchmarks/audit.md``.
"""

from __future__ import annotations

import argparse
import time

import parsing_core as pc
from benchmarks.common import Section, add_write_flag, show, table, write_page
from parsing_core.experiments.audit import AuditResult, Claim, audit, bracket, claims

TREEBANKS = ("en_lines-dev", "la_perseus-train")
INTRO = """Every oracle that says it is exact (`exact_for` "any" or "projective"), on each system variant
and policy, checked against the search oracle: every cost of every legal move, on walks that mix
random and optimal moves over random trees (half of them non-projective where the claim is "any")
and short treebank sentences.  `tests/test_oracle_audit.py` runs the same audit in the test suite
(Nederhof's cubic oracle, whose costs never read its policy, on fewer configurations under its
two other policies); mismatches, if any, are listed under the table with examples."""
HEADER = ["system", "options", "oracle", "options", "exact for", "configurations", "moves",
          "random trees proj / non-proj", "treebank sentences", "mismatches", "s"]


def treebank_split(spec: str) -> tuple[str, str]:
    """``en_lines-dev`` → ("en_lines", "dev"); anything else is refused, saying what is expected."""
    name, dash, split = spec.rpartition("-")
    if not dash or not name or split not in ("train", "dev", "test"):
        raise argparse.ArgumentTypeError(f"{spec!r} is not name-split: give e.g. en_lines-dev "
                                         "(split: train, dev or test)")
    return name, split


def short_sentences(treebanks: list[tuple[str, str]], max_n: int, per_treebank: int) -> list[pc.Sentence]:
    """The first ``per_treebank`` sentences of 2..max_n tokens of each (name, split) treebank."""
    sentences: list[pc.Sentence] = []
    for name, split in treebanks:
        short = [s for s in pc.load_treebank(name, split) if s.has_gold and 2 <= s.n <= max_n]
        sentences += short[:per_treebank]
    return sentences


def row(claim: Claim, result: AuditResult, seconds: float) -> list[object]:
    return [claim.system, bracket(claim.system_options), claim.oracle, bracket(claim.oracle_options),
            claim.exact_for, f"{result.configurations:,}", f"{result.moves:,}",
            f"{result.projective_trees} / {result.non_projective_trees}", result.treebank_sentences,
            result.mismatch_count, f"{seconds:.1f}"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--configurations", type=int, default=20_000, help="configurations compared per claim")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--treebanks", nargs="*", type=treebank_split, help="name-split, e.g. en_lines-dev",
                    default=[treebank_split(t) for t in TREEBANKS])
    ap.add_argument("--max-n", type=int, default=8, help="longest treebank sentence (tokens)")
    ap.add_argument("--per-treebank", type=int, default=120, help="short sentences taken from each treebank")
    add_write_flag(ap, "audit")
    args = ap.parse_args()
    try:
        sentences = short_sentences(args.treebanks, args.max_n, args.per_treebank)
    except pc.ParsingCoreError as error:
        ap.error(str(error))
    rows, failed = [], []
    for claim in claims():
        start = time.perf_counter()
        result = audit(claim, args.configurations, args.seed, sentences)
        rows.append(row(claim, result, time.perf_counter() - start))
        print(f"  audited {claim.id}", flush=True)
        if not result.passed:
            failed.append(result)
    out: list[Section] = []
    show(out, f"Exactness claims against search ({len(sentences)} treebank sentences of 2..{args.max_n} "
         "tokens offered)", "\n\n".join([table(HEADER, rows), *(result.report() for result in failed)]))
    if args.write:
        write_page("audit", "Exactness audit", out, intro=INTRO)


if __name__ == "__main__":
    main()
