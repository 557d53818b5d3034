"""The rules of the game on screen: each move of a system as the seeds write it, and its cost.

One row per move: its effect as an inference (``(σ, b|β) ⇒ (σ|b, β)``), when it is allowed,
and, for an oracle whose costs are countable arc by arc (Goldberg & Nivre's), the rule that
gives its cost (seed 002's C(LEFT), C(RIGHT), C(SHIFT)).  The rule of the move just made is
marked ▶ (as the history marks the current row), so a class can check the step against the rule.

>>> import parsing_core as pc
>>> frame = rules_frame(pc.get_system("arc-hybrid"), "goldberg-nivre")
>>> frame["move"].tolist()
['SH', 'LA', 'RA']
>>> frame.set_index("move").loc["RA", "cost"]
'C(RIGHT) = gold arcs (h, s0) and (s0, d) with h, d ∈ {b} ∪ β'
"""

from __future__ import annotations

import pandas as pd

import parsing_core as pc
from parsing_core.transition import Transition

NOW = " "  # the marker column's (blank) title


def rules_frame(system: pc.TransitionSystem, oracle: str = "") -> pd.DataFrame:
    """Move, name, effect, precondition and (when ``oracle`` has cost rules) cost, one row per move."""
    costs = pc.get_oracle(system, oracle).cost_rules if oracle else {}
    rows = []
    for kind in system.kinds:
        move = system.move(kind)
        row = {"move": kind, "name": Transition(kind).name, "effect": move.rule, "allowed when": move.when}
        if costs:
            row["cost"] = costs.get(kind, "")
        rows.append(row)
    return pd.DataFrame(rows)


def marked_rules(frame: pd.DataFrame, last: str | None) -> pd.DataFrame:
    """The rules with the row of the move ``last`` played (its kind, e.g. "SH") marked ▶.

    A plain table, not a styled one: the stepper draws it at every click, and a pandas
    Styler costs the server ten times as much to send.

    >>> import parsing_core as pc
    >>> marked_rules(rules_frame(pc.get_system("arc-hybrid")), "LA")[NOW].tolist()
    ['', '▶', '']
    """
    marks = ["▶" if move == last else "" for move in frame["move"]]
    return frame.assign(**{NOW: marks})[[NOW, *frame.columns]]
