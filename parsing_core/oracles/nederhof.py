"""Nederhof's exact optimal step for arc-eager, for any gold tree (Nederhof 2021, §4).

Our ``arc-eager-corrected`` system is Nederhof's Table 4; his exact algorithm is stated for
the equivalent Table 6, where every stack token carries a label: **R** if it already has a
head (it came in by RA; ROOT is R too), **L** if it was shifted and still waits for one.
Table 6 creates an R token's arc only when it is reduced, so an RA arc whose dependent is
still on the stack is *pending*: it is left out of T and counted again by the reduce.

For each legal move t the configuration after t becomes a string, one symbol per stack
token and buffer token, and the score

    ρ(t) = |T ∩ G| + [t's own arc is gold] + σ(string)

counts the gold arcs of the best tree reachable by a *canonical* computation starting with t;
σ is found by parsing the string with the grammar of Table 10 (:mod:`.nederhof_grammar`).
The candidate marks below exclude non-canonical computations, so ρ is Nederhof's choice of
the next step, not a cost: the true cost best(c) − best(t(c)) parses t(c)'s own string,
unmarked (:meth:`NederhofOracle.costs`).

Symbols: ``r``/``l`` for R/L stack tokens, ``n`` for buffer tokens, and candidate marks:

* ``lb`` — the token SH just pushed may never become a right child (else RA was right);
* ``np`` — (shift-before-reduce, candidate RE) the buffer front may become a left child
  only after taking a left child itself: otherwise it should have been shifted first;
* ``rp``/``lp`` — (reduce-before-shift, candidate SH) the old top may be reduced only after
  taking another right child: otherwise it should have been reduced before the shift.

The policy breaks the ties between computations that build the same tree (Table 7):

>>> import parsing_core as pc
>>> s = pc.Sentence.from_heads("a b c d".split(), [0, 1, 4, 1])
>>> system = pc.get_system("arc-eager-corrected")
>>> c = pc.Configuration((0, 1, 2), (3, 4), (0, 1, None, None), (None,) * 4)
>>> for policy in ("none", "sbr", "rbs"):
...     oracle = NederhofOracle(system, policy)
...     print(policy, {str(t): v for t, v in oracle.scores(c, s).items()})
none {'SH': 4.0, 'RA': 3.0, 'RE': 4.0}
sbr {'SH': 4.0, 'RA': 3.0, 'RE': 3.0}
rbs {'SH': 3.0, 'RA': 3.0, 'RE': 4.0}
>>> NederhofOracle(system, "sbr").strings(c, s)[pc.Transition("RE")]
'r r np n'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..configuration import Configuration
from ..sentence import Sentence
from ..systems import TransitionSystem
from ..transition import LA, RA, RE, SH, Transition
from ..trees import Arc
from .base import Costs, GoldCache, check_same_sentence, costs_after
from .nederhof_grammar import TABLE_9, TABLE_10, TABLE_10_UNCORRECTED, GoldTables, sigma
from .nederhof_linear import NederhofLinearOracle
from .policy import POLICIES as POLICIES
from .policy import STRICT, Scores, check_policy
from .policy import PolicyOracle as PolicyOracle

Stack = tuple[tuple[int, str], ...]       # (token, stack label), bottom first
Step = tuple[Stack, tuple[int, ...], Arc | None]


# -- from our configuration to Table 6 -----------------------------------------------------
def table6_stack(c: Configuration) -> Stack:
    """Each stack token with its label: R if it has a head (or is ROOT), L if not."""
    return tuple((t, "R" if t == 0 or c.heads[t - 1] is not None else "L") for t in c.stack)


def table6_arcs(c: Configuration) -> set[Arc]:
    """T: the arcs built, less the pending ones whose dependent is an R token on the stack."""
    on_stack = set(c.stack)
    return {(h, d) for h, d in c.unlabelled_arcs if d not in on_stack}


# -- one step and its string ---------------------------------------------------------------
def applicable6(stack: Stack, buffer: Sequence[int], corrected: bool = True) -> tuple[Transition, ...]:
    """The Table 6 moves possible here (without reduce_correct when not ``corrected``)."""
    top = stack[-1][1]
    possible = {SH: bool(buffer), LA: bool(buffer) and top == "L", RA: bool(buffer),
                RE: len(stack) > 1 and (corrected or top == "R")}
    return tuple(t for t, ok in possible.items() if ok)


def step6(stack: Stack, buffer: Sequence[int], move: Transition) -> Step:
    """The Table 6 configuration after ``move`` and the arc the move itself creates."""
    buf = tuple(buffer)
    if move == SH:
        return (*stack, (buf[0], "L")), buf[1:], None
    if move == RA:
        return (*stack, (buf[0], "R")), buf[1:], None
    if move == LA:
        return stack[:-1], buf, (buf[0], stack[-1][0])
    return stack[:-1], buf, (stack[-2][0], stack[-1][0])          # RE: reduce (or reduce_correct)


def string6(stack: Stack, buffer: Sequence[int], move: Transition, policy: str) -> tuple[str, ...]:
    """Table 10's string for the configuration *after* ``move`` (spec §4.6.5, pitfall P8)."""
    k = len(stack)
    syms = ["r" if label == "R" else "l" for _, label in stack]
    flagged: set[int] = set()
    if move == SH:
        syms[-1] = "lb"                                  # the shifted token is blocked
        if policy in ("rbs", STRICT) and k >= 3:
            flagged.add(k - 2)                           # the old top: should it have been reduced?
    if policy == STRICT:
        flagged |= set(range(1, k - 2))
        if move in (LA, RE) and k >= 3:
            flagged.add(k - 2)
        if move == LA and k >= 2:
            flagged.add(k - 1)
    for i in flagged:
        syms[i] += "p"
    rest = ["n"] * len(buffer)
    if policy == "sbr" and move == RE and rest:
        rest[0] = "np"                                   # the buffer front: should it have been shifted?
    return (*syms, *rest)


