"""The Train page's trained parsers, for any page that uses one (the Stepper's model, Practice's
predict-the-parser): the ended runs that kept a checkpoint, each loaded once per file version.

Loading goes through :func:`parsing_core.checkpoint.load_checkpoint` (``weights_only``: a file
can never run code).
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st
import torch

from parsing_core.checkpoint import Checkpoint, load_checkpoint
from parsing_core.jobs import JobBoard
from ui.views.training import jobs_root


@dataclass(frozen=True)
class ModelRef:
    """A checkpoint file, named for the user; ``stamp`` (its mtime) makes a rewritten file new."""

    name: str
    path: str
    stamp: float


def finished_runs() -> list[ModelRef]:
    """Checkpoints of the Train page's ended runs, newest first (a failed run that kept its best
    epoch's model, e.g. one killed or whose loss diverged, included)."""
    refs = []
    for job in reversed(JobBoard(jobs_root()).jobs()):
        if job.status() in ("finished", "stopped", "failed") and job.checkpoint.exists():
            refs.append(ModelRef(job.folder.name, str(job.checkpoint), job.checkpoint.stat().st_mtime))
    return refs


@st.cache_resource(max_entries=4, show_spinner="Loading the model…")
def load(path: str, stamp: float) -> Checkpoint:
    torch.set_num_threads(1)  # a page answers one click at a time; more threads only contend
    return load_checkpoint(path, device="cpu")
