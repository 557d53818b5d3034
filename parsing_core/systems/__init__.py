"""The transition systems, by name: ``get_system("arc-eager")``, ``list_systems()``."""

from __future__ import annotations

from typing import Any

from ..errors import ParsingCoreError
from .arc_eager import ArcEager
from .arc_eager_corrected import ArcEagerCorrected
from .arc_hybrid import ArcHybrid
from .arc_standard import ArcStandard
from .base import Move, TransitionSystem
from .swap import ArcHybridSwap, ArcStandardSwap

SYSTEMS: dict[str, type[TransitionSystem]] = {
    cls.name: cls
    for cls in (ArcStandard, ArcEager, ArcEagerCorrected, ArcHybrid, ArcHybridSwap, ArcStandardSwap)
}


def list_systems() -> list[str]:
    """Names accepted by :func:`get_system`."""
    return list(SYSTEMS)


def get_system(name: str, **options: Any) -> TransitionSystem:
    """A transition system by name.

    Options: ``labelled=True`` (arc moves carry labels); ``root_last=True`` for the arc-hybrid
    systems; ``single_root=True`` for arc-standard.
    """
    try:
        cls = SYSTEMS[name]
    except KeyError:
        raise ParsingCoreError(f"unknown system {name!r}; choose one of {', '.join(SYSTEMS)}") from None
    try:
        return cls(**options)
    except TypeError:
        raise ParsingCoreError(f"{name} does not take the options {sorted(options)}") from None


__all__ = ["Move", "TransitionSystem", "get_system", "list_systems", "SYSTEMS"]