def table6_scores(stack: Stack, buffer: Sequence[int], gold_heads: Sequence[int], arcs: Iterable[Arc] = (),
                  policy: str = "sbr", corrected: bool = True, moves: Sequence[Transition] | None = None,
                  gold: GoldTables | None = None) -> Scores:
    """ρ for each move (default: every applicable one) in a Table 6 configuration; T = ``arcs``.

    ``gold``: the gold tree's tables, when the caller keeps them between configurations.
    """
    check_policy(policy, allow_strict=True)
    gold = GoldTables(gold_heads) if gold is None else gold
    gold_arcs = {(h, d) for d, h in enumerate(gold_heads, 1)}
    built = sum(1 for arc in arcs if arc in gold_arcs)
    moves = applicable6(stack, buffer, corrected) if moves is None else moves
    steps = {t: step6(stack, buffer, t) for t in moves}
    rows = {t: (string6(s, b, t, policy), (*(tok for tok, _ in s), *b)) for t, (s, b, _) in steps.items()}
    grammar = TABLE_10 if corrected else TABLE_10_UNCORRECTED
    distinct = list(dict.fromkeys(rows.values()))
    values = dict(zip(distinct, sigma(grammar, [s for s, _ in distinct], [k for _, k in distinct], gold),
                      strict=True))
    return {t: built + (steps[t][2] in gold_arcs) + values[rows[t]] for t in moves}


def table6_strings(stack: Stack, buffer: Sequence[int], policy: str = "sbr",
                   corrected: bool = True) -> dict[Transition, str]:
    """The string each applicable move is scored by, e.g. ``{SH: 'r r lb n n', ...}``."""
    return {t: " ".join(string6(*step6(stack, buffer, t)[:2], t, policy))
            for t in applicable6(stack, buffer, corrected)}


# -- the oracle ----------------------------------------------------------------------------
def configuration_string(stack: Stack, buffer: Sequence[int]) -> tuple[str, ...]:
    """Table 10's string for a configuration itself, no candidate marks: ``r``/``l`` per stack
    token, ``n`` per buffer token.  Its σ counts every tree the system can still finish with."""
    return (*("r" if label == "R" else "l" for _, label in stack), *["n"] * len(buffer))


