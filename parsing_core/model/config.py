"""The two settings objects of a neural parser: what the network looks like, and how it learns.

Both are frozen dataclasses in the spirit of nanoGPT's ``GPTConfig``: every number that
changes a run is a field with a default, and the pair is written into every checkpoint as
JSON, so a saved parser always says how it was built and trained.

>>> ModelConfig(upos_dim=25).to_dict()["upos_dim"]
25
>>> ModelConfig(char_dim=32, upos_dim=25).inputs
'words + characters + UPOS'
>>> TrainConfig.from_dict({"epochs": 3, "regime": "static"}).epochs
3
>>> TrainConfig(regime="random")
Traceback (most recent call last):
...
parsing_core.errors.ParsingCoreError: unknown regime 'random'; choose static, nondeterministic or dynamic
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, TypeVar

from ..errors import ParsingCoreError

#: static: follow the static oracle's one gold move (projective sentences only, unless the
#: system can swap).  nondeterministic: follow the model's favourite minimum-cost move.
#: dynamic: like nondeterministic, but after ``explore_after`` epochs follow the model's own
#: (maybe wrong) move with probability ``explore_p`` (Goldberg & Nivre's EXPLORE_{k,p}).
REGIMES: tuple[str, ...] = ("static", "nondeterministic", "dynamic")

C = TypeVar("C", bound="_Config")


class _Config:
    """JSON round trip shared by both configs; unknown keys are an error, missing ones default."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)  # type: ignore[call-overload, no-any-return]

    @classmethod
    def from_dict(cls: type[C], data: dict[str, Any]) -> C:
        known = {f.name for f in fields(cls)}  # type: ignore[arg-type]
        unknown = sorted(set(data) - known)
        if unknown:
            raise ParsingCoreError(f"{cls.__name__} has no setting {', '.join(unknown)}")
        return cls(**data)


@dataclass(frozen=True)
class ModelConfig(_Config):
    """The network: Kiperwasser & Goldberg (2016) BiLSTM features + an MLP move scorer.

    Defaults are K&G's (word 100, BiLSTM 125 per direction × 2 layers, MLP 100), which
    train an en_lines epoch in well under a minute on two CPU cores.
    """

    word_dim: int = 100  # word embedding size
    upos_dim: int = 0  # UPOS embedding size; 0 = words only (the thesis's setting)
    char_dim: int = 0  # character embedding size; 0 = no character model
    char_lstm_dim: int = 50  # per direction, for the character BiLSTM over each word
    lstm_dim: int = 125  # per direction
    lstm_layers: int = 2
    mlp_dim: int = 100  # hidden layer of the move scorer and of the label scorer
    dropout: float = 0.33  # on embeddings, between BiLSTM layers and on the BiLSTM output
    children: bool = False  # add leftmost/rightmost children of s0 and s1 to the features
    min_count: int = 2  # words seen fewer times in train are unknown
    lowercase: bool = True  # look words up in lower case

    @property
    def inputs(self) -> str:
        """What the network reads, in words: ``words``, ``words + characters + UPOS``, ..."""
        parts = ["words"] + ["characters"] * (self.char_dim > 0) + ["UPOS"] * (self.upos_dim > 0)
        return " + ".join(parts)

    def __post_init__(self) -> None:
        for name in ("word_dim", "lstm_dim", "lstm_layers", "mlp_dim", "min_count"):
            if getattr(self, name) < 1:
                raise ParsingCoreError(f"ModelConfig.{name} must be at least 1")
        if self.upos_dim < 0 or self.char_dim < 0 or self.char_lstm_dim < 1:
            raise ParsingCoreError("ModelConfig: upos_dim and char_dim must be ≥ 0, char_lstm_dim ≥ 1")
        if not 0 <= self.dropout < 1:
            raise ParsingCoreError("ModelConfig.dropout must be in [0, 1)")


@dataclass(frozen=True)
class TrainConfig(_Config):
    """How the parser learns: regime, oracle, exploration, optimiser, seed, device."""

    regime: str = "dynamic"
    oracle: str | None = None  # None: the system's first dynamic oracle (static for regime static)
    epochs: int = 10
    batch_size: int = 32  # sentences that advance in lockstep
    lr: float = 3e-3  # Adam; batches average 32 sentences, so larger than K&G's per-sentence 1e-3
    explore_after: int = 1  # k: exploration starts in epoch k + 1 (epochs count from 1)
    explore_p: float = 0.9  # p: probability of following the model's wrong move
    word_dropout: float = 0.25  # α: a word seen f times becomes unknown with probability α/(α+f)
    clip: float = 5.0  # gradient-norm clipping; 0 = none
    seed: int = 1
    threads: int = 1  # torch CPU threads (0 = torch's default); 1 is fastest for a parser's small matrices
    device: str = "auto"  # "auto" (CUDA when available, else CPU), "cpu" or "cuda"
    keep_best: bool = True  # restore the weights of the epoch with the best dev UAS at the end

    def __post_init__(self) -> None:
        if self.regime not in REGIMES:
            choices = "static, nondeterministic or dynamic"
            raise ParsingCoreError(f"unknown regime {self.regime!r}; choose {choices}")
        if self.epochs < 0 or self.batch_size < 1 or self.lr <= 0:
            raise ParsingCoreError("TrainConfig: epochs must be ≥ 0, batch_size ≥ 1 and lr > 0")
        if not 0 <= self.explore_p <= 1 or self.explore_after < 0:
            raise ParsingCoreError("TrainConfig: explore_p must be in [0, 1] and explore_after ≥ 0")
        if self.device not in ("auto", "cpu", "cuda"):
            raise ParsingCoreError(f"unknown device {self.device!r}; choose auto, cpu or cuda")
