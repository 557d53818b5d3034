"""Lessons: transition-based parsing taught step by step, as data; each step a board, each claim checked.

The lessons draw on five texts (:mod:`parsing_core.references`), cited at the foot of each step.

A lesson is one TOML file in ``assets/lessons/`` (see :mod:`.format` for the fields).  A *step*
is a short Markdown text, a *board* (sentence, system and options, oracle, moves: what a stepper
link holds), optionally what to *look* at and a move to *highlight*, optionally *claims*
(checkable facts: a move's cost and the gold arcs it loses, the optimal moves, the static oracle's
move, the legal moves, the best still reachable, projectivity, buildability), optionally a
*question* (an exercise item, graded by :mod:`parsing_core.exercises`) with the explanation shown
*after* it is answered, and its *sources* (a footnote).  A lesson ends with a one-line *recap*.

Nothing in a lesson is trusted: :func:`check_lesson` replays every step, checks every claim
against the oracles, every arc its prose names (:mod:`.prose`) and what it shows before an answer
(:mod:`.rules`), and grades every question with its own key::

    python -m parsing_core.lessons check                      # every lesson
    python -m parsing_core.lessons check assets/lessons/03-static-oracles.toml

>>> lessons, problems = load_lessons(lesson_files())
>>> len(lessons) >= 9, problems
(True, [])
>>> lessons[2].steps[2].board.moves
('SH', 'LA', 'RA', 'SH')
"""

from __future__ import annotations

from .board import Reached, arc_text, read_arc, replay
from .check import (
    LESSONS_DIR,
    Problem,
    check_files,
    check_lesson,
    lesson_files,
    load_lesson,
    load_lessons,
    report,
)
from .claims import check_claim, judge
from .format import (
    CLAIM_KINDS,
    LOOK_TARGETS,
    QUESTION_KINDS,
    Board,
    Claim,
    Lesson,
    LessonError,
    Look,
    Question,
    Step,
)
from .questions import gradable, item_of

__all__ = [
    "CLAIM_KINDS", "LESSONS_DIR", "LOOK_TARGETS", "QUESTION_KINDS", "Board", "Claim", "Lesson", "LessonError",
    "Look", "Problem", "Question", "Reached", "Step", "arc_text", "check_claim", "check_files",
    "check_lesson", "gradable", "item_of", "judge", "lesson_files", "load_lesson", "load_lessons", "read_arc",
    "replay", "report",
]
