"""Oracles by name: ``get_oracle(system, "static")``, ``list_oracles(system)``, and the best
ones first: ``ranked(system, gold)``.

Every oracle answers the same question, ``costs(c, gold)`` (with explanations:
``answer(c, gold)``), and declares for which gold trees its answer is exact (``exact_for``:
"any", "projective" or "none"), how fast it is (``speed``: "linear", "cubic" or
"exponential") and whether it measures losses at all (``gives_costs``).  :func:`ranked` reads
these declarations; no other place decides which oracle to prefer.  To add one, subclass
:class:`Oracle`, set ``name``, ``systems``, ``exact_for`` and ``speed``, and list the class in
``ORACLE_CLASSES`` below.
"""

from __future__ import annotations

import inspect
from typing import Any

from ..configuration import Configuration
from ..driver import Choose
from ..errors import ParsingCoreError
from ..sentence import Sentence
from ..systems import TransitionSystem
from ..trees import Arc
from .arc_standard_approx import ArcStandardApproxOracle
from .arc_standard_exact import ArcStandardExactOracle
from .base import (
    ALL,
    CLAIMS,
    SPEEDS,
    Answer,
    Costs,
    Explanation,
    Explanations,
    ModelOracle,
    Oracle,
    completion,
    label_penalty,
    min_cost_moves,
    optimal_moves,
)
from .goldberg_nivre import ArcEagerDynamicOracle, ArcHybridDynamicOracle
from .nederhof import NederhofOracle
from .nederhof_linear import NederhofLinearOracle
from .search import SearchOracle
from .static import StaticOracle
from .swap_static_dynamic import SwapStaticDynamicOracle

ORACLE_CLASSES: list[type[Oracle]] = [
    StaticOracle,
    SearchOracle,
    ArcStandardExactOracle,
    ArcStandardApproxOracle,
    ArcEagerDynamicOracle,
    ArcHybridDynamicOracle,
    SwapStaticDynamicOracle,
    NederhofOracle,
    NederhofLinearOracle,
]
#: Oracles that answer from a trained model, registered by the package that trains it
#: (:mod:`parsing_core.rl` registers the DQN): always reachable by name (``get_oracle``), listed
#: only when a default model that fits the system is found (``available``), never ranked (a
#: model is no fallback).
MODEL_ORACLES: list[type[ModelOracle]] = []


def register_model_oracle(cls: type[ModelOracle]) -> type[ModelOracle]:
    """Add an oracle that answers from a trained model to the registry (once)."""
    if cls not in MODEL_ORACLES:
        MODEL_ORACLES.append(cls)
    return cls


def check_system(system: object) -> None:
    """The registry's functions take a system, not its name (a name leaves its variant open)."""
    if not isinstance(system, TransitionSystem):
        how = f"pc.get_system({system!r})" if isinstance(system, str) else "pc.get_system(name)"
        raise ParsingCoreError(f"expected a transition system, not {system!r}: get one with {how}")


def _classes_for(system: TransitionSystem, every: bool = False) -> dict[str, type[Oracle]]:
    check_system(system)

    def serves(cls: type[Oracle]) -> bool:
        return cls.systems == ALL or system.name in cls.systems

    listed = (cls for cls in MODEL_ORACLES if every or (serves(cls) and cls.available(system)))
    return {cls.name: cls for cls in [*ORACLE_CLASSES, *listed] if serves(cls)}


def list_oracles(system: TransitionSystem) -> list[str]:
    """Names of the oracles available for ``system``; each model saved on this server as its own
    oracle (a DQN run as ``dqn:<run>``, :mod:`parsing_core.rl.oracle`)."""
    check_system(system)
    saved = [name for cls in MODEL_ORACLES if system.name in cls.systems for name in cls.saved_models(system)]
    return [*_classes_for(system), *saved]


def get_oracle(system: TransitionSystem, name: str = "static", **options: Any) -> Oracle:
    """An oracle for ``system`` by name (see :func:`list_oracles`); ``options`` go to its constructor.

    An option the oracle does not take raises :class:`ParsingCoreError` naming the options it does.
    """
    for model_oracle in MODEL_ORACLES:  # a saved model by its name, e.g. "dqn:<run>"
        if (chosen := model_oracle.options_for(name)) is not None:
            return get_oracle(system, model_oracle.name, **chosen, **options)
    cls = oracle_class(system, name)
    accepted = _options_of(cls)
    unknown = [option for option in options if accepted is not None and option not in accepted]
    if unknown:
        raise ParsingCoreError(
            f"the {name!r} oracle does not take the {_named('option', unknown)}; "
            f"it takes {_named('the option', accepted) if accepted else 'no options'}"
        )
    return cls(system, **options)


def oracle_class(system: TransitionSystem, name: str) -> type[Oracle]:
    """The class of the oracle :func:`get_oracle` gives for ``name``, without making one.

    Its title, exactness and speed are class attributes: a table of oracles reads them here, where
    making each oracle would load every saved model (and import torch for a DQN) only to name it.
    """
    for model_oracle in MODEL_ORACLES:
        if model_oracle.options_for(name) is not None:
            check_system(system)
            return model_oracle
    classes = _classes_for(system, every=True)
    if name not in classes:
        raise ParsingCoreError(
            f"unknown oracle {name!r} for {system.name}; choose one of {', '.join(classes)}"
        )
    return classes[name]


