"""Saving and loading a trained DQN oracle: its weights and settings, in one file.

The file is a ``torch.save`` archive of a plain dict::

    {"format": "parsing_core.dqn", "version": 1,
     "config": "<JSON: RLConfig, network sizes, info>", "weights": <the online network's state_dict>}

It holds only tensors, strings and numbers, so it is read with ``torch.load(...,
weights_only=True)``: loading never runs code from the file.  It is written to a temporary
file beside the target and renamed into place (both done by :mod:`parsing_core.archive`, as for
the parser's checkpoints).  Every problem on loading raises :class:`DQNCheckpointError`.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from ..archive import ArchiveKind, read_archive, write_archive
from ..errors import ParsingCoreError
from .config import RLConfig
from .network import DuelingQNetwork

FORMAT = "parsing_core.dqn"
VERSION = 1
PathLike = str | os.PathLike[str]


class DQNCheckpointError(ParsingCoreError):
    """A DQN checkpoint could not be written or read; the message says why."""


KIND = ArchiveKind(FORMAT, VERSION, "DQN checkpoint", "DQN checkpoint", DQNCheckpointError,
                   elsewhere=" (a parser checkpoint? those are loaded with "
                             "parsing_core.checkpoint.load_checkpoint)")


@dataclass
class DQNCheckpoint:
    """A loaded DQN: the network (in eval mode), how it was trained, and whatever else was saved."""

    network: DuelingQNetwork
    config: RLConfig
    info: dict[str, Any] = field(default_factory=dict)


def save_dqn(path: PathLike, network: DuelingQNetwork, config: RLConfig, info: dict[str, Any] | None = None
             ) -> Path:
    """Write the network to ``path`` atomically; returns the path."""
    described = {"config": config.to_dict(), "inputs": network.inputs, "hidden": network.hidden,
                 "actions": network.actions, "info": info or {}, "torch": torch.__version__}
    payload = {"format": FORMAT, "version": VERSION, "config": json.dumps(described),
               "weights": {k: v.detach().cpu() for k, v in network.state_dict().items()}}
    return write_archive(path, payload, KIND)


def load_dqn(path: PathLike) -> DQNCheckpoint:
    """Read a DQN checkpoint (``weights_only=True``); the network comes back on the CPU, in eval mode."""
    payload = read_archive(Path(path), KIND)
    try:
        described = json.loads(payload["config"])
        config = RLConfig.from_dict(described["config"])
        network = DuelingQNetwork(described["inputs"], described["hidden"], described["actions"])
        network.load_state_dict(payload["weights"])
    except (KeyError, TypeError, ValueError, RuntimeError, ParsingCoreError) as err:
        raise DQNCheckpointError(f"{path} is a damaged DQN checkpoint: {err}") from None
    if network.inputs != config.features.size:
        raise DQNCheckpointError(f"{path}: the network reads {network.inputs} features, its settings "
                                 f"describe {config.features.size}")
    return DQNCheckpoint(network.eval(), config, described.get("info", {}))