class NederhofOracle(PolicyOracle):
    """True costs for arc-eager with reduce_correct, any gold tree, in cubic time.

    Two readings of Nederhof's algorithm, kept apart:

    * :meth:`costs` — the true cost best(c) − best(t(c)) of every legal move.  best(t(c)) is
      |T ∩ G| plus σ of t(c)'s own string, without a candidate's blocking marks (checked
      equal to exhaustive search in the tests), so a move is judged by every way the system
      can still finish after it;
    * :meth:`scores` — Nederhof's ρ vector under the ``policy``: each move scored by the
      *canonical* computations that start with it.  max ρ = best(c), and the moves reaching
      it (:meth:`canonical`) are among the optimal ones, but ρ is no cost: a SHIFT that empties
      the buffer scores −∞ (the shifted token may not become a right child, canonically),
      although reduce_correct still attaches it and the move may well be optimal.

    ``policy``: "sbr" (shift-before-reduce, default), "rbs" (non-strict reduce-before-shift)
    or "none"; it decides which of two moves building the same tree is canonical, so it
    changes :meth:`scores`, :meth:`canonical` and :meth:`next`, never :meth:`costs`.

    >>> import parsing_core as pc
    >>> s = pc.Sentence.from_heads(["Hi"], [0])
    >>> system = pc.get_system("arc-eager-corrected")
    >>> oracle = NederhofOracle(system)
    >>> c = system.initial(s)
    >>> {str(t): v for t, v in oracle.costs(c, s).items()}      # SH, then RE attaches Hi to ROOT
    {'SH': 0.0, 'RA': 0.0}
    >>> {str(t): v for t, v in oracle.scores(c, s).items()}     # ρ: SH is not canonical
    {'SH': -inf, 'RA': 1.0}
    >>> oracle.canonical(c, s)
    (Transition('RA'),)
    """

    name = "nederhof"
    title = "Nederhof (exact, cubic)"
    systems = ("arc-eager-corrected",)
    exact_for = "any"
    exactness = "exact for any gold tree (Nederhof 2021, cubic time)"
    speed = "cubic"

    def __init__(self, system: TransitionSystem, policy: str = "sbr") -> None:
        super().__init__(system, policy)
        self._gold = GoldCache(GoldTables)
        self._linear = NederhofLinearOracle(system, policy)

    def move_costs(self, c: Configuration, gold: Sentence) -> Costs:
        return costs_after(self.system, c, lambda after: self.best_of(after, gold))

    def best(self, c: Configuration, gold: Sentence) -> float:
        """The most gold arcs a final configuration reachable from ``c`` can hold."""
        return self.best_of([c], gold)[0]

    def best_of(self, configurations: Sequence[Configuration], gold: Sentence) -> list[float]:
        """best of several configurations of one sentence, their strings parsed in one batch."""
        gold_arcs = gold.gold_arcs
        out = [float(len(c.unlabelled_arcs & gold_arcs)) for c in configurations]
        open_ = [i for i, c in enumerate(configurations) if not self.system.is_terminal(c)]
        stacks = [table6_stack(configurations[i]) for i in open_]
        strings = [configuration_string(st, configurations[i].buffer) for i, st in zip(open_, stacks)]
        tokens = [(*configurations[i].stack, *configurations[i].buffer) for i in open_]
        values = sigma(TABLE_10, strings, tokens, self._gold(gold.gold_heads))
        for i, v in zip(open_, values, strict=True):
            out[i] = len(table6_arcs(configurations[i]) & gold_arcs) + v
        return out

    def scores(self, c: Configuration, gold: Sentence) -> Scores:
        """Nederhof's ρ for each legal move under the policy (−∞: no canonical computation)."""
        check_same_sentence(c, gold)
        moves = self.system.legal(c)
        if not moves:
            return {}
        return table6_scores(table6_stack(c), c.buffer, gold.gold_heads, table6_arcs(c), self.policy,
                             moves=moves, gold=self._gold(gold.gold_heads))

    def canonical(self, c: Configuration, gold: Sentence) -> tuple[Transition, ...]:
        """The policy's optimal moves.  On a projective gold tree §5's linear scores equal
        Table 10's (tested), so they answer there, at a fraction of the time."""
        if gold.is_projective:
            return self._linear.canonical(c, gold)
        return super().canonical(c, gold)

    def strings(self, c: Configuration, gold: Sentence | None = None) -> dict[Transition, str]:
        """The terminal string each legal move is scored by (the gold tree plays no part)."""
        stack = table6_stack(c)
        return {t: " ".join(string6(*step6(stack, c.buffer, t)[:2], t, self.policy))
                for t in self.system.legal(c)}


