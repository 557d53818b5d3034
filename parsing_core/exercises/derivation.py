"""Kinds about whole derivations: play one click by click, trace one row of the table, count the steps.

A derivation is right when every move in it is optimal: there are usually several (spurious
ambiguity), and when the system cannot build the gold tree the best reachable tree is the goal.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from ..configuration import Configuration
from ..driver import max_steps, replay, start
from ..sentence import Sentence
from ..transition import Transition
from ..trees import Arc
from .answers import AnswerInput, moves_json, moves_of
from .items import ExerciseError, Feedback, Hints, Item, ItemSpec
from .kind import COST_PRINCIPLE, ExerciseKind, Model, shown
from .setting import Setting, costly, evenly, legal_kinds, optimal_kinds, practice_configuration, rng
from .tutor import (
    arc_words,
    configuration_words,
    judge_move,
    lost_arcs,
    moves_words,
    principle_rung,
    share,
    token_words,
)

Derivation = tuple[Transition, ...]


def goal(where: Setting, why: bool = True) -> str:
    """What a derivation builds: the gold tree, or the best tree the system can reach (and why)."""
    reason = where.system.why_unbuildable(where.gold)
    if reason is None:
        return "the gold tree"
    return f"the best tree it can reach ({reason})" if why else "the best tree it can reach"


class WholeDerivation(ExerciseKind[Derivation]):
    """A whole parse, click by click; the first illegal or costly move is stopped and explained."""

    name, number, title = "whole-derivation", 2, "Whole derivation"
    answer_input = AnswerInput("derivation")
    seeded = False

    def make(self, spec: ItemSpec, sentence: Sentence, model: Model | None = None) -> Item[Derivation]:
        where = self.where(spec, sentence)
        key = optimal_derivation(where, where.system.initial(sentence))
        c0 = where.system.initial(sentence)
        prompt = f"Parse the sentence with {where.system.name}, move by move, to build {goal(where)}."
        hints = Hints(f"One derivation takes {len(key)} moves; it starts with {key[0].name}.",
                      COST_PRINCIPLE + " Any sequence of optimal moves is right.",
                      " ".join(str(t) for t in key))
        return Item(spec, sentence, prompt, key, hints, c0, oracle=where.oracle.name)

    def grade(self, item: Item[Derivation], answer: Derivation) -> Feedback:
        where = self.again(item)
        trace = start(where.system, item.sentence)
        for k, t in enumerate(answer):
            costs = where.costs(trace.final)
            if t.bare not in costs or costs[t.bare] > min(costs.values()):
                return stopped(where, trace.final, k, t, len(item.key))
            trace = trace.extend(t.bare)
        if not trace.is_complete:
            rest = len(optimal_derivation(where, trace.final))
            return Feedback(False, share(progress(len(item.key), rest), len(item.key)),
                            f"Every move so far is optimal, but the parse is not finished: {rest} to go.",
                            item.hints, moves=where.answer(trace.final).optimal)
        return Feedback(True, 1.0, f"Right: {len(answer)} optimal moves build {goal(where)}.", item.hints)

    def wrong(self, item: Item[Derivation], rnd: random.Random) -> Derivation | None:
        where, trace = self.again(item), start(self.again(item).system, item.sentence)
        for k, t in enumerate(item.key):
            bad = costly(where.costs(trace.final))
            if bad:
                return (*item.key[:k], rnd.choice(bad), *item.key[k + 1:])
            trace = trace.extend(t)
        return (*item.key, Transition("SH"))  # one move too many: the parse is finished

    def to_json(self, answer: Derivation) -> list[str]:
        return moves_json(answer)

    def from_json(self, value: list[str]) -> Derivation:
        return moves_of(value)

    def describe(self, item: Item[Derivation], answer: Derivation) -> str:
        return " ".join(map(str, answer))

    def given_move(self, answer: Derivation) -> Transition | None:
        return answer[-1] if answer else None

    def move_cost(self, item: Item[Derivation], answer: Derivation) -> float | None:
        """What the derivation's last move (where a wrong one stopped it) cost where it was played."""
        if not answer:
            return None
        where, moves = self.again(item), [t.bare for t in answer]
        return where.costs(replay(where.system, item.sentence, moves[:-1]).final).get(moves[-1], math.inf)

    def shown_moves(self, item: Item[Derivation]) -> Derivation:
        return item.key


