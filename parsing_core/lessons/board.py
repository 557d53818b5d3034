"""A step's board made real: its sentence, its system, and the configuration its moves reach.

A sentence is named by a teaching ``sent_id`` (:func:`parsing_core.teaching_sentences`) or by a
name the lesson gives its own sentence.  Every move must be legal where it is played: the first
one that is not is reported with its number and the system's reason.

Arcs in claims are written ``head -> dependent`` (or with →), each end a word of the sentence,
ROOT, or a token number when a word occurs twice:

>>> import parsing_core as pc
>>> s = pc.Sentence.from_heads("He sent her a letter .".split(), [2, 0, 2, 5, 2, 2])
>>> read_arc(s, "letter -> a"), read_arc(s, "ROOT → sent"), read_arc(s, "2 -> 6")
((5, 4), (0, 2), (2, 6))
>>> arc_text(s, (5, 4))
'letter → a'
"""

from __future__ import annotations

from functools import lru_cache

from ..configuration import Configuration
from ..errors import ParsingCoreError
from ..sentence import Sentence
from ..systems import TransitionSystem, get_system
from ..teaching import teaching_sentences
from ..transition import Transition
from ..trees import Arc
from .format import Board, Lesson, LessonError, Step


@lru_cache(maxsize=1)
def teaching_by_id() -> dict[str, Sentence]:
    return {s.sent_id: s for s in teaching_sentences() if s.sent_id}


def sentence_of(lesson: Lesson, name: str, where: str) -> Sentence:
    """The sentence ``name`` names: the lesson's own, else a teaching sentence."""
    if name in lesson.sentences:
        own = lesson.sentences[name]
        try:
            return Sentence.from_heads(own.words, own.heads, own.labels, sent_id=None)
        except ParsingCoreError as error:
            raise LessonError(where, f"the lesson's sentence {name!r} is not a tree: {error}") from error
    if name in teaching_by_id():
        return teaching_by_id()[name]
    raise LessonError(where, f"unknown sentence {name!r}: not a teaching sentence (assets/teaching.conllu) "
                             "nor one of the lesson's [sentences]")


def system_of(board: Board, where: str) -> TransitionSystem:
    try:
        return get_system(board.system, labelled=board.labelled, **{o: True for o in board.options})
    except (ParsingCoreError, TypeError) as error:
        raise LessonError(where, f"cannot make the system {board.system!r} with {board.options}: "
                                 f"{error}") from error


def replay(system: TransitionSystem, sentence: Sentence, moves: tuple[str, ...], where: str) -> Configuration:
    """The configuration ``moves`` reach from the initial one; the first illegal move is reported."""
    c = system.initial(sentence)
    for i, text in enumerate(moves, start=1):
        try:
            t = Transition.parse(text)
        except ParsingCoreError as error:
            raise LessonError(where, f"move {i} ({text!r}) is not a move: {error}") from error
        reason = system.why_illegal(c, t)
        if reason is not None:
            raise LessonError(where, f"move {i} ({text}) is illegal in {system.name}: {reason}")
        c = system.apply(c, t)
    return c


class Reached:
    """A step's sentence, system and configuration, made once."""

    def __init__(self, lesson: Lesson, step: Step) -> None:
        self.where = lesson.where(step.number)
        self.moves = step.board.moves
        self.sentence = sentence_of(lesson, step.board.sentence, self.where)
        self.system = system_of(step.board, self.where)
        self.configuration = replay(self.system, self.sentence, step.board.moves, self.where)


# -- arcs in words ------------------------------------------------------------------------------------
def read_arc(sentence: Sentence, text: str) -> Arc:
    head, arrow, dependent = text.replace("→", "->").partition("->")
    if not arrow:
        raise ParsingCoreError(f"an arc is written 'head -> dependent', not {text!r}")
    return token_of(sentence, head.strip()), token_of(sentence, dependent.strip())


def token_of(sentence: Sentence, word: str) -> int:
    """The token a word names: ROOT is 0, a number is itself, a word must occur once."""
    if word == "ROOT":
        return 0
    if word.isdigit() and 0 <= int(word) <= sentence.n:
        return int(word)
    found = [i for i in range(1, sentence.n + 1) if sentence.word(i) == word]
    if len(found) != 1:
        raise ParsingCoreError(f"the word {word!r} occurs {len(found)} times in the sentence: "
                               "name it by its number")
    return found[0]


def arc_text(sentence: Sentence, arc: Arc) -> str:
    return f"{sentence.word(arc[0])} → {sentence.word(arc[1])}"
