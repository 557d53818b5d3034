"""Does every oracle's exactness claim hold?  An audit against exhaustive search.

Every oracle declares for which gold trees its costs are exact: ``exact_for`` is "any",
"projective" or "none" (:meth:`Oracle.is_exact_for` answers it for one tree).  The search
oracle computes cost(t; c) = best(c) − best(t(c)) by brute force, so it is the judge: wherever
an oracle claims to be exact, its ``costs(c, gold)`` must equal the search oracle's on *every*
legal move — all the costs, not only which moves are optimal, and ``math.inf`` (no final
configuration reachable) must meet ``math.inf``.

A :class:`Claim` is one oracle (with its options) on one system variant; :func:`claims` lists
all of them, discovered from the oracle registry.  :func:`audit` checks one claim:

1. **Gold trees.**  Random trees of 1..8 tokens (fewer where the search limit is lower) and,
   if given, treebank sentences short enough for the search, taken by turns.  For a claim
   "any", half the random trees are projective and half are not; for "projective", only
   trees the oracle says it is exact for.
2. **Walks.**  From the initial configuration to a final one; at each step a random legal move
   with probability 1/2, otherwise one of the search oracle's optimal moves.  Pure random
   walks soon leave the gold path for good; mixing in optimal moves also reaches deep
   configurations on it and near it.
3. **Comparison** at every non-final configuration met, until enough have been compared.

>>> claim = next(c for c in claims() if c.id == "arc-hybrid[root_last=True]/goldberg-nivre")
>>> claim.exact_for
'projective'
>>> result = audit(claim, configurations=300)
>>> result.passed, result.configurations >= 300, result.non_projective_trees
(True, True, 0)
"""

from __future__ import annotations

import inspect
import itertools
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..configuration import Configuration
from ..oracles import Costs, Oracle, get_oracle, list_oracles, min_cost_moves
from ..oracles.search import MAX_LENGTH
from ..sentence import Sentence
from ..systems import TransitionSystem, get_system
from ..trees import is_projective

Options = tuple[tuple[str, Any], ...]  # keyword options as sorted (name, value) pairs: hashable

# Every system the library offers, with the options that change what it can build.
SYSTEM_VARIANTS: tuple[tuple[str, Options], ...] = (
    ("arc-standard", ()),
    ("arc-standard", (("single_root", True),)),
    ("arc-eager", ()),
    ("arc-eager-corrected", ()),
    ("arc-hybrid", ()),
    ("arc-hybrid", (("root_last", True),)),
    ("arc-hybrid-swap", ()),
    ("arc-hybrid-swap", (("root_last", True),)),
    ("arc-standard-swap", ()),
)
#: Nederhof's tie-breaking policies: an oracle taking a ``policy`` option is audited under each.
POLICIES = ("sbr", "rbs", "none")
JUDGE = "search"

RANDOM_TREE_MAX = 8        # random trees have 1..min(8, search limit) tokens
RANDOM_MOVE = 0.5          # chance of a random legal move at each step of a walk (else an optimal one)
WALKS_PER_TREE = 5         # walks over each gold tree: the search memoises per tree
MIN_NON_PROJECTIVE = 3     # a crossing needs four ends (ROOT included): 1 or 2 tokens are projective
EXAMPLES = 5               # mismatches kept as examples


# -- claims ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """One oracle (with options) on one system variant, and the gold trees it claims exactness for."""

    system: str
    system_options: Options
    oracle: str
    oracle_options: Options
    exact_for: str

    @property
    def id(self) -> str:
        """Readable and unique: ``arc-eager-corrected/nederhof[policy=rbs]``."""
        return f"{self.system}{bracket(self.system_options)}/{self.oracle}{bracket(self.oracle_options)}"

    def make_system(self) -> TransitionSystem:
        return get_system(self.system, **dict(self.system_options))

    def make_oracle(self, system: TransitionSystem) -> Oracle:
        return get_oracle(system, self.oracle, **dict(self.oracle_options))


def bracket(options: Options) -> str:
    """``[policy=rbs]``, or nothing without options."""
    return "[" + ", ".join(f"{k}={v}" for k, v in options) + "]" if options else ""


def claims() -> list[Claim]:
    """Every (system variant, oracle, options) whose oracle claims exactness for some gold trees.

    The oracles come from the registry (``list_oracles``), so a new oracle is audited as soon
    as it is registered; the search oracle, the judge, is left out, and so are oracles with
    ``exact_for == "none"``.
    """
    found = []
    for system_name, system_options in SYSTEM_VARIANTS:
        system = get_system(system_name, **dict(system_options))
        for oracle_name in list_oracles(system):
            if oracle_name == JUDGE:
                continue
            for oracle_options in option_variants(system, oracle_name):
                oracle = get_oracle(system, oracle_name, **dict(oracle_options))
                if oracle.exact_for != "none":
                    found.append(Claim(system_name, system_options, oracle_name, oracle_options,
                                       oracle.exact_for))
    return found


