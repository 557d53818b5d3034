"""parsing_core.experiments: walks, the agreement protocols and timing, on hand-made inputs."""

from __future__ import annotations

import math
import random

import pytest

import parsing_core as pc
from parsing_core.experiments.agreement import (
    BUCKETS,
    Agreement,
    SetComparison,
    agreement,
    inclusion,
    move_names,
    ranks,
    spearman,
    table_11,
)
from parsing_core.experiments.timing import length_limit, median, speed_pool, whole_sentence_timings
from parsing_core.experiments.walks import (
    near_length,
    observed_walks,
    random_walk,
    sample_configurations,
    walk,
)
from parsing_core.synthetic import synthetic_treebank

SH, LA, RA, RE = (pc.Transition.parse(k) for k in ("SH", "LA", "RA", "RE"))
PROJECTIVE = pc.Sentence.from_heads("He sent her a letter .".split(), [2, 0, 2, 5, 2, 2])
NON_PROJECTIVE = pc.Sentence.from_heads(list("abcd"), [3, 4, 0, 3])  # 3→1 crosses 4→2


class FixedCosts:
    """A stand-in oracle: the same costs at every configuration (restricted to legal moves)."""

    def __init__(self, system: pc.TransitionSystem, costs: dict[pc.Transition, float]) -> None:
        self.system, self.fixed = system, costs

    def costs(self, c: pc.Configuration, s: pc.Sentence) -> dict[pc.Transition, float]:
        return {t: self.fixed.get(t, 0.0) for t in self.system.legal(c)}


class FixedPolicy(FixedCosts):
    """A stand-in policy oracle: fixed costs, fixed scores, fixed canonical set."""

    def __init__(self, system: pc.TransitionSystem, costs: dict[pc.Transition, float],
                 canonical: tuple[pc.Transition, ...]) -> None:
        super().__init__(system, costs)
        self.fixed_canonical = canonical

    def scores(self, c: pc.Configuration, s: pc.Sentence) -> dict[pc.Transition, float]:
        return {t: -v for t, v in self.costs(c, s).items()}

    def canonical(self, c: pc.Configuration, s: pc.Sentence) -> tuple[pc.Transition, ...]:
        return self.fixed_canonical


# -- inclusion buckets ------------------------------------------------------------------------


@pytest.mark.parametrize(("approx", "exact", "bucket"), [
    ({SH}, {SH, RA}, 100.0),          # approximate set strictly inside the exact one
    ({SH, RA}, {SH, RA}, 100.0),
    ({SH, LA, RA}, {SH, LA}, 66.67),
    ({SH, LA}, {SH}, 50.0),
    ({SH, LA, RA}, {RA}, 33.33),
    ({LA}, {SH}, 0.0),
])
def test_inclusion_buckets(approx: set[pc.Transition], exact: set[pc.Transition], bucket: float) -> None:
    assert inclusion(approx, exact) == bucket
    assert bucket in BUCKETS


def test_agreement_files_each_configuration_in_its_bucket() -> None:
    system = pc.get_system("arc-standard")
    c = pc.replay(system, PROJECTIVE, ["SH", "SH"]).final  # SH, LA and RA legal
    approx = FixedCosts(system, {SH: 0, LA: 0, RA: 1})     # optimal {SH, LA}
    exact = FixedCosts(system, {SH: 0, LA: 1, RA: 2})      # optimal {SH}
    observer = Agreement(approx, exact)  # type: ignore[arg-type]
    assert observer.observe(c, PROJECTIVE) == {SH: 0, LA: 0, RA: 1}  # the walk follows the approximation
    observer.observe(system.initial(PROJECTIVE), PROJECTIVE)      # one legal move: not compared
    summary = observer.summary()
    assert summary.configurations == 1
    assert summary.shares == (0.0, 0.0, 100.0, 0.0, 0.0)
    assert summary.rho_mean == pytest.approx(spearman([0, 0, 1], [0, 1, 2]))
    assert summary.rho_sd == 0.0


