"""Practice: exercises whose every answer key comes from an exact oracle.

An exercise *kind* makes an *item* from a spec (kind, sentence, system, options, seed, level)
and grades an answer, returning :class:`Feedback`: right or not, partial credit, what a tutor
would say (why a move costs, naming the gold arcs it loses; why a move is illegal, in the
system's own words) and a three-rung hint ladder (where to look, the principle, the answer).

=====  ===================  ========================================================
  #    kind                 the question
=====  ===================  ========================================================
  1    next-move            which move now?  (any optimal move is right)
  2    whole-derivation     parse the whole sentence, click by click
  3    trace-table          the stack, buffer and new arc after a given move
  4    cost-of-move         what a move costs (and, at levels 2–3, which arcs it loses)
  5    all-optimal          tick every optimal move
  6    crossing-arcs        which gold arcs cross; is the tree projective
  7    which-systems        which systems can build this tree, and why
  8    static-fails         one mistake after which the static oracle's move is not optimal
  9    approx-vs-exact      where an approximate oracle's cost is wrong
 10    count-steps          how many moves a derivation takes
 11    predict-parser       which move a trained parser takes, and is it optimal
=====  ===================  ========================================================

An item is a value with a short id; its spec rebuilds it, so a set of specs is a link.

>>> from parsing_core import Transition
>>> pool = SentencePool()
>>> spec = ItemSpec("next-move", "he-sent-her-a-letter", "arc-eager", seed=25, level=1)
>>> item = make_item(spec, pool.find(spec.sentence))
>>> item.prompt
'In the configuration stack [ROOT sent] buffer [a letter .], which move should the parser take?'
>>> item.key, item.id
(Transition('SH'), 'bc8a05a4')
>>> feedback = grade(item, Transition("RA"))
>>> feedback.correct, feedback.credit
(False, 0.0)
>>> feedback.message
'RIGHT-ARC costs 1: it makes letter → a unreachable.'
>>> print(grade(item, Transition("SH")).message)  # doctest: +ELLIPSIS
Right: SHIFT is optimal (cost 0): it keeps letter → a, ... within reach, which RIGHT-ARC or REDUCE would lose.
>>> rebuild(ItemSpec.parse(spec.text), pool) == item
True
"""

from __future__ import annotations

from typing import Any

from ..sentence import Sentence
from . import sets
from .answers import AnswerInput
from .derivation import CountSteps, StepCount, TableRow, TraceTable, WholeDerivation
from .items import ExerciseError, Feedback, Hints, Item, ItemSpec, Options, decode_set, encode_set
from .kind import ExerciseKind, Model
from .moves import AllOptimal, CostAnswer, CostOfMove, NextMove
from .oracle_kinds import ApproxVsExact, Disagreement, Mistake, StaticFails
from .predict import Prediction, PredictParser
from .setting import SentencePool, sentence_key, sentence_level
from .tree_kinds import CrossingAnswer, CrossingArcs, WhichSystems, crossing_pairs

KINDS: dict[str, ExerciseKind[Any]] = {
    kind.name: kind
    for kind in (NextMove(), WholeDerivation(), TraceTable(), CostOfMove(), AllOptimal(), CrossingArcs(),
                 WhichSystems(), StaticFails(), ApproxVsExact(), CountSteps(), PredictParser())
}


def list_kinds() -> list[str]:
    """The kinds' names, in the order of the table above."""
    return list(KINDS)


def get_kind(name: str) -> ExerciseKind[Any]:
    if name not in KINDS:
        raise ExerciseError(f"unknown exercise kind {name!r}; choose one of {', '.join(KINDS)}")
    return KINDS[name]


def make_item(spec: ItemSpec, sentence: Sentence, model: Model | None = None) -> Item[Any]:
    """The item ``spec`` names, made of ``sentence`` (``model``: for predict-parser only)."""
    return get_kind(spec.kind).make(spec, sentence, model)


def grade(item: Item[Any], answer: Any) -> Feedback:
    """Grade an answer of the type the item's kind expects (a Transition, a TableRow, ...)."""
    return get_kind(item.spec.kind).grade(item, answer)


def rebuild(spec: ItemSpec, pool: SentencePool, model: Model | None = None) -> Item[Any]:
    """The item a spec (read back from a link) names."""
    return sets.rebuild(spec, get_kind(spec.kind), pool, model)


def draw(kind: str, system: str, level: int, count: int, seed: int, pool: SentencePool,
         options: Options = (), model: Model | None = None) -> list[ItemSpec]:
    """Up to ``count`` specs of one kind that can be made (see :func:`.sets.draw_specs`)."""
    return sets.draw_specs(get_kind(kind), system, level, count, seed, pool, options, model)


def draw_fresh(kind: str, system: str, level: int, seed: int, pool: SentencePool,
               served: list[ItemSpec] | tuple[ItemSpec, ...] = (), options: Options = (),
               model: Model | None = None) -> ItemSpec | None:
    """One spec of one kind unlike those ``served`` (see :func:`.sets.fresh_spec`)."""
    return sets.fresh_spec(get_kind(kind), system, level, seed, pool, served, options, model)


def compose(kinds: list[str], systems: list[str], level: int, count: int, seed: int, pool: SentencePool,
            options: Options = (), model: Model | None = None) -> list[ItemSpec]:
    """A teacher's set: (kind, system) pairs in turn (see :func:`.sets.compose`)."""
    return sets.compose([get_kind(k) for k in kinds], systems, level, count, seed, pool, options, model)


__all__ = [
    "KINDS", "AnswerInput", "CostAnswer", "CrossingAnswer", "Disagreement", "ExerciseError", "ExerciseKind",
    "Feedback",
    "Hints", "Item", "ItemSpec", "Mistake", "Model", "Options", "Prediction", "SentencePool", "StepCount",
    "TableRow", "compose", "crossing_pairs", "decode_set", "draw", "draw_fresh", "encode_set", "get_kind",
    "grade",
    "list_kinds", "make_item", "rebuild", "sentence_key", "sentence_level",
]