def ranked(system: TransitionSystem, gold: Sentence | None = None, need_costs: bool = True) -> list[str]:
    """The names of ``system``'s oracles, the one to prefer first.

    With a gold tree, for it: only the oracles that answer about it (the search oracle only
    within :data:`~parsing_core.oracles.search.MAX_LENGTH`); those exact for this tree before
    the approximate ones; in each group, the search oracle (exponential) after the others,
    then the broader claim of exactness ("any" before "projective", so an oracle exact for
    every tree is not displaced by one that happens to be exact here), then the faster; the
    static oracle (no costs) last, or left out when ``need_costs``.

    Without a gold tree (``gold`` None or a sentence without one): the same order, read off
    the claims alone ("any" > "projective" > "none", then speed); the search oracle, which
    answers short sentences only, comes after every oracle that answers any sentence.

    >>> import parsing_core as pc
    >>> ranked(pc.get_system("arc-standard"))
    ['exact', 'thesis-approx', 'search']
    >>> ranked(pc.get_system("arc-eager-corrected"), need_costs=False)
    ['nederhof', 'nederhof-linear', 'search', 'static']
    >>> crossing = pc.Sentence.from_heads("a b c d".split(), [3, 4, 0, 3])  # a ← c crosses b ← d
    >>> crossing.is_projective
    False
    >>> ranked(pc.get_system("arc-eager"), crossing)       # search is exact, and answers: 4 tokens
    ['search', 'goldberg-nivre']
    >>> long = pc.Sentence.from_heads([f"w{i}" for i in range(1, 13)], [0, *range(1, 12)])
    >>> ranked(pc.get_system("arc-eager"), long, need_costs=False)   # 12 tokens: too long to search
    ['goldberg-nivre', 'static']
    """
    known = gold if gold is not None and gold.has_gold else None
    classes = [cls for cls in _classes_for(system).values() if cls not in MODEL_ORACLES
               and (cls.gives_costs or not need_costs) and (known is None or cls.answers(system, known))]

    def rank(cls: type[Oracle]) -> tuple[bool, bool, bool, int, int]:
        approximate = known is not None and not cls.exact_on(system, known)
        return (not cls.gives_costs, approximate, cls.speed == "exponential",
                CLAIMS.index(cls.exact_for), SPEEDS.index(cls.speed))

    return [cls.name for cls in sorted(classes, key=rank)]  # stable: ties keep the registry's order


def reachable_gold_arcs(system: TransitionSystem, oracle: Oracle | str, c: Configuration,
                        gold: Sentence) -> frozenset[Arc]:
    """The gold arcs (head, dependent) of the parse finished from ``c`` by following ``oracle``
    (an oracle of ``system``, or its name), those already built included.

    When ``oracle`` is exact for ``gold`` (:meth:`Oracle.is_exact_for`) the finished parse is
    a best one: these are the gold arcs of one best completion, as many as can still be had
    (best(c)), and all buildable together; a gold arc outside them is lost, or can be built
    only at the price of at least one of them.  Another best completion may build other
    arcs.  When ``oracle`` is approximate they are merely gold arcs still buildable together
    (a lower bound on best(c)); an arc outside them may still be reachable.

    Raises :class:`ParsingCoreError` when the oracle cannot finish the parse (a static oracle
    off its tree, a search oracle on a long sentence, a parse that gets stuck).

    >>> import parsing_core as pc
    >>> s = pc.Sentence.from_heads("a b c".split(), [0, 1, 1])
    >>> system = pc.get_system("arc-standard")
    >>> c = pc.replay(system, s, ["SH", "SH", "SH"]).final     # a b c all on the stack
    >>> sorted(reachable_gold_arcs(system, "exact", c, s))   # b ← a and c ← a: not both any more
    [(0, 1), (1, 3)]
    """
    if isinstance(oracle, str):
        oracle = get_oracle(system, oracle)
    elif repr(oracle.system) != repr(system):  # the variant too: single-root, ROOT last, labelled
        theirs, ours = ((oracle.system.name, system.name) if oracle.system.name != system.name
                        else (repr(oracle.system), repr(system)))  # by name, or else by the whole variant
        raise ParsingCoreError(f"this is an oracle for {theirs}, not {ours}")
    return frozenset(completion(oracle, c, gold).unlabelled_arcs & gold.gold_arcs)


def _options_of(cls: type[Oracle]) -> list[str] | None:
    """The keyword options of an oracle's constructor: its parameters after ``self`` and ``system``
    (None where it takes ``**kwargs``, i.e. any option)."""
    parameters = list(inspect.signature(cls.__init__).parameters.values())
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return None
    return [p.name for p in parameters
            if p.name not in ("self", "system") and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def _named(word: str, names: list[str] | None) -> str:
    """``option a`` or ``options a, b``."""
    names = names or []
    return f"{word}{'' if len(names) == 1 else 's'} {', '.join(names)}"


__all__ = [
    "ALL", "Answer", "Choose", "Costs", "Explanation", "Explanations", "ModelOracle", "Oracle", "completion",
    "get_oracle", "oracle_class", "register_model_oracle",
    "label_penalty", "list_oracles", "min_cost_moves", "optimal_moves", "ranked", "reachable_gold_arcs",
]
