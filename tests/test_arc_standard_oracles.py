"""The arc-standard oracles: the exact DP against search and the thesis's Algorithm 1, the thesis's
approximation against its worked cases (digest §4, §6.3, §6.4) and its own code (Code A.6)."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pytest
from strategies import sentence

import parsing_core as pc
from parsing_core.experiments.baseline import thesis_costs
from parsing_core.oracles import min_cost_moves
from parsing_core.oracles.arc_standard_approx import CASES, ArcStandardApproxOracle
from parsing_core.oracles.arc_standard_exact import ArcStandardExactOracle
from parsing_core.oracles.search import SearchOracle
from parsing_core.trees import is_projective

LA, RA, SH = (pc.Transition(k) for k in ("LA", "RA", "SH"))
VARIANTS = [{}, {"single_root": True}]
IDS = ["multi-root", "single-root"]


def random_tree(n: int, rnd: random.Random, projective: bool, single_root: bool = False) -> tuple[int, ...]:
    """A random tree over n tokens: projective ones built directly, others redrawn until crossing."""
    assert projective or n >= 3, "every tree of one or two tokens is projective"
    heads = [0] * (n + 1)
    if projective:
        hang(heads, 1, n, 0, rnd, single_root)
        return tuple(heads[1:])
    while True:
        order = rnd.sample(range(1, n + 1), n)
        for k, tok in enumerate(order):
            heads[tok] = rnd.choice(order[:k] if (single_root and k) else [0, *order[:k]])
        if not is_projective(heads[1:]):
            return tuple(heads[1:])


def hang(heads: list[int], lo: int, hi: int, head: int, rnd: random.Random, one: bool = False) -> None:
    """Cut lo..hi into consecutive subtrees (one if ``one``) whose roots depend on ``head``."""
    while lo <= hi:
        end = hi if one else rnd.randint(lo, hi)
        root = rnd.randint(lo, end)
        heads[root] = head
        hang(heads, lo, root - 1, root, rnd)
        hang(heads, root + 1, end, root, rnd)
        lo = end + 1


def random_walks(system: pc.TransitionSystem, s: pc.Sentence, rnd: random.Random, k: int
                 ) -> Iterator[pc.Configuration]:
    """The non-final configurations of k random legal walks."""
    for _ in range(k):
        c = system.initial(s)
        while not system.is_terminal(c):
            yield c
            c = system.apply(c, rnd.choice(system.legal(c)))


def exact_oracle(system: pc.TransitionSystem) -> ArcStandardExactOracle:
    oracle = pc.get_oracle(system, "exact")
    assert isinstance(oracle, ArcStandardExactOracle)
    return oracle


def approx_oracle(system: pc.TransitionSystem) -> ArcStandardApproxOracle:
    oracle = pc.get_oracle(system, "thesis-approx")
    assert isinstance(oracle, ArcStandardApproxOracle)
    return oracle


def vector(costs: dict[pc.Transition, float]) -> tuple[float, float, float]:
    """[LA, RA, SH] as in the thesis's tables, ∞ for illegal moves."""
    return tuple(costs.get(t, math.inf) for t in (LA, RA, SH))  # type: ignore[return-value]


# -- the exact oracle ------------------------------------------------------------------------------
@pytest.mark.parametrize("options", VARIANTS, ids=IDS)
def test_exact_equals_search_on_random_walks(options: dict[str, bool]) -> None:
    """20,000 configurations per variant, 5 walks per gold tree, n ≤ 8, half the trees non-projective."""
    system = pc.get_system("arc-standard", **options)
    exact, search = exact_oracle(system), SearchOracle(system)
    rnd = random.Random(8)
    checked, trees = 0, {True: 0, False: 0}
    while checked < 20_000:
        projective = trees[True] <= trees[False]
        n = rnd.randint(1, 8) if projective else rnd.randint(3, 8)
        s = sentence(random_tree(n, rnd, projective, single_root=rnd.random() < 0.5))
        trees[projective] += 1
        for c in random_walks(system, s, rnd, 5):
            assert exact.costs(c, s) == search.costs(c, s), (s.gold_heads, c)
            assert exact.best(c, s) == search.best(c, s)
            checked += 1
    assert trees[False] >= trees[True] - 1


