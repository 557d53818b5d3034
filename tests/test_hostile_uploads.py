"""Uploads cannot run code or fill the server: a pickle that would run a command is refused without
running it, and every upload has a size cap the server itself enforces too."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
import torch

import parsing_core as pc
from parsing_core.checkpoint import CheckpointError, load_checkpoint
from parsing_core.rl.checkpoint import load_dqn
from ui.stepper.models import MAX_CHECKPOINT_BYTES
from ui.widgets.sentence_inputs import MAX_UPLOAD_BYTES

REPO = Path(__file__).resolve().parents[1]


class Payload:
    """What an attacker pickles: unpickling it would create the file ``marker``."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return os.system, (f"touch {self.marker}",)


def test_a_checkpoint_that_would_run_a_command_is_refused_and_runs_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    evil = tmp_path / "evil.pt"
    payload = {"format": "parsing_core.parser", "version": 1, "config": "{}", "weights": Payload(marker)}
    torch.save(payload, evil)
    with pytest.raises(CheckpointError, match="refused rather than run"):
        load_checkpoint(evil)
    with pytest.raises(pc.ParsingCoreError):  # the DQN oracle's checkpoints are read the same way
        load_dqn(evil)
    assert not marker.exists()


def test_the_server_caps_uploads_at_the_checkpoint_limit() -> None:
    config = tomllib.loads((REPO / ".streamlit" / "config.toml").read_text())
    assert config["server"]["maxUploadSize"] * 1_000_000 == MAX_CHECKPOINT_BYTES
    assert MAX_UPLOAD_BYTES < MAX_CHECKPOINT_BYTES
