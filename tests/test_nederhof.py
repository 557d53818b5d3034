"""Nederhof's oracles for arc-eager with reduce_correct (spec §2.5, §4.6–4.8, §5.6).

* the spec's test vectors V1–V7 (Table 6 / grammar Table 10) and N1–N7 (Table 8 / Table 9),
  scores and strings, for every policy given there;
* the exact oracle against a constrained brute force (tests/nederhof_reference.py) on
  20,000 configurations of random walks, and against the unrestricted search oracle;
* the numpy chart parser against the spec's dict-based parser;
* the linear oracle against the exact one: equal on projective gold trees, and a pinned
  disagreement rate on non-projective ones.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from functools import cache

import pytest
from nederhof_reference import Table6Search, Table8Search, dict_parse, table8_moves
from strategies import sentence

import parsing_core as pc
from parsing_core.oracles.nederhof import (
    POLICIES,
    STRICT,
    NederhofOracle,
    Stack,
    applicable6,
    normalized_scores,
    normalized_strings,
    table6_arcs,
    table6_scores,
    table6_stack,
    table6_strings,
)
from parsing_core.oracles.nederhof_grammar import TABLE_9, TABLE_10, TABLE_10_UNCORRECTED, sigma
from parsing_core.oracles.nederhof_linear import NederhofLinearOracle

SYSTEM = pc.get_system("arc-eager-corrected")
INF = math.inf
Sample = list[tuple[pc.Sentence, pc.Configuration]]


def stack_of(text: str) -> Stack:
    """``"0R 2R 3L"`` → ((0, "R"), (2, "R"), (3, "L"))."""
    return tuple((int(x[:-1]), x[-1]) for x in text.split())


def configuration(stack: Stack, buffer: tuple[int, ...], arcs: tuple[tuple[int, int], ...], n: int
                  ) -> pc.Configuration:
    """Our configuration for a Table 6 one: an R token's (pending) arc comes from the token below."""
    heads: list[int | None] = [None] * n
    for (below, _), (tok, label) in zip(stack, stack[1:], strict=False):
        if label == "R":
            heads[tok - 1] = below
    for h, d in arcs:
        heads[d - 1] = h
    return pc.Configuration(tuple(t for t, _ in stack), buffer, tuple(heads), (None,) * n)


# -- §5.6: Table 6 vectors ------------------------------------------------------------------------
V1 = ((0, 1, 4, 1), "0R 1R 2R", (3, 4), ())
V2 = ((2, 0, 2, 5, 2, 2), "0R 2R 3R", (4, 5, 6), ((2, 1),))
V3 = ((2, 0, 2, 5, 2, 2), "0R 2R 3L", (4, 5, 6), ((2, 1),))
V4 = ((0, 3, 1, 2), "0R", (1, 2, 3, 4), ())
V5 = ((0, 3, 1, 2), "0R 1R", (2, 3, 4), ())
V6 = ((0, 1, 2), "0R 1L 2R", (3,), ())
V7 = ((0, 1, 2), "0R 1L 2R 3R", (), ())

