"""Where an item is set: the system, the gold sentence, the exact oracle that keys it, and a
configuration reached with a few injected mistakes.

Every answer key is exact: an item is made only when the first oracle :func:`ranked` prefers
for this system and gold tree is exact for it (:meth:`Oracle.is_exact_for`), and the sentence
is short enough for that oracle to answer quickly (:func:`max_tokens`).

Sentences are named by a *key* (:func:`sentence_key`): their ``sent_id``, or ``heads:`` and the
head list for a tree without one (words ``w1 … wn``, as the random trees of the tests), so a
:class:`SentencePool` finds the sentence of a spec again.

Levels come from the sentence and the mistakes injected: level 1 is a projective tree of at
most 5 tokens met on the gold path; level 2 a projective tree of at most 8 tokens after one
mistake; level 3 anything longer or non-projective, after 2 or 3 mistakes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..configuration import Configuration
from ..oracles import Answer, Costs, Oracle, get_oracle, min_cost_moves, ranked
from ..oracles.search import MAX_LENGTH
from ..sentence import Sentence
from ..systems import TransitionSystem, get_system
from ..teaching import teaching_sentences
from ..transition import Transition
from .items import ExerciseError, ItemSpec, Options

SYSTEM_OPTIONS = ("root_last", "single_root")
MAX_TOKENS = 12          # the longest sentence an item is made of
#: ... when only the exhaustive search is exact for it: the lengths it answers about a fresh tree
#: in well under 50 ms on a 2-core machine (arc-eager: ~20 ms at 7 tokens, ~70 ms at 8).
MAX_SEARCHED = {"arc-standard": 9, "arc-eager": 7, "arc-eager-corrected": 7, "arc-hybrid": 8,
                "arc-hybrid-swap": 5, "arc-standard-swap": 5}
MISTAKES = {1: (0, 0), 2: (1, 1), 3: (2, 3)}


def sentence_key(sentence: Sentence) -> str:
    """``sent_id``, or ``heads:`` + the head list joined by dots for a sentence without one."""
    return sentence.sent_id or "heads:" + ".".join(map(str, sentence.gold_heads))


def sentence_level(sentence: Sentence) -> int:
    """1: projective, ≤ 5 tokens; 2: projective, ≤ 8 tokens; 3: longer or non-projective."""
    if not sentence.is_projective or sentence.n > 8:
        return 3
    return 1 if sentence.n <= 5 else 2


class SentencePool:
    """The sentences items are made of: the teaching set and any the caller adds (treebanks)."""

    def __init__(self, sentences: Iterable[Sentence] = (), teaching: bool = True) -> None:
        chosen: list[Sentence] = [*(teaching_sentences() if teaching else ()), *sentences]
        self.sentences = [s for s in chosen if s.has_gold]
        self._by_key = {sentence_key(s): s for s in self.sentences}

    def find(self, key: str) -> Sentence:
        if key in self._by_key:
            return self._by_key[key]
        if key.startswith("heads:"):
            heads = [int(h) for h in key[len("heads:"):].split(".")]
            return Sentence.from_heads([f"w{i}" for i in range(1, len(heads) + 1)], heads)
        raise ExerciseError(f"no sentence {key!r} among the {len(self.sentences)} sentences offered")


def system_options(options: Options) -> dict[str, bool | int | str]:
    return {k: v for k, v in options if k in SYSTEM_OPTIONS}


def variant(spec: ItemSpec) -> Options:
    """The spec's options that choose the system variant (the others are the kind's)."""
    return tuple(sorted(system_options(spec.options).items()))


@lru_cache(maxsize=64)
def system_of(name: str, options: Options = ()) -> TransitionSystem:
    """One system object per (name, options): its oracles keep their tables between items."""
    return get_system(name, **system_options(options))


@lru_cache(maxsize=128)
def oracle_of(name: str, options: Options, oracle: str) -> Oracle:
    return get_oracle(system_of(name, options), oracle)


def max_tokens(system: TransitionSystem, gold: Sentence) -> int:
    """How long a sentence may be for this system's best oracle to answer at once."""
    if ranked(system, gold)[:1] == ["search"]:
        return min(MAX_SEARCHED[system.name], MAX_LENGTH[system.name])
    return MAX_TOKENS


