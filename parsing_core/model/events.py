"""The records of a training run's JSON-lines log: one dataclass per kind of line.

A run writes one :class:`StartEvent`, a :class:`BatchEvent` after every batch, an
:class:`EpochEvent` after every epoch and, when there is a test set, a :class:`TestEvent`
at the end.  The trainer builds them, its callbacks receive them, the command line prints
them and writes them (``to_json``), and whoever follows the log reads them back with
:func:`read_event` — so a line's fields are written down once, here.  The JSON keys are the
field names, plus ``"event"``, the record's tag.

>>> line = TestEvent(test_uas=0.5, test_las=0.25, test_uas_nopunct=0.5, test_las_nopunct=0.25).to_json()
>>> line["event"], read_event(line) == TestEvent.from_json(line)
('test', True)
>>> read_event({"event": "lunch"})
Traceback (most recent call last):
...
parsing_core.errors.ParsingCoreError: unknown log event 'lunch'
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

from ..records import Record, TaggedRecord, read_tagged, tags
from .config import ModelConfig, TrainConfig


@dataclass(frozen=True)
class StartEvent(TaggedRecord):
    """The first line: what is trained on what, with which settings; ``sentences`` of the
    ``offered`` training sentences are trained on (the static regime leaves out the trees its
    system cannot build; None in a log written before they were counted).

    >>> start = StartEvent("synthetic", "arc-hybrid", "cpu", TrainConfig(), ModelConfig(), 412, 2000)
    >>> start.left_out, StartEvent.from_json(start.to_json()) == start
    (1588, True)
    """

    event: ClassVar[str] = "start"
    data: str
    system: str
    device: str
    train: TrainConfig
    model: ModelConfig
    sentences: int | None = None
    offered: int | None = None

    @property
    def left_out(self) -> int:
        """Training sentences offered but not trained on (0 when not counted)."""
        if self.sentences is None or self.offered is None:
            return 0
        return self.offered - self.sentences

    def to_json(self) -> Record:
        counted = {"sentences": self.sentences, "offered": self.offered} if self.sentences is not None else {}
        return {"event": self.event, "data": self.data, "system": self.system, "device": self.device,
                "train": self.train.to_dict(), "model": self.model.to_dict(), **counted}

    @classmethod
    def from_json(cls, data: Record) -> StartEvent:
        return cls(data["data"], data["system"], data["device"], TrainConfig.from_dict(data["train"]),
                   ModelConfig.from_dict(data["model"]), data.get("sentences"), data.get("offered"))


@dataclass(frozen=True, kw_only=True)
class _Walks(TaggedRecord):
    """What a batch and an epoch both count: the training walks over ``sentences``, their
    ``steps``, ``errors`` (steps where the model's move was not optimal), ``explored`` (errors
    the walk followed), ``dropped`` (walks left out: the oracle could not answer), and speed.
    Keyword-only, so each record's own fields come first when it is built."""

    sentences: int
    steps: int
    errors: int
    explored: int
    dropped: int
    seconds: float
    sentences_per_s: float
    device: str


@dataclass(frozen=True)
class BatchEvent(_Walks):
    """One batch: its losses, walks and speed; ``batch`` counts from 1 within ``epoch``."""

    event: ClassVar[str] = "batch"
    loss: float
    move_loss: float
    label_loss: float
    epoch: int = 0
    batch: int = 0
    batches: int = 0


@dataclass(frozen=True)
class EpochEvent(_Walks):
    """One epoch: totals over its batches (mean loss) and, when there is a dev set, its scores."""

    event: ClassVar[str] = "epoch"
    epoch: int
    epochs: int
    exploring: bool
    loss: float
    dev_uas: float | None = None
    dev_las: float | None = None
    dev_uas_nopunct: float | None = None
    dev_las_nopunct: float | None = None
    dev_seconds: float | None = None

    def to_json(self) -> Record:
        """Without the dev keys when there was no dev set (as the log has always been)."""
        return {k: v for k, v in super().to_json().items() if not (k.startswith("dev_") and v is None)}

    @property
    def dev_scores(self) -> dict[str, float]:
        """``{"uas": …, "las": …, …}`` of the dev set; empty without one."""
        return {f.name[4:]: v for f in fields(self) if f.name.startswith("dev_") and f.name != "dev_seconds"
                and (v := getattr(self, f.name)) is not None}


@dataclass(frozen=True)
class TestEvent(TaggedRecord):
    """The last line when there is a test set: its attachment scores."""

    __test__: ClassVar[bool] = False  # not a pytest test class
    event: ClassVar[str] = "test"
    test_uas: float
    test_las: float
    test_uas_nopunct: float
    test_las_nopunct: float


Event = StartEvent | BatchEvent | EpochEvent | TestEvent
EVENTS: dict[str, type[Event]] = tags(StartEvent, BatchEvent, EpochEvent, TestEvent)


def read_event(data: Record) -> Event:
    """The typed record of one log line (a dict as ``json.loads`` gives it)."""
    return read_tagged(EVENTS, data, "log")
