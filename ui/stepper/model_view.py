"""What a trained parser says about the stepper's configuration, as tables and moves (no Streamlit).

A checkpoint from the Train page (or any ``python -m parsing_core.train`` run) scores every
legal move; the stepper shows those scores beside the oracle's costs, lets the model play
(autoplay) and parses sentences that have no gold tree at all.  This module holds the pure
parts: whether a model fits the stepper's system, the model's columns of the cost table,
a table of the model alone (no gold tree, so no costs), the move the model would play, and
the parse the model produces.

>>> import parsing_core as pc
>>> from parsing_core.model import MoveScore
>>> scores = [MoveScore("SH", 0.1, True, 0.25, None, False), MoveScore("LA", 1.2, True, 0.75, "nsubj", True),
...           MoveScore("RA", -3.0, False, None, "obj", False)]
>>> model_move(scores, labelled=True), model_move(scores, labelled=False)
('LA:nsubj', 'LA')
>>> fit_problem("arc-hybrid", "arc-eager", ())
'This model was trained for arc-hybrid; the stepper is on arc-eager.'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import pandas as pd
from pandas.io.formats.style import Styler

import parsing_core as pc
from parsing_core.model import MoveScore

if TYPE_CHECKING:
    from parsing_core.model import Parser

MODEL = "the model"  # the autoplay player that is not an oracle
CHOSEN = "★ its choice"
CHOSEN_STYLE = "font-weight: bold; background-color: #56B4E9; color: #000000"
NOT_POSSIBLE = "background-color: #F2F2F2; color: #6B6B6B"


def fit_problem(model_system: str, system: str, options: tuple[str, ...]) -> str | None:
    """Why the model cannot score this system's moves, or None when it can."""
    if model_system != system:
        return f"This model was trained for {model_system}; the stepper is on {system}."
    if options:
        return (f"This model was trained for plain {model_system}; switch off "
                f"{', '.join(options)} to see its scores.")
    return None


def model_move(scores: Sequence[MoveScore], labelled: bool) -> str | None:
    """The move the model plays, as the stepper writes moves (``LA:nsubj`` in a labelled parse)."""
    for m in scores:
        if m.chosen:
            return str(m.transition) if labelled and m.label else m.move
    return None


def probability_text(p: object) -> str:
    if not isinstance(p, int | float) or math.isnan(p):
        return "–"
    return f"{100 * p:.0f} %"


def with_model(frame: pd.DataFrame, scores: Sequence[MoveScore]) -> pd.DataFrame:
    """The cost table plus the model's view: its probability for each move and its choice."""
    by_kind = {m.move: m for m in scores}
    kinds = [pc.Transition.parse(str(move)).kind for move in frame["move"]]
    out = frame.copy()
    out["model"] = [_probability(by_kind.get(k)) for k in kinds]
    out["model says"] = [_choice(by_kind.get(k)) for k in kinds]
    return out


def model_frame(trace: pc.Trace, scores: Sequence[MoveScore]) -> pd.DataFrame:
    """The model alone (a sentence without a gold tree): every move, possible or why not."""
    by_kind = {m.move: m for m in scores}
    rows = []
    for t, reason in trace.system.reasons(trace.final).items():
        m = by_kind.get(t.kind)
        rows.append({"move": t.kind, "model": _probability(m), "model says": _choice(m),
                     "score": m.score if m else math.nan,
                     "possible": "yes" if reason is None else f"not possible: {reason}"})
    return pd.DataFrame(rows)


def styled_model(frame: Styler | pd.DataFrame) -> Styler:
    """Highlight the model's choice; grey the impossible moves; probabilities as percentages."""
    styler = frame if isinstance(frame, Styler) else frame.style
    data = styler.data

    def highlight(value: object) -> str:
        return CHOSEN_STYLE if isinstance(value, str) and value.startswith("★") else ""

    styler = styler.map(highlight, subset=["model says"]).format(probability_text, subset=["model"])
    if "score" in data.columns:
        styler = styler.format(lambda v: "–" if math.isnan(v) else f"{v:.2f}", subset=["score"])
    if "possible" in data.columns:
        def grey(row: pd.Series) -> list[str]:
            return [NOT_POSSIBLE if row["possible"] != "yes" else ""] * len(row)
        styler = styler.apply(grey, axis=1)
    return styler


def _probability(m: MoveScore | None) -> float:
    return m.probability if m is not None and m.probability is not None else math.nan


def _choice(m: MoveScore | None) -> str:
    if m is None or not m.legal:
        return ""
    if m.chosen:
        return CHOSEN + (f" ({m.label})" if m.label else "")
    return m.label or ""


def parsed_sentence(parser: Parser, trace: pc.Trace) -> pc.Sentence:
    """The sentence with the tree of a finished parse (headless tokens go to ROOT, as the parser does)."""
    from parsing_core.model.read_back import finished  # torch: here only once a model is in use

    return finished(trace.sentence, trace.final, labelled=parser.labelled and trace.system.labelled)
