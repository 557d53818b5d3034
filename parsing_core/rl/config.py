"""The settings of a DQN run (:class:`RLConfig`) and a whole run as one value (:class:`RLSpec`).

The defaults follow the thesis (Code B.8) where it is sound — γ 0.9, learning rate 5e-4, 128
hidden units, a 50,000-transition memory, α 0.9 and β from 0.5 to 1, a target snapshot every
100 updates — and differ where it is not: ε decays to its floor within the run (the thesis's
1e-7 per update left ε near 1 for millions of steps), the floor 0.05 plays the thesis's 5 %
forking, many sentences are stepped at once and an update follows each such step (the thesis
learnt after every single move from a batch of 1,000), and the features leave out the last
moves (``history`` 0): with the exact reward the configuration alone decides Q*, and the
learned oracle answers about a configuration alone.  ``history=5`` gives the thesis's 153
features.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ParsingCoreError
from ..model.config import DataSpec, _Config
from ..records import load_spec, save_spec
from .features import FeatureSpec


@dataclass(frozen=True)
class RLConfig(_Config):
    """How to train the DQN oracle."""

    reward: str = "exact"  # "exact": −cost (Q* = −cost); "thesis": Code B.7's reward
    gamma: float = 0.9
    updates: int = 3000  # gradient steps; one environment step of every slot before each
    slots: int = 32  # sentences parsed at once
    batch_size: int = 256
    lr: float = 5e-4
    hidden: int = 128
    memory: int = 50_000
    alpha: float = 0.9  # prioritisation: P(i) ∝ p_i^α
    beta_start: float = 0.5  # importance-weight exponent, annealed to beta_end over the run
    beta_end: float = 1.0
    eps_start: float = 1.0  # ε-greedy exploration, decayed linearly ...
    eps_end: float = 0.05
    eps_fraction: float = 0.5  # ... over this share of the updates
    target_every: int = 100  # updates between target snapshots
    average: int = 5  # averaged DQN: the target is the mean of the last K snapshots
    double: bool = True  # double DQN: the online network picks the next move, the target values it
    learn_start: int = 1000  # transitions in memory before the first update
    window: int = 10  # features: stack and buffer slots each
    history: int = 0  # features: last moves (the thesis: 5)
    single_root: bool = False  # the thesis's arc-standard variant: ROOT takes one dependent, last
    seed: int = 1
    threads: int = 1  # torch threads: the network is tiny, and more threads only wait for each other
    device: str = "cpu"
    report_every: int = 50  # updates between progress records
    eval_every: int = 500  # updates between greedy evaluations (0: only at the end)
    eval_sentences: int = 200  # dev sentences per evaluation
    track_agreement: bool = True  # measure the greedy move against the exact oracle while training
    baseline: bool = False  # evaluate the untrained network first (update 0): the score learning must beat

    def __post_init__(self) -> None:
        """Settings a run could not go far on are refused here, with their names, not met later as
        a division by zero or an empty stack of tensors."""
        positive = ("updates", "slots", "batch_size", "hidden", "memory", "target_every", "average", "window",
                    "report_every", "threads")
        for names, least in ((positive, 1), (("history", "learn_start", "eval_every", "eval_sentences"), 0)):
            low = [name for name in names if getattr(self, name) < least]
            if low:
                raise ParsingCoreError(f"RLConfig: {', '.join(low)} must be at least {least}")
        shares = ("gamma", "alpha", "beta_start", "beta_end", "eps_start", "eps_end", "eps_fraction")
        outside = [name for name in shares if not 0 <= getattr(self, name) <= 1]
        if outside or self.lr <= 0:
            raise ParsingCoreError(f"RLConfig: {', '.join(outside) or 'lr'} out of range: gamma, alpha, beta "
                                   "and eps in [0, 1], lr > 0")
        if self.device not in ("cpu", "cuda"):
            raise ParsingCoreError(f"unknown device {self.device!r}; choose cpu or cuda")

    @property
    def features(self) -> FeatureSpec:
        return FeatureSpec(self.window, self.history)

    def epsilon(self, update: int) -> float:
        """ε at an update: linear from eps_start to eps_end, then flat."""
        span = max(1.0, self.eps_fraction * self.updates)
        return self.eps_end + (self.eps_start - self.eps_end) * max(0.0, 1 - update / span)

    def beta(self, update: int) -> float:
        """β at an update: linear from beta_start to beta_end over the run."""
        return self.beta_start + (self.beta_end - self.beta_start) * min(1.0, update / max(1, self.updates))


@dataclass(frozen=True)
class RLSpec:
    """A whole DQN run: where the sentences come from and how to train (a job's ``spec.json``)."""

    data: DataSpec = field(default_factory=DataSpec)
    config: RLConfig = field(default_factory=RLConfig)

    def to_json(self) -> dict[str, Any]:
        return {"data": self.data.to_dict(), "config": self.config.to_dict()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RLSpec:
        unknown = sorted(set(data) - {"data", "config"})
        if unknown:
            raise ParsingCoreError(f"RLSpec has no setting {', '.join(unknown)}")
        return cls(DataSpec.from_dict(data.get("data", {})), RLConfig.from_dict(data.get("config", {})))

    def save(self, path: str | Path) -> Path:
        return save_spec(self, path)

    @classmethod
    def load(cls, path: str | Path) -> RLSpec:
        return load_spec(cls.from_json, path, "RL spec")
