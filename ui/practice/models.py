"""Trained parsers for the predict-parser kind: the Train page's finished runs, each loaded once.

A run is named by its folder's name, and an item's spec carries that name (``model=<name>``), so
a link names its model and the items of two models get different ids.  Loading goes through
:func:`parsing_core.checkpoint.load_checkpoint` (``weights_only``: a file can never run code).
"""

from __future__ import annotations

import streamlit as st

import parsing_core as pc
import parsing_core.exercises as ex
from ui.widgets import checkpoints
from ui.widgets.checkpoints import ModelRef


def finished_runs() -> dict[str, ModelRef]:
    """The Train page's runs that kept a model, by run name, newest first."""
    return {ref.name: ref for ref in checkpoints.finished_runs()}


def system_of(name: str) -> str | None:
    """The transition system the run ``name`` was trained for (None: no such run)."""
    ref = finished_runs().get(name)
    return None if ref is None else checkpoints.load(ref.path, ref.stamp).parser.system_name


def model_of(name: str) -> ex.Model:
    """The run ``name`` as exercises see a model: a sentence → its chooser."""
    ref = finished_runs().get(name)
    if ref is None:
        raise ex.ExerciseError(f"no finished training run is called {name!r} here: train one on the "
                               "Train page, or open a link made on this server")
    try:
        parser = checkpoints.load(ref.path, ref.stamp).parser
    except pc.ParsingCoreError as error:
        raise ex.ExerciseError(f"the model {name!r} cannot be loaded: {error}") from error
    return lambda sentence: parser.scorer(sentence).choose


def model_name(spec: ex.ItemSpec) -> str | None:
    return next((str(v) for k, v in spec.options if k == "model"), None)


def run_picker() -> str | None:
    """Sidebar: which finished run predicts; None (and why) when there is none."""
    runs = finished_runs()
    if not runs:
        st.info("Predicting the parser needs a trained model: finish a run on the **Train** page first.")
        return None
    return st.selectbox("Trained model (a finished run)", list(runs), key="practice.model",
                        format_func=lambda name: runs[name].shown)
