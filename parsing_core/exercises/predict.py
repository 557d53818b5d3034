"""Predict the parser: which move does a trained model take here, and is it optimal?

The model comes as a function from a sentence to its ``choose(c, legal)`` function
(:data:`~.kind.Model`; for a trained parser ``lambda s: parser.scorer(s).choose``, see
:class:`parsing_core.model.scoring.Scorer`), so this module needs no torch.  Its choice is
asked once, when the item is made, and kept in the key; name the model in the spec's options
(``model=...``) so that items of different models get different ids.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..sentence import Sentence
from ..transition import Transition
from .answers import AnswerInput
from .items import ExerciseError, Feedback, Hints, Item, ItemSpec
from .kind import ExerciseKind, Model, shown
from .setting import practice_configuration, rng
from .tutor import moves_words, principle_rung, why_costs


@dataclass(frozen=True)
class Prediction:
    """The move the parser takes, and whether that move is optimal."""

    move: Transition
    optimal: bool


class PredictParser(ExerciseKind[Prediction]):
    """Which move does the trained parser take, and is it optimal?"""

    name, number, title = "predict-parser", 11, "Predict the parser"
    needs_model = True
    answer_input = AnswerInput("prediction", marks="")

    def make(self, spec: ItemSpec, sentence: Sentence, model: Model | None = None) -> Item[Prediction]:
        if model is None:
            raise ExerciseError("predicting the parser needs a trained model: load one first")
        where, rnd = self.where(spec, sentence), rng(spec)
        r = practice_configuration(where, rnd, spec.level)
        c = r.configuration
        chosen = model(sentence)(c, where.system.legal(c)).bare
        if chosen not in where.system.legal(c):
            raise ExerciseError(f"the model chose {chosen.name}, which is not possible here")
        answer = where.answer(c)
        key = Prediction(chosen, chosen in answer.optimal)
        prompt = (f"{shown(sentence, c, len(r.mistakes))}, which move does the trained parser take? "
                  "Is it optimal?")
        verdict = "optimal" if key.optimal else f"not optimal (optimal: {moves_words(answer.optimal)})"
        hints = Hints("A parser learns the moves its training oracle took in configurations like this one.",
                      principle_rung(where.system, sentence, c),
                      f"It takes {chosen.name}, {verdict}. " + why_costs(sentence, chosen, answer))
        return Item(spec, sentence, prompt, key, hints, c, r.moves, r.mistakes, oracle=where.oracle.name)

    def grade(self, item: Item[Prediction], answer: Prediction) -> Feedback:
        key, c = item.key, item.configuration
        assert c is not None
        move_right, verdict_right = answer.move.bare == key.move, answer.optimal == key.optimal
        lead = "Right: t" if move_right and verdict_right else "T"
        other = "" if move_right else f", not {answer.move.name}"
        said = why_costs(item.sentence, key.move, self.again(item).answer(c))
        return Feedback(move_right and verdict_right, 0.5 * move_right + 0.5 * verdict_right,
                        f"{lead}he parser takes {key.move.name}{other}. {said}", item.hints,
                        moves=(key.move,))

    def wrong(self, item: Item[Prediction], rnd: random.Random) -> Prediction | None:
        return Prediction(item.key.move, not item.key.optimal)

    def to_json(self, answer: Prediction) -> dict[str, Any]:
        return {"move": str(answer.move), "optimal": answer.optimal}

    def from_json(self, value: dict[str, Any]) -> Prediction:
        return Prediction(Transition.parse(value["move"]), value["optimal"])

    def describe(self, item: Item[Prediction], answer: Prediction) -> str:
        return f"{answer.move.name}, {'optimal' if answer.optimal else 'not optimal'}"
