"""What every oracle answers: the cost of each legal move in a configuration, given the gold tree.

cost(t; c) = best(c) − best(t(c)), where best(c) is the most gold arcs any final configuration
reachable from c can hold.  A move is *optimal* when its cost is the minimum (zero whenever
the gold tree, or the best tree still reachable, can be built).  ``math.inf`` marks a move
after which no final configuration can be reached at all.

Costs are unlabelled attachment losses.  In a labelled system a move that builds a gold
(head, dependent) arc with the wrong label costs one more (:meth:`Oracle.cost`).

*Why* a move costs (:meth:`Oracle.explain`) is told in one of two ways.  In arc-decomposable
systems (arc-eager, arc-hybrid) with a projective gold tree the cost is exactly the number of
gold arcs the move makes unreachable, and those arcs are the explanation.  Elsewhere
(arc-standard, the swap systems, any non-projective gold tree) costs are not countable arc by
arc: a SHIFT may lose nothing at once and still cost, a move may lose two arcs and open
another.  There the explanation is a *witness*: one best completion of the parse from c
against one best completion after t, the gold arcs only the first builds (lost) and those
only the second builds (gained), so that lost − gained = cost.  Another pair of best
completions may show other arcs; the explanation is an example, and says so.

:meth:`Oracle.answer` gives the costs, their explanations and the gold-labelled moves at once,
computing the costs once (an :class:`Answer`).  :func:`optimal_moves` reads the optimal moves
off costs; :func:`completion` finishes a parse by following an oracle.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..configuration import Configuration
from ..driver import Choose, Trace, max_steps, run_from
from ..errors import IllegalTransition, ParsingCoreError
from ..sentence import Sentence
from ..systems import TransitionSystem
from ..transition import Transition
from ..trees import Arc, is_projective

Costs = dict[Transition, float]
ALL: tuple[str, ...] = ("*",)


@dataclass(frozen=True)
class Explanation:
    """Why one move costs what it costs, in gold arcs (head, dependent).

    ``lost``: gold arcs the move gives up; ``gained``: gold arcs it opens that the best parse
    without it does not build (only in examples).  ``example`` is True when the arcs are read
    off two best completions (one of several possible pairs), False when they are *the* arcs
    the move makes unreachable.
    """

    lost: frozenset[Arc] = frozenset()
    gained: frozenset[Arc] = frozenset()
    example: bool = False

    @property
    def net(self) -> int:
        """lost − gained: the cost, when the explanation comes from an exact oracle."""
        return len(self.lost) - len(self.gained)


Explanations = dict[Transition, Explanation]

#: How exactness claims rank (``Oracle.exact_for``), broadest first.
CLAIMS: tuple[str, ...] = ("any", "projective", "none")
#: How fast an oracle answers about one configuration (``Oracle.speed``), fastest first.
SPEEDS: tuple[str, ...] = ("linear", "cubic", "exponential")


@dataclass(frozen=True)
class Answer:
    """An oracle's whole answer about one configuration (:meth:`Oracle.answer`).

    ``costs``: {bare legal move: cost}; ``explanations``: why each move costs ({} when the
    oracle cannot tell, as the static one); ``labelled``: each bare move with the label a
    gold-following parser would give it (the move itself in an unlabelled system).
    """

    costs: Costs
    explanations: Explanations
    labelled: dict[Transition, Transition]

    @property
    def optimal(self) -> tuple[Transition, ...]:
        """The minimum-cost moves, in display order; none when every move is a dead end (∞)."""
        return optimal_moves(self.costs)


class Oracle:
    """Base class: subclasses implement :meth:`move_costs`; ``costs``, ``answer``, ``next`` and
    ``optimal`` follow."""

    name: str = ""
    title: str = ""
    #: The systems this oracle serves (names as in ``list_systems()``); ``ALL`` for every system.
    systems: tuple[str, ...] = ()
    #: For which gold trees its costs are exact: "any", "projective" or "none" (approximate).
    exact_for: str = "none"
    #: One sentence for the UI, e.g. "exact for projective gold trees, approximate otherwise".
    exactness: str = ""
    #: How its time per configuration grows with the sentence (one of :data:`SPEEDS`, read off
    #: the docs' oracle benchmarks, docs/benchmarks/oracles.md); the slowest until a subclass says otherwise.
    speed: str = "exponential"
    #: Does it measure what a move loses?  (False for the static oracle: its 0/1 only names a move.)
    gives_costs: bool = True
    #: The cost of each move as a rule a person can apply by hand (kind → text), for the oracles
    #: whose costs are countable arc by arc; empty for the others.
    cost_rules: dict[str, str] = {}

    def __init__(self, system: TransitionSystem) -> None:
        self.system = system

    def costs(self, c: Configuration, gold: Sentence) -> Costs:
        """{legal move: cost}; the moves are unlabelled."""
        check_same_sentence(c, gold)
        return self.move_costs(c, gold)

    def teaching_costs(self, c: Configuration, gold: Sentence) -> Costs:
        """What a trainer learns from: the true costs, unless the oracle has a cheaper canonical
        form whose minimum-cost moves are always optimal ones (Nederhof's policies)."""
        return self.costs(c, gold)

    def move_costs(self, c: Configuration, gold: Sentence) -> Costs:
        """What subclasses implement: :meth:`costs` once ``c`` and ``gold`` are checked to match."""
        raise NotImplementedError

    def answer(self, c: Configuration, gold: Sentence) -> Answer:
        """The costs of the legal moves, why each costs, and the gold-labelled moves: the costs
        computed once, and handed to :meth:`explanations`."""
        costs = self.costs(c, gold)
        return Answer(costs, self.explanations(c, gold, costs), {t: self.labelled(c, gold, t) for t in costs})

    def explain(self, c: Configuration, gold: Sentence) -> Explanations:
        """For each legal move, why it costs (``answer(c, gold).explanations``)."""
        return self.answer(c, gold).explanations

    def explanations(self, c: Configuration, gold: Sentence, costs: Costs) -> Explanations:
        """What subclasses may override: why each move costs, given ``costs`` (this oracle's
        costs at ``c``, already computed).  By default a witness: two example completions
        following this oracle's own optimal moves (see the module docstring)."""
        return witness(self, c, gold, costs)

    @classmethod
    def exact_on(cls, system: TransitionSystem, gold: Sentence) -> bool:
        """Are the costs of this kind of oracle, in ``system``, exact for this gold tree?"""
        if cls.exact_for == "projective":
            return is_projective(gold.gold_heads, system.root_last)
        return cls.exact_for == "any"

    @classmethod
    def answers(cls, system: TransitionSystem, gold: Sentence) -> bool:
        """Does this kind of oracle (with its default options) answer about this sentence at
        all?  Only the search oracle refuses some (the long ones)."""
        return True

    def is_exact_for(self, gold: Sentence) -> bool:
        """Are this oracle's costs exact for this gold tree?"""
        return self.exact_on(self.system, gold)

    def optimal(self, c: Configuration, gold: Sentence) -> tuple[Transition, ...]:
        """The minimum-cost moves (several when there are ties), in display order."""
        return min_cost_moves(self.costs(c, gold))

    def next(self, c: Configuration, gold: Sentence, costs: Costs | None = None) -> Transition:
        """One optimal move (the first in display order), labelled when the system is.

        ``costs``: this oracle's costs at ``c`` when the caller has them already (they are
        not computed again); an oracle that chooses otherwise than by its costs ignores them.
        """
        moves = min_cost_moves(self.costs(c, gold) if costs is None else costs)
        if not moves:
            raise ParsingCoreError("no legal move: the parse is finished or stuck")
        return self.labelled(c, gold, moves[0])

    def cost(self, c: Configuration, gold: Sentence, t: Transition) -> float:
        """Cost of one (possibly labelled) move: its unlabelled cost plus a wrong-label penalty."""
        costs = self.costs(c, gold)
        if t.bare not in costs:
            raise IllegalTransition(f"{t} is not possible here: {self.system.why_illegal(c, t)}")
        return costs[t.bare] + label_penalty(self.system, c, gold, t)

    def labelled(self, c: Configuration, gold: Sentence, t: Transition) -> Transition:
        """``t`` with the label a gold-following parser would give it (none if unlabelled)."""
        if not self.system.labelled or gold.labels is None:
            return t
        arc = self.system.arc_of(c, t)
        return t if arc is None else t.with_label(gold.label(arc[1]))

    def chooser(self, gold: Sentence) -> Choose:
        """A ``choose`` function for :func:`parsing_core.run` that follows this oracle."""
        return lambda c, legal: self.next(c, gold)

    def __repr__(self) -> str:
        return f"get_oracle({self.system.name!r}, {self.name!r})"


class ModelOracle(Oracle):
    """An oracle that answers from a trained model.  The package that trains the model registers
    it (``register_model_oracle``), so this package never imports the layers above it.  Always
    reachable by name; listed only when a default model is found; never ranked (a model is no
    fallback)."""

    @classmethod
    def available(cls, system: TransitionSystem) -> bool:
        """Is there a default model to list this oracle with, one that fits ``system``?"""
        return False

    @classmethod
    def saved_models(cls, system: TransitionSystem) -> list[str]:
        """The names of the saved models this oracle also answers by for ``system`` (e.g.
        ``dqn:<run>``): only those that fit it, so that every name listed can be asked."""
        return []

    @classmethod
    def options_for(cls, name: str) -> dict[str, str] | None:
        """The constructor's options a saved model's ``name`` stands for (None: not one of ours)."""
        return None


def check_same_sentence(c: Configuration, gold: Sentence) -> None:
    """An oracle answers about a configuration of *this* sentence, with a gold tree."""
    if not gold.has_gold:
        name = f"sentence {gold.sent_id}" if gold.sent_id else "this sentence"
        raise ParsingCoreError(f"{name} has no gold tree, so no oracle can judge its moves")
    if c.n != gold.n:
        raise ParsingCoreError(
            f"this configuration has {c.n} tokens but the gold sentence has {gold.n}: "
            "it belongs to another sentence")


def witness(oracle: Oracle, c: Configuration, gold: Sentence, costs: Costs | None = None) -> Explanations:
    """Explain every costly move by two completions that follow ``oracle``'s optimal moves:
    one from ``c``, one after the move.  Optimal and dead-end moves get an empty explanation.
    ``costs``: the oracle's costs at ``c``, if already computed (else they are asked for once).

    For an oracle exact for ``gold`` both completions are best ones, so ``lost − gained`` is
    the move's cost.
    """
    if costs is None:
        costs = oracle.costs(c, gold)
    least = min(costs.values(), default=0)
    costly = [t for t, v in costs.items() if v != least and not math.isinf(v)]
    out = {t: Explanation(example=True) for t in costs}
    base = completed_gold_arcs(oracle, c, gold, costs) if costly else set()
    for t in costly:
        after = completed_gold_arcs(oracle, oracle.system.apply(c, t), gold)
        out[t] = Explanation(frozenset(base - after), frozenset(after - base), example=True)
    return out


def completed_gold_arcs(oracle: Oracle, c: Configuration, gold: Sentence,
                        costs: Costs | None = None) -> set[Arc]:
    """The gold arcs of the configuration reached by following ``oracle.next`` from ``c`` until
    it is final or stuck (``costs``: the oracle's costs at ``c``, if known).  Where one move is
    legal it is taken without asking the oracle: there is nothing to choose.

    Every configuration the walk passes is remembered with where it ended (:func:`ends_of`):
    the oracle is a function, so a later walk that meets one of them ends there too.  The
    Stepper's next click, one move further along, thus finds its walk already made.
    """
    system, ends = oracle.system, ends_of(oracle, gold)
    passed: list[Configuration] = []
    for _ in range(max_steps(system, gold.n)):
        known = ends.get(c)
        if known is not None:
            break
        legal = () if system.is_terminal(c) else system.legal(c)
        if not legal:
            known = frozenset(c.unlabelled_arcs & gold.gold_arcs)
            break
        passed.append(c)
        move = legal[0] if len(legal) == 1 else oracle.next(c, gold, costs).bare
        c, costs = system.apply(c, move), None
    else:  # the walk did not end within the steps a parse may take: nothing to remember
        return set(c.unlabelled_arcs & gold.gold_arcs)
    if len(ends) + len(passed) > MOST_ENDS:
        ends.clear()
    ends.update(dict.fromkeys(passed, known))
    return set(known)


MOST_ENDS = 20_000  # configurations remembered per oracle and gold tree (a few MB at 50 tokens)


def ends_of(oracle: Oracle, gold: Sentence) -> dict[Configuration, frozenset[Arc]]:
    """Where following ``oracle`` from a configuration ends (its gold arcs), for the last few
    gold trees it was asked about.  Threads share it: each entry is written whole, and two
    threads that walk the same path write the same values."""
    memo: GoldCache[dict[Configuration, frozenset[Arc]]] | None = getattr(oracle, "_walk_ends", None)
    if memo is None:
        memo = GoldCache(lambda _: {})
        oracle._walk_ends = memo  # type: ignore[attr-defined]
    return memo(gold)  # type: ignore[arg-type]


def completion(oracle: Oracle, c: Configuration, gold: Sentence) -> Configuration:
    """The final configuration reached from ``c`` by following ``oracle.next`` (labelled moves
    in a labelled system).

    Raises :class:`ParsingCoreError` when the parse gets stuck before a final configuration, or
    does not end (:func:`parsing_core.run_from`), and whatever the oracle raises.
    """
    check_same_sentence(c, gold)
    return run_from(Trace(oracle.system, gold, (c,), ()), oracle.chooser(gold)).final


def costs_after(system: TransitionSystem, c: Configuration,
                best_of: Callable[[Sequence[Configuration]], Sequence[float]]) -> Costs:
    """cost(t) = best(c) − best(t(c)) for every legal t, with ``best_of`` judging all the
    successors at once (best(c) is the largest of them); ∞ where best(t(c)) = −∞."""
    moves = system.legal(c)
    values = best_of([system.apply(c, t) for t in moves])
    top = max(values, default=-math.inf)
    return {t: math.inf if v == -math.inf else top - v for t, v in zip(moves, values, strict=True)}


def min_cost_moves(costs: Costs) -> tuple[Transition, ...]:
    """The moves of least cost, in display order (all of them when every move costs ∞)."""
    if not costs:
        return ()
    best = min(costs.values())
    return tuple(t for t, v in costs.items() if v == best)


def optimal_moves(costs: Costs) -> tuple[Transition, ...]:
    """The optimal moves: those of least cost, in display order; none if every move is a dead
    end (cost ∞), since no final configuration follows any of them.

    >>> sh, la, ra = Transition("SH"), Transition("LA"), Transition("RA")
    >>> optimal_moves({sh: 1, la: 0, ra: 0})
    (Transition('LA'), Transition('RA'))
    >>> optimal_moves({sh: math.inf, la: math.inf}), optimal_moves({})
    ((), ())
    """
    return tuple(t for t in min_cost_moves(costs) if not math.isinf(costs[t]))


def label_penalty(system: TransitionSystem, c: Configuration, gold: Sentence, t: Transition) -> int:
    """1 when ``t`` builds a gold (head, dependent) arc under a label other than the gold one."""
    if not system.labelled or gold.labels is None:
        return 0
    arc = system.arc_of(c, t)
    if arc is None or arc not in gold.gold_arcs:
        return 0
    return int(t.label != gold.label(arc[1]))


T = TypeVar("T")


class GoldCache(Generic[T]):
    """What an oracle computes once per gold tree, for the last few trees it was asked about.

    Safe to share between threads (a server's sessions share oracles): the table is read and
    changed under a lock, and a tree's tables are built outside it (two threads may both build
    the same one; they are equal, and one is kept).
    """

    def __init__(self, build: Callable[[tuple[int, ...]], T], size: int = 8) -> None:
        self.build, self.size = build, size
        self._items: OrderedDict[tuple[int, ...], T] = OrderedDict()
        self._lock = threading.Lock()
        #: the last tree asked about, as (the very tuple asked with, its tables): a walk asks
        #: about one sentence's tuple step after step, and this skips hashing it each time.
        #: One attribute, read and written whole, so threads see a pair that belongs together.
        self._last: tuple[tuple[int, ...], T] | None = None

    def __call__(self, gold_heads: tuple[int, ...]) -> T:
        last = self._last
        if last is not None and last[0] is gold_heads:
            return last[1]
        with self._lock:
            found = self._items.get(gold_heads)
            if found is not None:
                self._items.move_to_end(gold_heads)
                self._last = (gold_heads, found)
                return found
        built = self.build(gold_heads)
        with self._lock:
            kept = self._items.setdefault(gold_heads, built)
            self._items.move_to_end(gold_heads)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
            self._last = (gold_heads, kept)
            return kept
