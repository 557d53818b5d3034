"""Saving and loading a trained parser: its weights and a JSON description, in one file.

The file is a ``torch.save`` archive of a plain dict::

    {"format": "parsing_core.parser", "version": 1,
     "config": "<JSON: system, ModelConfig, TrainConfig, vocabulary, info>",
     "weights": <the network's state_dict>}

It holds only tensors, strings and numbers, so it is read with ``torch.load(...,
weights_only=True)``: loading a checkpoint never runs code from the file.  It is written
to a temporary file beside the target and renamed into place, so a reader never sees half
a checkpoint (both done by :mod:`parsing_core.archive`).  Every problem on loading (no file,
not a checkpoint, damaged, another version, weights that do not fit the configuration)
raises :class:`CheckpointError`.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from .archive import ArchiveKind, read_archive, write_archive
from .errors import ParsingCoreError
from .model import ModelConfig, Parser, TrainConfig, Vocab, pick_device

FORMAT = "parsing_core.parser"
VERSION = 1
PathLike = str | os.PathLike[str]


class CheckpointError(ParsingCoreError):
    """A parser checkpoint could not be written or read; the message says why."""


KIND = ArchiveKind(FORMAT, VERSION, "checkpoint", "parser checkpoint", CheckpointError)


@dataclass
class Checkpoint:
    """A loaded checkpoint: the parser, how it was trained, and whatever else was saved."""

    parser: Parser
    train_config: TrainConfig | None = None
    info: dict[str, Any] = field(default_factory=dict)  # e.g. final scores, treebank name


def describe(parser: Parser, train_config: TrainConfig | None = None, info: dict[str, Any] | None = None
             ) -> dict[str, Any]:
    """The JSON side of a checkpoint."""
    return {"system": parser.system_name, "model": parser.config.to_dict(),
            "train": train_config.to_dict() if train_config else None,
            "vocab": parser.vocab.to_dict(), "info": info or {}, "torch": torch.__version__}


def save_checkpoint(path: PathLike, parser: Parser, train_config: TrainConfig | None = None,
                    info: dict[str, Any] | None = None) -> Path:
    """Write the parser to ``path`` atomically; returns the path."""
    state = {k: v.detach().cpu() for k, v in parser.network.state_dict().items()}
    payload = {"format": FORMAT, "version": VERSION,
               "config": json.dumps(describe(parser, train_config, info)), "weights": state}
    return write_archive(path, payload, KIND)


def load_checkpoint(path: PathLike, device: str = "auto") -> Checkpoint:
    """Read a checkpoint written by :func:`save_checkpoint`, on ``device`` ("auto", "cpu", "cuda")."""
    payload = read_archive(Path(path), KIND)
    name = Path(path).name
    try:
        config = json.loads(payload["config"])
        vocab = Vocab.from_dict(config["vocab"])
        parser = Parser(config["system"], vocab, ModelConfig.from_dict(config["model"]))
        train = TrainConfig.from_dict(config["train"]) if config.get("train") else None
    except (json.JSONDecodeError, KeyError, TypeError, ParsingCoreError) as err:
        raise CheckpointError(f"{name}: the saved configuration is unreadable: {err}") from None
    try:
        parser.network.load_state_dict(payload["weights"])
    except (RuntimeError, KeyError, TypeError, AttributeError) as err:
        first = str(err).strip().splitlines()[0]
        raise CheckpointError(f"{name}: the weights do not fit the saved configuration ({first})") from None
    parser.to(pick_device(device))
    parser.network.eval()
    return Checkpoint(parser, train, dict(config.get("info") or {}))

