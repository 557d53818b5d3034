"""A lesson file, read into values: a :class:`Lesson` of :class:`Step` s, each with its board, what
to look at, its claims and its question.

A lesson is one TOML file (read with the standard library's :mod:`tomllib`).  Its top holds the
title, a one-line summary, the texts it draws on (``references``: keys of
:data:`parsing_core.references.REFERENCES`), sentences of its own (``[sentences.NAME]``
with ``words`` and ``heads``) and the board every step starts from (``[board]``); each
``[[steps]]`` gives its text and overrides any part of the board, above all the ``moves``::

    title = "Static oracles and why they fail"
    references = ["arc-eager-notes"]
    recap = "A static oracle knows the gold path only; off it, its advice loses arcs."
    [board]
    sentence = "he-sent-her-a-letter"
    system = "arc-eager"

    [[steps]]
    text = "The parser has shifted *her* instead of attaching it."
    moves = "SH.LA.RA.SH"
    sources = "the arc-eager oracle notes, Table 1"
    after = "RIGHT-ARC would make *a* a dependent of *her*: *a* belongs to *letter*."
    look = {target = "cost-table", move = "RA", text = "the RA row"}
    [[steps.claims]]
    kind = "cost"
    move = "RA"
    cost = 1
    lost = ["letter -> a"]
    [steps.question]
    kind = "next-move"

A step may also name a move to ``highlight``, what to ``look`` at (a target of
:data:`LOOK_TARGETS`), a live ``demo`` (:data:`DEMOS`), ``board = false`` (none shown) and its
``sources`` (a footnote).  On a question step the ``text`` is read *before* answering; ``after``
(the explanation), the look line, the claims and the highlight appear once it is answered.  A
lesson ends with a one-line ``recap``; ``costs = false``: legal moves only, before costs are
taught.  Anything that does not fit raises :class:`LessonError`, naming the file and the step.

>>> lesson = read_lesson({"title": "t", "board": {"sentence": "s", "system": "arc-eager"},
...                       "steps": [{"text": "hi", "moves": "SH.LA"}]}, "x.toml")
>>> lesson.steps[0].board.moves, lesson.steps[0].board.system
(('SH', 'LA'), 'arc-eager')
>>> read_lesson({"title": "t", "board": {"sentence": "s", "system": "arc-eager"},
...              "steps": [{"text": "hi", "claims": [{"kind": "nonsense"}]}]}, "x.toml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
parsing_core.lessons.format.LessonError: x.toml, step 1: unknown claim 'nonsense'; ...
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import ParsingCoreError
from ..references import Reference, UnknownReference, references_of

CLAIM_KINDS: dict[str, str] = {
    "cost": "what a move costs at the step's configuration (and, with `lost`, the gold arcs it loses)",
    "optimal": "the set of optimal moves at the step's configuration",
    "static": "the move the static oracle takes at the step's configuration",
    "legal": "the set of legal moves at the step's configuration ([] with `final = false`: stuck)",
    "best": "the most gold arcs any parse from the step's configuration can still build",
    "projective": "whether the gold tree is projective (ROOT first, or last with `root_last`)",
    "buildable": "whether a system (with `options`) can build the gold tree",
}
QUESTION_KINDS: tuple[str, ...] = ("next-move", "all-optimal", "cost-of-move", "crossing-arcs",
                                   "which-systems")
#: Live demonstrations a step may run beside its board (the page knows how to run each).
DEMOS: dict[str, str] = {
    "training": "train two small parsers, static and dynamic, side by side, and draw their dev UAS curves",
}
#: What a step may point at ("Look at: ..."), each a part of the Lessons page.
LOOK_TARGETS: dict[str, str] = {
    "stack": "the stack, drawn under the words",
    "buffer": "the buffer, drawn under the words",
    "arcs": "the words and the arcs built so far",
    "gold-arcs": "the gold tree's arcs in the drawing",
    "move": "a move's button (name it: move = \"RA\")",
    "cost-table": "the table of moves (a row: move = \"RA\"); not on a final configuration",
    "compare": "the second oracle's cost column (the board names one to compare)",
    "demo": "the step's live demonstration",
}
BOARD_FIELDS = ("sentence", "system", "options", "labelled", "oracle", "compare", "moves")


class LessonError(ParsingCoreError):
    """A lesson file that cannot be read or checked; the message names the file and the step."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


