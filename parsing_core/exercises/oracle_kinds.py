"""Kinds about oracles themselves: where the static oracle fails, where an approximate one errs.

Both are graded by the exact oracle.  A learner's mistake counts when the static oracle, going
on from it by its rules, takes a move that is not optimal (a *slip*): at once, or a few moves
later, as in *He sent her a letter .* when *her* is shifted (only 3 of the 6 gold arcs follow,
where 5 were still reachable).  A configuration counts when the approximate oracle's cost of
the named move differs from the exact cost there.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from typing import Any

from ..configuration import Configuration
from ..driver import max_steps, replay, run
from ..errors import ParsingCoreError
from ..oracles import Oracle
from ..oracles.static import StaticOracle
from ..sentence import Sentence
from ..transition import Transition
from .answers import AnswerInput, moves_json, moves_of
from .items import ExerciseError, Feedback, Hints, Item, ItemSpec
from .kind import ExerciseKind, Model
from .setting import Setting, oracle_of, rng, variant
from .tutor import (
    configuration_words,
    cost_words,
    judge_move,
    lost_arcs,
    moves_count,
    moves_words,
    why_costs,
    why_illegal,
)

Derivation = tuple[Transition, ...]
STATIC_PRINCIPLE = ("A static oracle is right only on the gold path: after a mistake its rules may name a "
                    "move that is no longer optimal, while a dynamic oracle judges every configuration.")


@dataclass(frozen=True)
class Mistake:
    """After ``step`` moves of the static oracle's derivation, take ``move`` instead."""

    step: int
    move: Transition


@dataclass(frozen=True)
class Slip:
    """The first move the static oracle takes that is not optimal: where, which, how many moves on."""

    configuration: Configuration
    move: Transition
    later: int


def static_of(spec: ItemSpec) -> StaticOracle:
    oracle = oracle_of(spec.system, variant(spec), "static")
    assert isinstance(oracle, StaticOracle)
    return oracle


def static_slip(where: Setting, static: StaticOracle, c: Configuration) -> Slip | None:
    """Follow the static oracle from ``c``: its first move that costs more than the optimal ones."""
    for later in range(max_steps(where.system, where.gold.n)):
        if where.system.is_terminal(c):
            return None
        try:
            said = static.move(c, where.gold)
        except ParsingCoreError:
            return None
        costs = where.costs(c)
        if costs[said] > min(costs.values()):
            return Slip(c, said, later)
        c = where.system.apply(c, said)
    return None


def slip_words(where: Setting, slip: Slip) -> str:
    when = "at once" if slip.later == 0 else f"{slip.later} move{'s' * (slip.later > 1)} later"
    return (f"{when}, at {configuration_words(where.gold, slip.configuration)}, the static oracle says "
            f"{slip.move.name}. " + why_costs(where.gold, slip.move, where.answer(slip.configuration)))


