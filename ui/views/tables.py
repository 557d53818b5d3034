"""Pure functions from ``parsing_core`` values to the DataFrames the pages show.

A derivation table has one row per configuration, as in the papers' tables::

    ROW  TRANSITION  STACK         BUFFER                  ARCS
    1                [ROOT]        [He sent her a letter .]  ∅
    2    SH          [ROOT He]     [sent her a letter .]
    3    LA          [ROOT]        [sent her a letter .]    +(He ← sent)

ROW counts from 1 (the initial configuration), so ROW k is ``trace.steps()[k - 1]``.
"""

from __future__ import annotations

import pandas as pd

import parsing_core as pc
from ui.views.names import indexed

DERIVATION_COLUMNS = ["ROW", "TRANSITION", "STACK", "BUFFER", "ARCS"]
NO_ARCS = "∅"


def derivation_table(trace: pc.Trace) -> pd.DataFrame:
    """One row per step of ``trace``: the move taken, the stack and buffer after it, the arc it added."""
    rows = [step_row(trace, step) for step in trace.steps()]
    return pd.DataFrame(rows, columns=DERIVATION_COLUMNS)


def step_row(trace: pc.Trace, step: pc.Step) -> list[object]:
    c, sentence = step.configuration, trace.sentence
    if step.transition is None:
        move, arcs = "", NO_ARCS
    else:
        move = str(step.transition)
        label = None if step.arc is None else c.label_of(step.arc[1])
        arcs = "" if step.arc is None else f"+({arc_text(trace, step.arc, label)})"
    return [step.index + 1, move, words(sentence, c.stack), words(sentence, c.buffer), arcs]


def words(sentence: pc.Sentence, tokens: tuple[int, ...]) -> str:
    """``[ROOT He]``: the tokens' words in order (a stack bottom first, a buffer front first)."""
    return "[" + " ".join(sentence.word(t) for t in tokens) + "]"


def arc_text(trace: pc.Trace, arc: tuple[int, int], label: str | None = None) -> str:
    """``He ← sent`` or ``sent → her``: the arrow points from head to dependent, in sentence order.

    With ROOT placed last (``root_last``) ROOT's arcs point leftwards.  A labelled arc shows its
    label on the arrow: ``He ←nsubj sent``.  A word the sentence uses twice carries its number
    (``Hop₁ → Hop₄``, :func:`ui.views.names.indexed`).
    """
    head, dep = arc

    def word(token: int) -> str:
        return indexed(trace.sentence, token)

    if position(trace, dep) < position(trace, head):
        return f"{word(dep)} ←{label or ''} {word(head)}"
    return f"{word(head)} →{label or ''} {word(dep)}"


def position(trace: pc.Trace, token: int) -> int:
    """Where a token stands in the sentence: ROOT is 0, or n + 1 when the system puts it last."""
    return trace.sentence.n + 1 if token == pc.ROOT and trace.system.root_last else token


def systems_table() -> pd.DataFrame:
    """Every transition system: its name, title, transition kinds and the oracles it has."""
    rows = []
    for name in pc.list_systems():
        system = pc.get_system(name)
        rows.append([name, system.title, " ".join(system.kinds), ", ".join(pc.list_oracles(system))])
    return pd.DataFrame(rows, columns=["SYSTEM", "TITLE", "TRANSITIONS", "ORACLES"])


def oracles_table() -> pd.DataFrame:
    """Every oracle some system has: its name, title and how far to trust its answers (read from
    the oracles' classes: no saved model is loaded to be named)."""
    oracles: dict[str, type[pc.Oracle]] = {}
    for system in map(pc.get_system, pc.list_systems()):
        for name in pc.list_oracles(system):
            oracles.setdefault(name, pc.oracle_class(system, name))
    rows = [[o.name, o.title, o.exactness] for o in oracles.values()]
    return pd.DataFrame(rows, columns=["ORACLE", "TITLE", "EXACTNESS"])
