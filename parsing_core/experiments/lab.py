"""The Oracle lab's job: what it is asked (:class:`LabSpec`) and what it writes, line by line.

A lab job compares two oracles of one system on the sentences of one treebank by the thesis's
§6.2 protocol (:mod:`.agreement`), sentence after sentence, and may then time every oracle of
the system against sentence length (:mod:`.timing`) and, for arc-standard, the thesis's
Algorithm 1 against the exact oracle (:mod:`.baseline`).  It writes one JSON line per record:

* :class:`LabStart` — the sentences it will walk (and how many it left out);
* :class:`SentenceRecord` — one walk: its bucket counts, its ρs, and its *confusions*, the
  configurations where the two optimal sets differ (Nederhof's Table 11 form), each with the
  moves that reach it, so a page can open it in the stepper;
* :class:`SpeedRecord` — the median cold milliseconds of one oracle near one length;
* :class:`BaselineRecord` — one sentence's costs at every step, exact oracle and Algorithm 1;
* :class:`LabEnd` — the last line: how long it took, and whether it was stopped.

A page sums the records it has so far (:func:`summary_of`): the result fills in as the job goes.

>>> spec = LabSpec("en_lines", sentences=50)
>>> LabSpec.from_json(spec.to_json()) == spec
True
>>> line = SentenceRecord(3, 6, True, {100.0: 4, 50.0: 1}, (1.0,) * 5, ()).to_json()
>>> read_lab_record(line).buckets[50.0], line["event"]
(1, 'lab_sentence')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from ..records import Record, TaggedRecord, read_tagged, tags
from .agreement import AgreementSummary, summarize
from .walks import NEDERHOF_FOLLOW, THESIS_FOLLOW

#: The walk policies a lab offers: the share of steps that take the first oracle's min-cost move.
FOLLOW = {THESIS_FOLLOW: "thesis §6.2: follow the first oracle 10 %, random legal move otherwise",
          NEDERHOF_FOLLOW: "Nederhof: follow the first oracle 90 % (a parser right 90 % of the time)"}


@dataclass(frozen=True)
class LabSpec:
    """What a lab job does: ``approx`` against ``exact`` in ``system`` over the first
    ``sentences`` (with a gold tree) of ``treebank``'s ``split``; with ``speed``, timings too."""

    treebank: str
    split: str = "train"
    folder: str | None = None  # None: the data directory
    system: str = "arc-standard"
    approx: str = "thesis-approx"
    exact: str = "exact"
    follow: float = THESIS_FOLLOW
    sentences: int = 200
    seed: int = 0
    speed: bool = False
    lengths: tuple[int, ...] = (5, 10, 20, 40, 80)
    samples: int = 10  # configurations timed per (oracle, length)
    baseline_lengths: tuple[int, ...] = (8, 12, 16, 20, 24)

    def to_json(self) -> Record:
        return asdict(self) | {"lengths": list(self.lengths), "baseline_lengths": list(self.baseline_lengths)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LabSpec:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        for name in ("lengths", "baseline_lengths"):
            if name in known:
                known[name] = tuple(known[name])
        return cls(**known)


@dataclass(frozen=True)
class Confusion:
    """One configuration where the optimal sets differ: the sets (``{RA, SH}``) and the moves
    from the initial configuration that reach it (``SH.SH.LA``)."""

    exact: str
    approx: str
    moves: str


class FlatRecord(TaggedRecord):
    """A record whose JSON line is its event name and its fields, as they are (numbers and strings):
    :class:`~parsing_core.records.TaggedRecord`'s round trip.  A field with a default may be
    missing from the line (older logs); any other missing field is a ``KeyError``.

    >>> LabEnd(12.5, False).to_json()
    {'event': 'lab_end', 'seconds': 12.5, 'stopped': False}
    >>> SpeedRecord.from_json({"event": "lab_speed", "oracle": "exact", "n": 10, "ms": 0.5, "samples": 3})
    SpeedRecord(oracle='exact', n=10, ms=0.5, samples=3, note='')
    """


@dataclass(frozen=True)
class LabStart(FlatRecord):
    event: ClassVar[str] = "lab_start"
    sentences: int  # to be walked
    left_out: int  # of the budget: without a gold tree, or refused by an oracle (too long)


@dataclass(frozen=True)
class SentenceRecord(TaggedRecord):
    """One walk over the sentence numbered ``index`` in its treebank file (0-based)."""

    event: ClassVar[str] = "lab_sentence"
    index: int
    tokens: int
    projective: bool
    buckets: Mapping[float, int]  # configurations per inclusion bucket
    rhos: tuple[float, ...]
    confusions: tuple[Confusion, ...] = field(default=())

    def to_json(self) -> Record:
        return {"event": self.event, "index": self.index, "tokens": self.tokens,
                "projective": self.projective, "buckets": [[b, k] for b, k in self.buckets.items()],
                "rhos": list(self.rhos), "confusions": [asdict(c) for c in self.confusions]}

    @classmethod
    def from_json(cls, data: Record) -> SentenceRecord:
        return cls(data["index"], data["tokens"], data["projective"], {b: k for b, k in data["buckets"]},
                   tuple(data["rhos"]), tuple(Confusion(**c) for c in data["confusions"]))


@dataclass(frozen=True)
class SpeedRecord(FlatRecord):
    """Median cold ms per configuration of ``oracle`` on sentences near ``n`` tokens; ``ms`` is
    None where there was nothing to time (``note`` says why)."""

    event: ClassVar[str] = "lab_speed"
    oracle: str
    n: int
    ms: float | None
    samples: int
    note: str = ""


@dataclass(frozen=True)
class BaselineRecord(FlatRecord):
    """The costs at every step of one parse: the exact oracle's and Algorithm 1's milliseconds."""

    event: ClassVar[str] = "lab_baseline"
    index: int
    tokens: int
    steps: int
    exact_ms: float
    algorithm1_ms: float


@dataclass(frozen=True)
class LabEnd(FlatRecord):
    event: ClassVar[str] = "lab_end"
    seconds: float
    stopped: bool


LabRecord = LabStart | SentenceRecord | SpeedRecord | BaselineRecord | LabEnd
_KINDS: dict[str, type[LabRecord]] = tags(LabStart, SentenceRecord, SpeedRecord, BaselineRecord, LabEnd)


def read_lab_record(line: Record) -> LabRecord:
    """One log line as its record (the jobs board's reader for the ``lab`` kind)."""
    return read_tagged(_KINDS, line, "lab log")


def summary_of(records: Iterable[LabRecord], projective: bool) -> AgreementSummary:
    """The agreement of the walks so far over projective (or non-projective) gold trees: the same
    numbers :func:`~.agreement.agreement` gives for those sentences walked in that order."""
    buckets: Counter[float] = Counter()
    rhos: list[float] = []
    for r in records:
        if isinstance(r, SentenceRecord) and r.projective == projective:
            buckets.update(r.buckets)
            rhos.extend(r.rhos)
    return summarize(buckets, rhos)
