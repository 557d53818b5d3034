"""The Practice page's values: skills, answers kept as JSON, what a wrong move costs, feedback drawn.

A *skill* is an exercise kind in one transition system, named ``kind/system``
(``next-move/arc-eager``): what mastery and review count.  An answer is kept in the progress
store as JSON together with the text of the item's spec, so an item answered once can be made
again for review, or read back to say what a wrong answer was, with no other record.  Each
exercise kind turns its own answers into JSON and back and says them in words
(:class:`parsing_core.exercises.ExerciseKind`); nothing here knows a kind by its name:

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
from parsing_core.exercises.tree_kinds import VARIANTS

#: The kinds a page offers, in the library's order (predict-parser only with a trained model).
OFFERED = tuple(ex.list_kinds())
#: The kinds a composed set may hold (a set's items share one level, count and seed, not a model).
COMPOSABLE = tuple(k for k in OFFERED if not ex.get_kind(k).needs_model)


def skill_of(spec: ex.ItemSpec) -> str:
    """The skill an item trains: its kind in its system."""
    return f"{spec.kind}/{spec.system}"


def kind_title(kind: str) -> str:
    return ex.get_kind(kind).title


def kind_of(item: ex.Item[Any]) -> ex.ExerciseKind[Any]:
    """The exercise kind that made ``item``: it knows how the item is answered."""
    return ex.get_kind(item.spec.kind)


def input_of(item: ex.Item[Any]) -> ex.AnswerInput:
    """How ``item`` is answered (which widget), and what its picture may show meanwhile."""
    return kind_of(item).answer_input


def skill_title(skill: str) -> str:
    """A skill as a learner reads it: the kind, and the system where the question depends on one.

    >>> skill_title("next-move/arc-eager"), skill_title("which-systems/arc-hybrid")
    ('Next move · arc-eager', 'Which systems can build this tree')
    >>> skill_title("next-move/arc-standard[single_root=True]")
    'Next move · arc-standard (single root)'
    """
    kind, _, system = skill.partition("/")
    known = ex.KINDS.get(kind)
    title = known.title if known else kind
    about_tree = known is not None and known.answer_input.about_tree
    return title if about_tree or not system else f"{title} · {system_title(system)}"


def system_title(system: str) -> str:
    """``arc-standard[single_root=True]`` → ``arc-standard (single root)``: options in words."""
    name, _, options = system.partition("[")
    on = [o.split("=")[0].replace("_", " ") for o in options.rstrip("]").split(",") if o.endswith("=True")]
    return f"{name} ({', '.join(on)})" if on else name


# -- answers as JSON ----------------------------------------------------------------------------
def kept(item: ex.Item[Any], answer: Any) -> dict[str, Any]:
    """What the store keeps of an answer: the answer as JSON and the spec that rebuilds the item."""
    return {"given": kind_of(item).to_json(answer), "spec": item.spec.text}


def spec_of_kept(kept_answer: Any) -> ex.ItemSpec | None:
    """The item spec a kept answer names (None for an answer kept without one)."""
    text = kept_answer.get("spec") if isinstance(kept_answer, dict) else None
    try:
        return ex.ItemSpec.parse(text) if isinstance(text, str) else None
    except ex.ExerciseError:
        return None


# -- answers in words ---------------------------------------------------------------------------
def given_words(item: ex.Item[Any], given: Any) -> str:
    """A kept answer (JSON) in words, for a table of results."""
    kind = kind_of(item)
    return kind.describe(item, kind.from_json(given))


def move_cost(item: ex.Item[Any], given: Any) -> float | None:
    """What a wrong move cost where it was made: a next move, or the move a derivation was stopped at."""
    kind = kind_of(item)
    return kind.move_cost(item, kind.from_json(given))


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
def feedback_kinds(kinds: dict[pc.Arc, str], feedback: ex.Feedback, item: ex.Item[Any]) -> dict[pc.Arc, str]:
    """The picture's arcs with the gold arcs a wrong answer loses drawn as lost (dashed)."""
    if feedback.correct or input_of(item).marks != "lost":
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
