"""Oracles by name: ``get_oracle(system, "static")``, ``list_oracles(system)``.

Every oracle answers the same question, ``costs(c, gold)``, and declares for which gold
trees its answer is exact (``exact_for``: "any", "projective" or "none").  To add one,
subclass :class:`Oracle`, set ``name`` and ``systems``, and list the class in
``ORACLE_CLASSES`` below.
"""

from __future__ import annotations

import inspect
from typing import Any

from ..driver import Choose
from ..errors import ParsingCoreError
from ..systems import TransitionSystem
from .arc_standard_approx import ArcStandardApproxOracle
from .arc_standard_exact import ArcStandardExactOracle
from .base import ALL, Costs, Explanation, Explanations, Oracle, label_penalty, min_cost_moves
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


def _classes_for(system: TransitionSystem) -> dict[str, type[Oracle]]:
    return {cls.name: cls for cls in ORACLE_CLASSES if cls.systems == ALL or system.name in cls.systems}


def list_oracles(system: TransitionSystem) -> list[str]:
    """Names of the oracles available for ``system``."""
    return list(_classes_for(system))


def get_oracle(system: TransitionSystem, name: str = "static", **options: Any) -> Oracle:
    """An oracle for ``system`` by name (see :func:`list_oracles`); ``options`` go to its constructor.

    An option the oracle does not take raises :class:`ParsingCoreError` naming the options it does.
    """
    classes = _classes_for(system)
    if name not in classes:
        raise ParsingCoreError(
            f"unknown oracle {name!r} for {system.name}; choose one of {', '.join(classes)}"
        )
    cls = classes[name]
    accepted = _options_of(cls)
    unknown = [option for option in options if accepted is not None and option not in accepted]
    if unknown:
        raise ParsingCoreError(
            f"the {name!r} oracle does not take the {_named('option', unknown)}; "
            f"it takes {_named('the option', accepted) if accepted else 'no options'}"
        )
    return cls(system, **options)


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
    "ALL", "Choose", "Costs", "Explanation", "Explanations", "Oracle", "get_oracle", "list_oracles",
    "label_penalty", "min_cost_moves",
]
