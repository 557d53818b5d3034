"""Claims are tested, not trusted: each claim of a step is checked at the step's configuration.

Costs and optimal moves are asked of the *judge*: the first oracle :func:`~parsing_core.oracles.ranked`
prefers that is exact for the gold tree, checked in turn against the exhaustive search wherever the
search answers (a short sentence), so a claim rests on two oracles that agree.  A claim may name
another oracle (``oracle = "thesis-approx"``, ``"static"``) to state what *that* oracle says,
right or wrong.  :func:`check_claim` returns None when the claim holds, else what is true instead.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..configuration import Configuration
from ..errors import ParsingCoreError
from ..oracles import Answer, Oracle, completion, get_oracle, ranked
from ..oracles.search import SearchOracle
from ..sentence import Sentence
from ..systems import get_system
from ..transition import Transition
from ..trees import is_projective
from .board import Reached, arc_text, read_arc
from .format import Claim


def judge(reached: Reached, name: str = "") -> Oracle:
    """The oracle ``name``, or (none named) the first exact oracle for this gold tree."""
    system, gold = reached.system, reached.sentence
    if name:
        return get_oracle(system, name)
    exact = [n for n in ranked(system, gold) if get_oracle(system, n).is_exact_for(gold)]
    if not exact:
        raise ParsingCoreError(f"no exact oracle of {system.name} answers about this gold tree")
    return get_oracle(system, exact[0])


def answer_of(reached: Reached, name: str = "") -> Answer:
    """The judge's answer at the step; with no oracle named, checked against the search."""
    oracle = judge(reached, name)
    answer = oracle.answer(reached.configuration, reached.sentence)
    if not name and oracle.name != "search" and SearchOracle.answers(reached.system, reached.sentence):
        searched = get_oracle(reached.system, "search").costs(reached.configuration, reached.sentence)
        if searched != answer.costs:
            raise ParsingCoreError(f"{oracle.name} and search disagree here: {words(answer.costs)} against "
                                   f"{words(searched)}")
    return answer


def check_claim(claim: Claim, reached: Reached) -> str | None:
    """None when the claim holds; otherwise what is true instead (a sentence)."""
    return CHECKS[claim.kind](claim, reached)


# -- one check per kind ---------------------------------------------------------------------------------
def check_cost(claim: Claim, reached: Reached) -> str | None:
    t = Transition.parse(str(claim.get("move")))
    answer = answer_of(reached, claim.get("oracle", ""))
    if t.bare not in answer.costs:
        return f"{t} is not legal here"
    said, true = cost_value(claim.get("cost")), answer.costs[t.bare]
    if said != true:
        return f"{t} costs {cost_text(true)}, not {cost_text(said)}"
    if claim.get("lost") is None:
        return None
    why = answer.explanations.get(t.bare)
    if why is None or why.example:
        return f"the oracle cannot name *the* arcs {t} loses here (only an example)"
    lost = {read_arc(reached.sentence, a) for a in claim.get("lost")}
    if lost != set(why.lost):
        return f"{t} loses {arcs_text(reached.sentence, why.lost)}, not {arcs_text(reached.sentence, lost)}"
    return None


def check_optimal(claim: Claim, reached: Reached) -> str | None:
    said = moves_of(claim.get("moves", []))
    true = set(answer_of(reached, claim.get("oracle", "")).optimal)
    return None if said == true else f"the optimal moves are {moves_text(true)}, not {moves_text(said)}"


def check_static(claim: Claim, reached: Reached) -> str | None:
    said = Transition.parse(str(claim.get("move")))
    true = get_oracle(reached.system, "static").next(reached.configuration, reached.sentence).bare
    return None if said.bare == true else f"the static oracle takes {true}, not {said}"


def check_legal(claim: Claim, reached: Reached) -> str | None:
    said = moves_of(claim.get("moves", []))
    true = set(reached.system.legal(reached.configuration))
    if said != true:
        return f"the legal moves are {moves_text(true)}, not {moves_text(said)}"
    final = claim.get("final")
    if final is not None and bool(final) != reached.system.is_terminal(reached.configuration):
        return f"the configuration is {'' if not final else 'not '}final"
    return None


def check_best(claim: Claim, reached: Reached) -> str | None:
    true = best_arcs(judge(reached), reached.configuration, reached.sentence)
    said = int(claim.get("arcs", -1))
    return None if said == true else f"the best parse from here builds {true} gold arcs, not {said}"


def check_projective(claim: Claim, reached: Reached) -> str | None:
    true = is_projective(reached.sentence.gold_heads, bool(claim.get("root_last", False)))
    said = bool(claim.get("value"))
    return None if said == true else f"the gold tree is {'' if true else 'not '}projective"


def check_buildable(claim: Claim, reached: Reached) -> str | None:
    options = {o: True for o in claim.get("options", [])}
    system = get_system(str(claim.get("system")), **options)
    why = system.why_unbuildable(reached.sentence)
    said = bool(claim.get("value"))
    if said == (why is None):
        return None
    return f"{system.name} can build the gold tree" if why is None else f"{system.name} cannot: {why}"


CHECKS: dict[str, Callable[[Claim, Reached], str | None]] = {
    "cost": check_cost, "optimal": check_optimal, "static": check_static, "legal": check_legal,
    "best": check_best, "projective": check_projective, "buildable": check_buildable,
}


# -- values and words -----------------------------------------------------------------------------------
def best_arcs(oracle: Oracle, c: Configuration, gold: Sentence) -> int:
    """The gold arcs of the parse an exact oracle finishes from ``c``: the most still reachable."""
    return len(completion(oracle, c, gold).unlabelled_arcs & gold.gold_arcs)


def cost_value(value: Any) -> float:
    return math.inf if value in ("inf", "∞") else float(value)


def cost_text(value: float) -> str:
    return "∞" if math.isinf(value) else f"{value:g}"


def moves_of(texts: list[str]) -> set[Transition]:
    return {Transition.parse(str(t)).bare for t in texts}


def moves_text(moves: set[Transition]) -> str:
    return "{" + ", ".join(sorted(str(t) for t in moves)) + "}"


def words(costs: dict[Transition, float]) -> str:
    return ", ".join(f"{t} {cost_text(v)}" for t, v in costs.items())


def arcs_text(sentence: Sentence, arcs: Any) -> str:
    return "{" + ", ".join(sorted(arc_text(sentence, a) for a in arcs)) + "}"
