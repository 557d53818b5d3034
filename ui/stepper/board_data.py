"""The stepper's board as data: what the board component draws, and what a click on it changes.

The board (picture, stack and buffer, one button per move with its cost, the oracle's table,
the score and the history) is drawn in the browser by one component
(:mod:`ui.stepper.board_component`) from a plain dictionary of strings, numbers and lists:
:func:`board_data` builds it from the trace and the oracle's verdicts, so everything the
learner reads is decided here, in Python, where tests can read it too.  A click comes back as
an *action*, a small dictionary (``{"do": "move", "move": "SH"}``, ``{"do": "jump", "step": 2}``,
``{"do": "undo"}``; redo, hide and reset likewise; ``{"do": "oracle"}`` for the oracle's next
move), and :func:`apply_action` turns it into the next :class:`~ui.views.state.StepperState`.

>>> from ui.views.state import StepperState
>>> s = apply_action(StepperState(), {"do": "move", "move": "SH"})
>>> s.taken()
('SH',)
>>> apply_action(s.play("RA"), {"do": "jump", "step": 1}).taken()
('SH',)
>>> apply_action(s, {"do": "undo"}).taken()
()
>>> apply_action(s, {"do": "oracle"}, oracle="LA").taken()  # the oracle's move, decided by the page
('SH', 'LA')
>>> apply_action(s, {"do": "move", "move": "<b>"}) == s  # not a move: nothing changes
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, NamedTuple

import pandas as pd

import parsing_core as pc
from parsing_core.model import MoveScore
from ui.stepper.model_view import model_frame, probability_text, with_model
from ui.views.buildable import Unbuildable
from ui.views.cost_table import cost_frame, cost_style, has_examples, show_cost
from ui.views.drawing import MEANING, SAMPLES, STYLES
from ui.views.glossary import PAGE as GLOSSARY_PAGE
from ui.views.glossary import anchor_of
from ui.views.labels import label_choices
from ui.views.mistakes import MoveReview, said
from ui.views.names import named_reason
from ui.views.oracle_view import Completion, Verdict
from ui.views.rules import NOW
from ui.views.state import StepperState

SHORTCUTS = {"SH": "S", "LA": "L", "RA": "A", "RE": "E", "SW": "W"}  # Streamlit keeps R and C
MOVE = re.compile(r"^(SH|LA|RA|RE|SW)(:[^\s]{1,200})?$")  # a move as a link writes it
Data = dict[str, Any]
CONTROLS = {"undo": StepperState.undo, "redo": StepperState.redo, "reset": StepperState.reset,
            "hide": StepperState.toggle_hidden}  # the board's own buttons besides the moves
MODEL_NOTE = "  model = the model's probability for each possible move; ★ its choice."
SWITCH_TO = "stepper.switch_to"  # the session's key: a system the board asked the settings to switch to


# -- a click, back from the browser -------------------------------------------------------------
def apply_action(state: StepperState, action: Mapping[str, object] | None,
                 oracle: str | None = None) -> StepperState:
    """The state after the board's ``action``; ``oracle`` is the move "Oracle step" plays (the
    page decides it: the browser only asks for it).  Anything that is not a well-formed action of
    the board (a message from an old page, a hand-made one) leaves the state as it is."""
    if not isinstance(action, Mapping):
        return state
    if isinstance(action.get("do"), str) and action["do"] in CONTROLS:
        return CONTROLS[str(action["do"])](state)
    if action.get("do") == "oracle":
        return state.play(oracle) if oracle and MOVE.match(oracle) else state
    if action.get("do") == "move" and isinstance(action.get("move"), str) and MOVE.match(str(action["move"])):
        return state.play(str(action["move"]))
    step = action.get("step")
    if action.get("do") == "jump" and isinstance(step, int) and not isinstance(step, bool):
        return state.jump(step)
    return state


def made_on_an_older_board(action: object, version: tuple[str, int]) -> bool:
    """Whether ``action`` answers a drawing of the board older than its state ``version``
    (:meth:`Board.version <ui.widgets.board.Board.version>`): the browser sends the version of
    the board it drew with each click, and a click on a board the learner no longer sees (a
    Play step sent again while the first was on its way, a move racing a change of the settings)
    changes nothing.  An action naming no drawing (a hand-made one) is taken.

    >>> made_on_an_older_board({"do": "oracle", "session": "5f0c", "on": 6}, ("5f0c", 7))
    True
    >>> made_on_an_older_board({"do": "oracle", "session": "5f0c", "on": 7}, ("5f0c", 7))
    False
    >>> made_on_an_older_board({"do": "oracle"}, ("5f0c", 7))
    False
    """
    if not isinstance(action, Mapping) or "on" not in action:
        return False
    return (action.get("session"), action.get("on")) != tuple(version)


# -- the moves and the oracle's table ------------------------------------------------------------
def move_buttons(trace: pc.Trace, verdict: Verdict | None) -> list[Data]:
    """One entry per move of the system: its kind, name, key, why it is not possible (or None),
    and, when the oracle answered, the cost and the verdict shown on the button."""
    system, c = trace.system, trace.final
    best = min(verdict.costs.values(), default=math.inf) if verdict else math.inf
    buttons = []
    for t, reason in system.reasons(c).items():
        shown = None if reason is None else named_reason(reason, trace.sentence)
        button: Data = {"kind": t.kind, "name": t.name, "key": SHORTCUTS.get(t.kind, ""), "reason": shown,
                        "move": t.kind, "cost": None, "style": ""}
        if verdict is not None and t in verdict.costs:
            button |= {"cost": cost_word(verdict.costs[t], best),
                       "style": cost_style(verdict.costs[t], best)}
        if reason is None and system.labelled and system.arc_of(c, t) is not None:  # an arc: its label
            button |= label_choice(trace, t)
        buttons.append(button)
    return buttons


def cost_word(cost: float, best: float) -> str:
    """What a button says of its move: ``✓ 0``, ``✗ 2`` or ``✗ ∞``."""
    if math.isinf(cost):
        return "✗ ∞"
    return f"✓ {cost - best:g}" if cost == best else f"✗ {cost - best:g}"


def label_choice(trace: pc.Trace, t: pc.Transition) -> Data:
    """The labels an arc move can take, the gold one picked first, and the move played with it."""
    arc = trace.system.arc_of(trace.final, t)
    choices = label_choices(trace.sentence)
    gold = trace.sentence.label(arc[1]) if arc and trace.sentence.has_gold else None
    picked = gold if gold in choices else choices[0]
    return {"labels": list(choices), "label": picked, "move": f"{t.kind}:{picked}"}


def table(frame: pd.DataFrame) -> Data:
    """A data frame as the board's table: column titles, and rows of cells as text with the CSS
    of each row (its first cost's tint, as :func:`ui.views.cost_table.styled` colours it)."""
    columns = list(frame.columns)
    costs = {i for i, c in enumerate(columns) if str(c).startswith("cost")}
    first = columns.index("cost") if "cost" in columns else None
    best = frame["cost"].min() if first is not None and frame["cost"].notna().any() else 0.0
    rows = []
    for values in frame.to_numpy(dtype=object).tolist():  # plain lists: pandas' row access is slow
        rows.append({"cells": [cell(c, v, i in costs) for i, (c, v) in enumerate(zip(columns, values))],
                     "style": "" if first is None else cost_style(values[first], best)})
    return {"columns": [str(c) for c in columns], "rows": rows}


def cell(column: object, value: object, is_cost: bool) -> str:
    """A cell as text: costs as ``0``, ``∞`` or ``–``; the model's probability as a percentage."""
    if is_cost:
        return show_cost(value)
    if column == "model":
        return probability_text(value)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–" if column == "score" else ""
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def cost_table(trace: pc.Trace, answered: list[Verdict], scores: list[MoveScore] | None) -> Data | None:
    """Every move with its cost, verdict, the arc it builds and what it loses (a second oracle's
    costs beside them); the model's probability and choice when a model is loaded."""
    if answered:
        frame = cost_frame(trace, answered)
        return table(frame if scores is None else with_model(frame, scores))
    return table(model_frame(trace, scores)) if scores is not None else None


def notes(verdicts: list[Verdict], model_alone: bool) -> list[list[str]]:
    """Each oracle's error (unless the model's table says it), warnings and notes: [kind, text]."""
    said_: list[list[str]] = []
    for v in verdicts:
        if v.error and not model_alone:
            said_.append(["warning", f"{v.oracle}: {v.error}"])
        said_ += [["warning", w] for w in v.warnings] + [["info", n] for n in v.notes]
    return said_


#: Words of the legend that link to their Glossary entry (the component makes each a link).
LEGEND_TERMS = (("Cost", "cost"), ("gold arcs", "gold-tree"), ("reachable", "reachable"),
                ("optimal", "optimal"))


def legend(trace: pc.Trace, answered: list[Verdict], scores: list[MoveScore] | None) -> str:
    """How to read the table, in one short paragraph."""
    if not answered:
        return "No gold tree, so no costs: only the model's view." + MODEL_NOTE * (scores is not None)
    text = ("Cost = how many fewer gold arcs the best parse still reachable holds after the move; "
            "✓ optimal moves cost least.  builds: the arc the move adds; loses: why a move costs "
            "(— : the oracle cannot tell).")
    if has_examples(answered[0]):
        text += ("  e.g. marks an example: gold arcs one best parse from here builds and one best parse "
                 "after the move does not (gains: the reverse).")
    if trace.system.labelled:
        text += "  Costs are for the gold label; any other label costs 1 more."
    return text + MODEL_NOTE * (scores is not None)


# -- the score and the history -------------------------------------------------------------------
def score(trace: pc.Trace, done: Completion | None) -> list[list[str]]:
    """Pairs of (what, how much): arcs correct so far, the best attachment score still reachable."""
    gold = trace.sentence
    if not gold.has_gold:
        return []
    correct = sum(1 for a in trace.final.unlabelled_arcs if a in gold.gold_arcs)
    pairs = [["Arcs correct so far", f"{correct} of {gold.n}"]]
    if done is None:
        return [*pairs, ["Best UAS still reachable", "—"]]
    title = "Best UAS still reachable" if done.exact else "UAS if the oracle finishes"
    return [*pairs, [title, f"{done.correct / gold.n:.0%}"]]


def history(frame: pd.DataFrame, cursor: int) -> Data:
    """The derivation's rows as text; row ``cursor`` is now (▶), the rows after it undone (↷)."""
    rows = [["▶" if i == cursor else "↷" if i > cursor else "", *map(str, row)]
            for i, row in enumerate(frame.to_numpy(dtype=object).tolist())]
    return {"columns": ["", *map(str, frame.columns)], "rows": rows, "cursor": cursor}


def controls(moves: int, cursor: int) -> dict[str, bool]:
    """Whether undo, redo and reset can do something (``moves`` made, ``cursor`` of them shown)."""
    return {"undo": cursor > 0, "redo": cursor < moves, "reset": moves > 0}


def mistake(reviews: Sequence[MoveReview], taken: int) -> str:
    """Right after a costly move (``taken`` moves made): what it cost and which gold arcs it lost."""
    if taken and len(reviews) >= taken and reviews[taken - 1].is_mistake:
        return f"Your {said(reviews[taken - 1])}."
    return ""


def caption(sentence: pc.Sentence) -> str:
    """The sentence, its length and whether its gold tree is projective (plain text)."""
    words = " ".join(sentence.words)
    if not sentence.has_gold:
        return f"“{words}” — {sentence.n} tokens, no gold tree"
    shape = "projective" if sentence.is_projective else "non-projective"
    return f"“{words}” — {sentence.n} tokens, {shape} gold tree"


def unbuildable_note(note: Unbuildable | None) -> Data | None:
    """Why the system cannot build the gold tree, the best it can reach, and the system that can
    (the board's "Switch to" button); None when it can."""
    if note is None:
        return None
    best = f"{note.reachable} of {note.n} gold arcs" + ("" if note.exact else " (by an approximate oracle)")
    crossing = "; ".join(note.crossing)
    return {"title": f"{note.system} builds only projective trees; this one is not:",
            "text": f"{crossing}.  At best a parse gets {best}, the Best UAS still reachable.",
            "switch": note.suggestion,
            "terms": [["projective", projective_link()]]}


@cache
def projective_link() -> str:
    """The Glossary's entry for "projective" (the glossary is read once)."""
    return f"{GLOSSARY_PAGE}#{anchor_of('projective')}"


class Rules(NamedTuple):
    """The rules of a system (and an oracle's cost rules) as plain text: column titles and one
    row of cells per move (the move's kind first)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    @classmethod
    def of(cls, frame: pd.DataFrame) -> Rules:
        """From :func:`ui.views.rules.rules_frame`'s table (read once per system and oracle)."""
        cells = [[str(v) for v in frame[c].tolist()] for c in frame.columns]
        return cls(tuple(map(str, frame.columns)), tuple(zip(*cells)))


def rules_panel(trace: pc.Trace, rules: Rules, oracle: str) -> Data:
    """The system's moves as the seeds write them (and the oracle's cost rules, where it has
    them), the move just made marked ▶ (as :func:`ui.views.rules.marked_rules` marks it): a title,
    the table, and a note on the notation."""
    has_costs = "cost" in rules.columns
    last = trace.transitions[-1].kind if trace.transitions else None
    note = ("σ|s0: the stack with top s0 (s1 below it); b|β: the buffer with front b.  "
            + ("▶ marks the move just made." if last else ""))
    if not has_costs:
        note += (f"  {oracle}'s costs are not countable arc by arc, so there is no rule to apply by hand; "
                 "goldberg-nivre (arc-eager, arc-hybrid) has one.")
    rows = [{"cells": ["▶" if row[0] == last else "", *row], "style": ""} for row in rules.rows]
    return {"title": f"The rules of {trace.system.name}" + (f" and {oracle}'s costs" if has_costs else ""),
            "table": {"columns": [NOW, *rules.columns], "rows": rows}, "note": note}


# -- the memory ---------------------------------------------------------------------------------
def memory(trace: pc.Trace) -> Data:
    """The stack (bottom first) and the buffer (front first) as words with their token numbers."""
    c, word = trace.final, trace.sentence.word
    return {"stack": [[word(t), t] for t in c.stack], "buffer": [[word(t), t] for t in c.buffer]}


# -- the whole board ------------------------------------------------------------------------------
class Inputs(NamedTuple):
    """What the board shows, computed by the page: the parse, each oracle's verdict, the moves
    judged, the best completion, the model's scores, the picture (SVG text), the history."""

    trace: pc.Trace
    verdicts: list[Verdict]
    reviews: list[MoveReview]
    done: Completion | None
    scores: list[MoveScore] | None
    picture: str
    arcs: set[str]  # the kinds of arc the picture shows (correct, wrong, reachable, lost, built)
    history: pd.DataFrame
    cursor: int
    hidden: bool = False
    presenter: bool = False
    unbuildable: Unbuildable | None = None
    rules: Rules | None = None  # the system's rules (and the oracle's cost rules), one row a move
    oracle: str = ""  # the table's oracle


def board_data(i: Inputs) -> Data:
    """Everything the board component draws, as JSON-ready data (user text stays text: the
    component puts it in the page with ``textContent``, never as HTML; ``picture`` is SVG whose
    text the drawing escaped)."""
    answered = [v for v in i.verdicts if v.costs]
    judged = not i.hidden and not i.trace.is_complete
    model_alone = i.scores is not None and not i.trace.sentence.has_gold  # its table says "no gold"
    return {
        "caption": caption(i.trace.sentence), "picture": i.picture, "legend_arcs": arc_legend(i.arcs),
        "memory": memory(i.trace), "hidden": i.hidden, "presenter": i.presenter,
        "moves": move_buttons(i.trace, answered[0] if answered and not i.hidden else None),
        "table": cost_table(i.trace, answered, i.scores) if judged else None,
        "notes": [] if i.hidden else notes(i.verdicts, model_alone),
        "legend": legend(i.trace, answered, i.scores) if judged else "",
        "terms": [[word, f"{GLOSSARY_PAGE}#{anchor}"] for word, anchor in LEGEND_TERMS],
        "mistake": "" if i.hidden else mistake(i.reviews, len(i.trace.transitions)),
        "score": [] if i.hidden or i.trace.is_complete else score(i.trace, i.done),
        "history": history(i.history, i.cursor), "controls": controls(len(i.history) - 1, i.cursor),
        "keys": "" if i.presenter else keys(i.trace.system),
        "unbuildable": unbuildable_note(i.unbuildable),
        "rules": None if i.rules is None else rules_panel(i.trace, i.rules, i.oracle),
    }


class OracleStep(NamedTuple):
    """Who plays "Oracle step" and Play, the move it would make next (None: none left), and Play's
    pace in seconds per move."""

    move: str | None
    player: str
    seconds: float

    def data(self) -> Data:
        return {"move": self.move, "player": self.player, "seconds": self.seconds}


def keys(system: pc.TransitionSystem) -> str:
    """The keys of the system's moves: ``S shift · L left-arc · ...``."""
    return " · ".join(f"{key} {pc.Transition(kind).name.lower()}" for kind, key in SHORTCUTS.items()
                      if kind in system.kinds)


def arc_legend(kinds: set[str]) -> list[list[str]]:
    """The kinds of arc the picture shows, each as [line sample, colour, meaning], in a fixed order."""
    return [[SAMPLES[k], STYLES[k]["color"], MEANING[k]] for k in MEANING if k in kinds]
