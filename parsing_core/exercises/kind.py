"""What every exercise kind provides: ``make`` an item, ``grade`` an answer, and ``wrong``, a
plausible wrong answer (for tests, benchmarks, and a page's "show me a mistake")."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Generic

from ..configuration import Configuration
from ..driver import Choose
from ..oracles import Answer
from ..sentence import Sentence
from .items import A, Feedback, Hints, Item, ItemSpec
from .setting import MAX_TOKENS, Setting, setting
from .tutor import configuration_words, moves_words, token_words, why_costs

#: A trained parser, as exercises see it: for a sentence, its ``choose(c, legal)`` function
#: (``lambda s: parser.scorer(s).choose``): the sentence is read once, then each configuration scored.
Model = Callable[[Sentence], Choose]

#: The principle behind every cost, said once.
COST_PRINCIPLE = ("A move's cost is how many gold arcs the best tree still reachable loses by it: "
                  "cost(t; c) = best(c) − best(t(c)). The optimal moves cost the least (0 while the "
                  "gold tree is reachable); several moves can be optimal at once.")


class ExerciseKind(Generic[A]):
    """Base class: subclasses set ``name``, ``title`` and ``number`` and implement ``make``,
    ``grade`` and ``wrong``; ``limit`` is the longest sentence the kind keeps to."""

    name: str = ""
    title: str = ""
    number: int = 0
    limit: int = MAX_TOKENS
    needs_model: bool = False

    def make(self, spec: ItemSpec, sentence: Sentence, model: Model | None = None) -> Item[A]:
        """The item named by ``spec`` (``sentence``: the one its key names)."""
        raise NotImplementedError

    def grade(self, item: Item[A], answer: A) -> Feedback:
        raise NotImplementedError

    def wrong(self, item: Item[A], rnd: random.Random) -> A | None:
        """An answer this kind marks wrong, or None when every answer is right."""
        raise NotImplementedError

    def where(self, spec: ItemSpec, sentence: Sentence) -> Setting:
        return setting(spec, sentence, self.limit)

    def again(self, item: Item[A]) -> Setting:
        """The setting of an item being graded."""
        return self.where(item.spec, item.sentence)


def pointer_at(sentence: Sentence, c: Configuration) -> str:
    """The first rung of a move question: where to look."""
    s0 = token_words(sentence, c.stack[-1]) if c.stack else "nothing"
    b = token_words(sentence, c.buffer[0]) if c.buffer else "nothing"
    return (f"Look at the top of the stack ({s0}) and the front of the buffer ({b}): which gold arcs "
            "join them, or join them to words still on the stack or in the buffer?")


def move_hints(sentence: Sentence, c: Configuration, answer: str) -> Hints:
    return Hints(pointer_at(sentence, c), COST_PRINCIPLE, answer)


def optimal_rung(sentence: Sentence, answer: Answer) -> str:
    """The last rung of a move question: the optimal moves, and why each other legal move costs."""
    others = " ".join(why_costs(sentence, t, answer) for t in answer.costs if t not in answer.optimal)
    return f"Optimal: {moves_words(answer.optimal)}." + (f" {others}" if others else "")


def shown(sentence: Sentence, c: Configuration, mistakes: int) -> str:
    """The configuration, and a warning when mistakes were made on the way to it."""
    text = f"In the configuration {configuration_words(sentence, c)}"
    if mistakes:
        text += (f" (reached after {mistakes} mistake{'s' * (mistakes > 1)}, so the gold tree may be "
                 "out of reach: aim for the best tree still reachable)")
    return text
