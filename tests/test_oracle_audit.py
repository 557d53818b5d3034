"""Every oracle's exactness claim, audited against exhaustive search (parsing_core.experiments.audit).

Wherever an oracle says it is exact (``exact_for`` "any" or "projective"), its costs must equal
the search oracle's on every legal move of 20,000 configurations: walks over random trees (half
of them non-projective where the claim is "any") and over short treebank sentences of
en_lines dev and la_perseus train (about a quarter of the latter's short ones cross).

Most of an audit's time is the search.  The claims of one oracle (Nederhof's under its three
policies) walk through the same configurations, so they share one judge per system that remembers
what the search answered: each claim is still compared on all its configurations.

Nederhof's cubic oracle computes its costs without reading its policy (the policy picks among
optimal moves: ρ and the canonical moves), so it is audited on 20,000 configurations under its
default policy and on 5,000 under each of the other two; that its costs are the same under every
policy is tested apart, on every move of 1,500 configurations.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Hashable
from pathlib import Path

import pytest
from _pytest.mark import ParameterSet

import parsing_core as pc
from parsing_core.experiments.audit import JUDGE, Claim, Options, audit, claims, random_heads, sentence_of
from parsing_core.oracles import Costs
from parsing_core.trees import is_projective

CONFIGURATIONS = 20_000
TREEBANKS = [("en_lines", "dev"), ("la_perseus", "train")]
TREEBANK_MAX_N = 8     # the search takes ~0.1 s per arc-eager sentence of 8 tokens, ~0.3 s of 9
PER_TREEBANK = 120     # the first 120 sentences of 2..8 tokens of each

CLAIMS = claims()
POLICY_FREE = {"nederhof": "sbr"}  # oracles whose costs never read their policy, and their default one
OTHER_POLICY_CONFIGURATIONS = 5_000


def configurations_of(claim: Claim) -> int:
    """How many configurations ``claim`` is audited on (fewer for a policy that cannot change costs)."""
    default = POLICY_FREE.get(claim.oracle)
    if default is not None and dict(claim.oracle_options).get("policy", default) != default:
        return OTHER_POLICY_CONFIGURATIONS
    return CONFIGURATIONS


def on_its_oracles_worker(claim: Claim) -> ParameterSet:
    """``claim`` as a test kept on one pytest-xdist worker with the other policies of its oracle,
    which walk through the same configurations and so share its judge; the audits of different
    oracles run side by side (the longest, Nederhof's, takes a minute of CPU on its own)."""
    variant = claim.system + "".join(f",{name}={value}" for name, value in claim.system_options)
    return pytest.param(claim, id=claim.id,
                        marks=pytest.mark.xdist_group(f"oracle-audit:{variant}/{claim.oracle}"))


@pytest.fixture(scope="module")
def short_sentences(data_dir: Path) -> list[pc.Sentence]:
    """Short treebank sentences with gold trees (none where the treebanks are missing)."""
    return list(read_short_sentences(data_dir))


@functools.cache  # read once per process: a worker may come back to this module for another variant
def read_short_sentences(data_dir: Path) -> tuple[pc.Sentence, ...]:
    available = {(f.name, f.split) for f in pc.list_treebanks(data_dir)}
    sentences: list[pc.Sentence] = []
    for name, split in TREEBANKS:
        if (name, split) in available:
            short = [s for s in pc.load_treebank(name, split, data_dir)
                     if s.has_gold and 2 <= s.n <= TREEBANK_MAX_N]
            sentences += short[:PER_TREEBANK]
    return tuple(sentences)


class RememberingJudge(pc.Oracle):
    """The search oracle, remembering its costs for each (gold tree, configuration) it was asked
    about, for the next claim of the same system to read instead of searching again."""

    def __init__(self, system: pc.TransitionSystem) -> None:
        super().__init__(system)
        self.search = pc.get_oracle(system, JUDGE)
        self.answered: dict[Hashable, Costs] = {}

    def move_costs(self, c: pc.Configuration, gold: pc.Sentence) -> Costs:
        key = (gold.gold_heads, c)
        if key not in self.answered:
            self.answered[key] = self.search.costs(c, gold)
        return self.answered[key]


Judges = dict[tuple[str, Options], RememberingJudge]  # by system variant: name and options


@pytest.fixture(scope="module")
def judges() -> Judges:
    """One remembering judge per system variant (name and options), made when first needed."""
    return {}


@pytest.mark.parametrize("claim", [on_its_oracles_worker(c) for c in CLAIMS])
def test_exactness_claim_holds(claim: Claim, short_sentences: list[pc.Sentence], judges: Judges) -> None:
    variant = (claim.system, claim.system_options)
    if variant not in judges:
        judges[variant] = RememberingJudge(claim.make_system())
    result = audit(claim, configurations_of(claim), sentences=short_sentences, judge=judges[variant])
    assert result.mismatch_count == 0, result.report()
    assert result.configurations >= configurations_of(claim)
    assert result.treebank_sentences > 0 or not short_sentences
    if claim.exact_for == "any":
        assert abs(result.projective_trees - result.non_projective_trees) <= 1
        assert result.non_projective_trees > 0
    else:
        assert result.non_projective_trees == 0 < result.projective_trees


def test_claims_cover_every_exact_oracle_once_per_policy() -> None:
    ids = [c.id for c in CLAIMS]
    assert len(ids) == len(set(ids))
    assert {"arc-standard/exact", "arc-standard[single_root=True]/exact", "arc-eager/goldberg-nivre",
            "arc-hybrid[root_last=True]/goldberg-nivre", "arc-eager-corrected/nederhof[policy=rbs]",
            "arc-eager-corrected/nederhof-linear[policy=none]"} <= set(ids)
    assert all(c.oracle != "search" and c.exact_for in ("any", "projective") for c in CLAIMS)
    assert not any(c.oracle in ("static", "thesis-approx", "static-dynamic") for c in CLAIMS)


@pytest.mark.parametrize("oracle", sorted(POLICY_FREE))
def test_costs_are_the_same_under_every_policy(oracle: str) -> None:
    """What lets the audit above check the other policies on fewer configurations."""
    claim = next(c for c in CLAIMS if c.oracle == oracle)
    system = claim.make_system()
    oracles = {p: pc.get_oracle(system, oracle, policy=p) for p in ("sbr", "rbs", "none")}
    rnd, seen = random.Random(3), 0
    while seen < 1_500:
        n = rnd.randint(3, 8)
        gold = sentence_of(random_heads(rnd, n, projective=rnd.random() < 0.5))  # half of them cross
        c = system.initial(gold)
        while not system.is_terminal(c):
            costs = [o.costs(c, gold) for o in oracles.values()]
            assert costs[0] == costs[1] == costs[2], (gold.gold_heads, c, costs)
            seen += 1
            c = system.apply(c, rnd.choice(system.legal(c)))


def test_random_heads_are_trees_as_projective_as_asked() -> None:
    rnd = random.Random(0)
    for n in range(1, 9):
        for root_last in (False, True):
            heads = random_heads(rnd, n, projective=True, root_last=root_last)
            assert sentence_of(heads).n == n and is_projective(heads, root_last)
            if n >= 3:
                crossing = random_heads(rnd, n, projective=False, root_last=root_last)
                assert not is_projective(crossing, root_last)
    with pytest.raises(ValueError, match="projective"):
        random_heads(rnd, 2, projective=False)


def test_the_audit_catches_a_wrong_oracle(monkeypatch: pytest.MonkeyPatch) -> None:
    """An oracle that gets one cost wrong (a cost of 2 reported as 1) fails its audit with examples."""
    claim = next(c for c in CLAIMS if c.id == "arc-hybrid/goldberg-nivre")
    oracle_class = type(claim.make_oracle(claim.make_system()))
    right = oracle_class.costs

    def wrong(self: pc.Oracle, c: pc.Configuration, gold: pc.Sentence) -> dict[pc.Transition, float]:
        return {t: 1 if v == 2 else v for t, v in right(self, c, gold).items()}

    monkeypatch.setattr(oracle_class, "costs", wrong)
    result = audit(claim, 500)
    assert result.mismatch_count > 0 and not result.passed
    assert len(result.mismatches) == min(5, result.mismatch_count)
    assert "oracle {" in result.report() and "2" in result.mismatches[0].search_costs


def test_the_audit_benchmark_reads_name_split_and_refuses_a_name_alone() -> None:
    """``--treebanks en_lines`` once failed on unpacking; it now says what it expects."""
    import argparse

    from benchmarks.audit import treebank_split

    assert treebank_split("en_lines-dev") == ("en_lines", "dev")
    for wrong in ("en_lines", "en_lines-", "-dev", "en_lines-validation"):
        with pytest.raises(argparse.ArgumentTypeError, match="is not name-split: give e.g. en_lines-dev"):
            treebank_split(wrong)