def option_variants(system: TransitionSystem, oracle_name: str) -> list[Options]:
    """The option sets to audit an oracle under: one per policy if it takes ``policy``, else none."""
    oracle_class = type(get_oracle(system, oracle_name))
    if "policy" in inspect.signature(oracle_class.__init__).parameters:
        return [(("policy", policy),) for policy in POLICIES]
    return [()]


# -- gold trees ------------------------------------------------------------------------------


def random_heads(rnd: random.Random, n: int, projective: bool | None = None, root_last: bool = False
                 ) -> tuple[int, ...]:
    """A random tree over n tokens (several roots allowed), as projective as asked (None: any).

    Tokens are attached in a random order, each to ROOT or to a token attached before it, so
    no cycle can arise; the tree is redrawn until its projectivity (with ROOT first, or last
    if ``root_last``) is as asked.  No tree of fewer than three tokens crosses, so asking for
    a non-projective one is an error rather than an endless loop.
    """
    if projective is False and n < MIN_NON_PROJECTIVE:
        raise ValueError(f"every tree of {n} token(s) is projective")
    while True:
        order = rnd.sample(range(1, n + 1), n)
        heads = [0] * (n + 1)
        for k, token in enumerate(order):
            heads[token] = rnd.choice([0, *order[:k]])
        tree = tuple(heads[1:])
        if projective is None or is_projective(tree, root_last) == projective:
            return tree


def random_trees(rnd: random.Random, max_n: int, exact_for: str, root_last: bool
                 ) -> Iterator[Sentence]:
    """Endless random gold trees: all projective for a "projective" claim, else by turns.

    Non-projective trees get at least three tokens; if ``max_n`` is smaller, all are projective.
    """
    sizes = range(1, max_n + 1)
    crossing_sizes = range(MIN_NON_PROJECTIVE, max_n + 1)
    for k in itertools.count():
        projective = exact_for == "projective" or k % 2 == 0 or not crossing_sizes
        n = rnd.choice(sizes if projective else crossing_sizes)
        yield sentence_of(random_heads(rnd, n, projective, root_last))


def sentence_of(heads: tuple[int, ...]) -> Sentence:
    return Sentence.from_heads([f"w{i}" for i in range(1, len(heads) + 1)], heads)


def gold_trees(oracle: Oracle, sentences: Sequence[Sentence], rnd: random.Random, max_n: int,
               limit: int) -> Iterator[tuple[Sentence, bool]]:
    """Endless (gold tree, from the treebank?): a usable treebank sentence and a random tree by
    turns, random trees alone once the sentences are used up.

    Usable: with a gold tree, at most ``limit`` tokens, and one the oracle is exact for.  They
    come in random order, so that an audit stopped early still samples all of them.
    """
    usable_list = [s for s in sentences if s.has_gold and s.n <= limit and oracle.is_exact_for(s)]
    usable = iter(rnd.sample(usable_list, len(usable_list)))
    randoms = random_trees(rnd, max_n, oracle.exact_for, oracle.system.root_last)
    for tree in randoms:
        sentence = next(usable, None)
        if sentence is not None:
            yield sentence, True
        if oracle.is_exact_for(tree):
            yield tree, False


# -- walks -----------------------------------------------------------------------------------


def walk(system: TransitionSystem, judge: Oracle, gold: Sentence, rnd: random.Random
         ) -> Iterator[tuple[Configuration, Costs]]:
    """The non-final configurations of one walk, each with the judge's costs there.

    At each step: a random legal move with probability ``RANDOM_MOVE``, else one of the
    judge's optimal moves.  A configuration with no legal move (a dead end) ends the walk.
    """
    c = system.initial(gold)
    while not system.is_terminal(c):
        truth = judge.costs(c, gold)
        yield c, truth
        if not truth:
            return
        moves = tuple(truth) if rnd.random() < RANDOM_MOVE else min_cost_moves(truth)
        c = system.apply(c, rnd.choice(moves))


# -- results ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mismatch:
    """One configuration where the oracle's costs differ from the search's, as readable strings."""

    gold: str
    configuration: str
    oracle_costs: str
    search_costs: str

    def __str__(self) -> str:
        return (f"gold {self.gold}; {self.configuration}: "
                f"oracle {{{self.oracle_costs}}} ≠ search {{{self.search_costs}}}")