@dataclass(frozen=True)
class Setting:
    """A system, a gold sentence, and the exact oracle that answers about it."""

    system: TransitionSystem
    gold: Sentence
    oracle: Oracle

    def answer(self, c: Configuration) -> Answer:
        """The oracle's answer at ``c``, remembered: an item is graded where it was made."""
        return answer_of(self.oracle, self.gold, c)

    def costs(self, c: Configuration) -> Costs:
        return costs_of(self.oracle, self.gold, c)


@lru_cache(maxsize=512)
def answer_of(oracle: Oracle, gold: Sentence, c: Configuration) -> Answer:
    return oracle.answer(c, gold)


@lru_cache(maxsize=4096)
def costs_of(oracle: Oracle, gold: Sentence, c: Configuration) -> Costs:
    """An oracle's costs at ``c`` (callers must not change the dict they get)."""
    return oracle.costs(c, gold)


def setting(spec: ItemSpec, gold: Sentence, limit: int = MAX_TOKENS) -> Setting:
    """The setting of an item, or :class:`ExerciseError` saying why no exact key can be had."""
    if not gold.has_gold:
        raise ExerciseError("an exercise needs a sentence with a gold tree")
    system = system_of(spec.system, variant(spec))
    names = ranked(system, gold)
    if not names:
        raise ExerciseError(f"no oracle of {system.name} answers about a tree of {gold.n} tokens")
    name = names[0]
    oracle = oracle_of(spec.system, variant(spec), name)
    if not oracle.is_exact_for(gold):
        raise ExerciseError(f"no exact oracle of {system.name} answers about this tree "
                            f"({name} is approximate)")
    longest = min(limit, max_tokens(system, gold))
    if gold.n > longest:
        raise ExerciseError(f"{gold.n} tokens: this exercise keeps to {longest} tokens for {system.name}")
    return Setting(system, gold, oracle)


def rng(spec: ItemSpec) -> random.Random:
    """The item's own random numbers: seeded by its text, the same on every machine."""
    return random.Random(spec.text)


@dataclass(frozen=True)
class Reached:
    """A configuration of a practice walk, the moves that led to it, which were mistakes."""

    configuration: Configuration
    moves: tuple[Transition, ...]
    mistakes: tuple[int, ...]


def costly(costs: Costs) -> list[Transition]:
    """The legal moves that cost something (and do not end in a dead end)."""
    least = min(costs.values(), default=0)
    return [t for t, v in costs.items() if least < v < math.inf]


def practice_walks(where: Setting, rnd: random.Random, mistakes: int) -> list[Reached]:
    """The non-final configurations met after the last mistake of a walk that follows optimal
    moves but for ``mistakes`` costly moves at random points (a few walks are tried for one
    that fits them all in; failing that, the one that fits the most)."""
    walks = []
    for _ in range(4):
        walks.append(one_walk(where, rnd, mistakes))
        if len(walks[-1][-1].mistakes) == mistakes:
            break
    best = max(walks, key=lambda seen: len(seen[-1].mistakes))
    return [r for r in best if len(r.mistakes) == len(best[-1].mistakes)]


def one_walk(where: Setting, rnd: random.Random, mistakes: int) -> list[Reached]:
    """One walk: an optimal move at each step, or (with chance mistakes / n, until ``mistakes``
    are made) a costly one; the non-final configurations met, the initial one first."""
    system, c = where.system, where.system.initial(where.gold)
    moves: list[Transition] = []
    made: list[int] = []
    seen: list[Reached] = []
    chance = mistakes / max(1, where.gold.n)
    while not system.is_terminal(c):
        costs = where.costs(c)
        seen.append(Reached(c, tuple(moves), tuple(made)))
        wrong, right = costly(costs), [t for t, v in costs.items() if v == min(costs.values())]
        if not right or math.isinf(min(costs.values())):
            break
        if len(made) < mistakes and wrong and rnd.random() < chance:
            made.append(len(moves))
            t = rnd.choice(wrong)
        else:
            t = rnd.choice(right)
        moves.append(t)
        c = system.apply(c, t)
    return seen


