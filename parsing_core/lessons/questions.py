"""A step's question as an exercise item, graded by :func:`parsing_core.exercises.grade` like any other.

The move questions (next-move, all-optimal, cost-of-move) are asked *at the step's configuration*,
the one on the board, with the same answer key, hints and grading as the exercise kinds: only the
configuration is chosen by the lesson rather than by a random walk.  The tree questions
(crossing-arcs, which-systems) are about the gold tree and made by the kinds themselves.  An item's
spec is that of its kind, system and sentence, seeded by the lesson and step, so its id is stable.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import replace
from typing import Any

from ..exercises import CostAnswer, ExerciseError, Item, ItemSpec, get_kind, grade, make_item, sentence_key
from ..exercises.kind import move_hints, optimal_rung, shown
from ..exercises.setting import Setting
from ..exercises.tutor import why_costs
from ..oracles import Answer
from ..transition import Transition
from .board import Reached
from .format import Lesson, Question, Step

MOVE_KINDS = ("next-move", "all-optimal", "cost-of-move")


def spec_of(lesson: Lesson, step: Step, reached: Reached) -> ItemSpec:
    """The spec of the step's question: its kind, sentence, system, options; seeded by lesson and step."""
    assert step.question is not None
    own = step.board.sentence in lesson.sentences
    key = sentence_key(reached.sentence) if own else step.board.sentence
    seed = zlib.crc32(f"{lesson.id}/{step.number}".encode())
    return ItemSpec(step.question.kind, key, step.board.system, tuple((o, True) for o in step.board.options),
                    seed=seed, level=1)


def item_of(lesson: Lesson, step: Step, reached: Reached) -> Item[Any]:
    """The step's question as an item (:class:`ExerciseError` when it cannot be asked here)."""
    assert step.question is not None
    spec = spec_of(lesson, step, reached)
    if step.question.kind not in MOVE_KINDS:
        item = make_item(spec, reached.sentence)
        return replace(item, prompt=step.question.prompt) if step.question.prompt else item
    where = get_kind(spec.kind).where(spec, reached.sentence)
    return move_item(spec, step.question, where, reached)


def move_item(spec: ItemSpec, question: Question, where: Setting, reached: Reached) -> Item[Any]:
    """A move question at the reached configuration, keyed by the exact oracle of ``where``."""
    c, sentence = reached.configuration, reached.sentence
    answer = where.answer(c)
    if not answer.optimal:
        raise ExerciseError("no move is optimal here: nothing to ask")
    if spec.kind != "cost-of-move" and len(answer.costs) < 2:
        only = ", ".join(t.name for t in answer.costs)
        raise ExerciseError(f"{only} is the only legal move here: the one enabled button answers it")
    lead = shown(sentence, c, mistakes_made(where, reached))
    moves = tuple(Transition.parse(m) for m in reached.moves)
    if spec.kind == "next-move":
        prompt = f"{lead}, which move should the parser take?"
        key: Any = answer.optimal[0]
        hints = move_hints(sentence, c, optimal_rung(sentence, answer))
        asked = None
    elif spec.kind == "all-optimal":
        prompt, key = f"{lead}, tick every optimal move.", frozenset(answer.optimal)
        hints, asked = move_hints(sentence, c, optimal_rung(sentence, answer)), None
    else:
        asked = Transition.parse(question.move).bare
        key = cost_key(answer, asked)
        prompt = f"{lead}, what does {asked.name} cost?"
        hints = move_hints(sentence, c, why_costs(sentence, asked, answer))
    return Item(spec, sentence, question.prompt or prompt, key, hints, c, moves, asked=asked,
                oracle=where.oracle.name)


def cost_key(answer: Answer, t: Transition) -> CostAnswer:
    if t not in answer.costs:
        raise ExerciseError(f"{t} is not legal here: its cost cannot be asked")
    return CostAnswer(answer.costs[t])


def mistakes_made(where: Setting, reached: Reached) -> int:
    """How many of the moves that led here were not optimal where they were made."""
    system, c, count = where.system, where.system.initial(reached.sentence), 0
    for text in reached.moves:
        t = Transition.parse(text)
        count += t.bare not in where.answer(c).optimal
        c = system.apply(c, t)
    return count


def gradable(item: Item[Any]) -> str | None:
    """None when the item's own key is graded right and a wrong answer wrong; else what fails."""
    if not grade(item, item.key).correct:
        return "its own answer key is graded wrong"
    wrong = get_kind(item.spec.kind).wrong(item, random.Random(item.id))
    if wrong is not None and grade(item, wrong).correct:
        return f"the wrong answer {wrong!r} is graded right"
    return None
