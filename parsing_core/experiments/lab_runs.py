"""The Oracle lab's experiments as generators of records (:mod:`.lab`), one as soon as it is known.

* :func:`agreement_records` — the thesis's §6.2 protocol (:class:`~.agreement.Agreement`), one
  :class:`~.lab.SentenceRecord` per walk, with the configurations where the two optimal sets
  differ (:class:`ConfusionObserver`) and the moves that reach each.
* :func:`speed_records` — every cost-giving oracle of the system, median cold ms near each
  length (:func:`~.timing.speed_ms`).
* :func:`baseline_records` — arc-standard only: Algorithm 1 against the exact oracle over whole
  parses of short sentences (:func:`~.baseline.whole_sentence_speedup`).

A caller may stop between two records (a job's Stop does); nothing is lost but what was not run.

>>> import random, parsing_core as pc
>>> s = pc.Sentence.from_heads(list("abcd"), [3, 4, 0, 3])
>>> (r,) = agreement_records("arc-standard", "thesis-approx", "exact", [(0, s)], 0.1, random.Random(0))
>>> r.projective, sum(r.buckets.values()) == len(r.rhos)
(False, True)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence

from ..configuration import Configuration
from ..oracles import Costs, get_oracle, min_cost_moves
from ..sentence import Sentence
from ..systems import get_system
from ..transition import Transition
from .agreement import Agreement, move_names
from .baseline import whole_sentence_speedup
from .lab import BaselineRecord, Confusion, SentenceRecord, SpeedRecord
from .timing import closest, cost_oracles, length_limit, speed_ms, speed_pool
from .walks import Chooser, observed_chooser, walk

BEST_OF = 3  # runs of the exact oracle over a whole parse, the fastest kept (Algorithm 1: one)
Numbered = tuple[int, Sentence]  # a sentence and its 0-based number in its treebank file


class ConfusionObserver(Agreement):
    """:class:`~.agreement.Agreement` that also keeps, for the walk going on, the moves taken so
    far (``path``) and every configuration where the two optimal sets differ."""

    def __init__(self, approx_name: str, exact_name: str, system_name: str) -> None:
        system = get_system(system_name)
        super().__init__(get_oracle(system, approx_name), get_oracle(system, exact_name))
        self.path: list[str] = []
        self.confusions: list[Confusion] = []

    def compare(self, c: Configuration, a: Costs, e: Costs) -> None:
        super().compare(c, a, e)
        approx_best, exact_best = set(min_cost_moves(a)), set(min_cost_moves(e))
        if approx_best != exact_best:
            moves = ".".join(self.path)
            self.confusions.append(Confusion(move_names(exact_best), move_names(approx_best), moves))

    def record(self, index: int, s: Sentence) -> SentenceRecord:
        """What was seen since the last record, as one; the counts start again."""
        out = SentenceRecord(index, s.n, s.is_projective, dict(self.buckets), tuple(self.rhos),
                             tuple(self.confusions))
        self.buckets, self.rhos, self.confusions = Counter(), [], []
        return out


def answered(system_name: str, oracle_names: Sequence[str], sentences: Sequence[Numbered]
             ) -> list[Numbered]:
    """The sentences with a gold tree that every oracle answers for (search refuses long ones)."""
    system = get_system(system_name)
    oracles = [get_oracle(system, name) for name in oracle_names]
    return [(i, s) for i, s in sentences if s.has_gold and all(o.answers(system, s) for o in oracles)]


def agreement_records(system_name: str, approx: str, exact: str, sentences: Sequence[Numbered],
                      follow: float, rnd: random.Random) -> Iterator[SentenceRecord]:
    """One observed walk per sentence, in order (``follow``: the share of steps taking a min-cost
    move of ``approx``), each yielded as a record; the same ``rnd`` draws as
    :func:`~.walks.observed_walks`."""
    system = get_system(system_name)
    observer = ConfusionObserver(approx, exact, system_name)
    for index, s in sentences:
        observer.path = []
        walk(system, s, recording(observed_chooser(observer, s, follow, rnd), observer.path))
        yield observer.record(index, s)


def recording(choose: Chooser, path: list[str]) -> Chooser:
    """``choose``, writing down each move it takes in ``path``."""
    def step(c: Configuration) -> Transition:
        t = choose(c)
        path.append(str(t))
        return t
    return step


def speed_records(system_name: str, sentences: Sequence[Sentence], lengths: Sequence[int], samples: int,
                  rnd: random.Random) -> Iterator[SpeedRecord]:
    """Every cost-giving oracle of the system near every length: median cold ms per configuration."""
    system = get_system(system_name)
    for oracle in cost_oracles(system):
        for n in lengths:
            limit = length_limit(system, oracle)
            pool = speed_pool(system, oracle, sentences, n)
            if limit is not None and n > limit:
                yield SpeedRecord(oracle, n, None, 0, f"refused (> {limit} tokens)")
            elif not pool:
                yield SpeedRecord(oracle, n, None, 0, "no sentence of about this length")
            else:
                yield SpeedRecord(oracle, n, speed_ms(system, oracle, pool, samples, rnd), samples)


def baseline_records(sentences: Sequence[Numbered], lengths: Sequence[int]) -> Iterator[BaselineRecord]:
    """The sentence closest to each length: the exact oracle's (best of :data:`BEST_OF` runs) and
    Algorithm 1's (one run) costs at every step of one parse (arc-standard), in milliseconds."""
    for n in lengths:
        s = closest([s for _, s in sentences], n)
        index = next(i for i, x in sentences if x is s)
        steps, fast, slow = whole_sentence_speedup(s, repeat=BEST_OF)
        yield BaselineRecord(index, s.n, steps, 1e3 * fast, 1e3 * slow)
