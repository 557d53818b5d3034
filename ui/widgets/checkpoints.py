"""The Train page's trained parsers, for any page that uses one (the Stepper's model, Practice's
predict-the-parser): the ended runs that kept a checkpoint, each loaded once per file version.

Loading goes through :func:`parsing_core.checkpoint.load_checkpoint` (``weights_only``: a file
can never run code).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import streamlit as st

from parsing_core.errors import ParsingCoreError
from parsing_core.model import EpochEvent, TrainSpec
from server.jobs import JobBoard, TrainingJob
from ui.views.training import jobs_root
from ui.views.training_titles import model_title

if TYPE_CHECKING:
    from parsing_core.checkpoint import Checkpoint


@dataclass(frozen=True)
class ModelRef:
    """A checkpoint file: ``name`` identifies it (a run's folder, an upload's file name), ``title``
    names it for the user; ``stamp`` (its mtime) makes a rewritten file new."""

    name: str
    path: str
    stamp: float
    title: str = ""

    @property
    def shown(self) -> str:
        return self.title or self.name


def finished_runs() -> list[ModelRef]:
    """Checkpoints of the Train page's ended runs, newest first (a failed run that kept its best
    epoch's model, e.g. one killed or whose loss diverged, included), each titled by what it is."""
    refs = []
    for job in reversed(JobBoard(jobs_root()).jobs()):
        if job.status() in ("finished", "stopped", "failed") and job.checkpoint.exists():
            refs.append(ModelRef(job.folder.name, str(job.checkpoint), job.checkpoint.stat().st_mtime,
                                 title_of(job)))
    return refs


def title_of(job: TrainingJob) -> str:
    """The run's model named by what it is (:func:`ui.views.training_titles.model_title`)."""
    try:
        spec = job.spec()
    except (ParsingCoreError, OSError, ValueError):
        spec = None
    epochs = [e for e in job.events() if isinstance(e, EpochEvent)]
    started = time.strftime("%d %b %H:%M", time.localtime(job.started()))
    return model_title(spec if isinstance(spec, TrainSpec) else None, job.status(), epochs, started,
                       job.folder.name)


@st.cache_resource(max_entries=4, show_spinner="Loading the model…")
def load(path: str, stamp: float) -> Checkpoint:
    """The checkpoint at ``path`` (``stamp``: its mtime, so a rewritten file loads again).  Torch is
    imported here, when a learner first picks a model, not when a page that offers one opens."""
    import torch

    from parsing_core.checkpoint import load_checkpoint

    torch.set_num_threads(1)  # a page answers one click at a time; more threads only contend
    return load_checkpoint(path, device="cpu")
