"""Oracles by name: ``get_oracle(system, "static")``, ``list_oracles(system)``."""

from __future__ import annotations

from ..errors import ParsingCoreError
from ..systems import TransitionSystem
from .base import Choose, Costs, Oracle, label_penalty, min_cost_moves
from .search import SearchOracle
from .static import StaticOracle

ORACLES: dict[str, type[Oracle]] = {"static": StaticOracle, "search": SearchOracle}


def list_oracles(system: TransitionSystem) -> list[str]:
    """Names of the oracles available for ``system``."""
    return list(ORACLES)


def get_oracle(system: TransitionSystem, name: str = "static") -> Oracle:
    """An oracle for ``system`` by name (see :func:`list_oracles`)."""
    if name not in list_oracles(system):
        raise ParsingCoreError(
            f"unknown oracle {name!r} for {system.name}; choose one of {', '.join(list_oracles(system))}"
        )
    return ORACLES[name](system)


__all__ = ["Choose", "Costs", "Oracle", "get_oracle", "list_oracles", "label_penalty", "min_cost_moves"]