def optimal_derivation(where: Setting, c: Configuration) -> Derivation:
    """The moves from ``c`` to a final configuration, each the first optimal move in display order."""
    moves: list[Transition] = []
    for _ in range(max_steps(where.system, where.gold.n)):
        if where.system.is_terminal(c):
            break
        costs = where.costs(c)
        t = min(costs, key=lambda t: costs[t])
        moves.append(t)
        c = where.system.apply(c, t)
    return tuple(moves)


def progress(length: int, rest: int) -> int:
    """How much of a ``length``-move derivation has been done by optimal moves when ``rest`` moves
    are still needed.  Partial credit counted the moves played once, which paid for going round in
    circles: SWAP and SHIFT can undo each other at no cost, and twenty of them earned nearly full
    credit."""
    return max(0, length - rest)


def stopped(where: Setting, c: Configuration, k: int, t: Transition, length: int) -> Feedback:
    """Feedback for a derivation stopped at its ``k``-th move (0-based), ``t``."""
    truth = where.answer(c)
    said = judge_move(where.system, where.gold, c, truth, t)
    best = f"the optimal {'moves are' if len(truth.optimal) > 1 else 'move is'} {moves_words(truth.optimal)}"
    done = progress(length, len(optimal_derivation(where, c)))
    return Feedback(False, share(done, max(length, done + 1)), f"Stopped at move {k + 1}: {said}",
                    hints_of_step(where, c, truth.optimal),
                    (f"At {configuration_words(where.gold, c)} {best}.",),
                    lost_arcs(truth, t), truth.optimal)


def hints_of_step(where: Setting, c: Configuration, best: tuple[Transition, ...]) -> Hints:
    return Hints(f"Look again at {configuration_words(where.gold, c)}.",
                 principle_rung(where.system, where.gold, c), f"Here: {moves_words(best)}.")


@dataclass(frozen=True)
class TableRow:
    """One row of the derivation table: stack (bottom first), buffer (front first), new arc."""

    stack: tuple[int, ...]
    buffer: tuple[int, ...]
    arc: Arc | None


#: What each move does, in every system (the order is the stack's, then the buffer's).
EFFECTS = {"SH": "SHIFT moves the front of the buffer onto the stack",
           "LA": "LEFT-ARC makes a word the dependent of the word after it and pops the dependent",
           "RA": "RIGHT-ARC makes a word the dependent of the word before it",
           "RE": "REDUCE pops the top of the stack (with reduce_correct, attaching a headless top to the "
                 "word below it)",
           "SW": "SWAP puts a word back into the buffer"}


def tokens_words(sentence: Sentence, tokens: tuple[int, ...]) -> str:
    return "[" + " ".join(token_words(sentence, t) for t in tokens) + "]"


def arc_or_none(sentence: Sentence, arc: Arc | None) -> str:
    return "none" if arc is None else arc_words(sentence, arc)


def row_words(sentence: Sentence, row: TableRow) -> str:
    return (f"stack {tokens_words(sentence, row.stack)}, buffer {tokens_words(sentence, row.buffer)}, "
            f"new arc {arc_or_none(sentence, row.arc)}")


