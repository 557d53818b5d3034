"""The Practice page's values: skills, answers as JSON, what a wrong move costs, feedback drawn.

A *skill* is an exercise kind in one transition system, named ``kind/system``
(``next-move/arc-eager``): what mastery and review count.  An answer is kept in the progress
store as JSON together with the text of the item's spec, so an item answered once can be made
again for review, or read back to say what a wrong answer was, with no other record:

>>> import parsing_core.exercises as ex
>>> pool = ex.SentencePool()
>>> spec = ex.ItemSpec("next-move", "he-sent-her-a-letter", "arc-eager", seed=4, level=1)
>>> item = ex.make_item(spec, pool.find(spec.sentence))
>>> skill_of(spec), kept(item, pc.Transition("RA"))
('next-move/arc-eager', {'given': 'RA', 'spec': 'next-move/he-sent-her-a-letter/arc-eager/-/4/1'})
>>> given_words(item, "RA"), move_cost(item, "RA")
('RIGHT-ARC', 1)
"""

from __future__ import annotations

import math
from typing import Any

import parsing_core as pc
import parsing_core.exercises as ex
from parsing_core.exercises.derivation import row_words
from parsing_core.exercises.tree_kinds import VARIANTS, pair_words
from parsing_core.exercises.tutor import arcs_words

#: The kinds that a page answers by playing moves on the board.
BOARD_KINDS = ("next-move", "whole-derivation", "approx-vs-exact")
#: The kinds a page offers, in the library's order (predict-parser only with a trained model).
OFFERED = tuple(ex.list_kinds())
#: The kinds a composed set may hold (a set's items share one level, count and seed, not a model).
COMPOSABLE = tuple(k for k in OFFERED if not ex.get_kind(k).needs_model)


def skill_of(spec: ex.ItemSpec) -> str:
    """The skill an item trains: its kind in its system."""
    return f"{spec.kind}/{spec.system}"


def kind_title(kind: str) -> str:
    return ex.get_kind(kind).title


def skill_title(skill: str) -> str:
    """``next-move/arc-eager`` → ``Next move · arc-eager``."""
    kind, _, system = skill.partition("/")
    return f"{kind_title(kind) if kind in ex.KINDS else kind} · {system}"


# -- answers as JSON ----------------------------------------------------------------------------
def moves_json(moves: tuple[pc.Transition, ...]) -> list[str]:
    return [str(t) for t in moves]


def arc_json(arc: pc.Arc | None) -> list[int] | None:
    return None if arc is None else [arc[0], arc[1]]


def answer_json(kind: str, answer: Any) -> Any:
    """The answer as a JSON value (a move is its text, a set of moves a sorted list, ...)."""
    if isinstance(answer, pc.Transition):
        return str(answer)
    if kind == "whole-derivation":
        return moves_json(answer)
    if kind in ("all-optimal", "which-systems"):
        return sorted(str(t) for t in answer)
    if isinstance(answer, ex.TableRow):
        return {"stack": list(answer.stack), "buffer": list(answer.buffer), "arc": arc_json(answer.arc)}
    if isinstance(answer, ex.CostAnswer):
        lost = None if answer.lost is None else sorted(map(list, answer.lost))
        return {"cost": answer.cost, "lost": lost}
    if isinstance(answer, ex.CrossingAnswer):
        return {"pairs": sorted(sorted(map(list, p)) for p in answer.pairs), "projective": answer.projective}
    if isinstance(answer, ex.Mistake):
        return {"step": answer.step, "move": str(answer.move)}
    if isinstance(answer, ex.Disagreement):
        return {"moves": moves_json(answer.moves), "move": str(answer.move)}
    if isinstance(answer, ex.StepCount):
        return {"fewest": answer.fewest, "most": answer.most}
    return {"move": str(answer.move), "optimal": answer.optimal}  # a Prediction


def kept(item: ex.Item[Any], answer: Any) -> dict[str, Any]:
    """What the store keeps of an answer: the answer as JSON and the spec that rebuilds the item."""
    return {"given": answer_json(item.spec.kind, answer), "spec": item.spec.text}


def spec_of_kept(kept_answer: Any) -> ex.ItemSpec | None:
    """The item spec a kept answer names (None for an answer kept without one)."""
    text = kept_answer.get("spec") if isinstance(kept_answer, dict) else None
    try:
        return ex.ItemSpec.parse(text) if isinstance(text, str) else None
    except ex.ExerciseError:
        return None


# -- answers in words ---------------------------------------------------------------------------
def move_name(text: str) -> str:
    return pc.Transition.parse(text).name


