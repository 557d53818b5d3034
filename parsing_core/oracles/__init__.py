"""Oracles by name: ``get_oracle(system, "static")``, ``list_oracles(system)``.

Every oracle answers the same question, ``costs(c, gold)``, and declares for which gold
trees its answer is exact (``exact_for``: "any", "projective" or "none").  To add one,
subclass :class:`Oracle`, set ``name`` and ``systems``, and list the class in
``ORACLE_CLASSES`` below.
"""

from __future__ import annotations

from typing import Any

from ..errors import ParsingCoreError
from ..systems import TransitionSystem
from .arc_standard_approx import ArcStandardApproxOracle
from .arc_standard_exact import ArcStandardExactOracle
from .base import ALL, Choose, Costs, Oracle, label_penalty, min_cost_moves
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
    """An oracle for ``system`` by name (see :func:`list_oracles`); ``options`` go to its constructor."""
    classes = _classes_for(system)
    if name not in classes:
        raise ParsingCoreError(
            f"unknown oracle {name!r} for {system.name}; choose one of {', '.join(classes)}"
        )
    return classes[name](system, **options)


__all__ = [
    "ALL", "Choose", "Costs", "Oracle", "get_oracle", "list_oracles", "label_penalty", "min_cost_moves",
]