class StaticFails(ExerciseKind[Mistake]):
    """Make one mistake after which the static oracle's moves are no longer optimal (seed 000's story)."""

    name, number, title = "static-fails", 8, "Where the static oracle fails"
    answer_input = AnswerInput("mistake")
    limit = 10

    def make(self, spec: ItemSpec, sentence: Sentence, model: Model | None = None) -> Item[Mistake]:
        where, static = self.where(spec, sentence), static_of(spec)
        reason = where.system.why_unbuildable(sentence)
        if reason is not None:
            raise ExerciseError(f"the static oracle needs a tree the system can build: {reason}")
        sequence = run(where.system, sentence, static.chooser(sentence)).transitions
        candidates = mistakes(where, sequence)
        key = next((m for m in rng(spec).sample(candidates, len(candidates))
                    if static_slip(where, static, after(where, sequence, m))), None)
        if key is None:
            raise ExerciseError("after any single mistake here the static oracle's moves stay optimal")
        slip = static_slip(where, static, after(where, sequence, key))
        assert slip is not None
        prompt = (f"The static oracle parses this sentence with {' '.join(map(str, sequence))}. Make one "
                  "mistake (after some of its moves, take another) after which the static oracle, "
                  "following its rules, takes a move that is not optimal.")
        hints = Hints(f"One such mistake comes after move {key.step}.", STATIC_PRINCIPLE,
                      f"After {moves_count(key.step)} take {key.move.name}: " + slip_words(where, slip))
        return Item(spec, sentence, prompt, key, hints, where.system.initial(sentence), sequence=sequence,
                    oracle=where.oracle.name, compare="static")

    def grade(self, item: Item[Mistake], answer: Mistake) -> Feedback:
        where, static, sequence = self.again(item), static_of(item.spec), item.sequence
        if not 0 <= answer.step < len(sequence):
            return Feedback(False, 0.0, f"Choose a step from 0 to {len(sequence) - 1}.", item.hints)
        before = replay(where.system, item.sentence, sequence[:answer.step]).final
        if answer.move.bare == sequence[answer.step].bare:
            return Feedback(False, 0.0, f"{answer.move.name} is the static oracle's own move: not a mistake.",
                            item.hints)
        if where.system.why_illegal(before, answer.move) is not None:
            return Feedback(False, 0.0, why_illegal(where.system, before, answer.move), item.hints)
        slip = static_slip(where, static, where.system.apply(before, answer.move.bare))
        if slip is None:
            return Feedback(False, 0.0, f"After {answer.move.name} every move the static oracle takes is "
                            "still optimal.", item.hints)
        truth = where.answer(slip.configuration)
        details = (f"Optimal there: {moves_words(truth.optimal)}.",) + off_path(where, before, answer.move)
        return Feedback(True, 1.0, f"Right: after {answer.move.name}, " + slip_words(where, slip), item.hints,
                        details, lost_arcs(truth, slip.move), truth.optimal)

    def wrong(self, item: Item[Mistake], rnd: random.Random) -> Mistake | None:
        return Mistake(item.key.step, item.sequence[item.key.step])  # the static oracle's own move

    def to_json(self, answer: Mistake) -> dict[str, Any]:
        return {"step": answer.step, "move": str(answer.move)}

    def from_json(self, value: dict[str, Any]) -> Mistake:
        return Mistake(value["step"], Transition.parse(value["move"]))

    def describe(self, item: Item[Mistake], answer: Mistake) -> str:
        return f"after {moves_count(answer.step)}, {answer.move.name}"


def off_path(where: Setting, before: Configuration, move: Transition) -> tuple[str, ...]:
    """When the learner's "mistake" costs nothing, that it was no mistake: an optimal move of
    another derivation, which is enough to lead the static oracle astray."""
    costs = where.costs(before)
    if costs.get(move.bare) != min(costs.values()):
        return ()
    return (f"{move.name} was no mistake: it is optimal too, on another derivation of the gold tree. "
            "Leaving the static oracle's own derivation is enough for its rules to go wrong.",)


def mistakes(where: Setting, sequence: Derivation) -> list[Mistake]:
    """Every single deviation from ``sequence``: at each step, each other legal move."""
    out, c = [], where.system.initial(where.gold)
    for k, t in enumerate(sequence):
        out += [Mistake(k, m) for m in where.system.legal(c) if m != t.bare]
        c = where.system.apply(c, t)
    return out


def after(where: Setting, sequence: Derivation, m: Mistake) -> Configuration:
    return where.system.apply(replay(where.system, where.gold, sequence[:m.step]).final, m.move)


APPROXIMATE = {"arc-standard": "thesis-approx", "arc-eager-corrected": "nederhof-linear"}
SEARCHED = 3000   # configurations tried before giving up on a sentence


@dataclass(frozen=True)
class Disagreement:
    """The moves from the initial configuration to one, and the move whose cost is wrong there."""

    moves: Derivation
    move: Transition