class TraceTable(ExerciseKind[TableRow]):
    """The next row of the table after a given move, cell by cell (the CS224n exercise)."""

    name, number, title = "trace-table", 3, "Trace the table"
    answer_input = AnswerInput("table-row", marks="")

    def make(self, spec: ItemSpec, sentence: Sentence, model: Model | None = None) -> Item[TableRow]:
        where, rnd = self.where(spec, sentence), rng(spec)
        spread = optimal_kinds if spec.level == 1 else legal_kinds  # no one move told most of the time
        r = practice_configuration(where, rnd, spec.level, want_costly=False, spread=spread)
        c, costs = r.configuration, where.costs(r.configuration)
        t = evenly(where.answer(c).optimal if spec.level == 1 else costs, lambda m: m.kind, rnd)
        after = where.system.apply(c, t)
        key = TableRow(after.stack, after.buffer, where.system.arc_of(c, t))
        prompt = f"{shown(sentence, c, len(r.mistakes))}, the parser takes {t.name}. Fill in the next row."
        hints = Hints(f"{t.name} changes only the top of the stack and the front of the buffer.",
                      f"{EFFECTS[t.kind]}; see the {where.system.title} table for its exact effect.",
                      row_words(sentence, key))
        return Item(spec, sentence, prompt, key, hints, c, r.moves, r.mistakes, asked=t,
                    oracle=where.oracle.name)

    def grade(self, item: Item[TableRow], answer: TableRow) -> Feedback:
        key, s = item.key, item.sentence
        cells = [("stack", tokens_words(s, answer.stack), tokens_words(s, key.stack)),
                 ("buffer", tokens_words(s, answer.buffer), tokens_words(s, key.buffer)),
                 ("new arc", arc_or_none(s, answer.arc), arc_or_none(s, key.arc))]
        details = tuple(f"The {name} is {truth}, not {given}."
                        for name, given, truth in cells if given != truth)
        right = len(cells) - len(details)
        message = f"After {item.asked.name if item.asked else 'the move'}: {row_words(s, key)}."
        return Feedback(right == 3, self.credit(item, answer), ("Right. " if right == 3 else "") + message,
                        item.hints, details, frozenset({key.arc}) if key.arc else frozenset())

    @staticmethod
    def credit(item: Item[TableRow], answer: TableRow) -> float:
        """Partial credit for the cells the move changes, right, over those and any cell the move
        leaves as it was but the answer changed: the row before the move, handed in as it stands
        (the inputs start there), earns nothing.
        """
        c, key = item.configuration, item.key
        assert c is not None
        before = (c.stack, c.buffer, None)
        after, given = (key.stack, key.buffer, key.arc), (answer.stack, answer.buffer, answer.arc)
        changed = [i for i in range(3) if before[i] != after[i]]
        meddled = [i for i in range(3) if before[i] == after[i] and given[i] != after[i]]
        return share(sum(given[i] == after[i] for i in changed), len(changed) + len(meddled))

    def wrong(self, item: Item[TableRow], rnd: random.Random) -> TableRow | None:
        assert item.configuration is not None
        c = item.configuration
        if (c.stack, c.buffer) != (item.key.stack, item.key.buffer):
            return TableRow(c.stack, c.buffer, item.key.arc)  # the row before the move
        return TableRow(item.key.stack, item.key.buffer, (1, 0) if item.key.arc is None else None)

    def to_json(self, answer: TableRow) -> dict[str, Any]:
        arc = None if answer.arc is None else list(answer.arc)
        return {"stack": list(answer.stack), "buffer": list(answer.buffer), "arc": arc}

    def from_json(self, value: dict[str, Any]) -> TableRow:
        arc = None if value["arc"] is None else (value["arc"][0], value["arc"][1])
        return TableRow(tuple(value["stack"]), tuple(value["buffer"]), arc)

    def describe(self, item: Item[TableRow], answer: TableRow) -> str:
        return row_words(item.sentence, answer)


@dataclass(frozen=True)
class StepCount:
    """The fewest and the most moves a derivation takes (equal when all take as many)."""

    fewest: int
    most: int


Lengths = tuple[int, int, Counter[str], Counter[str]]
Memo = dict[Hashable, Lengths]


