"""The server's DQN runs, named by what they are (reward, data, updates, how each ended, when it
started): for the RL oracle page's list and for the Stepper's oracle picker, which offers each run
that saved a model as the oracle ``dqn:<run>``.

>>> from parsing_core.model import DataSpec
>>> from parsing_core.rl import RLConfig, RLSpec
>>> describe(RLSpec(DataSpec(synthetic=600), RLConfig(updates=2000)), "finished", "27 Nov 08:35")
'exact reward · synthetic 600 · 2000 updates · finished · 27 Nov 08:35'
"""

from __future__ import annotations

import time

from parsing_core.errors import ParsingCoreError
from parsing_core.rl import RLSpec
from parsing_core.rl.oracle import runs_folder
from server.jobs import TrainingJob


def describe(spec: RLSpec, status: str, started: str) -> str:
    data = f"synthetic {spec.data.synthetic}" if not spec.data.treebank else spec.data.treebank
    return f"{spec.config.reward} reward · {data} · {spec.config.updates} updates · {status} · {started}"


def spec_of(job: TrainingJob) -> RLSpec | None:
    """The run's spec, None if it cannot be read."""
    try:
        spec = job.spec()
    except (ParsingCoreError, OSError, ValueError, TypeError):
        return None
    return spec if isinstance(spec, RLSpec) else None


def reward_of(job: TrainingJob) -> str | None:
    """The run's reward ("exact" or "thesis"), None if its spec cannot be read."""
    spec = spec_of(job)
    return None if spec is None else spec.config.reward


def title_of(job: TrainingJob) -> str:
    """The run's title from its spec (its folder's name if the spec cannot be read)."""
    spec = spec_of(job)
    if spec is None:
        return job.folder.name
    return describe(spec, job.status(), time.strftime("%d %b %H:%M", time.localtime(job.started())))


def run_title(run: str) -> str:
    """The title of the server's DQN run named ``run`` (its name if there is no such run)."""
    folder = runs_folder() / run
    return title_of(TrainingJob(folder)) if folder.is_dir() else run
