"""How long do oracles take?  Timings as plain numbers (milliseconds).

Two measures, because oracles cache per sentence:

* **cold** (:func:`cold_ms`, :func:`speed_ms`): the costs of all legal moves at one
  configuration, asked of a *fresh* oracle, so no cache helps — the price of asking about one
  configuration out of the blue (a learner clicking around).  Configurations are drawn by
  :func:`~.walks.sample_configurations` from sentences near a length, and the median is kept.
* **whole sentence** (:func:`optimal_parse_ms`, :func:`whole_sentence_timings`): the costs at
  every step of one parse that follows the oracle's first optimal move, one oracle throughout,
  as training asks for them — caches along the parse are reused.

Which oracles: those giving costs (:func:`cost_oracles`, the static oracle excluded), and for
whole sentences the fast exact ones (:func:`exact_oracles`, search excluded).  The search oracle
refuses sentences longer than its limit (:func:`length_limit`).

>>> median([3.0, 1.0, 2.0]), math.isnan(median([]))
(2.0, True)
>>> milliseconds(lambda: None) >= 0
True
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ..configuration import Configuration
from ..oracles import get_oracle, list_oracles, ranked
from ..oracles.search import MAX_LENGTH
from ..sentence import Sentence
from ..systems import TransitionSystem, get_system, list_systems
from .walks import near_length, sample_configurations, walk

WHOLE_SENTENCE_LENGTHS = (20, 40, 60)


def milliseconds(fn: Callable[[], object], repeat: int = 1) -> float:
    """Mean wall-clock milliseconds of one call of ``fn`` over ``repeat`` calls."""
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) * 1e3 / repeat


def median(values: Sequence[float]) -> float:
    """The median, or NaN for no values (an empty cell, not an error)."""
    return statistics.median(values) if values else math.nan


def cost_oracles(system: TransitionSystem) -> list[str]:
    """The oracles of ``system`` that give costs (``gives_costs``: all but the static one), in
    the registry's order."""
    return [name for name in list_oracles(system) if get_oracle(system, name).gives_costs]


def exact_oracles(system: TransitionSystem) -> list[str]:
    """The fast exact oracles of a system, best first (``ranked``): exact for any gold tree,
    the search oracle (exponential) excluded.

    >>> exact_oracles(get_system("arc-standard"))
    ['exact']
    """
    fast_exact = []
    for name in ranked(system):
        oracle = get_oracle(system, name)
        if oracle.exact_for == "any" and oracle.speed != "exponential":
            fast_exact.append(name)
    return fast_exact


def length_limit(system: TransitionSystem, oracle_name: str) -> int | None:
    """The longest sentence the oracle answers for (only the search oracle has a limit)."""
    return MAX_LENGTH[system.name] if oracle_name == "search" else None


def cold_ms(system: TransitionSystem, oracle_name: str, c: Configuration, s: Sentence) -> float:
    """Time of one ``costs`` call by a fresh oracle (no per-sentence caches yet)."""
    oracle = get_oracle(system, oracle_name)
    return milliseconds(lambda: oracle.costs(c, s))


def speed_pool(system: TransitionSystem, oracle_name: str, sentences: Sequence[Sentence],
               n: int) -> list[Sentence]:
    """The sentences within 10 % of ``n`` tokens that the oracle answers for."""
    limit = length_limit(system, oracle_name)
    return [s for s in near_length(sentences, n) if limit is None or s.n <= limit]


def speed_ms(system: TransitionSystem, oracle_name: str, pool: Sequence[Sentence], samples: int,
             rnd: random.Random) -> float:
    """Median cold ms over ``samples`` configurations drawn from ``pool`` (non-empty)."""
    drawn = sample_configurations(system, pool, samples, rnd)
    return median([cold_ms(system, oracle_name, c, s) for c, s in drawn])


def optimal_parse_ms(system: TransitionSystem, oracle_name: str, s: Sentence) -> tuple[float, int]:
    """(ms, steps) of one parse following the oracle's first optimal move, with costs at every step."""
    oracle = get_oracle(system, oracle_name)
    steps: list[Configuration] = []
    ms = milliseconds(lambda: steps.extend(walk(system, s, lambda c: oracle.optimal(c, s)[0])))
    return ms, len(steps)


def closest(sentences: Sequence[Sentence], n: int) -> Sentence:
    """The (first) sentence whose length is nearest ``n``."""
    return min(sentences, key=lambda x: abs(x.n - n))


@dataclass(frozen=True)
class SentenceTiming:
    """One whole-sentence timing: an exact oracle's costs at every step of one parse."""

    system: str
    oracle: str
    tokens: int
    steps: int
    ms: float

    @property
    def ms_per_step(self) -> float:
        return self.ms / self.steps


def whole_sentence_timings(sentences: Sequence[Sentence],
                           lengths: Sequence[int] = WHOLE_SENTENCE_LENGTHS) -> Iterator[SentenceTiming]:
    """Every system's fast exact oracles on the sentences closest to each length."""
    for system_name in list_systems():
        system = get_system(system_name)
        for oracle_name in exact_oracles(system):
            for n in lengths:
                s = closest(sentences, n)
                ms, steps = optimal_parse_ms(system, oracle_name, s)
                yield SentenceTiming(system_name, oracle_name, s.n, steps, ms)