# -- the normalized form (Table 8, grammar Table 9) ----------------------------------------
NORMALIZED_MOVES = ("shift", "left_child", "right_child", "reduce_left", "reduce_right")


def applicable8(stack: Stack, buffer: Sequence[int]) -> tuple[str, ...]:
    """The Table 8 moves possible here; labels R, L and (top only) N."""
    top = stack[-1][1]
    ok = {
        "shift": bool(buffer) and top != "N",
        "left_child": top == "N",
        "right_child": top == "N",
        "reduce_left": len(stack) > 1 and top != "N",
        "reduce_right": len(stack) > 1 and top == "N" and stack[-2][1] == "L",
    }
    return tuple(m for m in NORMALIZED_MOVES if ok[m])


def step8(stack: Stack, buffer: Sequence[int], move: str) -> Step:
    buf, top = tuple(buffer), stack[-1][0]
    if move == "shift":
        return (*stack, (buf[0], "N")), buf[1:], None
    if move in ("left_child", "right_child"):
        return (*stack[:-1], (top, move[0].upper())), buf, None
    if move == "reduce_left":
        return stack[:-1], buf, (stack[-2][0], top)
    return (*stack[:-2], stack[-1]), buf, (top, stack[-2][0])            # reduce_right


def string8(stack: Stack, buffer: Sequence[int], move: str) -> tuple[str, ...]:
    """Table 9's string after ``move``: top R → rt, top L → lt (lb after left_child), N → n."""
    syms = ["r" if label == "R" else "l" for _, label in stack[:-1]]
    label = stack[-1][1]
    top = {"R": "rt", "L": "lb" if move == "left_child" else "lt", "N": "n"}[label]
    return (*syms, top, *["n"] * len(buffer))


def normalized_scores(stack_with_labels: Sequence[tuple[int, str]], input: Sequence[int],
                      gold_heads: Sequence[int], arcs: Iterable[Arc] = (), gold: GoldTables | None = None
                      ) -> dict[str, float]:
    """ρ for each applicable Table 8 move (labels "R", "L", "N"; T = ``arcs``), by grammar Table 9."""
    stack = tuple(stack_with_labels)
    gold_arcs = {(h, d) for d, h in enumerate(gold_heads, 1)}
    built = sum(1 for arc in arcs if arc in gold_arcs)
    moves = applicable8(stack, input)
    steps = {m: step8(stack, input, m) for m in moves}
    strings = [string8(s, b, m) for m, (s, b, _) in steps.items()]
    tokens = [(*(t for t, _ in s), *b) for s, b, _ in steps.values()]
    gold = GoldTables(gold_heads) if gold is None else gold
    values = sigma(TABLE_9, strings, tokens, gold) if moves else []
    return {m: built + (steps[m][2] in gold_arcs) + v for m, v in zip(moves, values, strict=True)}


def normalized_strings(stack_with_labels: Sequence[tuple[int, str]], input: Sequence[int]) -> dict[str, str]:
    stack = tuple(stack_with_labels)
    return {m: " ".join(string8(*step8(stack, input, m)[:2], m)) for m in applicable8(stack, input)}
