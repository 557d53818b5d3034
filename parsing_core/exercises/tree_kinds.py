"""Kinds about the gold tree itself: which arcs cross, and which systems can build it.

Both are read off the head list by the library's own tests (:func:`parsing_core.trees.position`,
:meth:`TransitionSystem.why_unbuildable`), so the keys need no oracle.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Any

from ..experiments.audit import SYSTEM_VARIANTS, bracket
from ..sentence import Sentence
from ..trees import Arc, arcs, position
from .answers import AnswerInput, arcs_json, arcs_of
from .items import ExerciseError, Feedback, Hints, Item, ItemSpec
from .kind import ExerciseKind, Model
from .setting import MAX_TOKENS, system_of, variant
from .tutor import arc_words, overlap, share

Pair = frozenset[Arc]


def crossing_pairs(heads: tuple[int, ...], root_last: bool = False) -> frozenset[Pair]:
    """The pairs of arcs that cross when drawn above the sentence (ROOT first, or last).

    >>> sorted(sorted(p) for p in crossing_pairs((0, 3, 1, 2)))   # found best example ever
    [[(1, 3), (2, 4)]]
    """
    n = len(heads)

    def span(a: Arc) -> tuple[int, int]:
        ends = (position(a[0], n, root_last), a[1])
        return min(ends), max(ends)

    pairs = set()
    for a, b in itertools.combinations(sorted(arcs(heads)), 2):
        (l1, r1), (l2, r2) = span(a), span(b)
        if l1 < l2 < r1 < r2 or l2 < l1 < r2 < r1:
            pairs.add(frozenset({a, b}))
    return frozenset(pairs)


def pairs_count(count: int) -> str:
    """``no pairs of arcs cross``, ``1 pair of arcs crosses``, ``2 pairs of arcs cross``."""
    return "1 pair of arcs crosses" if count == 1 else f"{count or 'no'} pairs of arcs cross"


def pair_words(sentence: Sentence, pair: Pair) -> str:
    return " and ".join(arc_words(sentence, a) for a in sorted(pair, key=lambda a: (a[1], a[0])))


@dataclass(frozen=True)
class CrossingAnswer:
    """The pairs of gold arcs that cross, and whether the tree is projective."""

    pairs: frozenset[Pair]
    projective: bool


def gold_only(sentence: Sentence, limit: int) -> None:
    if not sentence.has_gold:
        raise ExerciseError("an exercise needs a sentence with a gold tree")
    if sentence.n > limit:
        raise ExerciseError(f"{sentence.n} tokens: this exercise keeps to {limit}")


class CrossingArcs(ExerciseKind[CrossingAnswer]):
    """Which pairs of gold arcs cross?  Is the tree projective?"""

    name, number, title = "crossing-arcs", 6, "Crossing arcs"
    seeded = False
    answer_input = AnswerInput("arc-pairs", about_tree=True, marks="crossing")

    def make(self, spec: ItemSpec, sentence: Sentence, model: Model | None = None) -> Item[CrossingAnswer]:
        gold_only(sentence, self.limit)
        root_last = system_of(spec.system, variant(spec)).root_last
        pairs = crossing_pairs(sentence.gold_heads, root_last)
        where = "after the last word" if root_last else "before the first word"
        prompt = (f"Draw the gold arcs above the sentence, ROOT {where}. Which pairs of arcs cross? "
                  "Is the tree projective?")
        answer = "; ".join(pair_words(sentence, p) for p in sorted(pairs, key=sorted)) or "no arcs cross"
        hints = Hints("Two arcs cross when exactly one end of one lies strictly between the ends of the "
                      "other.",
                      "A tree is projective when no two of its arcs cross (arcs from ROOT included).",
                      f"{answer}: the tree is {'' if not pairs else 'not '}projective.")
        return Item(spec, sentence, prompt, CrossingAnswer(pairs, not pairs), hints)

    def grade(self, item: Item[CrossingAnswer], answer: CrossingAnswer) -> Feedback:
        key, s = item.key, item.sentence
        missed, extra = key.pairs - answer.pairs, answer.pairs - key.pairs
        details = [f"These cross: {pair_words(s, p)}." for p in sorted(missed, key=sorted)]
        details += [f"These do not cross: {pair_words(s, p)}." for p in sorted(extra, key=sorted)]
        if answer.projective != key.projective:
            details.append(f"The tree is {'' if key.projective else 'not '}projective: "
                           f"{pairs_count(len(key.pairs))}.")
        pairs_credit = share(len(key.pairs & answer.pairs), len(key.pairs | answer.pairs))
        credit = 0.5 * pairs_credit + 0.5 * (answer.projective == key.projective)
        correct = not details
        message = "Right." if correct else "Not quite: " + item.hints.answer
        crossing = frozenset(a for p in key.pairs for a in p)
        return Feedback(correct, credit, message, item.hints, tuple(details), crossing)

    def wrong(self, item: Item[CrossingAnswer], rnd: random.Random) -> CrossingAnswer | None:
        return CrossingAnswer(item.key.pairs, not item.key.projective)

    def to_json(self, answer: CrossingAnswer) -> dict[str, Any]:
        return {"pairs": sorted(arcs_json(p) for p in answer.pairs), "projective": answer.projective}

    def from_json(self, value: dict[str, Any]) -> CrossingAnswer:
        return CrossingAnswer(frozenset(arcs_of(p) for p in value["pairs"]), value["projective"])

    def describe(self, item: Item[CrossingAnswer], answer: CrossingAnswer) -> str:
        pairs = "; ".join(pair_words(item.sentence, p) for p in sorted(answer.pairs, key=sorted))
        pairs = pairs or "none cross"
        return f"{pairs}; {'projective' if answer.projective else 'not projective'}"


def variant_name(name: str, options: tuple[tuple[str, object], ...]) -> str:
    return f"{name}{bracket(options)}"


VARIANTS = {variant_name(name, options): (name, options) for name, options in SYSTEM_VARIANTS}


class WhichSystems(ExerciseKind[frozenset[str]]):
    """Tick every system that can build this gold tree; each system says why or why not."""

    name, number, title = "which-systems", 7, "Which systems can build this tree"
    seeded = False
    answer_input = AnswerInput("systems", about_tree=True, marks="crossing")

    def make(self, spec: ItemSpec, sentence: Sentence, model: Model | None = None) -> Item[frozenset[str]]:
        gold_only(sentence, MAX_TOKENS)
        reasons = self.reasons(sentence)
        key = frozenset(v for v, why in reasons.items() if why is None)
        hints = Hints("First: do any arcs cross, with ROOT first and with ROOT last? How many roots?",
                      "Systems without SWAP build only projective trees; a SWAP reorders the words into "
                      "the tree's projective order, so the swap systems build any tree.",
                      "; ".join(f"{v}: {why or 'can build it'}" for v, why in reasons.items()))
        prompt = "Which of these systems can build the gold tree? " + ", ".join(VARIANTS) + "."
        return Item(spec, sentence, prompt, key, hints)

    @staticmethod
    def reasons(sentence: Sentence) -> dict[str, str | None]:
        return {v: system_of(name, options).why_unbuildable(sentence)
                for v, (name, options) in VARIANTS.items()}

    def grade(self, item: Item[frozenset[str]], answer: frozenset[str]) -> Feedback:
        reasons = self.reasons(item.sentence)
        details = []
        for v, why in reasons.items():
            if (v in answer) != (why is None):
                details.append(f"{v} can build it." if why is None else f"{v} cannot: {why}.")
        can = {v for v, why in reasons.items() if why is None}
        cannot = f" and {len(answer - can)} that cannot" if answer - can else ""
        message = "Right." if not details else (
            f"You ticked {len(answer & can)} of the {len(can)} systems that can{cannot}.")
        return Feedback(not details, overlap(answer, can), message, item.hints, tuple(details))

    def wrong(self, item: Item[frozenset[str]], rnd: random.Random) -> frozenset[str] | None:
        return item.key ^ {rnd.choice(sorted(VARIANTS))}

    def to_json(self, answer: frozenset[str]) -> list[str]:
        return sorted(answer)

    def from_json(self, value: list[str]) -> frozenset[str]:
        return frozenset(value)

    def describe(self, item: Item[frozenset[str]], answer: frozenset[str]) -> str:
        return ", ".join(sorted(answer)) or "none ticked"