# (name, vector, policy, corrected, {move: (ρ, string)}); moves not listed are not applicable
TABLE6_VECTORS = [
    ("V1-none", V1, "none", True, {"SH": (4, "r r r lb n"), "RA": (3, "r r r r n"), "RE": (4, "r r n n")}),
    ("V1-sbr", V1, "sbr", True, {"SH": (4, "r r r lb n"), "RA": (3, "r r r r n"), "RE": (3, "r r np n")}),
    ("V1-rbs", V1, "rbs", True, {"SH": (3, "r r rp lb n"), "RA": (3, "r r r r n"), "RE": (4, "r r n n")}),
    ("V1-strict", V1, STRICT, True,
     {"SH": (3, "r rp rp lb n"), "RA": (3, "r rp r r n"), "RE": (4, "r r n n")}),
    ("V2-none", V2, "none", True,
     {"SH": (6, "r r r lb n n"), "RA": (5, "r r r r n n"), "RE": (6, "r r n n n")}),
    ("V2-sbr", V2, "sbr", True,
     {"SH": (6, "r r r lb n n"), "RA": (5, "r r r r n n"), "RE": (5, "r r np n n")}),
    ("V2-rbs", V2, "rbs", True,
     {"SH": (5, "r r rp lb n n"), "RA": (5, "r r r r n n"), "RE": (6, "r r n n n")}),
    ("V2-strict", V2, STRICT, True,
     {"SH": (5, "r rp rp lb n n"), "RA": (5, "r rp r r n n"), "RE": (6, "r r n n n")}),
    ("V3-none", V3, "none", True, {"SH": (6, "r r l lb n n"), "LA": (5, "r r n n n"),
                                   "RA": (5, "r r l r n n"), "RE": (6, "r r n n n")}),
    ("V3-sbr", V3, "sbr", True, {"SH": (6, "r r l lb n n"), "LA": (5, "r r n n n"),
                                 "RA": (5, "r r l r n n"), "RE": (5, "r r np n n")}),
    ("V3-rbs", V3, "rbs", True, {"SH": (5, "r r lp lb n n"), "LA": (5, "r r n n n"),
                                 "RA": (5, "r r l r n n"), "RE": (6, "r r n n n")}),
    ("V3-strict", V3, STRICT, True, {"SH": (5, "r rp lp lb n n"), "LA": (5, "r rp n n n"),
                                     "RA": (5, "r rp l r n n"), "RE": (6, "r r n n n")}),
    ("V3-uncorrected", V3, "none", False,
     {"SH": (5, "r r l lb n n"), "LA": (5, "r r n n n"), "RA": (4, "r r l r n n")}),
    ("V4-sbr", V4, "sbr", True, {"SH": (2, "r lb n n n"), "RA": (3, "r r n n n")}),
    ("V4-rbs", V4, "rbs", True, {"SH": (2, "r lb n n n"), "RA": (3, "r r n n n")}),
    ("V5-sbr", V5, "sbr", True, {"SH": (3, "r r lb n n"), "RA": (2, "r r r n n"), "RE": (2, "r np n n")}),
    ("V5-rbs", V5, "rbs", True, {"SH": (3, "r rp lb n n"), "RA": (2, "r r r n n"), "RE": (2, "r n n n")}),
    ("V6-none", V6, "none", True, {"SH": (-INF, "r l r lb"), "RA": (3, "r l r r"), "RE": (2, "r l n")}),
    ("V6-uncorrected", V6, "none", False,
     {"SH": (-INF, "r l r lb"), "RA": (-INF, "r l r r"), "RE": (1, "r l n")}),
    ("V7-none", V7, "none", True, {"RE": (3, "r l r")}),
    ("V7-uncorrected", V7, "none", False, {"RE": (-INF, "r l r")}),
]


@pytest.mark.parametrize("name, vector, policy, corrected, expected", TABLE6_VECTORS,
                         ids=[row[0] for row in TABLE6_VECTORS])
def test_table6_vectors(name, vector, policy, corrected, expected):
    heads, stack, buffer, arcs = vector
    scores = table6_scores(stack_of(stack), buffer, heads, arcs, policy, corrected)
    strings = table6_strings(stack_of(stack), buffer, policy, corrected)
    assert {str(t): v for t, v in scores.items()} == {m: rho for m, (rho, _) in expected.items()}
    assert {str(t): v for t, v in strings.items()} == {m: text for m, (_, text) in expected.items()}


OUR_SYSTEM_VECTORS = [row for row in TABLE6_VECTORS if row[2] in POLICIES and row[3]]


@pytest.mark.parametrize("name, vector, policy, corrected, expected", OUR_SYSTEM_VECTORS,
                         ids=[row[0] for row in OUR_SYSTEM_VECTORS])
def test_oracle_on_our_configurations(name, vector, policy, corrected, expected):
    """The same vectors through the oracle: our configuration (RA arcs built) maps to Table 6."""
    heads, stack, buffer, arcs = vector
    s = sentence(heads)
    c = configuration(stack_of(stack), buffer, arcs, len(heads))
    oracle = pc.get_oracle(SYSTEM, "nederhof", policy=policy)
    assert {str(t): v for t, v in oracle.scores(c, s).items()} == {m: rho for m, (rho, _) in expected.items()}
    assert {str(t): v for t, v in oracle.strings(c, s).items()} == {m: x for m, (_, x) in expected.items()}
    top = max(rho for rho, _ in expected.values())
    assert {str(t) for t in oracle.canonical(c, s)} == {m for m, (rho, _) in expected.items() if rho == top}
    assert oracle.costs(c, s) == pc.get_oracle(SYSTEM, "search").costs(c, s)   # ρ is no cost