def lengths(where: Setting, c: Configuration, memo: Memo) -> Lengths:
    """Fewest and most optimal moves from ``c`` to a final configuration, with their moves counted.

    Remembered per :meth:`Configuration.search_key`: the costs of the moves, hence the optimal
    paths onward, depend only on it (as the search oracle's memo does)."""
    if where.system.is_terminal(c):
        return 0, 0, Counter(), Counter()
    key = c.search_key()
    if key not in memo:
        costs = where.costs(c)
        best = [t for t, v in costs.items() if v == min(costs.values()) and not math.isinf(v)]
        options = [(t, lengths(where, where.system.apply(c, t), memo)) for t in best]
        lo_t, lo = min(options, key=lambda o: o[1][0])
        hi_t, hi = max(options, key=lambda o: o[1][1])
        memo[key] = (lo[0] + 1, hi[1] + 1, lo[2] + Counter([lo_t.name]), hi[3] + Counter([hi_t.name]))
    return memo[key]


COUNT_PRINCIPLE = ("Count what each move does to a word: it enters the stack (SHIFT, or RIGHT-ARC in "
                   "arc-eager), it takes its head (an arc move), it leaves the stack (an arc move or "
                   "REDUCE; plain arc-eager stops when the buffer is empty, so words may stay), and a "
                   "SWAP sends it back to the buffer to be shifted again.")


class CountSteps(ExerciseKind[StepCount]):
    """How many moves does a derivation take?  2n in arc-standard; a range elsewhere."""

    name, number, title = "count-steps", 10, "Count the steps"
    answer_input = AnswerInput("step-counts", marks="")
    seeded = False
    limit = 8
    swap_limit = 4  # every optimal configuration is visited: in a swap system, hundreds at 5 tokens

    def make(self, spec: ItemSpec, sentence: Sentence, model: Model | None = None) -> Item[StepCount]:
        where = self.where(spec, sentence)
        if where.system.can_swap and sentence.n > self.swap_limit:
            raise ExerciseError(f"{sentence.n} tokens: counting keeps to {self.swap_limit} in a swap system")
        lo, hi, lo_moves, hi_moves = lengths(where, where.system.initial(sentence), {})
        prompt = (f"How many moves does a derivation of {goal(where, why=False)} take in {where.system.name} "
                  f"(n = {sentence.n} words)? Give the fewest and the most.")
        reason = f"fewest {lo} ({counted(lo_moves)}); most {hi} ({counted(hi_moves)})"
        hints = Hints("Count the moves each word needs, then think about what can vary.",
                      COUNT_PRINCIPLE, reason)
        return Item(spec, sentence, prompt, StepCount(lo, hi), hints, where.system.initial(sentence),
                    oracle=where.oracle.name)

    def grade(self, item: Item[StepCount], answer: StepCount) -> Feedback:
        key = item.key
        right = (answer.fewest == key.fewest) + (answer.most == key.most)
        lead = "Right: " if right == 2 else f"Not {answer.fewest}–{answer.most}: "
        return Feedback(right == 2, share(right, 2), lead + item.hints.answer + ".", item.hints,
                        (COUNT_PRINCIPLE,))

    def wrong(self, item: Item[StepCount], rnd: random.Random) -> StepCount | None:
        return StepCount(item.key.fewest + 1, item.key.most + rnd.choice([1, 2]))

    def to_json(self, answer: StepCount) -> dict[str, int]:
        return {"fewest": answer.fewest, "most": answer.most}

    def from_json(self, value: dict[str, int]) -> StepCount:
        return StepCount(value["fewest"], value["most"])

    def describe(self, item: Item[StepCount], answer: StepCount) -> str:
        return f"fewest {answer.fewest}, most {answer.most}"


def counted(moves: Counter[str]) -> str:
    return ", ".join(f"{v} × {k}" for k, v in sorted(moves.items()))
