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
* :mod:`.evaluate` — greedy parses judged by the exact oracle;
* :mod:`.checkpoint` — saving and loading (``weights_only``); :mod:`.cli` — ``python -m parsing_core.rl``.

The trained network answers as an oracle like any other:
``get_oracle(get_system("arc-standard"), "dqn", model="dqn.pt")``
(:mod:`parsing_core.oracles.dqn`).
"""

from .checkpoint import DQNCheckpoint, load_dqn, save_dqn
from .config import RLConfig, RLSpec
from .evaluate import Evaluation, evaluate
from .events import RLEvalEvent, RLProgressEvent, RLStartEvent, read_rl_event
from .features import ACTIONS, FeatureSpec, encode, legal_mask
from .trainer import Callbacks, DQNTrainer, RLResult

__all__ = [
    "ACTIONS", "Callbacks", "DQNCheckpoint", "DQNTrainer", "Evaluation", "FeatureSpec", "RLConfig",
    "RLEvalEvent", "RLProgressEvent", "RLResult", "RLSpec", "RLStartEvent", "encode", "evaluate",
    "legal_mask", "load_dqn", "read_rl_event", "save_dqn",
]
