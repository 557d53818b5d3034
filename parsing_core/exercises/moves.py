"""Kinds about the moves at one configuration: the next move, the cost of a move, all optimal moves.

The configuration is met on a walk that follows the exact oracle's optimal moves, with 0, 1 or
2–3 costly moves injected first, by level (:func:`~.setting.practice_configuration`).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from ..sentence import Sentence
from ..transition import Transition
from ..trees import Arc
from .answers import AnswerInput, arcs_json, arcs_of, moves_json, moves_of
from .items import ExerciseError, Feedback, Item, ItemSpec
from .kind import ExerciseKind, Model, move_hints, optimal_rung, shown
from .setting import costly, evenly, optimal_kinds, optimal_set, practice_configuration, rng
from .tutor import arcs_words, cost_words, judge_move, lost_arcs, moves_words, overlap, share, why_costs


class NextMove(ExerciseKind[Transition]):
    """Which move now?  Any optimal move is right."""

    name, number, title = "next-move", 1, "Next move"
    answer_input = AnswerInput("move", costs_tell=True)

    def make(self, spec: ItemSpec, sentence: Sentence, model: Model | None = None) -> Item[Transition]:
        where, rnd = self.where(spec, sentence), rng(spec)
        r = practice_configuration(where, rnd, spec.level, spread=optimal_kinds)
        answer = where.answer(r.configuration)
        best = answer.optimal
        prompt = f"{shown(sentence, r.configuration, len(r.mistakes))}, which move should the parser take?"
        return Item(spec, sentence, prompt, best[0],
                    move_hints(sentence, r.configuration, optimal_rung(sentence, answer), where.system),
                    r.configuration, r.moves, r.mistakes, oracle=where.oracle.name)

    def grade(self, item: Item[Transition], answer: Transition) -> Feedback:
        where, c = self.again(item), item.configuration
        assert c is not None
        truth = where.answer(c)
        best = truth.optimal
        said = judge_move(where.system, item.sentence, c, truth, answer)
        if answer.bare in best:
            others = [t for t in best if t != answer.bare]
            also = f" So is {moves_words(others)}: several moves keep the best tree." if others else ""
            return Feedback(True, 1.0, f"Right: {said}{also}", item.hints, moves=best)
        return Feedback(False, 0.0, said, item.hints, (f"Optimal here: {moves_words(best)}.",),
                        lost_arcs(truth, answer), best)

    def wrong(self, item: Item[Transition], rnd: random.Random) -> Transition | None:
        where, c = self.again(item), item.configuration
        assert c is not None
        costs = where.costs(c)
        illegal = [Transition(k) for k in where.system.kinds if Transition(k) not in costs]
        return rnd.choice(costly(costs) or illegal) if costly(costs) or illegal else None

    def to_json(self, answer: Transition) -> str:
        return str(answer)

    def from_json(self, value: str) -> Transition:
        return Transition.parse(value)

    def describe(self, item: Item[Transition], answer: Transition) -> str:
        return answer.name

    def given_move(self, answer: Transition) -> Transition:
        return answer

    def move_cost(self, item: Item[Transition], answer: Transition) -> float | None:
        if item.configuration is None:
            return None
        return self.again(item).costs(item.configuration).get(answer.bare, math.inf)

    def shown_moves(self, item: Item[Transition]) -> tuple[Transition, ...]:
        return (item.key,)


@dataclass(frozen=True)
class CostAnswer:
    """A move's cost and, when asked (``lost`` not None), the gold arcs it makes unreachable."""

    cost: float
    lost: frozenset[Arc] | None = None


