"""Everything the stepper shows, computed from source data and cached between reruns.

Each function takes only source data: a :class:`Parse` (sentence key, system and its options)
and the moves taken, plus oracle names.  So a click recomputes only what the new configuration
needs; stepping back to a configuration seen before costs nothing, and every session on the
server shares what another has computed.

The caches are :func:`functools.lru_cache`, not Streamlit's: their keys are tuples of strings,
which Python hashes in microseconds, where ``st.cache_data`` hashes each argument its own way and
unpickles a copy of the value at every hit (together about a fifth of a click's server time).
So the values are shared, not copied: they are immutable (frozen dataclasses, strings, tuples)
or, for the data frames, never changed in place by their callers (``assign`` makes a new one).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import pandas as pd

import parsing_core as pc
from ui.views import buildable, mistakes, oracle_view, rules
from ui.views.arc_diagram import configuration_pieces, configuration_svg
from ui.views.drawing import Pieces, configuration_dot
from ui.views.sources import sentence_from_key
from ui.views.state import make_system
from ui.views.tables import derivation_table

Moves = tuple[str, ...]


class Parse(NamedTuple):
    """What fixes a parse apart from its moves: the sentence and the system."""

    sentence: str
    system: str
    options: tuple[str, ...]
    labelled: bool


@lru_cache(maxsize=32)
def system_of(name: str, options: tuple[str, ...], labelled: bool) -> pc.TransitionSystem:
    return make_system(name, options, labelled)


def sentence_of(key: str) -> pc.Sentence:
    """The sentence a key names (cached in :mod:`ui.views.sources`)."""
    return sentence_from_key(key)


@lru_cache(maxsize=256)
def trace_of(parse: Parse, moves: Moves) -> pc.Trace:
    """The parse after ``moves`` (one more move than a cached trace: extend it)."""
    if moves:
        return trace_of(parse, moves[:-1]).extend(pc.Transition.parse(moves[-1]))
    return pc.start(system_of(*parse[1:]), sentence_from_key(parse.sentence))


@lru_cache(maxsize=512)
def verdict_of(parse: Parse, moves: Moves, oracle: str) -> oracle_view.Verdict:
    trace = trace_of(parse, moves)
    return oracle_view.ask(trace.system, oracle, trace.final, trace.sentence)


@lru_cache(maxsize=256)
def policy_scores_of(parse: Parse, moves: Moves, oracle: str) -> oracle_view.PolicyScores | None:
    trace = trace_of(parse, moves)
    return oracle_view.policy_scores(trace.system, oracle, trace.final, trace.sentence)


@lru_cache(maxsize=256)
def completion_of(parse: Parse, moves: Moves, oracle: str) -> oracle_view.Completion | None:
    trace = trace_of(parse, moves)
    return oracle_view.completion(trace, trace.sentence, oracle)


class Drawn(NamedTuple):
    """What a drawing needs besides the layout: the configuration, its arcs' kinds and the crossings."""

    trace: pc.Trace
    kinds: dict[pc.Arc, str]
    crossing: set[pc.Arc]


def drawn(parse: Parse, moves: Moves, oracle: str, hidden: bool = False) -> Drawn:
    """The current configuration, arcs classified with the help of ``oracle``; ``hidden``: only
    the arcs built, with no word on whether they are right (the oracle hidden from the class)."""
    trace = trace_of(parse, moves)
    gold, system = trace.sentence, trace.system
    if hidden:
        return Drawn(trace, {a: "built" for a in trace.final.unlabelled_arcs}, set())
    kinds = oracle_view.arc_kinds(trace.final, gold, completion_of(parse, moves, oracle))
    crossing = gold.crossing_arcs(system.root_last) if gold.has_gold else set()
    return Drawn(trace, kinds, crossing)


@lru_cache(maxsize=256)
def drawing_of(parse: Parse, moves: Moves, oracle: str, scale: float = 1.0, hidden: bool = False) -> str:
    """DOT text of the current configuration in one picture (for the downloads)."""
    trace, kinds, crossing = drawn(parse, moves, oracle, hidden)
    return configuration_dot(trace.system, trace.sentence, trace.final, kinds, crossing, scale)


@lru_cache(maxsize=256)
def arc_svg_of(parse: Parse, moves: Moves, oracle: str, scale: float = 1.0, hidden: bool = False) -> str:
    """The words and their arcs as an arc diagram: SVG text, every user string escaped, no script."""
    trace, kinds, crossing = drawn(parse, moves, oracle, hidden)
    return configuration_svg(trace.system, trace.sentence, trace.final, kinds, crossing, scale)


@lru_cache(maxsize=256)
def pieces_of(parse: Parse, moves: Moves, oracle: str, scale: float = 1.0, hidden: bool = False) -> Pieces:
    """The current configuration as the page shows it: words and arcs, stack and buffer, legend."""
    trace, kinds, crossing = drawn(parse, moves, oracle, hidden)
    return configuration_pieces(trace.system, trace.sentence, trace.final, kinds, crossing, scale)


@lru_cache(maxsize=256)
def history_of(parse: Parse, moves: Moves) -> pd.DataFrame:
    """The derivation so far in the seeds' form: ROW · TRANSITION · STACK · BUFFER · ARCS."""
    return derivation_table(trace_of(parse, moves))


@lru_cache(maxsize=256)
def reviews_of(parse: Parse, moves: Moves, oracle: str) -> list[mistakes.MoveReview]:
    """Every move of ``moves`` with its cost where it was made (each verdict cached on its own)."""
    verdicts = [verdict_of(parse, moves[:i], oracle) for i in range(len(moves))]
    return mistakes.review(trace_of(parse, moves), verdicts)


@lru_cache(maxsize=64)
def rules_of(parse: Parse, oracle: str) -> pd.DataFrame:
    """The system's moves and the oracle's cost rules (the same for every configuration)."""
    return rules.rules_frame(system_of(*parse[1:]), oracle)


@lru_cache(maxsize=64)
def unbuildable_of(parse: Parse) -> buildable.Unbuildable | None:
    """Why the system cannot build the sentence's gold tree (the same for every configuration)."""
    return buildable.unbuildable(system_of(*parse[1:]), sentence_of(parse.sentence))
