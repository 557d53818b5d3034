"""The rules on screen: every move of every system has its effect and precondition written the seeds'
way, the dynamic oracles give a cost rule for every move, and the stepper shows them with the move
just made marked."""

from __future__ import annotations

import pytest
from test_stepper import board, play, stepper

import parsing_core as pc
from ui.views.rules import NOW, marked_rules, rules_frame


@pytest.mark.parametrize("name", pc.list_systems())
def test_every_move_of_every_system_has_its_rule(name: str) -> None:
    for options in ({}, {"root_last": True}, {"single_root": True}):
        try:
            system = pc.get_system(name, **options)
        except (TypeError, pc.ParsingCoreError):
            continue
        frame = rules_frame(system)
        assert frame["move"].tolist() == list(system.kinds)
        assert all("⇒" in rule for rule in frame["effect"]) and all(frame["allowed when"])


@pytest.mark.parametrize("name", ["arc-eager", "arc-hybrid"])
def test_the_dynamic_oracles_have_a_cost_rule_for_every_move(name: str) -> None:
    system = pc.get_system(name)
    frame = rules_frame(system, "goldberg-nivre")
    assert frame["cost"].astype(bool).all() and len(frame) == len(system.kinds)


def test_oracles_without_countable_costs_give_no_cost_rule() -> None:
    system = pc.get_system("arc-standard")
    assert all("cost" not in rules_frame(system, name).columns for name in pc.list_oracles(system))


def test_the_move_just_made_is_marked() -> None:
    frame = rules_frame(pc.get_system("arc-eager"), "goldberg-nivre")
    marked = marked_rules(frame, "RA")
    assert list(marked.columns) == [NOW, *frame.columns]
    assert marked.set_index("move")[NOW].to_dict() == {"SH": "", "LA": "", "RA": "▶", "RE": ""}
    assert (marked_rules(frame, None)[NOW] == "").all()


def test_the_stepper_shows_the_rules_of_its_system() -> None:
    at = play(stepper(sys="arc-hybrid", oracle="goldberg-nivre"), ["SH"])
    rules = board(at)["rules"]  # a fold of the board, opened and closed by the browser alone
    assert rules["title"] == "The rules of arc-hybrid and goldberg-nivre's costs"
    cost = rules["table"]["columns"].index("cost")
    assert all(row["cells"][cost].startswith("C(") for row in rules["table"]["rows"])
    assert [row["cells"][0] for row in rules["table"]["rows"]] == ["▶", "", ""]  # SH, just made