@pytest.mark.parametrize("options", VARIANTS, ids=IDS)
def test_exact_equals_the_thesis_algorithm_1(options: dict[str, bool]) -> None:
    """The transcription (parsing_core.experiments.baseline), on sentences search refuses too."""
    system = pc.get_system("arc-standard", **options)
    exact, rnd = exact_oracle(system), random.Random(1)
    for _ in range(40):
        s = sentence(random_tree(rnd.randint(3, 15), rnd, projective=rnd.random() < 0.5))
        for c in random_walks(system, s, rnd, 1):
            if rnd.random() < 0.25:
                assert exact.costs(c, s) == thesis_costs(system, c, s)


def test_exact_does_not_depend_on_the_order_of_questions() -> None:
    """The level cache answers configurations asked out of parse order like a fresh oracle."""
    system, rnd = pc.get_system("arc-standard"), random.Random(3)
    s = sentence(random_tree(12, rnd, projective=False))
    configurations = list(random_walks(system, s, rnd, 6))
    rnd.shuffle(configurations)
    shared = exact_oracle(system)
    for c in configurations[:60]:
        assert shared.costs(c, s) == exact_oracle(system).costs(c, s)


def test_exact_serves_labelled_systems() -> None:
    system = pc.get_system("arc-standard", labelled=True)
    s = pc.Sentence.from_heads("book the flight".split(), [0, 3, 1], ["root", "det", "obj"])
    oracle = exact_oracle(system)
    c = pc.replay(system, s, pc.parse_sequence("SH SH SH")).final
    assert oracle.costs(c, s) == {LA: 0, RA: 2}          # RA strands 'the' and 'flight' under 'book'
    assert oracle.cost(c, s, pc.Transition("LA", "nsubj")) == 1
    assert oracle.next(c, s) == pc.Transition("LA", "det")


# -- the thesis's worked cases (digest §4.3 and §6.3, figures reconstructed) --------------------------
# gold heads, moves to the configuration, exact and approximate [LA, RA, SH], SHIFT's case, discount
WORKED = {
    "R1 Fig. 5.5": ((2, 4, 2, 0, 4, 5, 4), "SH SH SH", (3, 0, 2), (3, 0, 1), "2.3", 0),
    "R2 Fig. 5.1/5.2b": ((2, 4, 2, 0, 4, 5, 4), "SH SH SH SH", (0, 2, 0), (0, 3, 0), "1", 1),
    "R3 Fig. 5.6b": ((3, 3, 5, 5, 0), "SH SH SH", (0, 3, 1), (0, 3, 2), "3", 0),
    "R4 Fig. 5.2a": ((2, 0, 2), "SH SH", (0, 3, 0), (0, 3, 0), "1", 0),
    "R5 Fig. 5.4": ((2, 0, 2, 2, 4, 5, 4), "SH SH LA SH RA SH SH SH", (2, 0, 1), (2, 0, 1), "2.2", 0),
    "R6 Fig. 5.3": ((2, 0, 2, 2, 4, 5, 4), "SH SH LA SH SH RA SH SH", (1, 0, 0), (1, 0, 0), "2.1", 0),
    "R7 Fig. 5.6a": ((3, 3, 0, 3), "SH SH", (1, 1, 0), (1, 1, 0), "3", 0),
    "§4.3 a b c": ((2, 3, 0), "SH SH SH", (0, 1, math.inf), (0, 1, math.inf), None, 1),
    "§4.3 one step earlier": ((2, 3, 0), "SH SH", (0, 2, 1), (0, 2, 1), "3", 0),
}


def worked(name: str, options: dict[str, bool] | None = None) -> tuple[pc.TransitionSystem, pc.Configuration,
                                                                          pc.Sentence]:
    heads, moves, *_ = WORKED[name]
    system = pc.get_system("arc-standard", **(options or {}))
    s = sentence(heads)
    return system, pc.replay(system, s, pc.parse_sequence(moves)).final, s


@pytest.mark.parametrize("name", WORKED)
@pytest.mark.parametrize("options", VARIANTS, ids=IDS)
def test_worked_cases(name: str, options: dict[str, bool]) -> None:
    _, _, exact_costs, approx_costs, case, discount = WORKED[name]
    system, c, s = worked(name, options)
    approx = approx_oracle(system)
    assert vector(exact_oracle(system).costs(c, s)) == exact_costs
    assert vector(approx.raw_costs(c, s)) == approx_costs
    assert approx.cases(c, s).get(SH) == case
    assert approx.previous_shift_discount(c, s) == discount
    assert {approx.cases(c, s)[t] for t in (LA, RA)} == {"arc-discount" if discount else "arc"}


