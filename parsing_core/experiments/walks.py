"""Walks: the configurations one parse passes through, driven by a ``choose`` function.

Oracles are compared, and timed, on configurations a parser actually meets — on the gold path
and off it.  A *walk* starts at the initial configuration of a sentence and applies
``choose(c)`` until the configuration is final; it returns the non-final configurations met,
in order (the final one has no moves left to compare).

Three ways to choose:

* :func:`random_walk` — a random legal move at every step: soon off the gold path for good.
* :func:`observed_walks` — at each step an *observer* (an object comparing two oracles) is asked
  for the approximate oracle's costs; with probability ``follow`` the walk takes one of that
  oracle's min-cost moves, otherwise a random legal move.  The thesis's protocol (§6.2) uses
  ``follow`` = 0.1 (:data:`THESIS_FOLLOW`); Nederhof's Table 11 a parser right 90 % of the
  time, ``follow`` = 0.9 (:data:`NEDERHOF_FOLLOW`).
* any function of your own, e.g. an oracle's first optimal move.

>>> from parsing_core import Sentence, Transition, get_system
>>> s = Sentence.from_heads(["a", "b"], [2, 0])
>>> system = get_system("arc-standard")
>>> shift_first = lambda c: Transition.parse("SH") if c.buffer else system.legal(c)[-1]
>>> steps = walk(system, s, shift_first)      # two shifts, then two arcs
>>> len(steps), steps[0] == system.initial(s), steps[-1].stack
(4, True, (0, 1))

:func:`sample_configurations` draws configurations for timing: a random sentence, a random walk
over it, a random point of that walk.  The same ``random.Random`` seed gives the same sample.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from ..configuration import Configuration
from ..oracles import Costs, min_cost_moves
from ..sentence import Sentence
from ..systems import TransitionSystem
from ..transition import Transition

Walk = list[Configuration]
Chooser = Callable[[Configuration], Transition]

THESIS_FOLLOW = 0.1    # the thesis's §6.2 walks: an approximate min-cost move 10 % of the time
NEDERHOF_FOLLOW = 0.9  # Nederhof's Table 11: a parser that follows the oracle 90 % of the time


class Observer(Protocol):
    """Compares oracles at each configuration of a walk; returns the costs the walk follows."""

    def observe(self, c: Configuration, s: Sentence) -> Costs: ...


def walk(system: TransitionSystem, s: Sentence, choose: Chooser) -> Walk:
    """The non-final configurations of one parse of ``s`` driven by ``choose``, in order.

    Always the first legal move (SH) in arc-eager: two shifts empty the buffer, which is final.

    >>> from parsing_core import Sentence, get_system
    >>> system = get_system("arc-eager")
    >>> steps = walk(system, Sentence.from_heads(["a", "b"], [2, 0]), lambda c: system.legal(c)[0])
    >>> [(c.stack, c.buffer) for c in steps]
    [((0,), (1, 2)), ((0, 1), (2,))]
    """
    c, seen = system.initial(s), []
    while not system.is_terminal(c):
        seen.append(c)
        c = system.apply(c, choose(c))
    return seen


def random_walk(system: TransitionSystem, s: Sentence, rnd: random.Random) -> Walk:
    """A walk taking a random legal move at every step (one ``rnd.choice`` per step)."""
    return walk(system, s, lambda c: rnd.choice(system.legal(c)))


def observed_chooser(observer: Observer, s: Sentence, follow: float, rnd: random.Random) -> Chooser:
    """Ask ``observer`` for costs at ``c``; take a min-cost move with probability ``follow``,
    else a random legal one.  Draws ``rnd.random()`` first, then ``rnd.choice``, at every step."""

    def choose(c: Configuration) -> Transition:
        costs = observer.observe(c, s)
        return rnd.choice(min_cost_moves(costs) if rnd.random() < follow else list(costs))

    return choose


def observed_walks(system: TransitionSystem, observer: Observer, sentences: Sequence[Sentence],
                   follow: float, rnd: random.Random) -> None:
    """One observed walk per sentence, in order; what was seen is kept by ``observer``."""
    for s in sentences:
        walk(system, s, observed_chooser(observer, s, follow, rnd))


def near_length(sentences: Sequence[Sentence], n: int) -> list[Sentence]:
    """The sentences within 10 % of ``n`` tokens.

    >>> from parsing_core import Sentence
    >>> pool = [Sentence.from_heads(["w"] * k, [0] + [1] * (k - 1)) for k in (9, 10, 11, 12)]
    >>> [s.n for s in near_length(pool, 10)]
    [9, 10, 11]
    """
    return [s for s in sentences if 0.9 * n <= s.n <= 1.1 * n]


def sample_configurations(system: TransitionSystem, sentences: Sequence[Sentence], k: int,
                          rnd: random.Random) -> Iterator[tuple[Configuration, Sentence]]:
    """``k`` configurations, each a random point of a random walk over a random sentence.

    Lazy: each is drawn when asked for, so timing between draws uses no extra ``rnd`` calls.

    >>> from parsing_core import Sentence, get_system
    >>> pool = [Sentence.from_heads(["a", "b", "c"], [2, 0, 2])]
    >>> draw = lambda seed: list(sample_configurations(get_system("arc-hybrid"), pool, 5,
    ...                                                random.Random(seed)))
    >>> draw(1) == draw(1), len(draw(1))
    (True, 5)
    """
    for _ in range(k):
        s = rnd.choice(sentences)
        yield rnd.choice(random_walk(system, s, rnd)), s