@dataclass(frozen=True)
class AuditResult:
    """What one audit compared, and where the claim failed."""

    claim: Claim
    configurations: int          # non-final configurations compared
    moves: int                   # legal moves compared (a cost each)
    projective_trees: int        # random gold trees
    non_projective_trees: int
    treebank_sentences: int
    mismatch_count: int          # configurations whose costs differ
    mismatches: tuple[Mismatch, ...]  # the first few of them

    @property
    def passed(self) -> bool:
        return self.mismatch_count == 0

    def report(self) -> str:
        """One line of counts, then the example mismatches (one a line)."""
        head = (f"{self.claim.id} (exact for {self.claim.exact_for}): {self.mismatch_count} mismatches "
                f"in {self.configurations} configurations, {self.moves} moves; random trees "
                f"{self.projective_trees} projective / {self.non_projective_trees} non-projective; "
                f"{self.treebank_sentences} treebank sentences")
        return "\n".join([head, *(f"  {m}" for m in self.mismatches)])


@dataclass
class Tally:
    """The running counts of an audit (mutable; frozen into an :class:`AuditResult` at the end)."""

    configurations: int = 0
    moves: int = 0
    projective_trees: int = 0
    non_projective_trees: int = 0
    treebank_sentences: int = 0
    mismatch_count: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)

    def count_tree(self, gold: Sentence, from_treebank: bool, root_last: bool) -> None:
        if from_treebank:
            self.treebank_sentences += 1
        elif is_projective(gold.gold_heads, root_last):
            self.projective_trees += 1
        else:
            self.non_projective_trees += 1

    def compare(self, gold: Sentence, c: Configuration, mine: Costs, truth: Costs) -> None:
        self.configurations += 1
        self.moves += len(truth)
        if mine != truth:
            self.mismatch_count += 1
            if len(self.mismatches) < EXAMPLES:
                self.mismatches.append(mismatch(gold, c, mine, truth))

    def result(self, claim: Claim) -> AuditResult:
        return AuditResult(claim, self.configurations, self.moves, self.projective_trees,
                           self.non_projective_trees, self.treebank_sentences, self.mismatch_count,
                           tuple(self.mismatches))


def mismatch(gold: Sentence, c: Configuration, mine: Costs, truth: Costs) -> Mismatch:
    where = f" ({gold.sent_id})" if gold.sent_id else ""
    return Mismatch(f"heads {list(gold.gold_heads)}{where}", show_configuration(c),
                    show_costs(mine), show_costs(truth))


def show_configuration(c: Configuration) -> str:
    """``stack [0 2 3] buffer [4 5] heads [2 _ _ _ _]`` (``_``: no head yet)."""
    def tokens(xs: Sequence[int | None]) -> str:
        return "[" + " ".join("_" if x is None else str(x) for x in xs) + "]"
    return f"stack {tokens(c.stack)} buffer {tokens(c.buffer)} heads {tokens(c.heads)}"


def show_costs(costs: Costs) -> str:
    """``SH 0, LA 1, RA ∞`` (moves in the order given)."""
    return ", ".join(f"{t} {'∞' if v == math.inf else f'{v:g}'}" for t, v in costs.items())


# -- the audit -------------------------------------------------------------------------------


def audit(claim: Claim, configurations: int = 20_000, seed: int = 0,
          sentences: Sequence[Sentence] = (), judge: Oracle | None = None) -> AuditResult:
    """Compare the claimed oracle with the search oracle on at least ``configurations``
    non-final configurations (see the module docstring for how they are drawn).

    One search oracle serves the whole audit, so its memo tables are reused across the walks
    over each gold tree.  Deterministic for a given ``seed``.  A walk depends only on the
    judge's costs and the random draws, so audits of several claims on one system (Nederhof's
    three policies, say) meet the same configurations and may share a ``judge`` that remembers
    its answers (:data:`JUDGE` on ``claim``'s system); by default, a fresh search oracle.
    """
    system = claim.make_system()
    oracle = claim.make_oracle(system)
    judge = get_oracle(system, JUDGE) if judge is None else judge
    limit = MAX_LENGTH[system.name]
    rnd = random.Random(seed)
    tally = Tally()
    for gold, from_treebank in gold_trees(oracle, sentences, rnd, min(limit, RANDOM_TREE_MAX), limit):
        tally.count_tree(gold, from_treebank, system.root_last)
        for _ in range(WALKS_PER_TREE):
            for c, truth in walk(system, judge, gold, rnd):
                tally.compare(gold, c, oracle.costs(c, gold), truth)
        if tally.configurations >= configurations:
            break
    return tally.result(claim)
