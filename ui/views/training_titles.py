"""How the Train page names a run and the model it leaves: by what it is, never by its folder.

* :func:`run_title` — system, regime and oracle, data, epochs, network (the results table, the
  live progress, the comparison);
* :func:`run_name` — the same in file-name characters (the run's folder, after its start time);
* :func:`model_title` — the model an ended run left, as a model list shows it (the Stepper's):
  what was trained on what, how the run ended, its kept dev score and when it started.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from parsing_core.model import MODEL_PRESETS, DataSpec, EpochEvent, ModelConfig, TrainSpec, default_oracle
from parsing_core.systems import get_system


def data_title(data: DataSpec) -> str:
    """The run's data in a few words."""
    if data.treebank:
        return data.treebank
    if data.train:
        return Path(data.train).name
    return f"synthetic {data.synthetic} ({data.nonprojective:.0%} non-proj.)"


def size_title(model: ModelConfig) -> str:
    """The network's preset name, or "custom network"."""
    return next((n for n in MODEL_PRESETS if ModelConfig.preset(n) == model), "custom network")


def run_title(spec: TrainSpec) -> str:
    """A run named by what it is.

    >>> from ui.views.training import PAGE_DEFAULTS
    >>> run_title(PAGE_DEFAULTS)
    'arc-hybrid · dynamic, goldberg-nivre, k=1 p=0.9 · synthetic 1000 (80% non-proj.) · 10 epochs · small'
    """
    train = spec.train
    oracle = train.oracle or default_oracle(get_system(spec.system), train.regime)
    how = f"{train.regime}, {oracle}" if train.regime != "static" else "static oracle"
    if train.regime == "dynamic":
        how += f", k={train.explore_after} p={train.explore_p:g}"
    words = [spec.system, how, data_title(spec.data), f"{train.epochs} epochs", size_title(spec.model)]
    if train.precision != "float32":
        words.append(train.precision)
    return " · ".join(words)


def run_name(spec: TrainSpec) -> str:
    """The run's folder name (after its start time): its title in file-name characters.

    >>> from ui.views.training import PAGE_DEFAULTS
    >>> run_name(PAGE_DEFAULTS)
    'arc-hybrid-dynamic-goldberg-nivre-syn1000-np80-10ep-small'
    """
    train, data = spec.train, spec.data
    oracle = train.oracle or default_oracle(get_system(spec.system), train.regime)
    source = data.treebank or (Path(data.train).stem if data.train else
                               f"syn{data.synthetic}-np{round(100 * data.nonprojective)}")
    words = [spec.system, train.regime, *([oracle] if oracle != "static" else []), source,
             f"{train.epochs}ep", size_title(spec.model)]
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", "-".join(words))


def ending(status: str, epochs: Sequence[EpochEvent], planned: int) -> str:
    """How a run ended, in words.

    >>> ending("stopped", [], 10), ending("finished", [], 10), ending("failed", [], 10)
    ('stopped before its first epoch ended', 'finished, 10 epochs', 'failed before its first epoch ended')
    """
    done = len(epochs)
    if status == "finished":
        return f"finished, {planned} epoch{'s' * (planned != 1)}"
    if not done:
        return f"{status} before its first epoch ended"
    return f"{status} at epoch {done}"


def model_title(spec: TrainSpec | None, status: str, epochs: Sequence[EpochEvent], started: str,
                fallback: str = "") -> str:
    """The model an ended run left, named by what it is: system · regime · data · how the run
    ended · the kept epoch's dev UAS · when it started (``fallback``, the folder's name, for a run
    whose spec cannot be read).

    >>> from ui.views.training import PAGE_DEFAULTS
    >>> model_title(PAGE_DEFAULTS, "finished", [], "27 Nov 07:52")
    'arc-hybrid · dynamic · synthetic 1000 (80% non-proj.) · finished, 10 epochs · 27 Nov 07:52'
    """
    if spec is None:
        return f"{fallback} · {status} · {started}"
    regime = spec.train.regime if spec.train.regime != "static" else "static oracle"
    scored = [e.dev_uas for e in epochs if e.dev_uas is not None]
    score = [f"dev UAS {100 * max(scored):.1f} %"] if scored else []
    words = [spec.system, regime, data_title(spec.data), ending(status, epochs, spec.train.epochs), *score,
             started]
    return " · ".join(words)
