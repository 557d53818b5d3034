"""What every exercise kind provides: ``make`` an item, ``grade`` an answer, and ``wrong``, a
plausible wrong answer (for tests, benchmarks, and a page's "show me a mistake"); and, for the
pages, how its answer is given (:class:`~.answers.AnswerInput`), kept as JSON, read back and said
in words, so that no page needs to know a kind by its name."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Generic

from ..configuration import Configuration
from ..driver import Choose
from ..oracles import Answer
from ..sentence import Sentence
from ..systems import TransitionSystem
from ..transition import Transition
from .answers import AnswerInput
from .items import A, Feedback, Hints, Item, ItemSpec
from .setting import MAX_TOKENS, Setting, setting
from .tutor import configuration_words, moves_words, principle_rung, token_words, why_costs

#: A trained parser, as exercises see it: for a sentence, its ``choose(c, legal)`` function
#: (``lambda s: parser.scorer(s).choose``): the sentence is read once, then each configuration scored.
Model = Callable[[Sentence], Choose]

#: The principle behind every cost, said once.
COST_PRINCIPLE = ("A move's cost is how many gold arcs the best tree still reachable loses by it: "
                  "cost(t; c) = best(c) − best(t(c)). The optimal moves cost the least (0 while the "
                  "gold tree is reachable); several moves can be optimal at once.")


class ExerciseKind(Generic[A]):
    """Base class: subclasses set ``name``, ``title``, ``number`` and ``answer_input`` and implement
    ``make``, ``grade``, ``wrong``, ``to_json``, ``from_json`` and ``describe``; ``limit`` is the
    longest sentence the kind keeps to; ``seeded`` is False for a kind whose question is the same
    whatever the seed (it asks about the whole tree); ``scarce``, where set, says why a system and
    level may have no item of the kind at all."""

    name: str = ""
    title: str = ""
    number: int = 0
    limit: int = MAX_TOKENS
    needs_model: bool = False
    seeded: bool = True
    answer_input: AnswerInput
    scarce: str = ""

    def make(self, spec: ItemSpec, sentence: Sentence, model: Model | None = None) -> Item[A]:
        """The item named by ``spec`` (``sentence``: the one its key names)."""
        raise NotImplementedError

    def grade(self, item: Item[A], answer: A) -> Feedback:
        raise NotImplementedError

    def wrong(self, item: Item[A], rnd: random.Random) -> A | None:
        """An answer this kind marks wrong, or None when every answer is right."""
        raise NotImplementedError

    def to_json(self, answer: A) -> Any:
        """The answer as a JSON value, as the progress store keeps it."""
        raise NotImplementedError

    def from_json(self, value: Any) -> A:
        """The answer a JSON value of :meth:`to_json` keeps."""
        raise NotImplementedError

    def describe(self, item: Item[A], answer: A) -> str:
        """The answer in words, for a table of results."""
        raise NotImplementedError

    def given_move(self, answer: A) -> Transition | None:
        """The move an answer plays (a next move, the move a derivation stopped at), if it plays one."""
        return None

    def move_cost(self, item: Item[A], answer: A) -> float | None:
        """What :meth:`given_move` cost where it was played (inf: not possible there); None without one."""
        return None

    def shown_moves(self, item: Item[A]) -> tuple[Transition, ...] | None:
        """The moves that play the answer on the board from the item's configuration, for
        "Show me"; None where the answer is not a sequence of moves to play."""
        return None

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


def move_hints(sentence: Sentence, c: Configuration, answer: str,
               system: TransitionSystem | None = None) -> Hints:
    """Where to look, the principle (about this configuration when ``system`` is given: what each
    move would do here), and ``answer``."""
    principle = COST_PRINCIPLE if system is None else principle_rung(system, sentence, c)
    return Hints(pointer_at(sentence, c), principle, answer)


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
