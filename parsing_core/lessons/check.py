"""Loading lesson files, and checking them: every state replays, every claim holds, every question grades.

A file that cannot be read is a :class:`Problem` naming it; the other files still load
(:func:`load_lessons`).  :func:`check_lesson` replays each step's moves, checks each claim
against the oracles (:mod:`.claims`), each arc its prose names (:mod:`.prose`), what it shows and
when (:mod:`.rules`: no key before the answer, looks at what is there, sources in a footnote, a
recap), and makes and grades each question (:mod:`.questions`); each failure is a problem naming
the file and the step.  :func:`report` writes what was found.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..errors import ParsingCoreError
from ..oracles import list_oracles
from . import rules
from .board import Reached
from .claims import check_claim
from .format import Lesson, LessonError, Step, read_lesson
from .prose import check_prose_arcs
from .questions import gradable, item_of

LESSONS_DIR = Path(__file__).resolve().parents[2] / "assets" / "lessons"


@dataclass(frozen=True)
class Problem:
    """Something wrong with a lesson file: where (file, and step) and what."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


def load_lesson(path: Path) -> Lesson:
    """One lesson file (TOML); :class:`LessonError` names the file, and the step where there is one."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise LessonError(path.name, f"cannot be read: {error}") from error
    return read_lesson(data, path.name, path.stem)


def lesson_files(folder: Path = LESSONS_DIR) -> list[Path]:
    """The lesson files of a folder, in their order (by name: ``01-...``, ``02-...``)."""
    return sorted(folder.glob("*.toml"))


def load_lessons(paths: Iterable[Path]) -> tuple[list[Lesson], list[Problem]]:
    """The lessons that load, and a problem for each file that does not."""
    lessons, problems = [], []
    for path in paths:
        try:
            lessons.append(load_lesson(path))
        except LessonError as error:
            problems.append(Problem(error.where, error.message))
    return lessons, problems


def check_lesson(lesson: Lesson) -> list[Problem]:
    """Every step of the lesson checked, and its recap; an empty list when all is well."""
    problems = [problem for step in lesson.steps for problem in check_step(lesson, step)]
    return problems + [Problem(lesson.where(), message) for message in rules.check_recap(lesson)]


def check_step(lesson: Lesson, step: Step) -> list[Problem]:
    where = lesson.where(step.number)
    try:
        reached = Reached(lesson, step)
    except LessonError as error:
        return [Problem(error.where, error.message)]
    problems = [Problem(where, message) for message in shown(lesson, step, reached)]
    known = list_oracles(reached.system)
    for oracle in (o for o in (step.board.oracle, step.board.compare) if o and o not in known):
        problems.append(Problem(where, f"no oracle {oracle!r} for {reached.system.name}; "
                                       f"choose one of {', '.join(known)}"))
    if step.highlight and step.highlight not in reached.system.kinds:
        problems.append(Problem(where, f"highlight {step.highlight!r} is not a move of {reached.system.name} "
                                       f"({', '.join(reached.system.kinds)})"))
    for claim in step.claims:
        try:
            wrong = check_claim(claim, reached)
        except (ParsingCoreError, ValueError, TypeError) as error:
            wrong = f"cannot be checked: {error}"
        if wrong is not None:
            problems.append(Problem(where, f"the {claim.kind} claim is false: {wrong}"))
    if step.question is not None:
        problems += [Problem(where, message) for message in check_question(lesson, step, reached)]
    return problems


def shown(lesson: Lesson, step: Step, reached: Reached) -> list[str]:
    """What is wrong with what the step shows: its look, its sources, its board, the arcs its prose names."""
    return (rules.check_look(lesson, step, reached) + rules.check_provenance(step)
            + rules.check_without_board(step) + check_prose_arcs(step, reached))


def check_question(lesson: Lesson, step: Step, reached: Reached) -> list[str]:
    """The question can be asked, its key grades right, and nothing read before it gives the key."""
    assert step.question is not None
    try:
        item = item_of(lesson, step, reached)
        wrong = gradable(item)
    except ParsingCoreError as error:
        return [f"the {step.question.kind} question cannot be asked: {error}"]
    told = rules.check_no_key_before_answer(step, reached, item)
    return told + ([f"the {step.question.kind} question {wrong}"] if wrong is not None else [])


def check_files(paths: Iterable[Path]) -> tuple[list[Lesson], list[Problem]]:
    """Load and check: the lessons read, and every problem found in any of the files."""
    lessons, problems = load_lessons(paths)
    for lesson in lessons:
        problems.extend(check_lesson(lesson))
    return lessons, problems


def report(lessons: list[Lesson], problems: list[Problem]) -> str:
    """What was checked and what is wrong, one line each."""
    bad = {p.where.split(",")[0] for p in problems}
    lines = [f"{'FAIL' if lesson.path in bad else 'ok  '} {lesson.path}: {lesson.title} ({size(lesson)})"
             for lesson in lessons]
    lines += [f"  {p}" for p in problems]
    lines.append(f"{counted(len(lessons), 'lesson')} read, {counted(len(problems), 'problem')}.")
    return "\n".join(lines)


def size(lesson: Lesson) -> str:
    """``4 steps, 5 claims, 2 questions``."""
    claims = sum(len(s.claims) for s in lesson.steps)
    questions = sum(s.question is not None for s in lesson.steps)
    return ", ".join([counted(len(lesson.steps), "step"), counted(claims, "claim"),
                      counted(questions, "question")])


def counted(n: int, noun: str) -> str:
    """``1 step``, ``2 steps``."""
    return f"{n} {noun}{'s' * (n != 1)}"