def test_figure_5_1_rightarc_loses_four_arcs_before_the_discount() -> None:
    """'(ROOT, w4), (w4, w2), (w4, w5), (w4, w7)' become impossible; the wrong SHIFT before is discounted."""
    system, c, s = worked("R2 Fig. 5.1/5.2b")
    approx = approx_oracle(system)
    assert approx.explain(c, s)[RA].lost == {(0, 4), (4, 2), (4, 5), (4, 7)}
    assert approx.explain(c, s)[LA].lost == {(2, 3)}          # footnote 1: lost by the earlier SHIFT
    assert vector(approx.raw_costs(c, s)) == (1 - 1, 4 - 1, 0)
    assert exact_oracle(system).best(c, s) == 7 - 2


@pytest.mark.parametrize(("name", "lost"), [
    ("R1 Fig. 5.5", {(2, 3)}),            # min{1, 4}: the arc of s0 = w3 to the stack
    ("R3 Fig. 5.6b", {(3, 1), (3, 2)}),   # w3's dependents w1, w2 still on the stack
    ("R5 Fig. 5.4", {(4, 7)}),            # b's father w4 is on the stack
    ("R6 Fig. 5.3", set()),               # b is an orphan: w4 was reduced by a wrong arc
])
def test_shift_cases_name_the_arcs_they_count(name: str, lost: set[tuple[int, int]]) -> None:
    system, c, s = worked(name)
    assert approx_oracle(system).explain(c, s)[SH].lost == lost


# Digest §6.4: costs along the static path, from the thesis's first configuration [ROOT, w1, w2] on.
STATIC_TRACES = [
    ((0, 1, 5, 5, 1), "SH SH", "RA SH SH SH LA LA RA RA",
     [(3, 0, 1), (None, None, 0), (2, 1, 0), (1, 1, 0), (0, 3, None), (0, 2, None), (2, 0, None),
      (None, 0, None)]),
    ((0, 1, 5, 5, 1, 5, 6), "SH SH", "RA SH SH SH LA LA SH SH RA RA RA RA",
     [(3, 0, 1), (None, None, 0), (2, 1, 0), (1, 1, 0), (0, 4, 0), (0, 3, 0), (2, 1, 0), (2, 1, 0),
      (2, 0, None), (2, 0, None), (2, 0, None), (None, 0, None)]),
]


@pytest.mark.parametrize(("heads", "start", "moves", "rows"), STATIC_TRACES, ids=["book me", "to Denver"])
def test_static_path_traces_of_the_digest(heads, start, moves, rows) -> None:
    """'book me the morning flight (to Denver)': both oracles agree on the gold path (single root)."""
    system = pc.get_system("arc-standard", single_root=True)
    s = sentence(heads)
    exact, approx = exact_oracle(system), approx_oracle(system)
    c = pc.replay(system, s, pc.parse_sequence(start)).final
    for move, row in zip(pc.parse_sequence(moves), rows):
        expected = tuple(math.inf if v is None else v for v in row)
        assert vector(exact.costs(c, s)) == vector(approx.raw_costs(c, s)) == expected
        c = system.apply(c, move)
    assert system.is_terminal(c) and c.heads == heads


# -- the approximation against the thesis's own code -------------------------------------------------
def code_a6(stack: list[int], buffer: list[int], gold: list[int], previous: list[float]) -> list[float]:
    """Thesis Code A.6, transcribed line by line ([LA, RA, SH]; there s1 = stack[-1] is the TOP)."""
    inf = math.inf

    def arc(dep: int, head: int, illegal: bool) -> float:
        if illegal:
            return inf
        cost = -1 if gold[dep] == head else 0
        cost += sum(1 for i in stack + buffer if gold[i] == dep or gold[dep] == i)
        return cost - previous[1] if previous[0] == 2 else cost

    def shift() -> float:
        if not buffer:
            return inf
        s1 = stack[-1]
        if any(gold[i] == s1 for i in buffer):
            return 0
        if gold[s1] < s1:
            b1, father, orphan = buffer[0], gold[buffer[0]], False
            while not orphan and father != 0:
                flag = father in stack
                orphan = not (father in buffer or flag)
                if flag:
                    return 1
                father = gold[father]
            if orphan:
                return 0
            sacrifice = sum(1 for i in stack + buffer if gold[i] == b1 or gold[b1] == i)
            return min(sum(1 for i in stack if gold[i] == s1 or gold[s1] == i), sacrifice)
        return sum(1 for i in stack if gold[i] == s1)

    if len(stack) < 2:
        return [inf, inf, shift()]
    return [arc(stack[-2], stack[-1], (len(stack) == 2 and bool(buffer)) or stack[-2] == 0),
            arc(stack[-1], stack[-2], stack[-2] == 0 and bool(buffer)), shift()]


