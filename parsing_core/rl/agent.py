"""The learner: ε-greedy acting, and one DQN update from a prioritised batch.

The update, for a batch of transitions (s, a, r, s′) drawn from replay:

* target y = r + γ · Q̄(s′, a*), and y = r where s′ is final.  Q̄ is the mean of the last K
  target snapshots (averaged DQN; K = 1 is a plain target network); a* is the best *legal*
  move in s′ by the online network (double DQN) or by Q̄ itself.  y is computed without
  gradients: it is a fixed regression target.
* loss = mean_i w_i · (y_i − Q(s_i, a_i))², with w_i the sample's own importance weight.
* the priorities of the batch become |y_i − Q(s_i, a_i)|.

Every ``target_every`` updates the online network is copied into the snapshots.  The online
network is never overwritten: the thesis reloaded the averaged weights into it before every
update, so about 99 of every 100 gradient steps were lost.
"""

from __future__ import annotations

from collections import deque

import numpy as np
import torch
from torch import Tensor

from .config import RLConfig
from .network import DuelingQNetwork, copy_network, greedy, q_values
from .replay import PrioritizedReplay, Sample

Array = np.ndarray


class Learner:
    """The online network, its target snapshots and its optimiser."""

    def __init__(self, config: RLConfig, inputs: int, device: torch.device) -> None:
        self.config, self.device = config, device
        self.online = DuelingQNetwork(inputs, config.hidden).to(device)
        self.snapshots: deque[DuelingQNetwork] = deque([copy_network(self.online)], maxlen=config.average)
        self.optimizer = torch.optim.Adam(self.online.parameters(), lr=config.lr)
        self.updates = 0

    def tensor(self, x: Array) -> Tensor:
        return torch.as_tensor(x, device=self.device)

    def act(self, states: Array, legal: Array, epsilon: float, rng: np.random.Generator
            ) -> tuple[Array, Array]:
        """(the moves to take, the greedy moves): with probability ε a uniformly random legal move."""
        q = q_values(self.online, self.tensor(states))
        best = greedy(q, self.tensor(legal)).cpu().numpy()
        noise = np.where(legal, rng.random(legal.shape), -1.0)  # random scores on the legal moves only
        explore = rng.random(len(best)) < epsilon
        return np.where(explore, noise.argmax(1), best), best

    def averaged(self, x: Tensor) -> Tensor:
        """Q̄: the mean of the target snapshots' Q-values."""
        return torch.stack([q_values(net, x) for net in self.snapshots]).mean(0)

    def targets(self, rewards: Tensor, next_states: Tensor, next_masks: Tensor, done: Tensor) -> Tensor:
        """y = r + γ · Q̄(s′, a*) (r alone at the end), a* the best legal move in s′; no gradient."""
        q_bar = self.averaged(next_states)
        chooser = q_values(self.online, next_states) if self.config.double else q_bar
        best = greedy(chooser, next_masks)
        value = q_bar.gather(1, best[:, None]).squeeze(1)
        ended = done | ~next_masks.any(1)
        return rewards + self.config.gamma * torch.where(ended, torch.zeros_like(value), value)

    def learn(self, replay: PrioritizedReplay, sample: Sample) -> float:
        """One gradient step on the drawn rows; their priorities are updated.  Returns the loss."""
        i = sample.index
        states, actions = self.tensor(replay.states[i]), self.tensor(replay.actions[i])
        y = self.targets(self.tensor(replay.rewards[i]), self.tensor(replay.next_states[i]),
                         self.tensor(replay.next_masks[i]), self.tensor(replay.done[i]))
        q = self.online(states).gather(1, actions[:, None]).squeeze(1)
        td = y - q
        loss = (self.tensor(sample.weights) * td.pow(2)).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        replay.update(i, td.detach().cpu().numpy())
        self.updates += 1
        if self.updates % self.config.target_every == 0:
            self.snapshots.append(copy_network(self.online))
        return float(loss.item())
