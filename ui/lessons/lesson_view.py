"""What the Lessons page shows, built without Streamlit: a step's board as a stepper state, its
claims in words, the legal moves (before costs are taught), a lesson's place in the list, the next
lesson, and the lesson's part of the URL.

>>> import parsing_core.lessons as pl
>>> lessons, _ = pl.load_lessons(pl.lesson_files())
>>> state = step_state(lessons[2], lessons[2].steps[2])
>>> state.sentence, state.system, state.taken()
('he-sent-her-a-letter', 'arc-eager', ('SH', 'LA', 'RA', 'SH'))
>>> claim_words(lessons[2].steps[1].claims[0])
'SH costs 1 and loses sent -> her'
>>> place({"lesson": "03-static-oracles", "step": "9"}, lessons)
('03-static-oracles', 7)
>>> next_lesson(lessons[0], lessons).id, next_lesson(lessons[-1], lessons)
('02-arc-eager', None)
>>> trace = pc.replay(pc.get_system("arc-standard"), pc.default_sentence(), ["SH"])
>>> for row in legal_frame(trace).values.tolist():
...     print(row)
['SH', 'legal', '']
['LA', 'not possible: ROOT cannot become a dependent', '']
['RA', 'legal', 'ROOT → He']
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

import parsing_core as pc
import parsing_core.lessons as pl
from ui.views.sources import custom_key
from ui.views.state import StepperState
from ui.views.tables import arc_text


def sentence_key(lesson: pl.Lesson, name: str) -> str:
    """The stepper's key of a step's sentence: a teaching ``sent_id``, or the lesson's own sentence
    written into a ``custom:`` key (so the stepper link carries it)."""
    own = lesson.sentences.get(name)
    if own is None:
        return name
    return custom_key(pc.Sentence.from_heads(own.words, own.heads, own.labels))


def step_state(lesson: pl.Lesson, step: pl.Step, presenter: bool = False) -> StepperState:
    """The board a step opens with: all its moves taken, the cursor after the last."""
    b = step.board
    return StepperState(sentence_key(lesson, b.sentence), b.system, b.options, b.labelled,
                        b.oracle or judge_name(lesson, step), b.compare, b.moves, len(b.moves), presenter)


def judge_name(lesson: pl.Lesson, step: pl.Step) -> str:
    """The oracle a step's claims are checked against when it names none: the board shows it too."""
    return pl.judge(pl.Reached(lesson, step)).name


def claim_words(claim: pl.Claim) -> str:
    """A claim as a reader says it (the oracle named when it is not the exact judge)."""
    by = f" ({claim.get('oracle')} says)" if claim.get("oracle") else ""
    if claim.kind == "cost":
        lost = claim.get("lost")
        tail = "" if lost is None else f" and loses {', '.join(lost) or 'nothing'}"
        return f"{claim.get('move')} costs {claim.get('cost')}{tail}{by}"
    if claim.kind == "optimal":
        return f"optimal: {', '.join(claim.get('moves', []))}{by}"
    if claim.kind == "static":
        return f"the static oracle takes {claim.get('move')}"
    if claim.kind == "legal":
        moves = claim.get("moves", [])
        return f"legal moves: {', '.join(moves)}" if moves else "no move is legal" + (
            ": the parse is over" if claim.get("final") else "")
    if claim.kind == "best":
        return f"at most {claim.get('arcs')} gold arcs can still be built"
    if claim.kind == "projective":
        return f"the gold tree is {'' if claim.get('value') else 'not '}projective"
    return f"{claim.get('system')} {'can' if claim.get('value') else 'cannot'} build the gold tree"


def place(query: Mapping[str, str], lessons: list[pl.Lesson]) -> tuple[str, int] | None:
    """The lesson and step (from 1) a URL names, the step kept within the lesson; None: the list."""
    found = next((lesson for lesson in lessons if lesson.id == query.get("lesson")), None)
    if found is None:
        return None
    step = query.get("step", "1")
    number = int(step) if step.isdigit() else 1
    return found.id, max(1, min(len(found.steps), number))


def place_query(lesson: str, step: int, presenter: bool) -> dict[str, str]:
    return {"lesson": lesson, "step": str(step)} | ({"present": "1"} if presenter else {})


def questions_of(lesson: pl.Lesson) -> int:
    return sum(step.question is not None for step in lesson.steps)


def legal_frame(trace: pc.Trace) -> pd.DataFrame:
    """One row per move: legal, or why not; and the arc it would build (no costs: a lesson before
    costs are taught)."""
    system, c = trace.system, trace.final
    rows = []
    for t, reason in system.reasons(c).items():
        arc = system.arc_of(c, t) if reason is None else None
        rows.append({"move": str(t), "legal": "legal" if reason is None else f"not possible: {reason}",
                     "builds": arc_text(trace, arc) if arc else ""})
    return pd.DataFrame(rows)


def next_lesson(lesson: pl.Lesson, lessons: list[pl.Lesson]) -> pl.Lesson | None:
    """The lesson after ``lesson`` in the list, None after the last."""
    ids = [found.id for found in lessons]
    at = ids.index(lesson.id) + 1
    return lessons[at] if at < len(lessons) else None


def step_sources(lesson: pl.Lesson, step: pl.Step) -> str:
    """Where the step's facts come from: its own sources, else the lesson's."""
    return step.sources or lesson.sources
