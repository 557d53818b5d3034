"""The stepper's board as data: what the component receives, and what a click sent back changes.

The component (``ui/stepper/board.js``) only draws; everything it shows is decided by
:func:`ui.stepper.board_data.board_data`, and every click it sends is applied by
:func:`ui.stepper.board_data.apply_action`, so both are tested here without a browser, on seed
000's scenario ("He sent her a letter .", arc-eager, SH LA RA then the wrong SH of "her").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import parsing_core as pc
from ui.stepper import board_data as bd
from ui.stepper.board_state import board_bytes, board_of
from ui.views.mistakes import with_costs
from ui.views.rules import marked_rules
from ui.views.sources import custom_key
from ui.views.state import StepperState
from ui.widgets import compute

SCENARIO = ("SH", "LA", "RA", "SH")
BOARD_JS = Path(bd.__file__).with_name("board.js")


def data_of(moves: tuple[str, ...] = SCENARIO, hidden: bool = False, presenter: bool = False,
            sentence: str = "he-sent-her-a-letter", system: str = "arc-eager", labelled: bool = False,
            cursor: int | None = None) -> dict[str, Any]:
    """What the page sends the component after ``moves`` (the page's own computation)."""
    parse = compute.Parse(sentence, system, (), labelled)
    cursor = len(moves) if cursor is None else cursor
    taken = moves[:cursor]
    trace = compute.trace_of(parse, taken)
    verdicts = [compute.verdict_of(parse, taken, "goldberg-nivre")]
    reviews = compute.reviews_of(parse, moves, "goldberg-nivre")
    history = compute.history_of(parse, moves)
    inputs = bd.Inputs(trace, verdicts, reviews, compute.completion_of(parse, taken, "goldberg-nivre"), None,
                       compute.arc_svg_of(parse, taken, "goldberg-nivre", 1.0, hidden),
                       set(compute.drawn(parse, taken, "goldberg-nivre", hidden).kinds.values()),
                       history if hidden else with_costs(history, reviews), cursor, hidden, presenter,
                       rules=bd.Rules.of(compute.rules_of(parse, "goldberg-nivre")), oracle="goldberg-nivre")
    return bd.board_data(inputs)


# -- a click, back from the browser -------------------------------------------------------------
def test_a_move_or_a_row_click_changes_the_state_as_the_old_buttons_did() -> None:
    state = StepperState().play("SH").play("LA").play("RA")
    assert bd.apply_action(state, {"do": "move", "move": "SH", "at": 1}).taken() == SCENARIO
    assert bd.apply_action(state, {"do": "jump", "step": 1}).taken() == ("SH",)
    assert bd.apply_action(state, {"do": "jump", "step": 1}).moves == SCENARIO[:3]  # a jump keeps the moves
    assert bd.apply_action(state, {"do": "jump", "step": 99}).cursor == 3  # clamped to the moves made
    labelled = bd.apply_action(StepperState(labelled=True).play("SH"), {"do": "move", "move": "LA:nsubj"})
    assert labelled.taken() == ("SH", "LA:nsubj")


def test_undo_redo_reset_and_hide_on_the_board_change_the_state_as_their_buttons_did() -> None:
    state = StepperState().play("SH").play("LA").play("RA")
    undone = bd.apply_action(state, {"do": "undo"})
    assert undone.taken() == ("SH", "LA") and undone.moves == state.moves
    assert bd.apply_action(undone, {"do": "redo", "at": 2}) == state
    hidden = bd.apply_action(state, {"do": "hide"})
    assert hidden.hidden and not bd.apply_action(hidden, {"do": "hide"}).hidden
    assert bd.apply_action(state, {"do": "reset"}).moves == ()


def test_oracle_step_plays_the_move_the_page_decided_and_nothing_without_one() -> None:
    state = StepperState().play("SH")
    assert bd.apply_action(state, {"do": "oracle"}, oracle="LA").taken() == ("SH", "LA")
    assert bd.apply_action(state, {"do": "oracle", "move": "RA"}, oracle="LA").taken() == ("SH", "LA")
    assert bd.apply_action(state, {"do": "oracle"}) == state  # the parse is over: no move to play
    assert bd.apply_action(state, {"do": "oracle"}, oracle="<b>") == state
    assert bd.apply_action(state, {"do": "switch"}, oracle="LA") == state  # the page's business


@pytest.mark.parametrize(("moves", "cursor", "enabled"), [
    (0, 0, {"undo": False, "redo": False, "reset": False}),
    (3, 3, {"undo": True, "redo": False, "reset": True}),
    (3, 1, {"undo": True, "redo": True, "reset": True}),
])
def test_the_board_says_whether_undo_redo_and_reset_can_act(moves: int, cursor: int,
                                                                   enabled: dict[str, bool]) -> None:
    assert bd.controls(moves, cursor) == enabled


@pytest.mark.parametrize("action", [
    None, "SH", {}, {"do": "move"}, {"do": "move", "move": "XX"}, {"do": "move", "move": "SH SH"},
    {"do": "move", "move": 3}, {"do": "jump", "step": "2"}, {"do": "jump", "step": True},
    {"do": "undo "}, {"do": ["undo"]}, {"do": "Reset"}, {"do": "move", "move": "LA:" + "x" * 201},
    {"do": "oracle"},
])
def test_anything_else_sent_back_changes_nothing(action: object) -> None:
    state = StepperState().play("SH")
    assert bd.apply_action(state, action) == state  # type: ignore[arg-type]


# -- what the component receives -----------------------------------------------------------------
def test_each_move_button_carries_its_key_and_its_cost_and_an_impossible_one_says_why() -> None:
    moves = {m["kind"]: m for m in data_of()["moves"]}
    assert [(k, m["key"], m["cost"]) for k, m in moves.items()] == [
        ("SH", "S", "✓ 0"), ("LA", "L", "✓ 0"), ("RA", "A", "✗ 1"), ("RE", "E", None)]
    assert moves["RE"]["reason"] == "the top has no head yet" and moves["SH"]["reason"] is None
    assert "#CFE3F3" in moves["SH"]["style"] and "#FBE3B8" in moves["RA"]["style"]  # optimal, costs 1


def test_an_impossible_move_names_the_head_in_its_way() -> None:
    rooted = {m["kind"]: m for m in data_of(("SH", "LA", "RA"))["moves"]}  # sent's head is ROOT
    assert rooted["LA"]["reason"] == "the top already has a head (ROOT)"
    her = {m["kind"]: m for m in data_of(("SH", "LA", "RA", "RA"))["moves"]}  # her's head is sent
    assert her["LA"]["reason"] == "the top already has a head (sent 2)"


def test_the_cost_table_says_what_each_move_builds_and_loses() -> None:
    table = data_of()["table"]
    rows = {r["cells"][0]: dict(zip(table["columns"], r["cells"])) for r in table["rows"]}
    assert rows["RA"] == {"move": "RA", "builds": "her → a", "cost": "1", "verdict": "✗ costs 1",
                          "loses": "a ← letter"}
    assert rows["RE"]["verdict"] == "not possible: the top has no head yet" and rows["RE"]["cost"] == "–"


def test_the_score_the_mistake_and_the_history_with_its_costs() -> None:
    data = data_of()
    assert data["score"] == [["Arcs correct so far", "2 of 6"], ["Best UAS still reachable", "83%"]]
    assert data["mistake"] == "Your SH (move 4) cost 1: it lost sent → her."
    history = data["history"]
    assert history["columns"] == ["", "ROW", "TRANSITION", "STACK", "BUFFER", "ARCS", "COST"]
    assert history["rows"][-1] == ["▶", "5", "SH", "[ROOT sent her]", "[a letter .]", "", "✗ 1"]


def test_after_an_undo_the_rows_ahead_are_marked_for_redo() -> None:
    history = data_of(cursor=2)["history"]
    assert [row[0] for row in history["rows"]] == ["", "", "▶", "↷", "↷"]
    assert history["cursor"] == 2


def test_hidden_the_board_shows_no_cost_no_score_no_mistake_and_no_gold_arc() -> None:
    data = data_of(hidden=True)
    assert data["hidden"] and data["table"] is None and data["score"] == [] and data["mistake"] == ""
    assert all(m["cost"] is None for m in data["moves"])
    assert "COST" not in data["history"]["columns"]
    assert all(meaning == "built" for _, _, meaning in data["legend_arcs"])


def test_the_memory_and_the_arc_legend() -> None:
    data = data_of()
    assert data["memory"] == {"stack": [["ROOT", 0], ["sent", 2], ["her", 3]],
                              "buffer": [["a", 4], ["letter", 5], [".", 6]]}
    meanings = [m for _, _, m in data["legend_arcs"]]
    assert meanings == [m for m in ("built, correct", "built, wrong", "gold, still reachable", "gold, lost")
                        if m in meanings] and "gold, lost" in meanings


def test_presenter_mode_drops_the_key_hints_and_a_desk_names_every_key() -> None:
    assert data_of(presenter=True)["keys"] == ""
    assert data_of()["keys"] == "S shift · L left-arc · A right-arc · E reduce"


def test_a_labelled_arc_move_offers_every_label_with_the_gold_one_picked() -> None:
    left_arc = next(m for m in data_of(("SH",), labelled=True)["moves"] if m["kind"] == "LA")
    assert left_arc["label"] == "nsubj" and left_arc["move"] == "LA:nsubj" and "obj" in left_arc["labels"]


def test_only_a_move_that_builds_an_arc_takes_a_label() -> None:
    """SHIFT and REDUCE build no arc: no label picker, and they are played without a label (they
    were recorded as "SH:det", "RE:det")."""
    moves = {m["kind"]: m for m in data_of(("SH", "LA:nsubj", "RA:root", "RA:iobj"), labelled=True)["moves"]}
    assert moves["LA"]["reason"] and {k for k, m in moves.items() if "labels" in m} == {"RA"}  # LA: not now
    assert moves["SH"]["move"] == "SH" and moves["RE"]["move"] == "RE"


def test_a_long_gold_label_is_played_as_the_oracle_names_it() -> None:
    """A label up to 200 characters (a treebank's own, or a pasted sentence's) is a move the board plays."""
    long = "LA:compound:" + "x" * 150
    shifted = StepperState(labelled=True).play("SH")
    assert bd.apply_action(shifted, {"do": "move", "move": long}).taken()[-1] == long
    assert bd.apply_action(shifted, {"do": "oracle"}, long).taken()[-1] == long


def test_a_finished_parse_has_nothing_left_to_judge() -> None:
    done = data_of(("SH", "LA", "RA", "RA", "SH", "LA", "RE", "RA", "RE", "RA"))
    assert done["table"] is None and done["score"] == [] and all(m["reason"] for m in done["moves"])


def test_the_data_is_json_and_user_text_stays_text() -> None:
    hostile = pc.Sentence.from_heads(['<img src=x onerror="alert(1)">', "b"], [0, 1])
    data = data_of(("SH",), sentence=custom_key(hostile))
    assert json.loads(json.dumps(data)) == data
    assert '<img src=x onerror="alert(1)">' in data["caption"]
    assert data["memory"]["stack"][1][0] == '<img src=x onerror="alert(1)">'
    assert "<img" not in data["picture"] and "&lt;img" in data["picture"]


def test_the_component_sets_user_text_as_text_and_only_the_picture_as_markup() -> None:
    """``board.js`` writes every string of the data with ``textContent``; the one ``innerHTML`` is
    the picture, SVG text escaped by its drawing (tested in ``test_drawing``)."""
    js = BOARD_JS.read_text()
    markup = [line.strip() for line in js.splitlines() if "innerHTML" in line]
    assert markup == ["box.innerHTML = d.picture;  // SVG text, escaped by its drawing"]
    assert "outerHTML" not in js and "insertAdjacentHTML" not in js and "eval(" not in js


def test_a_system_that_cannot_build_the_tree_says_why_and_names_one_that_can() -> None:
    parse = compute.Parse("he-sent-her-a-letter", "arc-eager", (), False)
    assert board_of(parse, (), 0, ("goldberg-nivre", ""), False, False)["unbuildable"] is None
    crossing = next(s for s in pc.teaching_sentences() if s.sent_id == "found-best-example-ever")
    parse = compute.Parse(custom_key(crossing), "arc-eager", (), False)
    note = bd.unbuildable_note(compute.unbuildable_of(parse))
    assert note is not None and note["switch"] == "arc-hybrid-swap"
    assert "found → example crosses best → ever" in note["text"] and "3 of" in note["text"]
    assert note["terms"][0][0] == "projective" and "projective" in note["title"]


def test_the_component_is_sent_json_bytes_with_the_oracle_s_step_encoded_once() -> None:
    parse = compute.Parse("he-sent-her-a-letter", "arc-eager", (), False)
    step = bd.OracleStep("LA", "goldberg-nivre", 1.0)
    sent = board_bytes(parse, SCENARIO, 4, ("goldberg-nivre", ""), False, False, step)
    assert board_bytes(parse, SCENARIO, 4, ("goldberg-nivre", ""), False, False, step) is sent
    oracle = {"move": "LA", "player": "goldberg-nivre", "seconds": 1.0}
    assert json.loads(sent) == {**data_of(), "oracle": oracle}


def test_the_rules_mark_the_move_just_made_as_the_rules_table_does() -> None:
    parse = compute.Parse("he-sent-her-a-letter", "arc-eager", (), False)
    frame = compute.rules_of(parse, "goldberg-nivre")
    marked = marked_rules(frame, "RA")
    table = data_of(("SH", "LA", "RA"))["rules"]["table"]
    assert table["columns"] == list(marked.columns)
    expected = [list(map(str, row)) for row in marked.to_numpy(dtype=object)]
    assert [row["cells"] for row in table["rows"]] == expected


def test_a_board_seen_before_is_shared_not_computed_again() -> None:
    parse = compute.Parse("he-sent-her-a-letter", "arc-eager", (), False)
    first = board_of(parse, SCENARIO, 4, ("goldberg-nivre", ""), False, False)
    assert board_of(parse, SCENARIO, 4, ("goldberg-nivre", ""), False, False) is first
    assert first == data_of()  # the page's data is the one these tests read
    assert board_of(parse, SCENARIO, 2, ("goldberg-nivre", ""), False, False)["history"]["cursor"] == 2
