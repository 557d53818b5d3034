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
>>> ModelConfig.preset("tiny").lstm_layers, ModelConfig.preset(DEFAULT_PRESET) == ModelConfig(
...     word_dim=64, lstm_dim=64, mlp_dim=64)
(1, True)
>>> spec = TrainSpec(DataSpec(synthetic=600), "arc-hybrid", TrainConfig(epochs=2), ModelConfig.preset("tiny"))
>>> TrainSpec.from_json(spec.to_json()) == spec
True
>>> TrainConfig(regime="random")
Traceback (most recent call last):
...
parsing_core.errors.ParsingCoreError: unknown regime 'random'; choose static, nondeterministic, dynamic or ...
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, TypeVar

from ..errors import ParsingCoreError
from ..oracles import ranked
from ..records import load_spec, save_spec
from ..systems import TransitionSystem

#: static: follow the static oracle's one gold move (projective sentences only, unless the
#: system can swap).  nondeterministic: follow the model's favourite minimum-cost move.
#: dynamic: like nondeterministic, but after ``explore_after`` epochs follow the model's own
#: (maybe wrong) move with probability ``explore_p`` (Goldberg & Nivre's EXPLORE_{k,p}).
REGIMES: tuple[str, ...] = ("static", "nondeterministic", "dynamic", "imitation")
#: float32 everywhere, or the network's encoder (BiLSTMs and table) in bfloat16.
PRECISIONS: tuple[str, ...] = ("float32", "bfloat16")

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

    @classmethod
    def preset(cls, name: str) -> ModelConfig:
        """A named size (:data:`MODEL_PRESETS`): ``tiny``, ``small`` or ``default``."""
        if name not in MODEL_PRESETS:
            raise ParsingCoreError(f"no model preset {name!r}; choose {', '.join(MODEL_PRESETS)}")
        return cls(**MODEL_PRESETS[name])

    def __post_init__(self) -> None:
        for name in ("word_dim", "lstm_dim", "lstm_layers", "mlp_dim", "min_count"):
            if getattr(self, name) < 1:
                raise ParsingCoreError(f"ModelConfig.{name} must be at least 1")
        if self.upos_dim < 0 or self.char_dim < 0 or self.char_lstm_dim < 1:
            raise ParsingCoreError("ModelConfig: upos_dim and char_dim must be ≥ 0, char_lstm_dim ≥ 1")
        if not 0 <= self.dropout < 1:
            raise ParsingCoreError("ModelConfig.dropout must be in [0, 1)")


#: Named model sizes, smallest first: ``tiny`` trains a synthetic treebank in seconds,
#: ``default`` is K&G's network (the ModelConfig defaults).
MODEL_PRESETS: dict[str, dict[str, Any]] = {
    "tiny": {"word_dim": 32, "lstm_dim": 32, "mlp_dim": 32, "lstm_layers": 1},
    "small": {"word_dim": 64, "lstm_dim": 64, "mlp_dim": 64, "lstm_layers": 2},
    "default": {},
}
#: The size the Train page offers first.
DEFAULT_PRESET = "small"


@dataclass(frozen=True)
class TrainConfig(_Config):
    """How the parser learns: regime, oracle, exploration, optimiser, seed, device."""

    regime: str = "dynamic"
    oracle: str | None = None  # None: the system's first dynamic oracle (static for regime static)
    oracle_model: str | None = None  # the learned oracle's model file (regime imitation: a DQN, dqn.pt)
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
    #: "float32", or "bfloat16": the BiLSTMs and the table in bfloat16 (mixed precision; the walk,
    #: the loss and the weights stay float32), for processors that compute in bfloat16 natively
    precision: str = "float32"
    #: the tensor walk's steps fused by torch.compile (parsing_core/model/compiled.py): the tensor
    #: and graphs paths (path "auto" then walks on tensors on a CPU too); exploration draws on the
    #: device, as on a GPU
    compile_steps: bool = False
    keep_best: bool = True  # restore the weights of the epoch with the best dev UAS at the end

    def __post_init__(self) -> None:
        if self.regime not in REGIMES:
            choices = "static, nondeterministic, dynamic or imitation"
            raise ParsingCoreError(f"unknown regime {self.regime!r}; choose {choices}")
        if self.epochs < 0 or self.batch_size < 1 or self.lr <= 0:
            raise ParsingCoreError("TrainConfig: epochs must be ≥ 0, batch_size ≥ 1 and lr > 0")
        if not 0 <= self.explore_p <= 1 or self.explore_after < 0:
            raise ParsingCoreError("TrainConfig: explore_p must be in [0, 1] and explore_after ≥ 0")
        if self.precision not in PRECISIONS:
            raise ParsingCoreError(f"unknown precision {self.precision!r}; choose float32 or bfloat16")
        if self.device not in ("auto", "cpu", "cuda"):
            raise ParsingCoreError(f"unknown device {self.device!r}; choose auto, cpu or cuda")


@dataclass(frozen=True)
class DataSpec(_Config):
    """Where a run's sentences come from.

    ``treebank`` (a name in ``data_dir``, default the data directory), else ``train`` (with
    optional ``dev`` and ``test``) CoNLL-U files, else a synthetic treebank of ``synthetic``
    training sentences, ``nonprojective`` of them crossing (seeded by the run's seed).
    """

    treebank: str | None = None
    data_dir: str | None = None
    train: str | None = None
    dev: str | None = None
    test: str | None = None
    synthetic: int = 2000
    nonprojective: float = 0.3


@dataclass(frozen=True)
class TrainSpec:
    """Everything a training run needs, as one value: data, system, and the two configs.

    The oracle and the regime are in ``train`` (:class:`TrainConfig`).  ``python -m
    parsing_core.train`` builds one from its flags or reads one with ``--spec FILE``; a
    training job writes its spec to ``spec.json`` in its folder.
    """

    data: DataSpec = field(default_factory=DataSpec)
    system: str = "arc-hybrid"
    train: TrainConfig = field(default_factory=TrainConfig)
    model: ModelConfig = field(default_factory=ModelConfig)

    def to_json(self) -> dict[str, Any]:
        return {"data": self.data.to_dict(), "system": self.system, "train": self.train.to_dict(),
                "model": self.model.to_dict()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TrainSpec:
        unknown = sorted(set(data) - {"data", "system", "train", "model"})
        if unknown:
            raise ParsingCoreError(f"TrainSpec has no setting {', '.join(unknown)}")
        return cls(DataSpec.from_dict(data.get("data", {})), data.get("system", cls.system),
                   TrainConfig.from_dict(data.get("train", {})), ModelConfig.from_dict(data.get("model", {})))

    def save(self, path: str | Path) -> Path:
        return save_spec(self, path)

    @classmethod
    def load(cls, path: str | Path) -> TrainSpec:
        return load_spec(cls.from_json, path, "training spec")


def default_oracle(system: TransitionSystem, regime: str) -> str:
    """The static oracle for the static regime, else the system's preferred cost oracle
    (``ranked(system)[0]``: the search oracle only where no other gives costs)."""
    if regime == "static":
        return "static"
    if regime == "imitation":
        return "dqn"
    return ranked(system)[0]
