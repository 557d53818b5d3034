"""The values an exercise is made of: the spec that names an item, the item, and the feedback.

An :class:`ItemSpec` is everything needed to make an item again: the kind, the sentence's key,
the system and its options, a seed and a level.  Its :attr:`~ItemSpec.id` is a short hash of
those parts and its :attr:`~ItemSpec.text` spells them out, so a list of specs is a link
(:func:`encode_set`, :func:`decode_set`): everyone who opens it gets the same items.

>>> spec = ItemSpec("next-move", "heads:2.0.2", "arc-eager", (), seed=7, level=1)
>>> spec.text
'next-move/heads%3A2.0.2/arc-eager/-/7/1'
>>> ItemSpec.parse(spec.text) == spec, len(spec.id)
(True, 8)
>>> decode_set(encode_set([spec, spec])) == [spec, spec]
True
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Generic, TypeVar
from urllib.parse import quote, unquote

from ..configuration import Configuration
from ..errors import ParsingCoreError
from ..sentence import Sentence
from ..transition import Transition
from ..trees import Arc

Option = tuple[str, bool | int | str]
Options = tuple[Option, ...]  # sorted (name, value) pairs: hashable, and part of the id
A = TypeVar("A")
LEVELS: tuple[int, ...] = (1, 2, 3)


class ExerciseError(ParsingCoreError):
    """An item that cannot be made (no exact oracle for this tree, nothing to ask) or read back."""


@dataclass(frozen=True)
class ItemSpec:
    """What names an item: kind, sentence key, system, options, seed, level."""

    kind: str
    sentence: str
    system: str
    options: Options = ()
    seed: int = 0
    level: int = 1

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ExerciseError(f"level {self.level} is not one of {LEVELS}")
        object.__setattr__(self, "options", tuple(sorted(self.options)))

    @property
    def text(self) -> str:
        """The parts, each URL-quoted, joined by ``/``; :meth:`parse` reads it back."""
        options = ",".join(f"{k}={v}" for k, v in self.options) or "-"
        parts = (self.kind, self.sentence, self.system, options, str(self.seed), str(self.level))
        return "/".join(quote(p, safe="") for p in parts)

    @property
    def id(self) -> str:
        """Eight hex digits of the SHA-256 of :attr:`text`: short, stable, the same everywhere."""
        return hashlib.sha256(self.text.encode()).hexdigest()[:8]

    @classmethod
    def parse(cls, text: str) -> ItemSpec:
        parts = [unquote(p) for p in text.split("/")]
        if len(parts) != 6 or not parts[4].lstrip("-").isdigit() or not parts[5].isdigit():
            raise ExerciseError(f"cannot read the item {text!r}")
        kind, sentence, system, options, seed, level = parts
        return cls(kind, sentence, system, read_options(options), int(seed), int(level))


def read_options(text: str) -> Options:
    """``root_last=True,model=mine`` → (("model", "mine"), ("root_last", True)); ``-`` → ()."""
    if text == "-":
        return ()
    pairs = [part.partition("=") for part in text.split(",")]
    return tuple(sorted((k, option_value(v)) for k, _, v in pairs))


def option_value(text: str) -> bool | int | str:
    if text in ("True", "False"):
        return text == "True"
    return int(text) if text.lstrip("-").isdigit() else text


def encode_set(specs: list[ItemSpec]) -> str:
    """A set of items as one URL-safe string (specs joined by ``~``)."""
    return "~".join(quote(spec.text, safe="") for spec in specs)


def decode_set(text: str) -> list[ItemSpec]:
    return [ItemSpec.parse(unquote(part)) for part in text.split("~") if part]


@dataclass(frozen=True)
class Hints:
    """The hint ladder, one rung at a time: where to look, the principle, the answer."""

    pointer: str
    principle: str
    answer: str

    @property
    def ladder(self) -> tuple[str, str, str]:
        return (self.pointer, self.principle, self.answer)


@dataclass(frozen=True)
class Item(Generic[A]):
    """One exercise: the question, the configuration it is asked about, and one right answer.

    ``key`` is one right answer, read off the exact oracle (several may be right: the kind's
    ``grade`` decides); ``moves`` lead from the initial configuration to ``configuration``,
    the ones at ``mistakes`` (indices) injected mistakes; ``asked`` is the move a question
    is about; ``sequence`` a derivation shown with the question; ``oracle`` the exact
    oracle that keys the item and ``compare`` the one it is compared with.
    """

    spec: ItemSpec
    sentence: Sentence
    prompt: str
    key: A
    hints: Hints
    configuration: Configuration | None = None
    moves: tuple[Transition, ...] = ()
    mistakes: tuple[int, ...] = ()
    asked: Transition | None = None
    sequence: tuple[Transition, ...] = ()
    oracle: str = ""
    compare: str = ""

    @property
    def id(self) -> str:
        return self.spec.id


@dataclass(frozen=True)
class Feedback:
    """A graded answer: right or not, partial credit in [0, 1], what a tutor would say.

    ``details``: one line per part of the answer (a move, a cell, an arc pair); ``arcs``: the
    gold arcs the feedback is about (to draw dashed); ``moves``: the right moves (to highlight).
    """

    correct: bool
    credit: float
    message: str
    hints: Hints
    details: tuple[str, ...] = ()
    arcs: frozenset[Arc] = field(default_factory=frozenset)
    moves: tuple[Transition, ...] = ()

    def __post_init__(self) -> None:
        if not 0 <= self.credit <= 1:
            raise ExerciseError(f"credit {self.credit} is outside [0, 1]")

    @property
    def text(self) -> str:
        """The message and its details, one a line."""
        return "\n".join([self.message, *self.details])
