"""The stepper as a class uses it: what goes wrong is said on the board, the moves played follow
the oracle shown, a tree the system cannot build is explained (issue items seen in real use)."""

from __future__ import annotations

import re

from test_stepper import board, control, messages, play, settings, stepper, table_with

import parsing_core as pc


def test_oracle_step_follows_the_table_s_oracle_unless_another_is_picked() -> None:
    at = stepper(oracle="static")
    assert at.selectbox(key="stepper.autoplay.oracle").value == ""  # "same as the table"
    assert board(at)["oracle"]["player"] == "static"
    at.selectbox(key="stepper.oracle").set_value("goldberg-nivre").run()
    assert board(at)["oracle"]["player"] == "goldberg-nivre"
    at.selectbox(key="stepper.autoplay.oracle").set_value("search").run()
    assert any("follow **search**, not the table's goldberg-nivre" in c.value for c in at.caption)


def test_a_bad_paste_is_reported_on_the_board_at_its_line() -> None:
    at = stepper()
    at.radio(key="stepper.pick.source").set_value("conllu").run()
    cycle = "1\tA\t_\t_\t_\t_\t0\tx\t_\t_\n2\tB\t_\t_\t_\t_\t3\tx\t_\t_\n3\tC\t_\t_\t_\t_\t2\tx\t_\t_\n"
    at.text_area(key="stepper.pick.conllu").input(cycle).run()
    assert not at.exception
    errors = [re.sub(r"\\(.)", r"\1", e.value) for e in at.main.error]  # Markdown escapes undone
    board = [e for e in errors if "could not be read" in e]
    assert board and board[0].startswith("**The new sentence could not be read")
    assert "line 2: token 2: cycle 2 → 3 → 2" in board[0] and "still shows the previous sentence" in board[0]
    assert any("line 2" in e.value for e in settings(at).error)  # and where it was typed


def test_a_tree_the_system_cannot_build_is_explained_with_a_way_out() -> None:
    at = stepper(s="found-best-example-ever", sys="arc-eager")
    note = board(at)["unbuildable"]
    assert note["title"].startswith("arc-eager builds only projective trees")
    assert note["terms"] == [["projective", "/glossary#projective"]]
    assert "found → example crosses best → ever" in note["text"] and "3 of 4 gold arcs" in note["text"]
    at.session_state["stepper.switch_to"] = note["switch"]  # what the board's "Switch to" button does
    at.run()
    assert not at.exception, at.exception
    assert at.selectbox(key="stepper.system").value == "arc-hybrid-swap"
    assert board(at)["unbuildable"] is None
    assert at.query_params["sys"] == "arc-hybrid-swap"


def test_a_projective_system_on_a_projective_tree_says_nothing_of_the_kind() -> None:
    at = stepper(sys="arc-eager")
    assert "builds only projective" not in " ".join(m.value for m in at.markdown)


def test_the_history_download_is_a_mistake_log() -> None:
    at = play(stepper(), ["SH", "LA", "SH"])  # SH of sent before ROOT → sent: loses that arc
    history = board(at)["history"]
    assert [row[-1] for row in history["rows"]] == ["", "0", "0", "✗ 1"] and history["columns"][-1] == "COST"
    assert "Your SH (move 3) cost 1: it lost ROOT → sent." in messages(at)


def test_an_optimal_move_is_not_called_a_mistake() -> None:
    at = play(stepper(), ["SH", "LA"])
    assert "Your" not in messages(at)
    assert pc.get_system("arc-eager")  # the page's default system


def test_hiding_the_oracle_hides_costs_verdicts_and_gold_arcs_until_revealed() -> None:
    at = play(stepper(), ["SH", "LA", "SH"])  # a costly move: its message would give the answer away
    assert "#009E73" in board(at)["picture"]  # gold arcs still reachable
    control(at, "hide")
    assert at.query_params["hide"] == "1"  # a teacher's link can open hidden
    data = board(at)
    assert data["hidden"] and data["table"] is None and data["score"] == []
    assert all(m["cost"] is None for m in data["moves"])  # no cost on a button either
    assert "COST" not in data["history"]["columns"] and "Your SH" not in messages(at)
    assert "#009E73" not in data["picture"]  # no gold arc still reachable drawn
    control(at, "hide")
    assert "hide" not in at.query_params
    assert table_with(at, "verdict") is not None and "Your SH (move 3) cost 1" in messages(at)


def test_presenter_mode_puts_the_picture_and_the_costs_side_by_side() -> None:
    at = stepper(present="1")
    assert at.toggle(key="stepper.presenter").value
    assert table_with(at, "verdict") is not None
    assert board(at)["presenter"] and not board(at)["keys"]  # a projector shows the board, not the manual
    assert board(stepper())["keys"].startswith("S shift · L left-arc")
