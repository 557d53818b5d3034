"""The DQN oracle learns the exact oracle's answer: on short synthetic sentences a small run's
greedy moves are optimal (by the exact arc-standard oracle) at ≥ 95 % of the configurations
of its own greedy parses of held-out sentences, and its parses are then near-perfect.

Under the exact reward Q*(c, t) = −cost(t; c), so this is what a working DQN must reach; a
run that learns nothing starts near the share of configurations where a random legal move
happens to be optimal (checked too, so that 95 % is not reached by chance).
"""

from __future__ import annotations

import torch

import parsing_core as pc
from parsing_core.rl import DQNTrainer, RLConfig, evaluate
from parsing_core.rl.network import DuelingQNetwork
from parsing_core.synthetic import synthetic_treebank

TRAIN = synthetic_treebank(300, seed=1, max_len=8)
DEV = synthetic_treebank(50, seed=2, max_len=8)
CONFIG = RLConfig(updates=1200, slots=16, batch_size=128, learn_start=500, report_every=200, eval_every=0)


def test_a_small_run_picks_optimal_moves_at_95_percent() -> None:
    result = DQNTrainer(TRAIN, DEV, CONFIG).run()
    final = result.history[-1]
    assert final.event == "rl_eval" and final.sentences == len(DEV)
    assert final.agreement >= 0.95 and final.uas >= 0.9
    torch.manual_seed(0)
    untrained = DuelingQNetwork(CONFIG.features.size, CONFIG.hidden)
    start = evaluate(untrained, pc.get_system("arc-standard"), DEV, CONFIG.features, torch.device("cpu"))
    assert start.agreement < 0.9 and start.uas < 0.5
