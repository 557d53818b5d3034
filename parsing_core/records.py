"""Tagged JSON records and spec files: written one way, read back one way.

A run's log is JSON lines, one record a line: a training run's events (:mod:`.model.events`), a
DQN run's (:mod:`.rl.events`), an oracle-lab run's (:mod:`.experiments.lab`).  Each kind of line
is a frozen dataclass deriving from :class:`TaggedRecord`: its JSON is its tag, under ``"event"``,
and its fields by name; a reader (:func:`read_tagged`) turns a line back into the record its tag
names.  A run's settings are a *spec* (``spec.json``: :class:`.model.TrainSpec`,
:class:`.rl.RLSpec`, :class:`.experiments.lab.LabSpec`), written and read by :func:`save_spec`
and :func:`load_spec`.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Lunch(TaggedRecord):
...     event: ClassVar[str] = "lunch"
...     dish: str
...     minutes: int = 30
>>> line = Lunch("soup").to_json(); line
{'event': 'lunch', 'dish': 'soup', 'minutes': 30}
>>> read_tagged({"lunch": Lunch}, {"event": "lunch", "dish": "soup", "later": 1}, "meal")
Lunch(dish='soup', minutes=30)
>>> read_tagged({"lunch": Lunch}, {"event": "tea"}, "meal")
Traceback (most recent call last):
...
parsing_core.errors.ParsingCoreError: unknown meal event 'tea'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import MISSING, Field, asdict, fields
from pathlib import Path
from typing import Any, ClassVar, Protocol, Self, TypeVar

from .errors import ParsingCoreError

Record = dict[str, Any]
TAG = "event"


class TaggedRecord:
    """A dataclass whose JSON is its tag and its fields.  A field with a default may be missing
    from a line (an older log); a missing field without one is a ``KeyError``; keys the record does
    not know are ignored.  A record whose fields are not plain JSON overrides both methods."""

    event: ClassVar[str]
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]  # each subclass is a dataclass

    def to_json(self) -> Record:
        return {TAG: self.event, **asdict(self)}

    @classmethod
    def from_json(cls, data: Record) -> Self:
        return cls(**{f.name: data[f.name] for f in fields(cls)
                      if f.name in data or (f.default is MISSING and f.default_factory is MISSING)})


R = TypeVar("R", bound=TaggedRecord)


def tags(*kinds: type[R]) -> dict[str, type[R]]:
    """The table a reader looks tags up in: ``{kind.event: kind}``."""
    return {kind.event: kind for kind in kinds}


def read_tagged(kinds: Mapping[str, type[R]], data: Record, what: str) -> R:
    """The record of one line (a dict as ``json.loads`` gives it), by its tag; an unknown tag is
    a :class:`ParsingCoreError` that names ``what`` was being read."""
    kind = kinds.get(data.get(TAG, ""))
    if kind is None:
        raise ParsingCoreError(f"unknown {what} event {data.get(TAG)!r}")
    return kind.from_json(data)


class Spec(Protocol):
    def to_json(self) -> Record: ...


S = TypeVar("S")


def save_spec(spec: Spec, path: str | Path) -> Path:
    """Write ``spec`` as indented JSON (a job's ``spec.json``)."""
    path = Path(path)
    path.write_text(json.dumps(spec.to_json(), indent=2) + "\n", encoding="utf-8")
    return path


def load_spec(from_json: Callable[[Record], S], path: str | Path, what: str) -> S:
    """The spec ``from_json`` makes of the file; an unreadable one is a :class:`ParsingCoreError`
    naming ``what`` it should have been (``load_spec(TrainSpec.from_json, path, "training spec")``)."""
    try:
        return from_json(json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, json.JSONDecodeError, TypeError) as err:
        raise ParsingCoreError(f"cannot read the {what} {path}: {err}") from err