def test_table7_policies_break_the_tie():
    """V1: with no policy SH and RE are both canonical; sbr keeps SH, rbs keeps RE.  Both are
    optimal whatever the policy: it picks among equals, it does not change costs."""
    heads, stack, buffer, arcs = V1
    c = configuration(stack_of(stack), buffer, arcs, 4)
    oracles = {p: pc.get_oracle(SYSTEM, "nederhof", policy=p) for p in POLICIES}
    canonical = {p: {str(t) for t in o.canonical(c, sentence(heads))} for p, o in oracles.items()}
    assert canonical == {"none": {"SH", "RE"}, "sbr": {"SH"}, "rbs": {"RE"}}
    assert all({str(t) for t in o.optimal(c, sentence(heads))} == {"SH", "RE"} for o in oracles.values())


# the §4.7 approximation on the non-projective V4/V5 tree
LINEAR_VECTORS = [
    ("V4-sbr", V4, "sbr", {"SH": 2, "RA": 4}),
    ("V4-rbs", V4, "rbs", {"SH": 2, "RA": 4}),
    ("V5-sbr", V5, "sbr", {"SH": 3, "RA": 3, "RE": 2}),
    ("V5-rbs", V5, "rbs", {"SH": 3, "RA": 3, "RE": 3}),
]


@pytest.mark.parametrize("name, vector, policy, expected", LINEAR_VECTORS, ids=[r[0] for r in LINEAR_VECTORS])
def test_linear_vectors(name, vector, policy, expected):
    heads, stack, buffer, arcs = vector
    c = configuration(stack_of(stack), buffer, arcs, len(heads))
    oracle = pc.get_oracle(SYSTEM, "nederhof-linear", policy=policy)
    assert {str(t): v for t, v in oracle.scores(c, sentence(heads)).items()} == expected


# -- §5.6: Table 8 vectors ------------------------------------------------------------------------
SEND, FOUND, HE_SENT = (0, 1, 4, 1), (0, 3, 1, 2), (2, 0, 2, 5, 2, 2)
TABLE8_VECTORS = [
    ("N1", SEND, "0R 1R 2R", (3, 4), (), {"shift": (3, "r r r n n"), "reduce_left": (4, "r rt n n")}),
    ("N2", SEND, "0R 1R 2R 3N", (4,), (),
     {"left_child": (3, "r r r lb n"), "right_child": (3, "r r r rt n")}),
    ("N3", FOUND, "0R 1N", (2, 3, 4), (),
     {"left_child": (2, "r lb n n n"), "right_child": (3, "r rt n n n")}),
    ("N4", FOUND, "0R 1R", (2, 3, 4), (), {"shift": (3, "r r n n n"), "reduce_left": (2, "rt n n n")}),
    ("N5", FOUND, "0R 1R 2N", (3, 4), (),
     {"left_child": (3, "r r lb n n"), "right_child": (2, "r r rt n n")}),
    ("N6", HE_SENT, "0R 1N", (2, 3, 4, 5, 6), (),
     {"left_child": (6, "r lb n n n n n"), "right_child": (5, "r rt n n n n n")}),
    ("N7", HE_SENT, "0R 2R 3N", (4, 5, 6), ((2, 1),),
     {"left_child": (5, "r r lb n n n"), "right_child": (6, "r r rt n n n")}),
]


@pytest.mark.parametrize("name, heads, stack, buffer, arcs, expected", TABLE8_VECTORS,
                         ids=[row[0] for row in TABLE8_VECTORS])
def test_table8_vectors(name, heads, stack, buffer, arcs, expected):
    assert normalized_scores(stack_of(stack), buffer, heads, arcs) == {m: r for m, (r, _) in expected.items()}
    assert normalized_strings(stack_of(stack), buffer) == {m: x for m, (_, x) in expected.items()}


# -- random gold trees and walks ------------------------------------------------------------------
def random_tree(rnd: random.Random, n: int) -> tuple[int, ...]:
    """Tokens attached in random order, each to ROOT or an earlier one: mostly non-projective."""
    order = rnd.sample(range(1, n + 1), n)
    heads = [0] * (n + 1)
    for k, tok in enumerate(order):
        heads[tok] = rnd.choice([0, *order[:k]])
    return tuple(heads[1:])


