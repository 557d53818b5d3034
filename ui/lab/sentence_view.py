"""Pure builders of the Oracle lab's "One sentence, every oracle" view: at one configuration,
the costs of every oracle of its system side by side, the moves they disagree on marked, and —
where the search oracle answers (short sentences) — which oracles are right.

The configuration comes as a stepper link (:func:`read_link`: its sentence, system and moves) or
as choices made on the page (a :class:`~ui.views.state.StepperState` either way).

>>> state, problems = read_link("http://host/stepper?s=he-sent-her-a-letter&sys=arc-standard&moves=SH.SH")
>>> problems, state.taken()
([], ('SH', 'SH'))
>>> table = compare_oracles(state)
>>> list(table.frame.columns)
['move', 'search', 'exact', 'thesis-approx', 'disagree']
>>> table.verdicts["exact"]
'right: every cost equals the search oracle’s'
"""

from __future__ import annotations

import math
import urllib.parse
from dataclasses import dataclass

import pandas as pd
from pandas.io.formats.style import Styler

import parsing_core as pc
from parsing_core.oracles import Costs, min_cost_moves
from ui.views.cost_table import DISAGREE, cost_style, show_cost
from ui.views.sources import sentence_from_key
from ui.views.state import StepperState

JUDGE = "search"


def read_link(link: str) -> tuple[StepperState, list[str]]:
    """The stepper state a link (or just its ``?query``) describes, and what was wrong with it."""
    query = urllib.parse.urlsplit(link.strip()).query or link.strip().lstrip("?")
    pairs = dict(urllib.parse.parse_qsl(query))
    return StepperState.from_query(pairs)


@dataclass(frozen=True)
class OracleTable:
    """The costs of every oracle at one configuration, and a verdict per oracle."""

    configuration: pc.Configuration
    text: str  # the configuration in words (configuration_text)
    frame: pd.DataFrame  # one row per legal move, one column per oracle, then "disagree"
    verdicts: dict[str, str]  # oracle → right / wrong (by search), or why it is not judged
    skipped: dict[str, str]  # oracle → why it has no column


def all_costs(system: pc.TransitionSystem, s: pc.Sentence, c: pc.Configuration
              ) -> tuple[dict[str, Costs], dict[str, str]]:
    """Every cost-giving oracle's costs at ``c`` (search first, if it answers), and those skipped."""
    costs, skipped = {}, {}
    for name in pc.list_oracles(system):
        oracle = pc.get_oracle(system, name)
        if not oracle.gives_costs:
            skipped[name] = "names one move, gives no costs"
        elif not oracle.answers(system, s):
            skipped[name] = f"refuses sentences this long ({s.n} tokens)"
        else:
            costs[name] = oracle.costs(c, s)
    return costs, skipped


def disagreement(row: dict[str, Costs], move: pc.Transition) -> str:
    """``≠ optimal`` where the oracles differ on whether the move is optimal, ``≠ cost`` where only
    its cost differs, else nothing."""
    optimal = {move in min_cost_moves(costs) for costs in row.values()}
    if len(optimal) > 1:
        return "≠ optimal"
    return "≠ cost" if len({costs[move] for costs in row.values()}) > 1 else ""


def verdict(name: str, costs: Costs, truth: Costs | None, oracle: pc.Oracle, s: pc.Sentence) -> str:
    """Right or wrong by the search oracle; without it, what the oracle claims."""
    if truth is None:
        claim = "exact here" if oracle.is_exact_for(s) else "approximate here"
        return f"not judged (no search answer); it claims to be {claim}"
    if costs == truth:
        return "right: every cost equals the search oracle’s"
    wrong = [str(t) for t in truth if costs.get(t) != truth[t]]
    same_set = set(min_cost_moves(costs)) == set(min_cost_moves(truth))
    return (f"wrong cost for {', '.join(wrong)}; optimal set "
            + ("still right" if same_set else "wrong"))


def compare_oracles(state: StepperState) -> OracleTable:
    """The table of :class:`OracleTable` at the state's configuration (raises ParsingCoreError for
    a sentence without a gold tree, or moves that are not legal)."""
    s = sentence_from_key(state.sentence)
    if not s.has_gold:
        raise pc.ParsingCoreError("this sentence has no gold tree: oracles need one")
    system = state.make_system()
    c = pc.replay(system, s, state.taken()).final
    costs, skipped = all_costs(system, s, c)
    rows = [{"move": str(t), **{name: k[t] for name, k in costs.items()}, "disagree": disagreement(costs, t)}
            for t in system.legal(c)]
    truth = costs.get(JUDGE)
    verdicts = {name: verdict(name, k, truth, pc.get_oracle(system, name), s)
                for name, k in costs.items() if name != JUDGE}
    frame = pd.DataFrame(rows, columns=["move", *costs, "disagree"])
    return OracleTable(c, configuration_text(c, s), frame, verdicts, skipped)


def configuration_text(c: pc.Configuration, s: pc.Sentence) -> str:
    """``stack [ROOT sent her]  buffer [a letter .]  arcs 2`` (words, not numbers).

    >>> s = pc.Sentence.from_heads("He sent her".split(), [2, 0, 2])
    >>> system = pc.get_system("arc-standard")
    >>> configuration_text(pc.replay(system, s, ["SH", "SH", "LA"]).final, s)
    'stack [ROOT sent]  buffer [her]  arcs 1'
    """
    def words(tokens: tuple[int, ...]) -> str:
        return " ".join("ROOT" if i == 0 else s.words[i - 1] for i in tokens)
    return f"stack [{words(c.stack)}]  buffer [{words(c.buffer)}]  arcs {len(c.unlabelled_arcs)}"


def styled(frame: pd.DataFrame) -> Styler:
    """Each oracle's column tinted by its own costs (optimal lightest, ∞ dark); disagreements amber."""
    oracles = [col for col in frame.columns if col not in ("move", "disagree")]
    styler = frame.style
    for col in oracles:
        best = frame[col].min() if len(frame) else 0.0
        best = 0.0 if math.isinf(best) else best
        styler = styler.map(lambda v, b=best: cost_style(v, b), subset=[col])
    styler = styler.map(lambda v: DISAGREE if v else "", subset=["disagree"])
    return styler.format(show_cost, subset=oracles)
