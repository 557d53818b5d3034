"""The records of a DQN run's JSON-lines log, one dataclass per kind of line.

A run writes one :class:`RLStartEvent`, an :class:`RLProgressEvent` every ``report_every``
updates and an :class:`RLEvalEvent` after each greedy evaluation.  The trainer builds them,
its callbacks receive them, the command line writes them (``to_json``), and a job's page reads
them back with :func:`read_rl_event`.

>>> line = RLEvalEvent(update=10, agreement=0.5, q_error=0.25, uas=0.75, configurations=8,
...                    sentences=2, seconds=0.1).to_json()
>>> line["event"], read_rl_event(line) == RLEvalEvent.from_json(line)
('rl_eval', True)
>>> read_rl_event({"event": "lunch"})
Traceback (most recent call last):
...
parsing_core.errors.ParsingCoreError: unknown RL log event 'lunch'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..records import Record, TaggedRecord, read_tagged, tags
from .config import RLConfig


@dataclass(frozen=True)
class RLStartEvent(TaggedRecord):
    """The first line: the data, the sentences used, the device and the settings."""

    event: ClassVar[str] = "rl_start"
    data: str
    sentences: int
    device: str
    config: RLConfig

    def to_json(self) -> Record:
        return {"event": self.event, "data": self.data, "sentences": self.sentences, "device": self.device,
                "config": self.config.to_dict()}

    @classmethod
    def from_json(cls, data: Record) -> RLStartEvent:
        return cls(data["data"], data["sentences"], data["device"], RLConfig.from_dict(data["config"]))


@dataclass(frozen=True)
class RLProgressEvent(TaggedRecord):
    """Since the last progress line: the mean return of the episodes that ended (None if none),
    the mean TD loss, and the share of visited configurations where the greedy move was
    optimal by the exact oracle (None when not tracked)."""

    event: ClassVar[str] = "rl_progress"
    update: int
    updates: int
    moves: int  # stepped so far, in all episodes
    episodes: int  # ended so far
    mean_return: float | None
    td_loss: float
    agreement: float | None
    epsilon: float
    beta: float
    seconds: float  # since the run started
    updates_per_s: float


@dataclass(frozen=True)
class RLEvalEvent(TaggedRecord):
    """A greedy evaluation (:mod:`parsing_core.rl.evaluation`) after ``update`` updates."""

    event: ClassVar[str] = "rl_eval"
    update: int
    agreement: float
    q_error: float
    uas: float
    configurations: int
    sentences: int
    seconds: float


RLEvent = RLStartEvent | RLProgressEvent | RLEvalEvent
RL_EVENTS: dict[str, type[RLEvent]] = tags(RLStartEvent, RLProgressEvent, RLEvalEvent)


def read_rl_event(data: Record) -> RLEvent:
    """The typed record of one log line (a dict as ``json.loads`` gives it)."""
    return read_tagged(RL_EVENTS, data, "RL log")