def projective_tree(rnd: random.Random, n: int) -> tuple[int, ...]:
    """Split a span into blocks, each a subtree of the outside head with a random root."""
    heads = [0] * (n + 1)

    def attach(lo: int, hi: int, head: int) -> None:
        while lo <= hi:
            end = rnd.randint(lo, hi)
            root = rnd.randint(lo, end)
            heads[root] = head
            attach(lo, root - 1, root)
            attach(root + 1, end, root)
            lo = end + 1

    attach(1, n, 0)
    return tuple(heads[1:])


def walks(s: pc.Sentence, rnd: random.Random, count: int) -> Iterator[pc.Configuration]:
    """The non-final configurations of ``count`` random legal walks."""
    for _ in range(count):
        c = SYSTEM.initial(s)
        while not SYSTEM.is_terminal(c):
            yield c
            c = SYSTEM.apply(c, rnd.choice(SYSTEM.legal(c)))


WALKS = 15                             # random walks per gold tree: the references memoise per tree


@cache
def sample(seed: int, size: int, max_n: int, kind: str, walks_per_tree: int = WALKS) -> Sample:
    """``size`` distinct (gold tree, configuration) pairs from random walks (``kind``: "any",
    "projective" or "non-projective" trees of 2..max_n tokens)."""
    rnd = random.Random(seed)
    out: Sample = []
    while len(out) < size:
        n = rnd.randint(2, max_n)
        heads = projective_tree(rnd, n) if kind == "projective" else random_tree(rnd, n)
        s = sentence(heads)
        if kind == "non-projective" and s.is_projective:
            continue
        seen = dict.fromkeys((c.stack, c.buffer, c.heads) for c in walks(s, rnd, walks_per_tree))
        out += [(s, pc.Configuration(*key, (None,) * n)) for key in seen]
    return out[:size]


EXACT_SAMPLE = (1, 20_000, 8, "any")   # every third configuration per policy


def exact_records() -> Iterator[tuple[pc.Sentence, pc.Configuration, str, dict[pc.Transition, float]]]:
    oracles = {p: NederhofOracle(SYSTEM, p) for p in POLICIES}
    for i, (s, c) in enumerate(sample(*EXACT_SAMPLE)):
        policy = POLICIES[i % 3]
        yield s, c, policy, oracles[policy].scores(c, s)


@pytest.fixture(scope="module")
def exact_scores():
    return list(exact_records())


def test_the_sample_is_big_and_mostly_non_projective(exact_scores):
    trees = {s.gold_heads: s.is_projective for s, _, _, _ in exact_scores}
    assert len(exact_scores) == 20_000
    assert sum(not p for p in trees.values()) >= len(trees) / 2
    assert sum(not s.is_projective for s, _, _, _ in exact_scores) >= len(exact_scores) / 2


def test_exact_equals_constrained_brute_force(exact_scores):
    """Every move's ρ equals the best over Table 6 computations under the candidate's restrictions."""
    references: dict[tuple[int, ...], Table6Search] = {}
    for s, c, policy, scores in exact_scores:
        ref = references.setdefault(s.gold_heads, Table6Search(s.gold_heads))
        want = ref.scores(table6_stack(c), c.buffer, sorted(table6_arcs(c)), policy, SYSTEM.legal(c))
        assert scores == want, (s.gold_heads, c, policy)


def test_best_score_and_optimal_moves_agree_with_search(exact_scores):
    """For sbr, rbs and none the policy only breaks ties: max ρ is best(c) of the unrestricted
    search, and the moves reaching it are among the search oracle's optimal moves (the first
    10,000 configurations)."""
    search = pc.get_oracle(SYSTEM, "search")
    for s, c, policy, scores in exact_scores[:10_000]:
        top = max(scores.values())
        assert top == search.best(c, s), (s.gold_heads, c, policy)
        assert {t for t, v in scores.items() if v == top} <= set(search.optimal(c, s)), (s.gold_heads, c)


@pytest.mark.parametrize("corrected", [True, False], ids=["corrected", "uncorrected"])
@pytest.mark.parametrize("policy", [*POLICIES, STRICT])
def test_table6_scores_equal_brute_force_for_every_variant(policy, corrected):
    """Strict reduce-before-shift and plain arc-eager (no reduce_correct) too, on a smaller sample."""
    references: dict[tuple[int, ...], Table6Search] = {}
    for s, c in sample(2, 600, 7, "any"):
        ref = references.setdefault(s.gold_heads, Table6Search(s.gold_heads, corrected))
        stack, arcs = table6_stack(c), sorted(table6_arcs(c))
        want = ref.scores(stack, c.buffer, arcs, policy, applicable6(stack, c.buffer, corrected))
        assert table6_scores(stack, c.buffer, s.gold_heads, arcs, policy, corrected) == want


