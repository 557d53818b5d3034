"""A reinforcement-learning oracle for arc-standard: a DQN that learns the costs (thesis ch. 7–8).

The thesis trains a deep Q-network (DQN) whose greedy move serves as a dynamic oracle where no
exact one was at hand.  Here the exact arc-standard oracle is at hand, and it makes the DQN
checkable: with the reward r(c, t) = −cost(t; c), the best continuation after any move earns 0,
so the optimal action value is Q*(c, t) = −cost(t; c) for any discount.  A DQN that has learned
must pick moves in the exact optimal set, and its Q-values must approach minus the exact costs.

The pieces, each in its own module:

* :mod:`.features` — the thesis's state: 20 slots of stack and buffer tokens with the window
  position of each one's gold head, lost-head and all-dependents flags, the last moves, the
  legal mask;
* :mod:`.rewards` — the exact reward and the thesis's own (read before the move);
* :mod:`.env` — many sentences parsed at once, illegal moves masked;
* :mod:`.replay` — proportional prioritised replay on a sum tree, importance weights per sample;
* :mod:`.network` — the dueling network Q = V + A − mean A;
* :mod:`.agent` — double-DQN targets from averaged target snapshots, detached;
* :mod:`.trainer` — the loop, reporting typed records (:mod:`.events`) through callbacks;
* :mod:`.evaluation` — greedy parses judged by the exact oracle;
* :mod:`.checkpoint` — saving and loading (``weights_only``); :mod:`.cli` — ``python -m parsing_core.rl``.

The trained network answers as an oracle like any other:
``get_oracle(get_system("arc-standard"), "dqn", model="dqn.pt")``
(:mod:`.oracle`, which registers it with the oracles).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .checkpoint import DQNCheckpoint, load_dqn, save_dqn
    from .config import RLConfig, RLSpec
    from .evaluation import Evaluation, evaluate
    from .events import RLEvalEvent, RLProgressEvent, RLStartEvent, read_rl_event
    from .features import ACTIONS, FeatureSpec, encode, legal_mask
    from .trainer import Callbacks, DQNTrainer, RLResult

#: Where each name lives: a module is imported when one of its names is first asked for, so that
#: ``import parsing_core`` (which registers the learned oracle, :mod:`.oracle`) imports no torch.
HOMES = {
    "checkpoint": ("DQNCheckpoint", "load_dqn", "save_dqn"),
    "config": ("RLConfig", "RLSpec"),
    "evaluation": ("Evaluation", "evaluate"),
    "events": ("RLEvalEvent", "RLProgressEvent", "RLStartEvent", "read_rl_event"),
    "features": ("ACTIONS", "FeatureSpec", "encode", "legal_mask"),
    "trainer": ("Callbacks", "DQNTrainer", "RLResult"),
}
_HOME_OF = {name: module for module, names in HOMES.items() for name in names}


def __getattr__(name: str) -> object:
    if name not in _HOME_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_HOME_OF[name]}", __name__), name)


__all__ = [
    "ACTIONS", "Callbacks", "DQNCheckpoint", "DQNTrainer", "Evaluation", "FeatureSpec", "RLConfig",
    "RLEvalEvent", "RLProgressEvent", "RLResult", "RLSpec", "RLStartEvent", "encode", "evaluate",
    "legal_mask", "load_dqn", "read_rl_event", "save_dqn",
]