class ApproxVsExact(ExerciseKind[Disagreement]):
    """Find a configuration where an approximate oracle's cost differs from the exact one's."""

    name, number, title = "approx-vs-exact", 9, "Approximate vs exact"
    answer_input = AnswerInput("walk")
    scarce = ("An approximate oracle to compare exists only for arc-standard (thesis-approx) and "
              "arc-eager-corrected (nederhof-linear, exact on projective trees: level 3 has the others).")
    limit = 9

    def approx(self, spec: ItemSpec) -> Oracle:
        if spec.system not in APPROXIMATE:
            raise ExerciseError(f"no approximate oracle to compare in {spec.system}; "
                                f"try {', '.join(APPROXIMATE)}")
        return oracle_of(spec.system, variant(spec), APPROXIMATE[spec.system])

    def make(self, spec: ItemSpec, sentence: Sentence, model: Model | None = None) -> Item[Disagreement]:
        where, approx = self.where(spec, sentence), self.approx(spec)
        if approx.is_exact_for(sentence):
            raise ExerciseError(f"{approx.name} is exact for this tree: {approx.exactness}")
        key = first_disagreement(where, approx, rng(spec))
        c = replay(where.system, sentence, key.moves).final
        mine, truth = approx.costs(c, sentence), where.answer(c)
        prompt = (f"{approx.name}: {approx.exactness}. Find a configuration where its cost "
                  f"for some move differs from the exact oracle's, and name that move.")
        hints = Hints(f"One is {moves_count(len(key.moves))} from the start.",
                      f"Compare {approx.name}'s cost of each move with the exact oracle's.",
                      f"After {' '.join(map(str, key.moves)) or 'no moves'}: {approx.name} says "
                      f"{key.move.name} "
                      f"costs {cost_words(mine[key.move])}. " + why_costs(sentence, key.move, truth))
        return Item(spec, sentence, prompt, key, hints, where.system.initial(sentence),
                    oracle=where.oracle.name, compare=approx.name)

    def grade(self, item: Item[Disagreement], answer: Disagreement) -> Feedback:
        where, approx = self.again(item), self.approx(item.spec)
        c = where.system.initial(item.sentence)
        for k, t in enumerate(answer.moves):
            if where.system.why_illegal(c, t) is not None:
                return Feedback(False, 0.0, f"Move {k + 1}: " + why_illegal(where.system, c, t), item.hints)
            c = where.system.apply(c, t.bare)
        truth, mine = where.answer(c), approx.costs(c, item.sentence)
        wrong = [t for t in truth.costs if mine[t] != truth.costs[t]]
        said = judge_move(where.system, item.sentence, c, truth, answer.move)
        if answer.move.bare in wrong:
            return Feedback(True, 1.0, f"Right: {approx.name} says {answer.move.name} costs "
                            f"{cost_words(mine[answer.move.bare])}, but {said}", item.hints,
                            arcs=lost_arcs(truth, answer.move))
        if wrong:
            return Feedback(False, 0.5, f"They disagree here, about {moves_words(wrong)}, "
                            f"not {answer.move.name}: "
                            + said, item.hints, moves=tuple(wrong))
        return Feedback(False, 0.0, f"Here {approx.name} gives every move its exact cost.", item.hints)

    def wrong(self, item: Item[Disagreement], rnd: random.Random) -> Disagreement | None:
        c = replay(self.again(item).system, item.sentence, item.key.moves).final
        truth, mine = self.again(item).costs(c), self.approx(item.spec).costs(c, item.sentence)
        agreeing = [t for t in truth if truth[t] == mine[t]]
        return Disagreement(item.key.moves, rnd.choice(agreeing)) if agreeing else None

    def to_json(self, answer: Disagreement) -> dict[str, Any]:
        return {"moves": moves_json(answer.moves), "move": str(answer.move)}

    def from_json(self, value: dict[str, Any]) -> Disagreement:
        return Disagreement(moves_of(value["moves"]), Transition.parse(value["move"]))

    def describe(self, item: Item[Disagreement], answer: Disagreement) -> str:
        return f"after {' '.join(map(str, answer.moves)) or 'no moves'}: {answer.move.name}"


def first_disagreement(where: Setting, approx: Oracle, rnd: random.Random) -> Disagreement:
    """Breadth first from the initial configuration (moves in a seeded order): the first
    configuration where ``approx``'s costs differ from the exact oracle's, nearest first."""
    start = where.system.initial(where.gold)
    queue: deque[tuple[Configuration, Derivation]] = deque([(start, ())])
    seen = {start}
    while queue and len(seen) < SEARCHED:
        c, moves = queue.popleft()
        if where.system.is_terminal(c):
            continue
        truth, mine = where.costs(c), approx.costs(c, where.gold)
        wrong = [t for t in truth if mine[t] != truth[t]]
        if wrong:
            return Disagreement(moves, rnd.choice(wrong))
        for t in rnd.sample(list(truth), len(truth)):
            nxt = where.system.apply(c, t)
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, (*moves, t)))
    raise ExerciseError(f"{approx.name} agrees with the exact oracle on every configuration tried here")

