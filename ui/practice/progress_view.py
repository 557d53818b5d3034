"""What follows from the answers, shown: the progress chart, the review queue, a set and its results.

The rules are the store's (:mod:`server.progress.learning`): a skill is mastered after
``MASTERY_RUN`` right answers in a row without a hint; every item answered sits in one of five
Leitner boxes, a miss sends it back to box 1, due again in five minutes.

>>> from datetime import datetime
>>> p = SkillProgress("next-move/arc-eager", answered=4, correct=3, streak=2, best_run=2,
...                   boxes=(1, 2, 0, 0, 0))
>>> mastery_words(p)
'2 of 3 in a row without hints: 1 more to master'
>>> due_words(datetime(2026, 1, 1, 9, 5), now=datetime(2026, 1, 1, 9, 0))
'in 5 min'
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pandas as pd
import plotly.graph_objects as go

import parsing_core.exercises as ex
from server.progress import BOX_WAITS, MASTERY_RUN, ItemResult, ReviewItem, SkillProgress
from ui.practice.items_view import cost_text, given_words, move_cost, skill_of, skill_title

BOX_COLOURS = ("#D55E00", "#E69F00", "#F0E442", "#56B4E9", "#009E73")  # box 1 (missed) .. 5 (known)
def wait_words(wait: timedelta) -> str:
    minutes = int(wait.total_seconds() // 60)
    days = minutes // (60 * 24)
    return f"{minutes} min" if minutes < 60 * 24 else f"{days} day{'s' * (days != 1)}"


RULES = (f"**Mastery:** {MASTERY_RUN} right answers in a row, each the first answer to a new item and "
         "without a hint, master a skill (a hint or a wrong answer starts the run again; “show me” counts "
         "as a hint).  **Review:** every item you answer sits in one of five boxes; a right answer "
         "without hints moves it up a box, a wrong answer sends it back to box 1.  An item is due again "
         "after its box's wait: " + ", ".join(f"box {b} {wait_words(w)}" for b, w in BOX_WAITS.items())
         + ".  **Retries:** answering an item again before it is due (right after its feedback, say) is "
         "kept, but counts neither toward mastery nor up the boxes.")


def mastery_words(p: SkillProgress) -> str:
    """Where a skill stands on the way to mastery, in words."""
    if p.mastered:
        return f"mastered: {MASTERY_RUN} right first answers in a row, without hints"
    if not p.answered:
        return f"new: {MASTERY_RUN} right in a row without hints master it"
    return f"{p.streak} of {MASTERY_RUN} in a row without hints: {p.to_mastery} more to master"


def next_skill(skill: str, mastered: set[str], offered: tuple[str, ...]) -> str | None:
    """The skill to practise after ``skill``: the next kind (in ``offered`` order, wrapping round)
    in the same system that is not mastered yet; None when every one is.

    >>> kinds = ("next-move", "cost-of-move", "all-optimal")
    >>> next_skill("next-move/arc-eager", {"cost-of-move/arc-eager"}, kinds)
    'all-optimal/arc-eager'
    """
    kind, _, system = skill.partition("/")
    start = offered.index(kind) + 1 if kind in offered else 0
    for other in (*offered[start:], *offered[:start]):
        if f"{other}/{system}" not in mastered and other != kind:
            return f"{other}/{system}"
    return None


def due_words(due: datetime, now: datetime) -> str:
    """``due now``, ``in 5 min``, ``in 3 h``, ``in 2 days``."""
    left = (due - now).total_seconds()
    if left <= 0:
        return "due now"
    if left < 3600:
        return f"in {max(1, round(left / 60))} min"
    return f"in {round(left / 3600)} h" if left < 86400 else f"in {round(left / 86400)} days"


def run_words(p: SkillProgress) -> str:
    """The run toward mastery, as a chart's row says it: ``★ mastered``, ``1 of 3 in a row``."""
    return "★ mastered" if p.mastered else f"{p.streak} of {MASTERY_RUN} in a row" if p.answered else "new"