def test_normalized_scores_equal_brute_force():
    """Table 9 against search over Table 8 computations (a left_child candidate blocks its token),
    on 3,000 configurations of random Table 8 walks."""
    rnd = random.Random(3)
    checked = 0
    while checked < 3000:
        n = rnd.randint(1, 7)
        heads = random_tree(rnd, n)
        ref = Table8Search(heads)
        for _ in range(5):
            stack, b, arcs = ((0, "R"),), 1, []
            while moves := list(table8_moves(stack, b, n)):
                got = normalized_scores(stack, tuple(range(b, n + 1)), heads, arcs)
                assert got == ref.scores(stack, b, arcs), (heads, stack, b, arcs)
                checked += 1
                _, stack, b, arc = rnd.choice(moves)
                arcs += [arc] if arc else []


def gold_weight(heads: tuple[int, ...], toks: list[int]):
    """The parser's weight: 1 when the tokens at positions h, d form a gold arc."""
    return lambda h, d: int(heads[toks[d] - 1] == toks[h])


@pytest.mark.parametrize("grammar", [TABLE_9, TABLE_10, TABLE_10_UNCORRECTED], ids=["T9", "T10", "T10u"])
def test_numpy_parser_equals_the_spec_parser(grammar):
    """Random strings (not only those configurations produce), batched, against §4.6.3 verbatim."""
    rnd = random.Random(4)
    symbols = sorted(grammar.term)
    for _ in range(60):
        heads = random_tree(rnd, rnd.randint(2, 9))
        batch = []
        for _ in range(rnd.randint(1, 4)):
            toks = [0, *rnd.sample(range(1, len(heads) + 1), rnd.randint(0, len(heads)))]
            batch.append((["r", *(rnd.choice(symbols) for _ in toks[1:])], toks))
        got = sigma(grammar, [s for s, _ in batch], [t for _, t in batch], heads)
        for (syms, toks), value in zip(batch, got, strict=True):
            assert value == dict_parse(grammar, syms, gold_weight(heads, toks)), (syms, toks, heads)


def test_buffer_chart_reuse_changes_nothing():
    """Strings ending in the sentence's last tokens reuse the gold tree's all-n chart."""
    rnd = random.Random(5)
    for _ in range(100):
        heads = random_tree(rnd, rnd.randint(3, 9))
        n = len(heads)
        cut = rnd.randint(1, n)
        toks = [0, *sorted(rnd.sample(range(1, cut), rnd.randint(0, cut - 1))), *range(cut, n + 1)]
        syms = ["r", *(rnd.choice("rl") for _ in toks[1:-(n - cut + 1)]), *["n"] * (n - cut + 1)]
        want = dict_parse(TABLE_10, syms, gold_weight(heads, toks))
        assert sigma(TABLE_10, [syms], [toks], heads) == [want]


# -- the oracle's interface -----------------------------------------------------------------------
def test_registered_with_policies():
    assert {"nederhof", "nederhof-linear"} <= set(pc.list_oracles(SYSTEM))
    assert pc.get_oracle(SYSTEM, "nederhof").policy == "sbr"
    assert pc.get_oracle(SYSTEM, "nederhof-linear", policy="none").policy == "none"
    assert pc.get_oracle(SYSTEM, "nederhof").is_exact_for(sentence(FOUND))
    assert not pc.get_oracle(SYSTEM, "nederhof-linear").is_exact_for(sentence(FOUND))
    for name in ("nederhof", "nederhof-linear"):
        with pytest.raises(pc.ParsingCoreError, match="unknown policy"):
            pc.get_oracle(SYSTEM, name, policy="rbs-sometimes")
    assert "nederhof" not in pc.list_oracles(pc.get_system("arc-eager"))


