"""A neural transition-based parser (Kiperwasser & Goldberg 2016), trained with any oracle.

The pieces, in the order a sentence meets them:

* :mod:`.vocab` — words, UPOS tags, characters and labels as indices (built from train);
* :mod:`.batch` — a batch of sentences as tensors, and :class:`Lockstep`, the configurations
  of a batch advancing together;
* :mod:`.features` — the key positions of a configuration (s0 s1 s2 b0 b1 b2 ...);
* :mod:`.state` and :mod:`.rules` — :class:`.state.BatchState`: a batch's configurations as
  arrays, every system's moves as array operations (legal masks, key positions, arcs);
* :mod:`.network` — the BiLSTM encoder (:mod:`.bilstm`: padded sentences, one direction at a
  time) and the MLP move and label scorers;
* :mod:`.parser` — :class:`Parser`: network + vocabulary + system, greedy lockstep parsing;
* :mod:`.read_back` — a parsed batch's arcs read back as sentences, every row's tree checked at once;
* :mod:`.scoring` — :class:`Scorer`: one sentence, any configuration, every move's score
  (:class:`MoveScore`, in :mod:`.move_score`, which needs no torch);
* :mod:`.explore` — training walks: minimum-cost sets, EXPLORE_{k,p}, the loss;
  :mod:`.walks` the same walks on the batched state, with :mod:`.batched_costs` (Goldberg &
  Nivre's costs for a whole batch);
* :mod:`.trainer` — :class:`Trainer`: epochs, dev evaluation, callbacks;
* :mod:`.config` — :class:`ModelConfig` (with named presets) and :class:`TrainConfig`, saved in
  checkpoints, and :class:`TrainSpec`, a whole run (data, system, both configs) as one value;
* :mod:`.events` — the typed records of a run's JSON-lines log (start, batch, epoch, test);
* :mod:`.device` — ``set_seed`` and the device (CUDA when available, else CPU).

Checkpoints are in :mod:`parsing_core.checkpoint`, the command lines in
:mod:`parsing_core.train` and :mod:`parsing_core.parse`, a toy treebank to train on in
:mod:`parsing_core.synthetic`.  The network, the parser and the trainer need ``torch``: the
names of :data:`NEEDS_TORCH` import it when first used, so that the specs, the records and
:class:`MoveScore` come without it; the rest of ``parsing_core`` does not import it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .config import (
    DEFAULT_PRESET,
    MODEL_PRESETS,
    PRECISIONS,
    REGIMES,
    DataSpec,
    ModelConfig,
    TrainConfig,
    TrainSpec,
    default_oracle,
)
from .events import BatchEvent, EpochEvent, Event, StartEvent, TestEvent, read_event
from .move_score import MoveScore
from .vocab import Vocab

if TYPE_CHECKING:
    from .device import pick_device, set_seed
    from .parser import Parser
    from .scoring import Scorer
    from .trainer import Callbacks, Report, Trainer, TrainResult, attachment_scores

#: The names that need torch, by the module that holds them: imported when first asked for, so
#: that a page showing specs, records or a model's scores does not import torch beforehand.
NEEDS_TORCH = {
    "pick_device": ".device", "set_seed": ".device", "Parser": ".parser", "Scorer": ".scoring",
    "Callbacks": ".trainer", "Report": ".trainer", "Trainer": ".trainer", "TrainResult": ".trainer",
    "attachment_scores": ".trainer",
}


def __getattr__(name: str) -> Any:
    """A name of :data:`NEEDS_TORCH`, imported on first use (PEP 562)."""
    if name not in NEEDS_TORCH:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(NEEDS_TORCH[name], __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "DEFAULT_PRESET", "MODEL_PRESETS", "PRECISIONS", "REGIMES", "BatchEvent", "Callbacks", "DataSpec",
    "EpochEvent", "Event", "ModelConfig", "MoveScore", "Parser", "Report", "Scorer", "StartEvent",
    "TestEvent",
    "TrainConfig", "TrainResult", "TrainSpec", "Trainer", "Vocab", "attachment_scores", "default_oracle",
    "pick_device", "read_event", "set_seed",
]
