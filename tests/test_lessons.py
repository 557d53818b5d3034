"""The lessons: every step replays legally, every claim holds against the oracles, every question is
gradable; and a broken lesson is reported with its file and step while the others still load."""

from __future__ import annotations

from pathlib import Path

import pytest

import parsing_core.lessons as pl
from parsing_core.lessons.__main__ import main

FILES = pl.lesson_files()
GOOD = """
title = "Tiny"
[board]
sentence = "he-sent-her-a-letter"
system = "arc-eager"

[[steps]]
text = "The error state (seed 000)."
moves = "SH.LA.RA.SH"
[[steps.claims]]
kind = "cost"
move = "RA"
cost = 1
lost = ["letter -> a"]
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_nine_lessons_are_there_in_the_issues_order():
    lessons, problems = pl.load_lessons(FILES)
    assert problems == []
    starts = ["What a transition parser", "Arc-eager", "Static oracles", "Dynamic oracles", "Arc-hybrid",
              "Non-projectivity", "Exact costs for arc-standard", "Arc-eager that never gets stuck",
              "Training with oracles"]
    assert [lesson.title[: len(s)] for lesson, s in zip(lessons, starts)] == starts
    for lesson in lessons:
        assert len(lesson.steps) >= 4, lesson.path
        assert sum(len(s.claims) for s in lesson.steps) >= 4, lesson.path
        assert any(s.question for s in lesson.steps), lesson.path
        assert all("seed" in s.text for s in lesson.steps[:1]), lesson.path


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_state_claim_and_question_of_a_lesson_checks(path):
    lesson = pl.load_lesson(path)
    assert pl.check_lesson(lesson) == []


def test_a_good_lesson_passes_and_the_command_says_so(tmp_path, capsys):
    path = write(tmp_path, "tiny.toml", GOOD)
    assert main(["check", str(path)]) == 0
    assert "ok   tiny.toml: Tiny (1 step, 1 claim, 0 questions)" in capsys.readouterr().out


def test_a_false_claim_is_reported_with_file_and_step(tmp_path, capsys):
    path = write(tmp_path, "false.toml", GOOD.replace("cost = 1", "cost = 2"))
    assert main(["check", str(path)]) == 1
    assert "false.toml, step 1: the cost claim is false: RA costs 1, not 2" in capsys.readouterr().out


def test_wrong_lost_arcs_are_a_false_claim(tmp_path):
    path = write(tmp_path, "lost.toml", GOOD.replace('"letter -> a"', '"sent -> her"'))
    _, problems = pl.check_files([path])
    assert [str(p) for p in problems] == [
        "lost.toml, step 1: the cost claim is false: RA loses {letter → a}, not {sent → her}"]


def test_an_illegal_move_is_reported_with_file_step_and_move(tmp_path):
    path = write(tmp_path, "illegal.toml", GOOD.replace('"SH.LA.RA.SH"', '"SH.LA.RA.SH.RE"'))
    _, problems = pl.check_files([path])
    assert [str(p) for p in problems] == [
        "illegal.toml, step 1: move 5 (RE) is illegal in arc-eager: the top has no head yet"]


def test_an_unknown_sentence_is_reported_with_file_and_step(tmp_path):
    text = GOOD + '\n[[steps]]\ntext = "two"\nsentence = "no-such-sentence"\n'
    _, problems = pl.check_files([write(tmp_path, "unknown.toml", text)])
    assert len(problems) == 1
    assert problems[0].where == "unknown.toml, step 2"
    assert "unknown sentence 'no-such-sentence'" in problems[0].message


def test_a_bad_file_is_reported_and_the_others_still_load(tmp_path):
    good = write(tmp_path, "a-good.toml", GOOD)
    bad = write(tmp_path, "b-bad.toml", GOOD.replace("[board]", "[board"))
    unknown_claim = write(tmp_path, "c-claim.toml", GOOD.replace('kind = "cost"', 'kind = "costs"'))
    lessons, problems = pl.load_lessons([good, bad, unknown_claim])
    assert [lesson.path for lesson in lessons] == ["a-good.toml"]
    assert problems[0].where == "b-bad.toml" and "cannot be read" in problems[0].message
    assert problems[1].where == "c-claim.toml, step 1" and "unknown claim 'costs'" in problems[1].message


def test_a_question_that_cannot_be_asked_is_reported(tmp_path):
    text = GOOD + '[steps.question]\nkind = "cost-of-move"\nmove = "RE"\n'
    _, problems = pl.check_files([write(tmp_path, "question.toml", text)])
    assert [p.where for p in problems] == ["question.toml, step 1"]
    assert "cost-of-move question cannot be asked" in problems[0].message


def test_a_claim_about_another_oracle_is_checked_against_that_oracle(tmp_path):
    text = GOOD.replace('lost = ["letter -> a"]', 'oracle = "static"')
    assert pl.check_files([write(tmp_path, "static.toml", text)])[1] == []
    wrong = write(tmp_path, "static-wrong.toml", text.replace("cost = 1", "cost = 0"))
    assert "RA costs 1, not 0" in pl.check_files([wrong])[1][0].message


def test_each_questions_item_grades_its_key_right_and_a_wrong_answer_wrong():
    lessons, _ = pl.load_lessons(FILES)
    asked = 0
    for lesson in lessons:
        for step in (s for s in lesson.steps if s.question):
            item = pl.item_of(lesson, step, pl.Reached(lesson, step))
            assert pl.gradable(item) is None
            if step.question.kind in ("next-move", "all-optimal", "cost-of-move"):
                assert item.configuration == pl.Reached(lesson, step).configuration  # asked on the board
            asked += 1
    assert asked >= 18


def test_a_highlight_that_is_not_a_move_of_the_system_is_reported(tmp_path):
    text = GOOD.replace('moves = "SH.LA.RA.SH"', 'moves = "SH.LA.RA.SH"\nhighlight = "SW"')
    _, problems = pl.check_files([write(tmp_path, "highlight.toml", text)])
    assert [str(p) for p in problems] == [
        "highlight.toml, step 1: highlight 'SW' is not a move of arc-eager (SH, LA, RA, RE)"]


def test_an_oracle_the_system_lacks_is_reported(tmp_path):
    text = GOOD.replace('system = "arc-eager"', 'system = "arc-eager"\ncompare = "exact"')
    _, problems = pl.check_files([write(tmp_path, "oracle.toml", text)])
    assert len(problems) == 1  # a trained model's oracle may be listed after these:
    assert str(problems[0]).startswith(
        "oracle.toml, step 1: no oracle 'exact' for arc-eager; choose one of static, search, goldberg-nivre")