@dataclass(frozen=True)
class Board:
    """What a stepper link holds: sentence (a teaching ``sent_id`` or a lesson's own sentence),
    system, its options, labelled or not, the oracle shown ("" = the exact oracle the claims are
    checked against), moves, and a second oracle to compare."""

    sentence: str = ""
    system: str = ""
    options: tuple[str, ...] = ()
    labelled: bool = False
    oracle: str = ""
    moves: tuple[str, ...] = ()
    compare: str = ""  # a second oracle whose costs are shown beside the first


@dataclass(frozen=True)
class Claim:
    """A checkable fact beside a step's prose: its kind (:data:`CLAIM_KINDS`) and its fields."""

    kind: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)


@dataclass(frozen=True)
class Question:
    """An exercise asked at the step: its kind (:data:`QUESTION_KINDS`), the move a cost question is
    about, and the prompt (empty: the exercise's own)."""

    kind: str
    move: str = ""
    prompt: str = ""


@dataclass(frozen=True)
class Look:
    """What a step points at: a target of :data:`LOOK_TARGETS` (or ""), in words; a move's button or row."""

    target: str
    text: str
    move: str = ""


@dataclass(frozen=True)
class Step:
    number: int  # from 1
    text: str  # on a question step: what is read before answering
    board: Board
    look: Look | None = None
    highlight: str = ""  # a move kind to highlight on the board (SH, LA, RA, RE, SW)
    claims: tuple[Claim, ...] = ()
    question: Question | None = None
    demo: str = ""  # one of DEMOS, or ""
    after: str = ""  # the explanation, shown once the question is answered
    sources: str = ""  # where the step's facts come from (a footnote)
    shows_board: bool = True  # ``board = false``: a step about something else shows none


@dataclass(frozen=True)
class InlineSentence:
    """A sentence a lesson gives itself: words and a gold tree (heads, labels optional)."""

    words: tuple[str, ...]
    heads: tuple[int, ...]
    labels: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Lesson:
    id: str  # the file's stem, e.g. "03-static-oracles"
    path: str
    title: str
    summary: str
    references: tuple[Reference, ...]  # the texts it draws on, cited in full at its end
    sentences: Mapping[str, InlineSentence]
    steps: tuple[Step, ...]
    recap: str = ""  # one line, shown at the end of the lesson
    sources: str = ""  # where the lesson's facts come from (a footnote on every step)
    costs: bool = True  # False: legal moves only, before costs are taught

    def where(self, step: int | None = None) -> str:
        return self.path if step is None else f"{self.path}, step {step}"


# -- reading --------------------------------------------------------------------------------------
def read_lesson(data: Mapping[str, Any], path: str, lesson_id: str = "") -> Lesson:
    """A lesson from a TOML file's table; :class:`LessonError` names ``path`` and the step."""
    title = text_field(data, "title", path, required=True)
    steps_data = data.get("steps")
    if not isinstance(steps_data, list) or not steps_data:
        raise LessonError(path, "a lesson needs at least one [[steps]]")
    base = read_board(data.get("board", {}), Board(), path)
    sentences = {name: read_sentence(value, f"{path}, sentence {name!r}")
                 for name, value in table(data, "sentences", path).items()}
    steps = tuple(read_step(s, i, base, f"{path}, step {i}") for i, s in enumerate(steps_data, start=1))
    references = read_references(data, path)
    recap, sources = text_field(data, "recap", path), text_field(data, "sources", path)
    return Lesson(lesson_id or path, path, title, text_field(data, "summary", path), references, sentences,
                  steps, recap, sources, data.get("costs") is not False)


def read_references(data: Mapping[str, Any], path: str) -> tuple[Reference, ...]:
    """``references``: keys of :data:`parsing_core.references.REFERENCES` (older files: ``seeds``)."""
    keys = data.get("references", data.get("seeds", []))
    if not isinstance(keys, list):
        raise LessonError(path, "references is a list of keys, e.g. references = [\"may-2017\"]")
    try:
        return references_of(str(k) for k in keys)
    except UnknownReference as err:
        raise LessonError(path, str(err)) from None


