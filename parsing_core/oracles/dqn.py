"""The learned oracle: a DQN's Q-values read as costs (thesis, chapter 8).

``get_oracle(arc_standard, "dqn", model="dqn.pt")`` loads a network trained by
``python -m parsing_core.rl`` (:mod:`parsing_core.rl`).  Under the exact reward the network
learns Q(c, t) ≈ −cost(t; c), so its costs are −Q shifted so that the best legal move costs 0:
cost(t) = max_t′ Q(c, t′) − Q(c, t).  They are learned numbers, not counts of arcs — close to
the exact costs where the network has learned well, and not exact anywhere (``exact_for`` is
"none"); the stepper can set them beside the exact oracle's to show where they disagree.

Without ``model`` the oracle reads the file named by the ``PARSING_DQN_MODEL`` environment
variable; it is listed among a system's oracles (``list_oracles``) only when that file exists,
and never offered as a fallback (``ranked``): it is a model to be judged, not a judge.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..configuration import Configuration
from ..errors import ParsingCoreError
from ..sentence import Sentence
from ..systems import TransitionSystem
from .base import Costs, Oracle

if TYPE_CHECKING:
    from ..rl.checkpoint import DQNCheckpoint

ENV_MODEL = "PARSING_DQN_MODEL"


def default_model() -> Path | None:
    """The model file ``$PARSING_DQN_MODEL`` names, when it exists."""
    value = os.environ.get(ENV_MODEL)
    return Path(value) if value and Path(value).is_file() else None


@lru_cache(maxsize=4)
def _load(path: str, modified: float) -> DQNCheckpoint:
    from ..rl.checkpoint import load_dqn  # torch is imported only when a DQN is used

    return load_dqn(path)


class DQNOracle(Oracle):
    """cost(t) = max Q − Q(c, t) over the legal moves, Q from a trained DQN."""

    name = "dqn"
    title = "learned (DQN, reinforcement learning)"
    systems = ("arc-standard",)
    exact_for = "none"
    exactness = "learned by reinforcement learning: costs are the DQN's −Q, shifted so the best move costs 0"
    speed = "linear"

    def __init__(self, system: TransitionSystem, model: str | os.PathLike[str] | None = None) -> None:
        super().__init__(system)
        path = Path(model) if model is not None else default_model()
        if path is None:
            raise ParsingCoreError(f"the dqn oracle needs a trained model: get_oracle(system, 'dqn', "
                                   f"model='dqn.pt'), or set {ENV_MODEL}; train one with "
                                   "python -m parsing_core.rl")
        if not path.is_file():
            raise ParsingCoreError(f"no DQN model at {path}")
        self.model = _load(str(path.resolve()), path.stat().st_mtime)
        self.path = path
        check_fits(self.model.config.single_root, self.model.config.history, system)

    @classmethod
    def available(cls) -> bool:
        """Is there a default model (``$PARSING_DQN_MODEL``) to list this oracle with?"""
        return default_model() is not None

    def move_costs(self, c: Configuration, gold: Sentence) -> Costs:
        import torch

        from ..rl.features import MOVES, encode, legal_mask

        legal = legal_mask(self.system, c)
        if not legal.any():
            return {}
        x = encode(self.model.config.features, c, gold.gold_heads, (), legal)
        with torch.no_grad():
            q = self.model.network(torch.as_tensor(x)[None])[0].tolist()
        best = max(v for v, ok in zip(q, legal) if ok)
        return {t: best - v for t, v, ok in zip(MOVES, q, legal) if ok}

    def __repr__(self) -> str:
        return f"get_oracle({self.system.name!r}, 'dqn', model={str(self.path)!r})"


def check_fits(single_root: bool, history: int, system: TransitionSystem) -> None:
    """The model must be for this system's variant, and read a configuration alone."""
    if bool(getattr(system, "single_root", False)) != single_root:
        variant = "single-root" if single_root else "plain"
        raise ParsingCoreError(f"this DQN was trained on {variant} arc-standard; use the same variant")
    if history:
        raise ParsingCoreError(f"this DQN also reads the last {history} moves, which a configuration does "
                               "not remember; the oracle needs one trained with --history 0")