def progress_figure(rows: list[SkillProgress], height_per_skill: int = 46) -> go.Figure:
    """One row per skill, named with its run toward mastery: the skill's items per review box,
    stacked (a single narrow chart: it fits a phone)."""
    names = [f"<b>{skill_title(p.skill)}</b><br>{run_words(p)}" for p in rows]
    figure = go.Figure()
    for box in range(len(BOX_COLOURS)):
        figure.add_bar(y=names, x=[p.boxes[box] for p in rows], orientation="h", name=f"{box + 1}",
                       marker_color=BOX_COLOURS[box],
                       hovertemplate=f"%{{x}} item(s) in box {box + 1}<extra></extra>")
    figure.update_layout(barmode="stack", height=90 + height_per_skill * len(rows),
                         margin={"l": 10, "r": 10, "t": 30, "b": 30},
                         legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0,
                                 "traceorder": "normal", "title": {"text": "items per review box:"}})
    figure.update_xaxes(dtick=1, title=None, rangemode="tozero")
    figure.update_yaxes(autorange="reversed")
    return figure


def review_frame(queue: list[ReviewItem], now: datetime, sentences: dict[str, str]) -> pd.DataFrame:
    """The review queue, most urgent first: the item's sentence, skill, box, when it is due."""
    return pd.DataFrame({"sentence": [sentences.get(r.item_id, f"item {r.item_id}") for r in queue],
                         "skill": [skill_title(r.skill) for r in queue],
                         "box": [r.box for r in queue], "due": [due_words(r.due, now) for r in queue]})


# -- sets ---------------------------------------------------------------------------------------
def set_spec(kinds: list[str], systems: list[str], level: int, count: int, seed: int,
             specs: list[ex.ItemSpec]) -> dict[str, Any]:
    """What a set keeps besides its item ids: how it was drawn, and each item's spec text (to rebuild it)."""
    return {"kinds": kinds, "systems": systems, "level": level, "count": count, "seed": seed,
            "items": [s.text for s in specs]}


def results_frame(results: list[ItemResult], items: dict[str, ex.Item[Any]]) -> pd.DataFrame:
    """Per item of a set: who answered, who solved it and with how many hints, the commonest wrong answer."""
    rows = []
    for number, r in enumerate(results, 1):
        item = items.get(r.item_id)
        wrong = r.common_wrong.get("given") if isinstance(r.common_wrong, dict) else r.common_wrong
        rows.append({
            "#": number, "item": r.item_id,
            "skill": skill_title(skill_of(item.spec)) if item else "?",
            "sentence": " ".join(item.sentence.words) if item else "?",
            "answered": r.learners, "solved": r.solved, "right at once": r.solved_without_hints,
            "hints before solving": ", ".join(map(str, r.hints)) or "—",
            "most common wrong answer": "—" if r.common_wrong is None else
            (given_words(item, wrong) if item else str(wrong)) + f" (× {r.common_wrong_count})",
            "its cost": cost_text(move_cost(item, wrong)) if item and r.common_wrong is not None else "—",
        })
    return pd.DataFrame(rows)


#: Ready-made sets: (kinds, systems, level, count, seed), drawn the same for everyone.
READY: dict[str, tuple[list[str], list[str], int, int, int]] = {
    "First steps: moves in arc-eager": (["next-move", "trace-table", "cost-of-move"], ["arc-eager"], 1, 6, 1),
    "Arc-standard from start to end": (["whole-derivation", "count-steps"], ["arc-standard"], 1, 4, 1),
    "Trees: crossings and systems": (["crossing-arcs", "which-systems"], ["arc-standard"], 3, 4, 1),
    "Oracles: static, approximate, exact": (["static-fails", "approx-vs-exact", "all-optimal"],
                                            ["arc-standard"], 2, 6, 1),
}