def read_step(data: Any, number: int, base: Board, where: str) -> Step:
    if not isinstance(data, dict):
        raise LessonError(where, "a step is a table ([[steps]])")
    known = {"text", "look", "highlight", "claims", "question", "demo", "after", "sources", "board",
             *BOARD_FIELDS}
    unknown = sorted(set(data) - known)
    if unknown:
        raise LessonError(where, f"unknown field {unknown[0]!r}; a step has {', '.join(sorted(known))}")
    board = read_board(data, base, where)
    if not board.sentence or not board.system:
        raise LessonError(where, "no sentence or no system: set them in [board] or in the step")
    claims = tuple(read_claim(c, where) for c in list_field(data, "claims", where))
    question = read_question(data["question"], where) if "question" in data else None
    text, demo = text_field(data, "text", where, required=True), text_field(data, "demo", where)
    if demo and demo not in DEMOS:
        raise LessonError(where, f"unknown demo {demo!r}; choose one of {', '.join(DEMOS)}")
    return Step(number, text, board, read_look(data.get("look"), where), text_field(data, "highlight", where),
                claims, question, demo, text_field(data, "after", where), text_field(data, "sources", where),
                data.get("board") is not False)


def read_look(data: Any, where: str) -> Look | None:
    """``look = {target = "cost-table", move = "RA", text = "the RA row"}`` (a bare string: no target)."""
    if data is None:
        return None
    if isinstance(data, str):
        return Look("", data)
    if not isinstance(data, dict) or not isinstance(data.get("text", ""), str):
        raise LessonError(where, "look is a table: look = {target = \"stack\", text = \"...\"}")
    return Look(str(data.get("target", "")), str(data.get("text", "")), str(data.get("move", "")))


def read_board(data: Any, base: Board, where: str) -> Board:
    """``base`` with the board fields ``data`` sets (``moves``: "SH.LA" or ["SH", "LA"])."""
    if not isinstance(data, dict):
        raise LessonError(where, "[board] is a table")
    changes: dict[str, Any] = {}
    for name in ("sentence", "system", "oracle", "compare"):
        if name in data:
            changes[name] = text_field(data, name, where)
    if "options" in data:
        changes["options"] = tuple(str(o) for o in list_field(data, "options", where))
    if "labelled" in data:
        changes["labelled"] = data["labelled"] is True
    if "moves" in data:
        changes["moves"] = read_moves(data["moves"], where)
    return replace(base, **changes)


def read_moves(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(m for m in value.replace(" ", ".").split(".") if m)
    if isinstance(value, list) and all(isinstance(m, str) for m in value):
        return tuple(value)
    raise LessonError(where, f"moves are a string like \"SH.LA.RA\" or a list of moves, not {value!r}")


def read_kind(data: Any, what: str, table: str, kinds: Collection[str], where: str) -> str:
    """The ``kind`` of a claim or question (``what``), written in the TOML ``table``: one of ``kinds``."""
    if not isinstance(data, dict) or "kind" not in data:
        raise LessonError(where, f"a {what} is a table with a kind ({table} kind = ...)")
    kind = str(data["kind"])
    if kind not in kinds:
        raise LessonError(where, f"unknown {what} {kind!r}; choose one of {', '.join(kinds)}")
    return kind


def read_claim(data: Any, where: str) -> Claim:
    kind = read_kind(data, "claim", "[[steps.claims]]", CLAIM_KINDS, where)
    return Claim(kind, {k: v for k, v in data.items() if k != "kind"})


def read_question(data: Any, where: str) -> Question:
    kind = read_kind(data, "question", "[steps.question]", QUESTION_KINDS, where)
    if kind == "cost-of-move" and "move" not in data:
        raise LessonError(where, "a cost-of-move question names its move (move = \"RA\")")
    return Question(kind, str(data.get("move", "")), str(data.get("prompt", "")))


def read_sentence(data: Any, where: str) -> InlineSentence:
    if not isinstance(data, dict) or "words" not in data or "heads" not in data:
        raise LessonError(where, "a lesson's sentence has words and heads")
    words = data["words"].split() if isinstance(data["words"], str) else [str(w) for w in data["words"]]
    heads = [int(h) for h in data["heads"]]
    labels = data.get("labels")
    return InlineSentence(tuple(words), tuple(heads), None if labels is None else tuple(map(str, labels)))


# -- small readers --------------------------------------------------------------------------------
def text_field(data: Mapping[str, Any], name: str, where: str, required: bool = False) -> str:
    value = data.get(name, "")
    if not isinstance(value, str) or (required and not value.strip()):
        raise LessonError(where, f"{name} must be {'a non-empty' if required else 'a'} string")
    return value


def list_field(data: Mapping[str, Any], name: str, where: str) -> list[Any]:
    value = data.get(name, [])
    if not isinstance(value, list):
        raise LessonError(where, f"{name} must be a list")
    return value


def table(data: Mapping[str, Any], name: str, where: str) -> Mapping[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise LessonError(where, f"[{name}] must be a table")
    return value
