"""How well does an approximate oracle agree with an exact one?  Two protocols.

**The thesis's §6.2 protocol** (:class:`Agreement`, :func:`agreement_rows`).  One walk per
training sentence that takes an approximate min-cost move with probability 0.1 and a random
legal move otherwise (:func:`~.walks.observed_walks`).  At every configuration with two or
more legal moves, two numbers:

* **inclusion**: the share of the approximate optimal set (its min-cost moves) inside the exact
  one, in %.  With at most three optimal moves it falls in one of five buckets,
  :data:`BUCKETS` = 100 / 66.67 / 50 / 33.33 / 0.  100 means every move the approximation
  calls optimal is optimal: training on it teaches no wrong move.
* **Spearman's ρ** between the two cost vectors (the costs of the same legal moves): 1 when the
  approximation orders the moves as the exact oracle does, −1 when it reverses them.

Projective and non-projective gold trees are reported apart: the approximations are exact
(or nearly) on projective trees, and the non-projective ones show what they miss.

>>> inclusion({"SH"}, {"SH", "RA"}), inclusion({"SH", "LA"}, {"SH"})
(100.0, 50.0)
>>> spearman([0, 1, 2], [0, 1, 5]), spearman([0, 1, 2], [2, 1, 0])
(1.0, -1.0)

**Nederhof's Table 11 protocol** (:class:`SetComparison`, :func:`table_11`).  His oracles score
each move by ρ (gold arcs still reachable, under a tie-breaking *policy*) and take the moves of
largest ρ: the *canonical* set, always among the optimal moves.  Along walks that follow the
linear-time oracle 90 % of the time it counts how often the exact and linear score vectors
differ, how often their canonical sets differ (and which sets are confused), and — beyond his
table — how often the true optimal sets (by cost) differ.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass, field
from typing import Any

from ..configuration import Configuration
from ..oracles import Costs, Oracle, get_oracle, list_oracles, min_cost_moves
from ..oracles.nederhof import NederhofOracle, PolicyOracle
from ..oracles.nederhof_linear import NederhofLinearOracle
from ..sentence import Sentence
from ..systems import get_system
from ..transition import Transition
from .walks import NEDERHOF_FOLLOW, THESIS_FOLLOW, observed_walks

BUCKETS = (100.0, 66.67, 50.0, 33.33, 0.0)  # % of the approximate optimal set inside the exact one
#: (system, approximate oracle, exact oracle, options of both): the pairs the protocol compares.
AGREEMENT_PAIRS: tuple[tuple[str, str, str, dict[str, Any]], ...] = (
    ("arc-standard", "thesis-approx", "exact", {}),
    ("arc-eager-corrected", "nederhof-linear", "nederhof", {"policy": "sbr"}),
)
#: The thesis's Tables 6.3–6.4 (arc-standard, UD 2.7 via HF): % in the 100 bucket / mean ρ.
THESIS_TABLES = {
    ("en_lines", True): "99.22 / 0.996", ("en_lines", False): "98.74 / 0.988",
    ("grc_perseus", True): "99.25 / 0.995", ("grc_perseus", False): "98.38 / 0.977",
}
TABLE_11_POLICIES = ("sbr", "rbs")


# -- the thesis's protocol ----------------------------------------------------------------------


def inclusion(approx_best: Set[Hashable], exact_best: Set[Hashable]) -> float:
    """% of the approximate optimal set inside the exact one, rounded to 2 places (a bucket).

    >>> inclusion({"SH", "LA", "RA"}, {"SH", "LA"}), inclusion({"LA"}, {"SH"})
    (66.67, 0.0)
    """
    return round(100 * len(approx_best & exact_best) / len(approx_best), 2)


def ranks(values: Sequence[float]) -> list[float]:
    """0-based ranks, ties given their mean rank; ``math.inf`` ranks last.

    >>> ranks([5, 1, 1, math.inf])
    [2.0, 0.5, 0.5, 3.0]
    """
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


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    """Spearman's ρ: the Pearson correlation of the two rank vectors.

    Two constant vectors agree (ρ = 1); a constant vector against a varying one gives 0.

    >>> spearman([0, 0, math.inf], [0, 1, math.inf]), spearman([1, 1], [1, 1]), spearman([1, 1], [0, 1])
    (0.8660254037844387, 1.0, 0.0)
    """
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    if va == 0 or vb == 0:
        return 1.0 if va == vb else 0.0
    return sum((x - ma) * (y - mb) for x, y in zip(ra, rb)) / math.sqrt(va * vb)


@dataclass(frozen=True)
class AgreementSummary:
    """What one :class:`Agreement` saw: configurations compared, % per bucket, ρ mean and sd."""

    configurations: int
    shares: tuple[float, ...]  # % of configurations in each of BUCKETS, in that order
    rho_mean: float
    rho_sd: float


class Agreement:
    """Inclusion buckets and Spearman ρs of an approximate oracle against an exact one.

    An :class:`~.walks.Observer`: :meth:`observe` compares the two at one configuration (when
    it has two or more legal moves) and returns the approximate costs for the walk to follow.
    """

    def __init__(self, approx: Oracle, exact: Oracle) -> None:
        self.approx, self.exact = approx, exact
        self.buckets: Counter[float] = Counter()
        self.rhos: list[float] = []

    def observe(self, c: Configuration, s: Sentence) -> Costs:
        """Compare the two oracles at ``c`` (when it has two or more legal moves); return the
        approximate costs."""
        a, e = self.approx.costs(c, s), self.exact.costs(c, s)
        if len(a) >= 2:
            self.compare(c, a, e)
        return a

    def compare(self, c: Configuration, a: Costs, e: Costs) -> None:
        """File one configuration in its bucket and keep its ρ (a subclass may keep more)."""
        self.buckets[inclusion(set(min_cost_moves(a)), set(min_cost_moves(e)))] += 1
        moves = sorted(a)
        self.rhos.append(spearman([a[t] for t in moves], [e[t] for t in moves]))

    def summary(self) -> AgreementSummary:
        """Shares per bucket (of all configurations compared) and ρ's mean and (population) sd."""
        return summarize(self.buckets, self.rhos)