def practice_configuration(where: Setting, rnd: random.Random, level: int, want_costly: bool = True,
                           varied: bool = False, spread: Spread | None = None) -> Reached:
    """A configuration for a question at ``level`` (0, 1 or 2–3 mistakes before it), one with a
    costly move (so that some answer is wrong), never a dead end.  With ``varied`` or ``spread``,
    every walk is taken and :func:`pick` chooses among their configurations.

    A walk that meets no configuration with a costly move after its last mistake (the parse nearly
    over) is tried again a few times; failing those, :class:`ExerciseError`, since every answer
    there would be right (the set then takes another sentence).  Without ``want_costly``, a
    configuration with more than one legal move is taken over one with a single move."""
    low, high = MISTAKES[level]
    found: list[Reached] = []
    fallback: list[Reached] = []
    wanted = costly if want_costly else (lambda costs: len(costs) > 1)
    for _ in range(WALKS if want_costly or spread else 1):
        usable = [r for r in practice_walks(where, rnd, rnd.randint(low, high))
                  if optimal_exists(where, r.configuration)]
        found += [r for r in usable if wanted(where.costs(r.configuration))]
        fallback = fallback or usable
        if found and not (varied or spread):
            return rnd.choice(found)
    if found:
        return pick(where, found, rnd, spread)
    if want_costly:
        raise ExerciseError("no configuration with a costly move was met: every answer would be right")
    if not fallback:
        raise ExerciseError("this parse has no configuration to ask about")
    return rnd.choice(fallback)


def pick(where: Setting, found: list[Reached], rnd: random.Random, spread: Spread | None) -> Reached:
    """One of the configurations ``found``.  With ``spread`` (the answers right at a configuration,
    e.g. its optimal moves): an answer drawn evenly among those right somewhere, then a
    configuration where it is right, alone if there is one; drawing the configuration evenly made
    the commonest answer (SHIFT, in arc-standard) right on most questions.  Without (``varied``):
    one whose legal moves have the most different costs, so that a question about a cost is
    hardest to answer by guessing."""
    costs = [where.costs(r.configuration) for r in found]
    if spread is None:
        counts = [len(cost_values(c)) for c in costs]
        return rnd.choice([r for r, n in zip(found, counts, strict=True) if n == max(counts)])
    right = [spread(c) for c in costs]
    answer = rnd.choice(sorted(set().union(*right), key=repr))
    alone = [r for r, answers in zip(found, right, strict=True) if answers == {answer}]
    return rnd.choice(alone or [r for r, answers in zip(found, right, strict=True) if answer in answers])


def optimal_kinds(costs: Costs) -> frozenset[str]:
    """The kinds of the optimal moves (a :data:`Spread` of the move questions)."""
    return frozenset(t.kind for t in min_cost_moves(costs))


def legal_kinds(costs: Costs) -> frozenset[str]:
    """The kinds of the legal moves (a :data:`Spread` where any legal move may be asked about)."""
    return frozenset(t.kind for t in costs)


def optimal_set(costs: Costs) -> frozenset[frozenset[str]]:
    """The one set of optimal move kinds, as the one right answer (a :data:`Spread` of the
    questions that ask for every optimal move)."""
    return frozenset({optimal_kinds(costs)})


#: The answers right at a configuration, from its moves' costs (see :func:`pick`).
Spread = Callable[[Costs], frozenset[Hashable]]


WALKS = 4  # walks tried for a configuration where some answer is wrong


def cost_values(costs: Costs) -> list[float]:
    """The different finite costs the legal moves have, least first."""
    return sorted({v for v in costs.values() if not math.isinf(v)})


def evenly(moves: Iterable[Transition], key: Callable[[Transition], Any], rnd: random.Random) -> Transition:
    """One of ``moves``: a value of ``key`` drawn evenly first (a cost, a kind), then a move with it.
    Drawing the move evenly instead made the commonest value the right answer too often: cost 0
    before any mistake and 1 after one, on half or more of the cost questions; SHIFT, as the move
    to trace, in most table rows."""
    moves = list(moves)
    value = rnd.choice(sorted({key(t) for t in moves}))
    return rnd.choice([t for t in moves if key(t) == value])


def optimal_exists(where: Setting, c: Configuration) -> bool:
    costs = where.costs(c)
    return bool(costs) and not math.isinf(min(costs.values()))
