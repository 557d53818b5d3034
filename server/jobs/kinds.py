"""Kinds of job: what a job runs (a module), what it is asked (a spec) and what it writes (records).

Adding a kind of job (an RL oracle run, a lab experiment, ...):

1. write its spec, a dataclass with ``to_json() -> dict`` and a classmethod ``from_json(dict)``
   (like :class:`parsing_core.model.TrainSpec`);
2. write its module, runnable as ``python -m <module> --spec FILE --log FILE --out FILE``: it
   reads the spec with ``from_json``, appends one JSON object per line to ``--log`` (flushed
   at once), saves its result to ``--out``, and exits 0 when it finished;
3. give a function that turns one log line (a dict) into a typed record;
4. ``register(JobKind("name", "<module>", "<module>:<SpecClass>", "<module>:<reader>"))``
   here, next to ``train``.  ``JobBoard.start(name, spec)`` then finds the kind from the
   spec's class; the spec and the reader are imported only when needed, so this module
   stays light.

>>> kind_of_spec(object())
Traceback (most recent call last):
...
server.jobs.kinds.JobError: no kind of job takes a object spec
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from parsing_core.errors import ParsingCoreError

Report = dict[str, Any]


class Spec(Protocol):
    """What a job is asked to do: JSON out (and, on the class, ``from_json`` back in)."""

    def to_json(self) -> dict[str, Any]: ...


class JobError(ParsingCoreError):
    """A training job could not be started (for instance: too many running)."""


def load(path: str) -> Any:
    """The object ``"package.module:name"`` names."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class JobKind:
    """A kind of job: the module that runs it, its spec class and its log reader (``module:name``)."""

    name: str
    module: str
    spec: str
    reader: str

    def read_spec(self, path: Path) -> Any:
        return load(self.spec).from_json(json.loads(path.read_text(encoding="utf-8")))

    def read_record(self, line: Report) -> Any:
        reader: Callable[[Report], Any] = load(self.reader)
        return reader(line)


KINDS: dict[str, JobKind] = {}


def register(kind: JobKind) -> JobKind:
    KINDS[kind.name] = kind
    return kind


TRAIN = register(JobKind("train", "parsing_core.train", "parsing_core.model.config:TrainSpec",
                         "parsing_core.model.events:read_event"))
RL = register(JobKind("rl", "parsing_core.rl", "parsing_core.rl.config:RLSpec",
                      "parsing_core.rl.events:read_rl_event"))
LAB = register(JobKind("lab", "parsing_core.experiments.job", "parsing_core.experiments.lab:LabSpec",
                       "parsing_core.experiments.lab:read_lab_record"))


def get_kind(name: str) -> JobKind:
    if name not in KINDS:
        raise JobError(f"no kind of job {name!r}; choose {', '.join(KINDS)}")
    return KINDS[name]


def kind_of_spec(spec: object) -> JobKind:
    """The registered kind whose spec class ``spec`` is an instance of."""
    cls = type(spec)
    for kind in KINDS.values():
        if kind.spec == f"{cls.__module__}:{cls.__qualname__}":
            return kind
    raise JobError(f"no kind of job takes a {cls.__name__} spec")