def given_words(item: ex.Item[Any], given: Any) -> str:
    """A kept answer (JSON) in words, for a table of results."""
    s, kind = item.sentence, item.spec.kind
    if isinstance(given, str):
        return move_name(given)
    if kind == "whole-derivation":
        return " ".join(given)
    if kind == "all-optimal":
        return " + ".join(move_name(m) for m in given) or "none ticked"
    if kind == "which-systems":
        return ", ".join(given) or "none ticked"
    if kind == "trace-table":
        row = ex.TableRow(tuple(given["stack"]), tuple(given["buffer"]),
                          None if given["arc"] is None else tuple(given["arc"]))
        return row_words(s, row)
    if kind == "cost-of-move":
        lost = given.get("lost")
        return f"cost {given['cost']:g}" + ("" if lost is None else f", loses {arcs_text(s, lost)}")
    if kind == "crossing-arcs":
        pairs = "; ".join(pair_words(s, frozenset((a[0], a[1]) for a in p)) for p in given["pairs"])
        pairs = pairs or "none cross"
        return f"{pairs}; {'projective' if given['projective'] else 'not projective'}"
    if kind == "static-fails":
        return f"after {given['step']} moves, {move_name(given['move'])}"
    if kind == "approx-vs-exact":
        return f"after {' '.join(given['moves']) or 'no moves'}: {move_name(given['move'])}"
    if kind == "count-steps":
        return f"fewest {given['fewest']}, most {given['most']}"
    return f"{move_name(given['move'])}, {'optimal' if given['optimal'] else 'not optimal'}"


def arcs_text(sentence: pc.Sentence, arcs: list[list[int]]) -> str:
    return arcs_words(sentence, [(h, d) for h, d in arcs]) or "none"


def move_cost(item: ex.Item[Any], given: Any) -> float | None:
    """What a wrong move cost where it was made: a next move, or the move a derivation was stopped at."""
    where = ex.get_kind(item.spec.kind).again(item)
    if item.spec.kind == "next-move" and isinstance(given, str) and item.configuration is not None:
        return where.costs(item.configuration).get(pc.Transition.parse(given).bare, math.inf)
    if item.spec.kind == "whole-derivation" and isinstance(given, list) and given:
        moves = [pc.Transition.parse(m).bare for m in given]
        c = pc.replay(where.system, item.sentence, moves[:-1]).final
        return where.costs(c).get(moves[-1], math.inf)
    return None


def cost_text(cost: float | None) -> str:
    if cost is None:
        return "—"
    return "illegal" if math.isinf(cost) else f"{cost:g}"


# -- choices offered by the inputs --------------------------------------------------------------
def token_label(sentence: pc.Sentence, token: int) -> str:
    """``3 her``: a token's number and word (ROOT is 0)."""
    return f"{token} {sentence.word(token)}"


def gold_arcs(sentence: pc.Sentence) -> list[pc.Arc]:
    """The gold arcs, in the order of their dependents."""
    return sorted(sentence.gold_arcs, key=lambda a: (a[1], a[0]))


def arc_pairs(sentence: pc.Sentence) -> list[frozenset[pc.Arc]]:
    """Every pair of gold arcs that share no token: the pairs that could cross."""
    arcs = gold_arcs(sentence)
    return [frozenset({a, b}) for i, a in enumerate(arcs) for b in arcs[i + 1:] if not set(a) & set(b)]


def system_variants() -> list[str]:
    """The systems a which-systems item asks about, as it names them."""
    return list(VARIANTS)


# -- feedback on the picture --------------------------------------------------------------------
#: The kinds whose feedback names the gold arcs a move loses (the others: a new arc, crossing arcs).
LOSES_ARCS = ("next-move", "whole-derivation", "cost-of-move", "all-optimal", "static-fails",
              "approx-vs-exact")


def feedback_kinds(kinds: dict[pc.Arc, str], feedback: ex.Feedback, kind: str) -> dict[pc.Arc, str]:
    """The picture's arcs with the gold arcs a wrong answer loses drawn as lost (dashed)."""
    if feedback.correct or kind not in LOSES_ARCS:
        return kinds
    return {**kinds, **{a: "lost" for a in feedback.arcs if a not in kinds or kinds[a] == "reachable"}}


def moves_markdown(system: pc.TransitionSystem, right: tuple[pc.Transition, ...], given: str | None) -> str:
    """The system's moves as badges: the right ones green with ✓, a wrong one given red with ✗."""
    badges = []
    for kind in system.kinds:
        t = pc.Transition(kind)
        if t in right:
            badges.append(f":green-badge[✓ {t.name}]")
        elif given is not None and pc.Transition.parse(given).bare == t:
            badges.append(f":red-badge[✗ {t.name} (your answer)]")
        else:
            badges.append(f":gray-badge[{t.name}]")
    return " ".join(badges)