def test_approx_equals_the_thesis_code_with_its_previous_action_bookkeeping() -> None:
    """Along random walks in the thesis's (single-root) system, as Code A.9 tracks previous_action."""
    system, rnd = pc.get_system("arc-standard", single_root=True), random.Random(5)
    approx = approx_oracle(system)
    index = {"LA": 0, "RA": 1, "SH": 2}
    for _ in range(400):
        n = rnd.randint(1, 12)
        s = sentence(random_tree(n, rnd, projective=n < 3 or rnd.random() < 0.5, single_root=True))
        gold, c = [-1, *s.gold_heads], system.initial(s)
        previous: list[float] = [-1, 0]
        while not system.is_terminal(c):
            theirs = code_a6(list(c.stack), list(c.buffer), gold, previous)
            start_up = len(c.stack) <= 2 and c.heads == (None,) * s.n   # the thesis's constructor shifts
            if not start_up:
                assert vector(approx.raw_costs(c, s)) == tuple(theirs), (s.gold_heads, c, previous)
            move = rnd.choice(system.legal(c))
            previous = previous if start_up else [index[move.kind], theirs[index[move.kind]]]
            c = system.apply(c, move)


def test_approx_costs_start_at_zero_and_name_their_case() -> None:
    system, rnd = pc.get_system("arc-standard"), random.Random(4)
    approx = approx_oracle(system)
    for _ in range(50):
        s = sentence(random_tree(rnd.randint(3, 10), rnd, projective=False))
        for c in random_walks(system, s, rnd, 1):
            costs, raw = approx.costs(c, s), approx.raw_costs(c, s)
            assert min(costs.values()) == 0 and set(costs) == set(system.legal(c))
            assert all(costs[t] - raw[t] == costs[SH] - raw[SH] for t in costs if SH in costs)
            assert set(approx.cases(c, s).values()) <= set(CASES)


# -- how often the approximation is wrong (pinned, so that changes are noticed) ----------------------
# Over configurations with 2+ legal moves (2 random walks per tree, 150 trees of 4..10 tokens, seed
# 2024; single-rooted gold trees for the single-root variant): the share where the approximate
# optimal set differs from the exact one, and where it is not inside it (the thesis's Tables 6.3-6.4
# measure the latter on real treebanks: 0.7-2 %).  Measured: 175/2876, 90/2876 (projective,
# multi-root); 995/2978, 195/2978 (non-projective, multi-root); 102/2427, 31/2427 (projective,
# single-root); 872/2519, 71/2519 (non-projective, single-root).
DISAGREEMENT = {
    ("multi-root", True): (0.0608, 0.0313), ("multi-root", False): (0.3341, 0.0655),
    ("single-root", True): (0.0420, 0.0128), ("single-root", False): (0.3462, 0.0282),
}


@pytest.mark.parametrize("options", VARIANTS, ids=IDS)
@pytest.mark.parametrize("projective", [True, False], ids=["projective", "non-projective"])
def test_approximation_disagreement_rate_is_pinned(options: dict[str, bool], projective: bool) -> None:
    system = pc.get_system("arc-standard", **options)
    exact, approx = exact_oracle(system), approx_oracle(system)
    rnd, seen, differ, outside = random.Random(2024), 0, 0, 0
    for _ in range(150):
        s = sentence(random_tree(rnd.randint(4, 10), rnd, projective, single_root=bool(options)))
        for c in random_walks(system, s, rnd, 2):
            if len(system.legal(c)) > 1:
                best_exact = set(min_cost_moves(exact.costs(c, s)))
                best_approx = set(min_cost_moves(approx.costs(c, s)))
                seen += 1
                differ += best_approx != best_exact
                outside += not best_approx <= best_exact
    rates = (differ / seen, outside / seen)
    assert rates == pytest.approx(DISAGREEMENT[IDS[bool(options)], projective], abs=0.002), rates