@pytest.mark.parametrize("name", ["nederhof", "nederhof-linear"])
@pytest.mark.parametrize("policy", POLICIES)
def test_a_shift_that_empties_the_buffer_is_no_dead_end(name, policy):
    """ρ(SH) = −∞ when SH empties the buffer (no *canonical* way on), yet reduce_correct still
    attaches the shifted token: the true cost is 0, as search says.  One word, and V6."""
    oracle = pc.get_oracle(SYSTEM, name, policy=policy)
    hi = pc.Sentence.from_heads(["Hi"], [0])
    start = SYSTEM.initial(hi)
    assert {str(t): v for t, v in oracle.costs(start, hi).items()} == {"SH": 0, "RA": 0}
    assert oracle.scores(start, hi)[pc.Transition("SH")] == -INF
    assert pc.replay(SYSTEM, hi, ["SH", "RE"]).heads == (0,)
    heads, stack, buffer, arcs = V6
    s = sentence(heads)
    c = configuration(stack_of(stack), buffer, arcs, 3)
    assert {str(t): v for t, v in oracle.costs(c, s).items()} == {"SH": 0, "RA": 0, "RE": 1}
    assert oracle.costs(c, s) == pc.get_oracle(SYSTEM, "search").costs(c, s)
    assert {str(t) for t in oracle.canonical(c, s)} == {"RA"}
    final = pc.run(SYSTEM, s, oracle.chooser(s)).final
    assert SYSTEM.is_terminal(final) and final.heads == heads
    assert oracle.costs(final, s) == {}


def test_following_the_oracle_builds_the_best_tree():
    """Random optimal moves from the start reach a tree with best(initial) gold arcs (any tree)."""
    rnd = random.Random(6)
    search = pc.get_oracle(SYSTEM, "search")
    for policy in POLICIES:
        oracle = NederhofOracle(SYSTEM, policy)
        for _ in range(25):
            s = sentence(random_tree(rnd, rnd.randint(2, 8)))
            final = pc.run(SYSTEM, s, lambda c, legal, s=s, o=oracle: rnd.choice(o.optimal(c, s))).final
            built = sum(h == g for h, g in zip(final.heads, s.gold_heads, strict=True))
            assert built == search.best(SYSTEM.initial(s), s)


# -- the linear procedure -------------------------------------------------------------------------
@pytest.mark.parametrize("policy", POLICIES)
def test_linear_equals_exact_on_projective_trees(policy):
    exact, linear = NederhofOracle(SYSTEM, policy), NederhofLinearOracle(SYSTEM, policy)
    for s, c in sample(7, 2500, 12, "projective"):
        assert linear.scores(c, s) == exact.scores(c, s), (s.gold_heads, c)


def test_linear_disagreement_on_non_projective_trees_is_pinned():
    """§5 is only an approximation for crossing arcs; this pins how often (sbr, one walk on each
    of 133 random non-projective trees of 2–10 tokens, 2,000 configurations).

    Measured: score vectors differ in 36.1 %, canonical sets in 17.4 % (seeds 9 and 10: 37.1 / 18.7
    and 37.5 / 18.5; the spec's sample: 774/1918 = 40.4 % and 393/1918 = 20.5 %).
    """
    exact, linear = NederhofOracle(SYSTEM, "sbr"), NederhofLinearOracle(SYSTEM, "sbr")
    configs = sample(8, 2000, 10, "non-projective", walks_per_tree=1)
    scores_differ = optimal_differ = 0
    for s, c in configs:
        e, a = exact.scores(c, s), linear.scores(c, s)
        scores_differ += e != a
        optimal_differ += set(exact.canonical(c, s)) != set(linear.canonical(c, s))
    assert 0.33 <= scores_differ / len(configs) <= 0.39
    assert 0.15 <= optimal_differ / len(configs) <= 0.20


@pytest.mark.parametrize("name", ["nederhof", "nederhof-linear"])
def test_training_learns_the_canonical_moves_which_are_optimal(name):
    """A trainer reads ``teaching_costs``: 0 exactly on the canonical moves, all truly optimal."""
    for policy in POLICIES:
        oracle = pc.get_oracle(SYSTEM, name, policy=policy)
        for s, c in sample(11, 300, 8, "projective" if name == "nederhof-linear" else "any"):
            teach = oracle.teaching_costs(c, s)
            zero = {t for t, v in teach.items() if v == 0}
            assert zero == set(oracle.canonical(c, s)), (s.gold_heads, c)
            assert zero <= set(oracle.optimal(c, s)), (s.gold_heads, c)