class CostOfMove(ExerciseKind[CostAnswer]):
    """What does this move cost?  At levels 2 and 3, also: which gold arcs does it lose?  (Asked
    only where the lost arcs are *the* arcs, not one example: arc-decomposable systems with a
    projective gold tree.)"""

    name, number, title = "cost-of-move", 4, "Cost of a move"
    answer_input = AnswerInput("cost", costs_tell=True)

    def make(self, spec: ItemSpec, sentence: Sentence, model: Model | None = None) -> Item[CostAnswer]:
        where, rnd = self.where(spec, sentence), rng(spec)
        r = practice_configuration(where, rnd, spec.level, varied=True)
        answer = where.answer(r.configuration)
        t = evenly([t for t, v in answer.costs.items() if not math.isinf(v)], answer.costs.__getitem__, rnd)
        why = answer.explanations.get(t)
        ask_arcs = spec.level > 1 and why is not None and not why.example
        key = CostAnswer(answer.costs[t], why.lost if ask_arcs and why is not None else None)
        question = " and which gold arcs does it make unreachable" if ask_arcs else ""
        prompt = f"{shown(sentence, r.configuration, len(r.mistakes))}, what does {t.name} cost{question}?"
        hints = move_hints(sentence, r.configuration, why_costs(sentence, t, answer), where.system)
        return Item(spec, sentence, prompt, key, hints, r.configuration, r.moves, r.mistakes, asked=t,
                    oracle=where.oracle.name)

    def grade(self, item: Item[CostAnswer], answer: CostAnswer) -> Feedback:
        assert item.configuration is not None and item.asked is not None
        truth = self.again(item).answer(item.configuration)
        key, t = item.key, item.asked
        said = why_costs(item.sentence, t, truth)
        cost_right = answer.cost == key.cost
        lead = "Right: " if cost_right else f"Not {cost_words(answer.cost)}: "
        if key.lost is None:
            return Feedback(cost_right, float(cost_right), lead + said, item.hints, arcs=lost_arcs(truth, t))
        given = answer.lost or frozenset()
        missed, extra = key.lost - given, given - key.lost
        correct = cost_right and not missed and not extra
        if cost_right and not correct:
            lead = "The cost is right, the arcs are not: "
        details = [f"Still reachable after it: {arcs_words(item.sentence, extra)}."] if extra else []
        arcs_credit = share(len(key.lost & given), len(key.lost | given))
        return Feedback(correct, 0.5 * cost_right + 0.5 * arcs_credit, lead + said, item.hints,
                        tuple(details), key.lost)

    def wrong(self, item: Item[CostAnswer], rnd: random.Random) -> CostAnswer | None:
        """Another cost a learner could enter: 0 up to the number of words (the gold arcs)."""
        other = rnd.choice([v for v in range(item.sentence.n + 1) if v != item.key.cost])
        return CostAnswer(other, item.key.lost)

    def to_json(self, answer: CostAnswer) -> dict[str, Any]:
        return {"cost": answer.cost, "lost": None if answer.lost is None else arcs_json(answer.lost)}

    def from_json(self, value: dict[str, Any]) -> CostAnswer:
        lost = value.get("lost")
        return CostAnswer(value["cost"], None if lost is None else arcs_of(lost))

    def describe(self, item: Item[CostAnswer], answer: CostAnswer) -> str:
        lost = "" if answer.lost is None else f", loses {arcs_words(item.sentence, answer.lost) or 'none'}"
        return f"cost {answer.cost:g}{lost}"


class AllOptimal(ExerciseKind[frozenset[Transition]]):
    """Tick every optimal move: each box is a move of the system, each wrong box explained."""

    name, number, title = "all-optimal", 5, "All optimal moves"
    answer_input = AnswerInput("moves", costs_tell=True)

    def make(self, spec: ItemSpec, sentence: Sentence,
             model: Model | None = None) -> Item[frozenset[Transition]]:
        where, rnd = self.where(spec, sentence), rng(spec)
        r = practice_configuration(where, rnd, spec.level, spread=optimal_set)
        answer = where.answer(r.configuration)
        if not answer.optimal:
            raise ExerciseError("no move is optimal here")
        prompt = f"{shown(sentence, r.configuration, len(r.mistakes))}, tick every optimal move."
        return Item(spec, sentence, prompt, frozenset(answer.optimal),
                    move_hints(sentence, r.configuration, optimal_rung(sentence, answer), where.system),
                    r.configuration, r.moves, r.mistakes, oracle=where.oracle.name)

    def grade(self, item: Item[frozenset[Transition]], answer: frozenset[Transition]) -> Feedback:
        where, c = self.again(item), item.configuration
        assert c is not None
        truth = where.answer(c)
        ticked = {t.bare for t in answer}
        boxes = [Transition(k) for k in where.system.kinds]
        details = []
        for t in boxes:
            if (t in ticked) != (t in item.key):
                verb = "You missed" if t in item.key else "You ticked"
                details.append(f"{verb} {t.name}: {judge_move(where.system, item.sentence, c, truth, t)}")
        correct = not details
        hit, extra = len(ticked & item.key), len(ticked - item.key)
        costly_ticks = f" and {extra} costly" if extra else ""
        message = "Right: exactly these moves are optimal." if correct else (
            f"You ticked {hit} of the {len(item.key)} optimal moves{costly_ticks}; optimal: "
            f"{moves_words(truth.optimal)}.")
        lost = frozenset().union(*(lost_arcs(truth, t) for t in ticked if t not in item.key))
        return Feedback(correct, overlap(ticked, item.key), message, item.hints, tuple(details), lost,
                        truth.optimal)

    def wrong(self, item: Item[frozenset[Transition]], rnd: random.Random) -> frozenset[Transition] | None:
        assert item.configuration is not None
        extra = costly(self.again(item).costs(item.configuration))
        if extra:
            return item.key | {rnd.choice(extra)}
        return item.key - {rnd.choice(sorted(item.key))}

    def to_json(self, answer: frozenset[Transition]) -> list[str]:
        return sorted(moves_json(answer))

    def from_json(self, value: list[str]) -> frozenset[Transition]:
        return frozenset(moves_of(value))

    def describe(self, item: Item[frozenset[Transition]], answer: frozenset[Transition]) -> str:
        return " + ".join(t.name for t in sorted(answer, key=str)) or "none ticked"
