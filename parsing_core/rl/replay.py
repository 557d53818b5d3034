"""Proportional prioritised replay (Schaul et al. 2016): a sum tree over p_i^α.

Transition i is drawn with probability P(i) = p_i^α / Σ_k p_k^α, where p_i = |δ_i| + ε is its
last TD error (a new transition gets the largest priority so far, so it is replayed at least
once); α = 0 is uniform sampling.  Each drawn transition carries its own importance weight
w_i = (N · P(i))^−β / max_j w_j, which the learner multiplies into *its* squared error before
averaging (the thesis multiplied the already averaged loss).

The sum tree stores the p^α in its leaves and in every inner node the sum of its two children,
so drawing (descend by prefix sums) and updating (re-add the path to the root) take O(log N);
here both run for a whole batch at once, one tree level per numpy step.

>>> tree = SumTree(4)
>>> tree.update(np.arange(4), np.array([1.0, 2.0, 3.0, 4.0]))
>>> tree.total, tree.find(np.array([0.5, 1.5, 2.9, 6.1, 9.99])).tolist()
(10.0, [0, 1, 1, 3, 3])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

Array = np.ndarray


class SumTree:
    """Leaves hold non-negative values; ``find(u)`` returns the leaf whose prefix-sum interval holds u."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.size = 1 << max(0, (capacity - 1).bit_length())  # leaves: a power of two
        self.nodes = np.zeros(2 * self.size)  # node 1 is the root; leaf i is node size + i

    @property
    def total(self) -> float:
        return float(self.nodes[1])

    def leaves(self, index: Array) -> Array:
        return np.asarray(self.nodes[self.size + index])

    def update(self, index: Array, values: Array) -> None:
        """Set leaves ``index`` to ``values`` and recompute the sums above them."""
        node = self.size + np.asarray(index)
        self.nodes[node] = values
        node = np.unique(node // 2)
        while node.size and node[0] >= 1:
            self.nodes[node] = self.nodes[2 * node] + self.nodes[2 * node + 1]
            node = np.unique(node // 2)
            node = node[node >= 1]

    def find(self, u: Array) -> Array:
        """For each u in [0, total): the leaf i with sum(leaves < i) ≤ u < sum(leaves ≤ i)."""
        node = np.ones(len(u), dtype=np.int64)
        u = np.array(u, dtype=float)
        while node[0] < self.size:
            left = self.nodes[2 * node]
            right = u >= left
            u = np.where(right, u - left, u)
            node = 2 * node + right
        return np.minimum(node - self.size, self.capacity - 1)


@dataclass(frozen=True)
class Sample:
    """A drawn batch: the rows' indices (to update their priorities) and importance weights."""

    index: Array
    weights: Array  # (B,) float32, the largest 1


class PrioritizedReplay:
    """A ring buffer of transitions (state, action, reward, next state, next legal mask, done)."""

    def __init__(self, capacity: int, state_size: int, n_actions: int, alpha: float,
                 rng: np.random.Generator, epsilon: float = 1e-5) -> None:
        self.capacity, self.alpha, self.epsilon, self.rng = capacity, alpha, epsilon, rng
        self.states = np.zeros((capacity, state_size), dtype=np.float32)
        self.next_states = np.zeros((capacity, state_size), dtype=np.float32)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.next_masks = np.zeros((capacity, n_actions), dtype=bool)
        self.done = np.zeros(capacity, dtype=bool)
        self.tree = SumTree(capacity)
        self.max_priority = 1.0
        self.count = 0  # rows filled
        self.cursor = 0  # the next row to write

    def __len__(self) -> int:
        return self.count

    def add(self, states: Array, actions: Array, rewards: Array, next_states: Array, next_masks: Array,
            done: Array) -> None:
        """Store a batch of transitions, each at the largest priority seen so far."""
        rows = (self.cursor + np.arange(len(actions))) % self.capacity
        self.states[rows], self.actions[rows], self.rewards[rows] = states, actions, rewards
        self.next_states[rows], self.next_masks[rows], self.done[rows] = next_states, next_masks, done
        self.tree.update(rows, np.full(len(rows), self.max_priority ** self.alpha))
        self.cursor = int(rows[-1] + 1) % self.capacity
        self.count = min(self.capacity, self.count + len(rows))

    def sample(self, batch_size: int, beta: float) -> Sample:
        """Draw ``batch_size`` rows ∝ p^α, one from each of as many equal slices of the total."""
        total = self.tree.total
        u = (np.arange(batch_size) + self.rng.random(batch_size)) * (total / batch_size)
        index = np.minimum(self.tree.find(np.minimum(u, np.nextafter(total, 0))), self.count - 1)
        p = self.tree.leaves(index) / total
        weights = (self.count * p) ** -beta
        return Sample(index, (weights / weights.max()).astype(np.float32))

    def update(self, index: Array, td_errors: Array) -> None:
        """New priorities |δ| + ε for the rows just learned from."""
        priority = np.abs(td_errors) + self.epsilon
        self.max_priority = max(self.max_priority, float(priority.max()))
        self.tree.update(index, priority ** self.alpha)