def test_an_oracle_agrees_perfectly_with_itself() -> None:
    sentences = synthetic_treebank(6, nonprojective_rate=0.5, seed=1, max_len=8)
    summary = agreement("arc-standard", "exact", "exact", {}, sentences, random.Random(0))
    assert summary.configurations > 0
    assert summary.shares == (100.0, 0.0, 0.0, 0.0, 0.0)
    assert (summary.rho_mean, summary.rho_sd) == (1.0, 0.0)


# -- Spearman's ρ -----------------------------------------------------------------------------


def test_spearman_known_values() -> None:
    assert spearman([0, 1, 2, 3], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([0, 1, 2, 3], [3, 2, 1, 0]) == pytest.approx(-1.0)
    assert spearman([0, 0, 1], [0, 1, 2]) == pytest.approx(math.sqrt(3) / 2)  # a tie: mean ranks
    assert spearman([0, 1, math.inf], [0, 1, 2]) == pytest.approx(1.0)       # ∞ ranks last
    assert spearman([1, 1, 1], [2, 2, 2]) == 1.0                               # both constant: agree
    assert spearman([1, 1, 1], [0, 1, 2]) == 0.0


def test_ranks_average_ties() -> None:
    assert ranks([3, 1, 3, 0]) == [2.5, 1.0, 2.5, 0.0]


def test_spearman_matches_scipy_where_defined() -> None:
    stats = pytest.importorskip("scipy.stats")
    rnd = random.Random(3)
    for _ in range(50):
        k = rnd.randint(3, 6)
        a = [float(rnd.randint(0, 3)) for _ in range(k)]
        b = [float(rnd.randint(0, 3)) for _ in range(k)]
        if len(set(a)) > 1 and len(set(b)) > 1:
            assert spearman(a, b) == pytest.approx(stats.spearmanr(a, b).statistic)


# -- walks ------------------------------------------------------------------------------------


@pytest.mark.parametrize("system_name", ["arc-standard", "arc-eager", "arc-hybrid", "arc-standard-swap"])
def test_walk_follows_the_chooser_to_a_final_configuration(system_name: str) -> None:
    system = pc.get_system(system_name)
    chosen: list[pc.Transition] = []

    def last_legal(c: pc.Configuration) -> pc.Transition:
        chosen.append(system.legal(c)[-1])
        return chosen[-1]

    steps = walk(system, NON_PROJECTIVE, last_legal)
    assert steps[0] == system.initial(NON_PROJECTIVE)
    assert len(steps) == len(chosen)
    for before, t, after in zip(steps, chosen, steps[1:]):
        assert system.apply(before, t) == after
    assert not any(system.is_terminal(c) for c in steps)
    assert system.is_terminal(system.apply(steps[-1], chosen[-1]))


def test_random_walk_is_reproducible() -> None:
    system = pc.get_system("arc-eager")
    first = random_walk(system, PROJECTIVE, random.Random(5))
    assert first == random_walk(system, PROJECTIVE, random.Random(5))
    assert system.is_terminal(first[-1]) is False


def test_walks_that_always_follow_an_exact_oracle_build_the_gold_tree() -> None:
    system = pc.get_system("arc-standard")
    oracle = pc.get_oracle(system, "exact")
    finals: list[pc.Configuration] = []

    class Recorder:
        def observe(self, c: pc.Configuration, s: pc.Sentence) -> dict[pc.Transition, float]:
            costs = oracle.costs(c, s)
            for t, after in ((t, system.apply(c, t)) for t in costs):
                if system.is_terminal(after) and costs[t] == min(costs.values()):
                    finals.append(after)
            return costs

    observed_walks(system, Recorder(), [PROJECTIVE], follow=1.0, rnd=random.Random(0))
    assert finals and set(finals[-1].unlabelled_arcs) == set(PROJECTIVE.gold_arcs)


# -- sampling ---------------------------------------------------------------------------------


def test_configuration_sampling_is_deterministic_for_a_seed() -> None:
    system = pc.get_system("arc-hybrid")
    pool = synthetic_treebank(10, seed=2, max_len=12)

    def draw(seed: int) -> list[tuple[pc.Configuration, pc.Sentence]]:
        return list(sample_configurations(system, pool, 8, random.Random(seed)))

    assert draw(4) == draw(4)
    assert draw(4) != draw(5)
    assert all(s in pool and not system.is_terminal(c) for c, s in draw(4))


def test_near_length_keeps_sentences_within_ten_percent() -> None:
    pool = synthetic_treebank(40, seed=0, min_len=4, max_len=30)
    assert {s.n for s in near_length(pool, 20)} <= {18, 19, 20, 21, 22}
    assert near_length(pool, 20)


# -- Nederhof's Table 11 ----------------------------------------------------------------------


def test_set_comparison_counts_a_planted_confusion() -> None:
    system = pc.get_system("arc-eager-corrected")
    c = system.initial(PROJECTIVE)
    c = system.apply(c, SH)  # SH, LA, RA legal
    exact = FixedPolicy(system, {SH: 0, RA: 0, LA: 1}, canonical=(RA, SH))
    approx = FixedPolicy(system, {SH: 0, RA: 1, LA: 1}, canonical=(SH,))
    comparison = SetComparison(exact, approx)  # type: ignore[arg-type]
    assert comparison.observe(c, PROJECTIVE) == approx.costs(c, PROJECTIVE)
    assert comparison.seen == 1
    assert comparison.confusions == {("{RA, SH}", "{SH}"): 1}
    assert comparison.canonical_differ == comparison.inside == 1  # {SH} is strictly inside {RA, SH}
    assert comparison.scores_differ == comparison.optimal_differ == 1
    comparison.observe(c, PROJECTIVE)
    assert comparison.confusions[("{RA, SH}", "{SH}")] == 2


def test_set_comparison_of_an_oracle_with_itself_finds_nothing() -> None:
    system = pc.get_system("arc-eager-corrected")
    oracle = pc.get_oracle(system, "nederhof", policy="sbr")
    comparison = SetComparison(oracle, oracle)  # type: ignore[arg-type]
    observed_walks(system, comparison, [PROJECTIVE, NON_PROJECTIVE], 0.5, random.Random(0))
    assert comparison.seen > 0
    assert comparison.canonical_differ == comparison.scores_differ == comparison.optimal_differ == 0


def test_table_11_compares_both_policies_on_the_same_configurations_count() -> None:
    result = table_11(synthetic_treebank(4, nonprojective_rate=0.5, seed=0, max_len=10), random.Random(0))
    assert list(result) == ["sbr", "rbs"]
    assert all(r.seen > 0 and r.canonical_differ <= r.seen for r in result.values())


def test_move_names_sorts_kinds() -> None:
    assert move_names({RA, SH, LA}) == "{LA, RA, SH}"
    assert move_names(set()) == "{}"


# -- timing -----------------------------------------------------------------------------------


def test_speed_pool_respects_the_search_limit() -> None:
    system = pc.get_system("arc-eager")
    limit = length_limit(system, "search")
    assert limit is not None and length_limit(system, "goldberg-nivre") is None
    pool = synthetic_treebank(40, seed=0, min_len=4, max_len=30)
    n = limit + 1
    assert all(s.n <= limit for s in speed_pool(system, "search", pool, n))
    assert {s.n for s in speed_pool(system, "goldberg-nivre", pool, n)} == {s.n for s in near_length(pool, n)}


def test_whole_sentence_timings_count_every_step() -> None:
    pool = synthetic_treebank(10, seed=0, min_len=4, max_len=12)
    timings = list(whole_sentence_timings(pool, lengths=(6,)))
    arc_standard = next(t for t in timings if t.system == "arc-standard")
    assert arc_standard.steps == 2 * arc_standard.tokens  # n shifts and n arcs
    assert all(t.ms >= 0 and t.ms_per_step == t.ms / t.steps for t in timings)
    assert median([2.0, 9.0, 1.0]) == 2.0 and math.isnan(median([]))
