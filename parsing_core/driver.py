"""One driver for every way of parsing: ``run(system, sentence, choose)``.

``choose(c, legal)`` picks the next move: a static or dynamic oracle, a trained model, a
learner's click.  The result is a :class:`Trace`, the tuple of configurations visited and
the moves between them, which every page renders the same way.

>>> import parsing_core as pc
>>> s = pc.Sentence.from_heads("book the flight".split(), [0, 3, 1])
>>> system = pc.get_system("arc-standard")
>>> trace = pc.run(system, s, pc.get_oracle(system, "static").chooser(s))
>>> " ".join(map(str, trace.transitions))
'SH SH SH LA RA RA'
>>> trace.heads
(0, 3, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .configuration import Configuration
from .errors import ParsingCoreError
from .sentence import Sentence
from .systems import TransitionSystem
from .transition import Transition

Choose = Callable[[Configuration, tuple[Transition, ...]], Transition]


@dataclass(frozen=True)
class Step:
    """One row of a derivation table: the move taken and the configuration it led to."""

    index: int
    transition: Transition | None  # None on the first row
    configuration: Configuration
    arc: tuple[int, int] | None  # the arc this move added


@dataclass(frozen=True)
class Trace:
    """A parse: configurations c0 … cm and the moves t1 … tm between them."""

    system: TransitionSystem
    sentence: Sentence
    configurations: tuple[Configuration, ...]
    transitions: tuple[Transition, ...]

    @property
    def final(self) -> Configuration:
        return self.configurations[-1]

    @property
    def is_complete(self) -> bool:
        return self.system.is_terminal(self.final)

    @property
    def heads(self) -> tuple[int | None, ...]:
        return self.final.heads

    def steps(self) -> list[Step]:
        """Rows like the seeds' tables: ROW · TRANSITION · STACK · BUFFER · ARCS."""
        rows = [Step(0, None, self.configurations[0], None)]
        for i, t in enumerate(self.transitions, start=1):
            before = self.configurations[i - 1]
            rows.append(Step(i, t, self.configurations[i], self.system.arc_of(before, t)))
        return rows

    def extend(self, t: Transition) -> Trace:
        """This trace plus one more move."""
        c = self.system.apply(self.final, t)  # a name ("SH") is read, anything else refused
        t = t if isinstance(t, Transition) else Transition.parse(t)
        return Trace(self.system, self.sentence, (*self.configurations, c), (*self.transitions, t))


def start(system: TransitionSystem, sentence: Sentence) -> Trace:
    """The trace holding only the initial configuration."""
    return Trace(system, sentence, (system.initial(sentence),), ())


def max_steps(system: TransitionSystem, n: int) -> int:
    """An upper bound on the length of any parse (swaps add at most n(n-1)/2 moves, each doubled)."""
    return 2 * n + 2 + (n * (n - 1) if system.can_swap else 0)


def run(system: TransitionSystem, sentence: Sentence, choose: Choose) -> Trace:
    """Parse ``sentence`` from the initial configuration, asking ``choose`` for every move."""
    return run_from(start(system, sentence), choose)


def run_from(trace: Trace, choose: Choose) -> Trace:
    """Continue a parse until it is final (e.g. let an oracle finish what a learner began)."""
    system = trace.system
    limit = max_steps(system, trace.sentence.n)
    while not system.is_terminal(trace.final):
        legal = system.legal(trace.final)
        if not legal:
            raise ParsingCoreError(f"{system.name} is stuck after {len(trace.transitions)} moves")
        if len(trace.transitions) >= limit:
            raise ParsingCoreError(f"no final configuration after {limit} moves; the chooser loops")
        trace = trace.extend(choose(trace.final, legal))
    return trace


def replay(system: TransitionSystem, sentence: Sentence, moves: Iterable[Transition | str]) -> Trace:
    """The trace of a given move sequence (it need not reach a final configuration)."""
    trace = start(system, sentence)
    for t in moves:
        trace = trace.extend(t if isinstance(t, Transition) else Transition.parse(t))
    return trace
