"""The stepper as a class uses it: what goes wrong is said on the board, the moves played follow
the oracle shown, a tree the system cannot build is explained (issue items seen in real use)."""

from __future__ import annotations

import re

from test_stepper import click, messages, play, stepper, table_with

import parsing_core as pc


def test_oracle_step_follows_the_table_s_oracle_unless_another_is_picked() -> None:
    at = stepper(oracle="static")
    assert at.selectbox(key="stepper.autoplay.oracle").value == ""  # "same as the table"
    assert "static" in (at.button(key="stepper.oracle_step").help or "")
    at.selectbox(key="stepper.oracle").set_value("goldberg-nivre").run()
    assert "goldberg-nivre" in (at.button(key="stepper.oracle_step").help or "")
    at.selectbox(key="stepper.autoplay.oracle").set_value("search").run()
    assert any("follow **search**, not the table's goldberg-nivre" in c.value for c in at.caption)


def test_a_bad_paste_is_reported_on_the_board_at_its_line() -> None:
    at = stepper()
    at.radio(key="stepper.pick.source").set_value("conllu").run()
    cycle = "1\tA\t_\t_\t_\t_\t0\tx\t_\t_\n2\tB\t_\t_\t_\t_\t3\tx\t_\t_\n3\tC\t_\t_\t_\t_\t2\tx\t_\t_\n"
    at.text_area(key="stepper.pick.conllu").input(cycle).run()
    assert not at.exception
    board = [re.sub(r"\\(.)", r"\1", e.value) for e in at.main.error]  # Markdown escapes undone
    assert board and "The new sentence could not be read" in board[0]
    assert "line 2: token 2: cycle 2 → 3 → 2" in board[0] and "still shows the previous sentence" in board[0]
    assert any("line 2" in e.value for e in at.sidebar.error)  # and where it was typed


def test_a_tree_the_system_cannot_build_is_explained_with_a_way_out() -> None:
    at = stepper(s="found-best-example-ever", sys="arc-eager")
    text = messages(at) + " ".join(m.value for m in at.markdown)
    assert "arc-eager builds only [projective](/glossary#projective) trees" in text
    assert "found → example crosses best → ever" in text and "3 of 4 gold arcs" in text
    click(at, "stepper.switch_system")
    assert at.selectbox(key="stepper.system").value == "arc-hybrid-swap"
    assert "builds only" not in " ".join(m.value for m in at.markdown)
    assert at.query_params["sys"] == "arc-hybrid-swap"


def test_a_projective_system_on_a_projective_tree_says_nothing_of_the_kind() -> None:
    at = stepper(sys="arc-eager")
    assert "builds only projective" not in " ".join(m.value for m in at.markdown)


def test_the_history_download_is_a_mistake_log() -> None:
    at = play(stepper(), ["SH", "LA", "SH"])  # SH of sent before ROOT → sent: loses that arc
    history = table_with(at, "TRANSITION")
    assert history["COST"].tolist() == ["", "0", "0", "✗ 1"]
    assert "Your SH (move 3) cost 1: it lost ROOT → sent." in messages(at)


def test_an_optimal_move_is_not_called_a_mistake() -> None:
    at = play(stepper(), ["SH", "LA"])
    assert "Your" not in messages(at)
    assert pc.get_system("arc-eager")  # the page's default system


def test_hiding_the_oracle_hides_costs_verdicts_and_gold_arcs_until_revealed() -> None:
    at = play(stepper(), ["SH", "LA", "SH"])  # a costly move: its message would give the answer away
    assert "#009E73" in " ".join(c.proto.spec for c in at.get("graphviz_chart"))  # gold arcs still reachable
    click(at, "stepper.hide")
    assert at.query_params["hide"] == "1"  # a teacher's link can open hidden
    assert not [t for t in at.table if "verdict" in t.value.columns]
    assert "COST" not in table_with(at, "TRANSITION").columns and "Your SH" not in messages(at)
    assert any("The oracle is hidden" in i.value for i in at.info)
    dots = " ".join(c.proto.spec for c in at.get("graphviz_chart"))
    assert "dotted" not in dots and "#009E73" not in dots  # no gold arc still reachable drawn
    click(at, "stepper.hide")
    assert "hide" not in at.query_params
    assert table_with(at, "verdict") is not None and "Your SH (move 3) cost 1" in messages(at)


def test_presenter_mode_puts_the_picture_and_the_costs_side_by_side() -> None:
    at = stepper(present="1")
    assert at.toggle(key="stepper.presenter").value
    assert table_with(at, "verdict") is not None
    assert not any("Keys:" in c.value for c in at.caption)  # a projector shows the board, not the manual