def summarize(buckets: Mapping[float, int], rhos: Sequence[float]) -> AgreementSummary:
    """Shares per bucket (of all configurations counted) and ρ's mean and (population) sd.

    >>> s = summarize({100.0: 3, 50.0: 1}, [1.0, 1.0, 1.0, 0.0])
    >>> s.configurations, s.shares, s.rho_mean, round(s.rho_sd, 3)
    (4, (75.0, 0.0, 25.0, 0.0, 0.0), 0.75, 0.433)
    """
    total = sum(buckets.values())
    shares = tuple(100 * buckets.get(b, 0) / (total or 1) for b in BUCKETS)
    mean = sum(rhos) / max(len(rhos), 1)
    sd = math.sqrt(sum((r - mean) ** 2 for r in rhos) / max(len(rhos), 1))
    return AgreementSummary(total, shares, mean, sd)


@dataclass(frozen=True)
class AgreementRow:
    """One row of the agreement table: a pair of oracles on the trees of one corpus."""

    system: str
    approx: str
    exact: str
    corpus: str
    projective: bool
    sentences: int
    summary: AgreementSummary

    @property
    def thesis(self) -> str:
        """The thesis's figure for this row ('' where it has none)."""
        if self.system != "arc-standard":
            return ""
        return THESIS_TABLES.get((self.corpus.split("-")[0], self.projective), "")


def agreement(system_name: str, approx_name: str, exact_name: str, options: dict[str, Any],
              sentences: Sequence[Sentence], rnd: random.Random) -> AgreementSummary:
    """The thesis's protocol for one pair of oracles over ``sentences`` (one walk each)."""
    system = get_system(system_name)
    observer = Agreement(get_oracle(system, approx_name, **options),
                         get_oracle(system, exact_name, **options))
    observed_walks(system, observer, sentences, THESIS_FOLLOW, rnd)
    return observer.summary()


def agreement_rows(corpora: dict[str, list[Sentence]], limit: int,
                   rnd: random.Random) -> Iterator[AgreementRow]:
    """Every pair of :data:`AGREEMENT_PAIRS` (where the system has both oracles) on every corpus,
    projective trees then non-projective, at most ``limit`` sentences each; yielded as computed."""
    for system_name, approx_name, exact_name, options in AGREEMENT_PAIRS:
        if not {approx_name, exact_name} <= set(list_oracles(get_system(system_name))):
            continue
        for corpus, sentences in corpora.items():
            for projective in (True, False):
                chosen = [s for s in sentences if s.is_projective == projective][:limit]
                summary = agreement(system_name, approx_name, exact_name, options, chosen, rnd)
                yield AgreementRow(system_name, approx_name, exact_name, corpus, projective,
                                   len(chosen), summary)


# -- Nederhof's Table 11 ------------------------------------------------------------------------


def move_names(moves: set[Transition]) -> str:
    """A set of moves as a label, kinds in order: ``{RA, SH}``.

    >>> move_names({Transition.parse("SH"), Transition.parse("RA")})
    '{RA, SH}'
    """
    return "{" + ", ".join(t.kind for t in sorted(moves)) + "}"


@dataclass
class SetComparison:
    """Nederhof's §6.2 counts of an approximate :class:`PolicyOracle` against the exact one.

    ``seen``: configurations compared; ``scores_differ``: of those, where the ρ vectors differ;
    ``confusions``: (exact canonical set, approximate canonical set) → times, where they differ;
    ``inside``: of those, where the approximate set is strictly inside the exact one;
    ``optimal_differ``: where the true optimal sets (min-cost moves) differ.
    """

    exact: PolicyOracle
    approx: PolicyOracle
    seen: int = 0
    scores_differ: int = 0
    inside: int = 0
    optimal_differ: int = 0
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)

    @property
    def canonical_differ(self) -> int:
        """Configurations where the canonical sets differ."""
        return sum(self.confusions.values())

    def observe(self, c: Configuration, s: Sentence) -> Costs:
        """Count what differs at ``c``; return the approximate costs for the walk to follow."""
        a = self.approx.costs(c, s)
        self.seen += 1
        self.scores_differ += self.exact.scores(c, s) != self.approx.scores(c, s)
        self.optimal_differ += set(min_cost_moves(self.exact.costs(c, s))) != set(min_cost_moves(a))
        best_e, best_a = set(self.exact.canonical(c, s)), set(self.approx.canonical(c, s))
        if best_e != best_a:
            self.confusions[(move_names(best_e), move_names(best_a))] += 1
            self.inside += best_a < best_e
        return a


def table_11(sentences: Sequence[Sentence], rnd: random.Random) -> dict[str, SetComparison]:
    """Exact vs linear Nederhof oracles on arc-eager-corrected, per policy (sbr, then rbs), along
    walks that follow the linear oracle 90 % of the time."""
    system = get_system("arc-eager-corrected")
    out: dict[str, SetComparison] = {}
    for policy in TABLE_11_POLICIES:
        comparison = SetComparison(NederhofOracle(system, policy), NederhofLinearOracle(system, policy))
        observed_walks(system, comparison, sentences, NEDERHOF_FOLLOW, rnd)
        out[policy] = comparison
    return out
