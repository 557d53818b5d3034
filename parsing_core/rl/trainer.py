"""The DQN trainer: step the sentences, remember, learn, report through callbacks.

Each round steps every episode once with the ε-greedy policy (:class:`~.env.Environment`),
stores the transitions in prioritised replay and, once ``learn_start`` transitions are in
memory, makes one update (:class:`~.agent.Learner`).  Like :class:`parsing_core.model.Trainer`
it knows nothing about a user interface: it hands each typed record
(:mod:`parsing_core.rl.events`) to ``on_event`` and its plain dict to ``on_progress`` or
``on_eval``, and asks ``should_stop()`` before every round.

>>> from parsing_core.synthetic import synthetic_treebank
>>> train = synthetic_treebank(20, seed=1, max_len=8)
>>> config = RLConfig(updates=20, slots=4, batch_size=16, learn_start=16, report_every=10, eval_every=0)
>>> result = DQNTrainer(train, train[:4], config).run()
>>> [type(e).__name__ for e in result.history], result.stopped
(['RLProgressEvent', 'RLProgressEvent', 'RLEvalEvent'], False)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ParsingCoreError
from ..model.device import describe, pick_device, set_seed
from ..sentence import Sentence
from ..systems import get_system
from .agent import Learner
from .config import RLConfig
from .env import Environment, cost_vector, usable
from .evaluation import evaluate
from .events import RLEvalEvent, RLEvent, RLProgressEvent
from .network import DuelingQNetwork
from .replay import PrioritizedReplay

Report = dict[str, Any]


@dataclass
class Callbacks:
    """What the trainer tells its caller, and how the caller stops it."""

    on_progress: Callable[[Report], None] | None = None  # RLProgressEvent.to_json()
    on_eval: Callable[[Report], None] | None = None  # RLEvalEvent.to_json()
    should_stop: Callable[[], bool] | None = None
    on_event: Callable[[RLEvent], None] | None = None  # the typed record


@dataclass
class RLResult:
    network: DuelingQNetwork
    history: list[RLEvent] = field(default_factory=list)  # progress and evaluation records
    stopped: bool = False  # should_stop() ended the run early


@dataclass
class _Window:
    """What a progress record averages: the rounds since the last one."""

    losses: list[float] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    agree: int = 0
    judged: int = 0


class DQNTrainer:
    """Train the DQN oracle on ``train``; greedy evaluations on ``dev`` (else on part of ``train``)."""

    def __init__(self, train: Sequence[Sentence], dev: Sequence[Sentence] = (),
                 config: RLConfig | None = None, callbacks: Callbacks | None = None) -> None:
        self.config = config = config or RLConfig()
        self.callbacks = callbacks or Callbacks()
        set_seed(config.seed, config.threads)
        self.device = pick_device(config.device)
        self.system = get_system("arc-standard", single_root=config.single_root)
        self.train = usable(train)
        if config.single_root:
            self.train = [s for s in self.train if s.root_count == 1]
        if not self.train:
            raise ParsingCoreError(f"none of the {len(train)} training sentences can be used")
        self.dev = usable(dev)[:config.eval_sentences] or self.train[:config.eval_sentences]
        self.rng = np.random.default_rng(config.seed)
        self.env = Environment(self.system, self.train, config.slots, config.features, config.reward,
                               random.Random(config.seed))
        self.replay = PrioritizedReplay(config.memory, config.features.size, 3, config.alpha, self.rng)
        self.learner = Learner(config, config.features.size, self.device)
        self.history: list[RLEvent] = []
        self.episodes = 0  # ended so far
        self.moves = 0  # stepped so far

    @property
    def device_name(self) -> str:
        return describe(self.device)

    @property
    def network(self) -> DuelingQNetwork:
        return self.learner.online

    def stop_requested(self) -> bool:
        return bool(self.callbacks.should_stop and self.callbacks.should_stop())

    def run(self) -> RLResult:
        """Train for ``updates`` updates (or until ``should_stop()``), then evaluate once more.
        With ``baseline``, the untrained network (this seed's) is evaluated first, as update 0."""
        config, start, window = self.config, time.perf_counter(), _Window()
        if config.baseline:  # no random draw: the training that follows is the same without it
            self.tell(self.evaluation(), self.callbacks.on_eval)
        while self.learner.updates < config.updates:
            if self.stop_requested():
                return RLResult(self.network, self.history, stopped=True)
            loss = self.round(window)
            if loss is None:
                continue
            window.losses.append(loss)
            update = self.learner.updates
            if update % config.report_every == 0:
                self.tell(self.progress(window, time.perf_counter() - start), self.callbacks.on_progress)
                window = _Window()
            if config.eval_every and update % config.eval_every == 0 and update < config.updates:
                self.tell(self.evaluation(), self.callbacks.on_eval)
        self.tell(self.evaluation(), self.callbacks.on_eval)
        return RLResult(self.network, self.history)

    def round(self, window: _Window) -> float | None:
        """Step every episode once and remember; then one update, once memory holds enough."""
        config, env = self.config, self.env
        epsilon = config.epsilon(self.learner.updates)
        actions, best = self.learner.act(env.states, env.masks, epsilon, self.rng)
        if config.track_agreement:
            costs = np.stack([cost_vector(c) for c in env.costs()])
            chosen = costs[np.arange(len(best)), best]
            window.agree += int((chosen == costs.min(1)).sum())
            window.judged += len(best)
        step = env.step(actions)
        self.replay.add(step.states, step.actions, step.rewards, step.next_states, step.next_masks, step.done)
        window.returns += step.returns
        self.episodes += len(step.returns)
        self.moves += len(actions)
        if len(self.replay) < min(max(config.learn_start, config.batch_size), config.memory):
            return None
        sample = self.replay.sample(config.batch_size, config.beta(self.learner.updates))
        return self.learner.learn(self.replay, sample)

    def progress(self, window: _Window, seconds: float) -> RLProgressEvent:
        update, config = self.learner.updates, self.config
        return RLProgressEvent(
            update=update, updates=config.updates, moves=self.moves, episodes=self.episodes,
            mean_return=float(np.mean(window.returns)) if window.returns else None,
            td_loss=float(np.mean(window.losses)),
            agreement=window.agree / window.judged if window.judged else None,
            epsilon=config.epsilon(update), beta=config.beta(update), seconds=seconds,
            updates_per_s=update / seconds if seconds > 0 else 0.0)

    def evaluation(self) -> RLEvalEvent:
        start = time.perf_counter()
        e = evaluate(self.network, self.system, self.dev, self.config.features, self.device)
        return RLEvalEvent(update=self.learner.updates, agreement=e.agreement, q_error=e.q_error, uas=e.uas,
                           configurations=e.configurations, sentences=e.sentences,
                           seconds=time.perf_counter() - start)

    def tell(self, record: RLEvent, plain: Callable[[Report], None] | None) -> None:
        """Keep the record; hand it to ``on_event`` and its dict to ``plain``."""
        self.history.append(record)
        if self.callbacks.on_event:
            self.callbacks.on_event(record)
        if plain:
            plain(record.to_json())
