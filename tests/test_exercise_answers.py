"""Each exercise kind owns its answers: the input a page shows for it, its answers as JSON and back,
in words, and the move an answer plays with its cost.

The JSON is what the progress store keeps, so it must come back as the same answer after a trip
through :mod:`json`; the key and a wrong answer of items of every kind, system and level are tried.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest

import parsing_core as pc
import parsing_core.exercises as ex
from parsing_core.exercises.answers import BOARD_WIDGETS, WIDGETS

POOL = ex.SentencePool()
KINDS = [k for k in ex.list_kinds() if not ex.get_kind(k).needs_model]


def items(kind: str) -> list[ex.Item[Any]]:
    specs = [spec for system in ("arc-standard", "arc-eager", "arc-hybrid") for level in (1, 2, 3)
             for spec in ex.draw(kind, system, level, 2, 11, POOL)]
    return [ex.make_item(spec, POOL.find(spec.sentence)) for spec in specs]


def answers(kind: str) -> list[tuple[ex.Item[Any], Any]]:
    rnd, found = random.Random(5), []
    for item in items(kind):
        found.append((item, item.key))
        wrong = ex.get_kind(kind).wrong(item, rnd)
        if wrong is not None:
            found.append((item, wrong))
    return found


@pytest.mark.parametrize("kind", ex.list_kinds())
def test_every_kind_names_an_input_widget(kind):
    given = ex.get_kind(kind).answer_input
    assert given.widget in WIDGETS and given.on_board == (given.widget in BOARD_WIDGETS)


def test_the_inputs_say_what_the_pages_used_to_list_by_name():
    """The board kinds, the kinds about the tree, the kinds whose costs would tell, and those whose
    feedback draws lost arcs (the lists the pages kept of kind names, now each kind's own word)."""
    def having(test):
        return {k for k in ex.list_kinds() if test(ex.get_kind(k).answer_input)}

    assert having(lambda i: i.on_board) == {"next-move", "whole-derivation", "approx-vs-exact"}
    assert having(lambda i: i.about_tree) == {"crossing-arcs", "which-systems"}
    assert having(lambda i: i.costs_tell) == {"next-move", "all-optimal", "cost-of-move"}
    assert having(lambda i: i.marks == "lost") == {"next-move", "whole-derivation", "cost-of-move",
                                                   "all-optimal", "static-fails", "approx-vs-exact"}


@pytest.mark.parametrize("kind", KINDS)
def test_an_answer_comes_back_from_its_json(kind):
    k = ex.get_kind(kind)
    tried = answers(kind)
    assert tried, f"no item of {kind} was made"
    for item, answer in tried:
        kept = json.loads(json.dumps(k.to_json(answer)))
        assert k.from_json(kept) == answer, (item.spec.text, kept)
        words = k.describe(item, answer)
        assert isinstance(words, str) and words


def test_answers_keep_their_json_shape_and_words():
    """The shapes the progress store already holds (a move is its text, a set of moves a sorted list)."""
    spec = ex.ItemSpec("next-move", "he-sent-her-a-letter", "arc-eager", seed=4, level=1)
    item = ex.make_item(spec, POOL.find(spec.sentence))
    move = ex.get_kind("next-move")
    assert move.to_json(pc.Transition("RA")) == "RA"
    assert move.describe(item, pc.Transition("RA")) == "RIGHT-ARC"
    optimal = ex.get_kind("all-optimal")
    ticked = frozenset({pc.Transition("SH"), pc.Transition("RE")})
    assert optimal.to_json(ticked) == ["RE", "SH"]
    assert optimal.describe(item, ticked) == "REDUCE + SHIFT"
    assert optimal.describe(item, frozenset()) == "none ticked"
    cost = ex.get_kind("cost-of-move")
    lost = frozenset({(5, 4), (2, 3)})
    assert cost.to_json(ex.CostAnswer(1.0, lost)) == {"cost": 1.0, "lost": [[2, 3], [5, 4]]}
    assert ex.get_kind("count-steps").to_json(ex.StepCount(8, 10)) == {"fewest": 8, "most": 10}


def test_the_move_an_answer_plays_and_its_cost():
    spec = ex.ItemSpec("next-move", "he-sent-her-a-letter", "arc-eager", seed=4, level=1)
    item = ex.make_item(spec, POOL.find(spec.sentence))
    move = ex.get_kind("next-move")
    assert move.given_move(pc.Transition("RA")) == pc.Transition("RA")
    assert move.move_cost(item, pc.Transition("RA")) == 1 and move.move_cost(item, item.key) == 0
    assert move.shown_moves(item) == (item.key,)
    whole = ex.get_kind("whole-derivation")
    derivation = items("whole-derivation")[0]
    first = derivation.key[0]
    assert whole.given_move(()) is None and whole.move_cost(derivation, ()) is None
    assert whole.move_cost(derivation, (first,)) == 0 and whole.shown_moves(derivation) == derivation.key
    illegal = next(pc.Transition(k) for k in pc.get_system(derivation.spec.system).kinds
                   if pc.Transition(k) not in whole.again(derivation).costs(derivation.configuration))
    assert math.isinf(whole.move_cost(derivation, (illegal,)))


@pytest.mark.parametrize("kind", ["trace-table", "cost-of-move", "crossing-arcs", "which-systems",
                                  "count-steps"])
def test_kinds_that_play_no_move_say_so(kind):
    k, item = ex.get_kind(kind), items(kind)[0]
    assert k.given_move(item.key) is None and k.move_cost(item, item.key) is None
    assert k.shown_moves(item) is None
