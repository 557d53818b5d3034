"""The learned oracle: a DQN's Q-values read as costs (thesis, chapter 8).

``get_oracle(arc_standard, "dqn", model="dqn.pt")`` loads a network trained by
``python -m parsing_core.rl`` (:mod:`parsing_core.rl`).  Under the exact reward the network
learns Q(c, t) ≈ −cost(t; c), so its costs are −Q shifted so that the best legal move costs 0:
cost(t) = max_t′ Q(c, t′) − Q(c, t).  They are learned numbers, not counts of arcs — close to
the exact costs where the network has learned well, and not exact anywhere (``exact_for`` is
"none"); the stepper can set them beside the exact oracle's to show where they disagree.

Without ``model`` the oracle reads the file named by the ``PARSING_DQN_MODEL`` environment
variable; it is listed among a system's oracles (``list_oracles``) only when that file holds a
model for the system's variant, and never offered as a fallback (``ranked``): it is a model to be
judged, not a judge.

Every DQN run that has saved its model on this server (``$PARSING_JOBS_DIR/rl/<run>/model.pt``,
the RL oracle page's runs) is an oracle too, named ``dqn:<run>``: listed for the variant of
arc-standard it was trained on (plain or single-root, as its ``spec.json`` says), and
``get_oracle(system, "dqn:<run>")`` is ``get_oracle(system, "dqn", model="<run>")``.  A model
named by its run is looked up only in that folder, so a name cannot reach another file.

The oracle joins :func:`~parsing_core.oracles.get_oracle`'s registry from here
(``register_model_oracle`` below), so the oracles never import ``rl``; ``import parsing_core``
imports this module, which needs torch only once a model is loaded.

>>> trained_name("20261127-081000-dqn-exact"), run_of("dqn:20261127-081000-dqn-exact")
('dqn:20261127-081000-dqn-exact', '20261127-081000-dqn-exact')
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..configuration import Configuration
from ..errors import ParsingCoreError
from ..oracles import register_model_oracle
from ..oracles.base import Costs, ModelOracle
from ..sentence import Sentence
from ..settings import LibrarySettings, current
from ..systems import TransitionSystem
from .config import RLSpec
from .features import MOVES, encode, legal_mask

if TYPE_CHECKING:
    from .checkpoint import DQNCheckpoint

ENV_MODEL = LibrarySettings.variable("dqn_model")
PREFIX = "dqn:"
RUN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")  # a run folder's name: no separator, no ".."


def runs_folder() -> Path:
    """The folder of the server's DQN runs: ``$PARSING_JOBS_DIR/rl`` (else in the temp folder),
    where the RL oracle page starts them."""
    return current().jobs_dir / "rl"


def trained_name(run: str) -> str:
    return PREFIX + run


def run_of(name: str) -> str | None:
    """The run an oracle name ``dqn:<run>`` names (None for any other name)."""
    return name.removeprefix(PREFIX) if name.startswith(PREFIX) else None


def trained_models() -> list[str]:
    """``dqn:<run>`` for every run of :func:`runs_folder` that saved a model, newest first."""
    folder = runs_folder()
    if not folder.is_dir():
        return []
    return [trained_name(p.parent.name) for p in sorted(folder.glob("*/model.pt"), reverse=True)
            if RUN_NAME.fullmatch(p.parent.name)]


def model_path(model: str | os.PathLike[str]) -> Path:
    """The file a ``model`` option names: a run of :func:`runs_folder` by its name, else a path."""
    text = str(model)
    if RUN_NAME.fullmatch(text) and not Path(text).is_file():
        return runs_folder() / text / "model.pt"
    return Path(model)


def default_model() -> Path | None:
    """The model file ``$PARSING_DQN_MODEL`` names, when it exists."""
    value = current().dqn_model
    return value if value is not None and value.is_file() else None


@lru_cache(maxsize=4)
def _load(path: str, modified: float) -> DQNCheckpoint:
    from .checkpoint import load_dqn  # torch is imported only when a DQN is used

    return load_dqn(path)


class DQNOracle(ModelOracle):
    """cost(t) = max Q − Q(c, t) over the legal moves, Q from a trained DQN."""

    name = "dqn"
    title = "learned (DQN, reinforcement learning)"
    systems = ("arc-standard",)
    exact_for = "none"
    exactness = "learned by reinforcement learning: costs are the DQN's −Q, shifted so the best move costs 0"
    speed = "linear"

    def __init__(self, system: TransitionSystem, model: str | os.PathLike[str] | None = None) -> None:
        super().__init__(system)
        path = model_path(model) if model is not None else default_model()
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
    def available(cls, system: TransitionSystem) -> bool:
        """Is there a default model (``$PARSING_DQN_MODEL``) to list this oracle with, one that
        fits ``system``?  (Loaded to be read, once per file version.)"""
        path = default_model()
        if path is None:
            return False
        try:
            config = _load(str(path.resolve()), path.stat().st_mtime).config
        except ParsingCoreError:
            return False  # asked by name, the oracle says what is wrong with the file
        return misfit(config.single_root, config.history, system) is None

    @classmethod
    def saved_models(cls, system: TransitionSystem) -> list[str]:
        """``dqn:<run>`` for every run of this server that saved a model ``system`` can use: one
        trained on its variant of arc-standard, reading a configuration alone (as the run's
        ``spec.json`` says; a run whose spec cannot be read is left out, its fit unknown)."""
        return [name for name in trained_models() if trained_misfit(name, system) is None]

    @classmethod
    def options_for(cls, name: str) -> dict[str, str] | None:
        """``dqn:<run>`` is ``get_oracle(system, "dqn", model="<run>")``."""
        run = run_of(name)
        return None if run is None else {"model": run}

    def move_costs(self, c: Configuration, gold: Sentence) -> Costs:
        import torch

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


def misfit(single_root: bool, history: int, system: TransitionSystem) -> str | None:
    """Why a model trained so cannot be ``system``'s oracle (None: it can).  It must be for this
    system's variant, and read a configuration alone."""
    if bool(getattr(system, "single_root", False)) != single_root:
        variant = "single-root" if single_root else "plain"
        return f"this DQN was trained on {variant} arc-standard; use the same variant"
    if history:
        return (f"this DQN also reads the last {history} moves, which a configuration does not "
                "remember; the oracle needs one trained with --history 0")
    return None


def check_fits(single_root: bool, history: int, system: TransitionSystem) -> None:
    """:func:`misfit`'s reason as an error."""
    reason = misfit(single_root, history, system)
    if reason is not None:
        raise ParsingCoreError(reason)


def trained_misfit(name: str, system: TransitionSystem) -> str | None:
    """Why the run ``dqn:<run>`` cannot be ``system``'s oracle, read from the run's ``spec.json``
    (no model loaded: torch is not imported to list the oracles)."""
    spec = runs_folder() / str(run_of(name)) / "spec.json"
    try:
        variant = _trained_variant(str(spec), spec.stat().st_mtime)
    except OSError as err:
        variant = f"its run's settings cannot be read: {err.strerror or err}"
    return variant if isinstance(variant, str) else misfit(*variant, system)


@lru_cache(maxsize=64)
def _trained_variant(path: str, modified: float) -> tuple[bool, int] | str:
    """(single_root, history) of a run's spec, or why it cannot be read; read once per file
    version (the oracles are listed at every rerun of a page)."""
    try:
        config = RLSpec.load(path).config
    except (ParsingCoreError, AttributeError) as err:  # AttributeError: JSON that is no object
        return f"its run's settings cannot be read: {err}"
    return config.single_root, config.history


register_model_oracle(DQNOracle)
