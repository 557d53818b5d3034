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
recap = "A wrong SHIFT can cost an arc."
[board]
sentence = "he-sent-her-a-letter"
system = "arc-eager"

[[steps]]
text = "The error state."
sources = "the arc-eager oracle notes"
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
        assert lesson.references and lesson.sources and lesson.recap, lesson.path


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


def test_a_lesson_names_the_texts_it_draws_on_and_an_unknown_one_is_reported(tmp_path):
    """Keys of the References (older files' seed numbers too), each once, in order; a typo is named."""
    named = write(tmp_path, "named.toml", 'references = ["may-2017", "000", "003"]\n' + GOOD)
    lessons, problems = pl.load_lessons([named])
    assert not problems
    assert [r.key for r in lessons[0].references] == ["may-2017", "arc-eager-notes"]
    assert lessons[0].references[0].citation.startswith("Jonathan May, “Dependency Trees")
    typo = write(tmp_path, "typo.toml", 'references = ["may2017"]\n' + GOOD)
    _, problems = pl.load_lessons([typo])
    assert problems[0].where == "typo.toml" and "unknown reference 'may2017'" in problems[0].message
    assert "nederhof-2021" in problems[0].message  # the keys to choose from


def test_every_lesson_cites_its_texts_by_name_not_by_number():
    lessons, _ = pl.load_lessons(FILES)
    for lesson in lessons:
        assert lesson.references, lesson.path
        for where in (lesson.sources, *(step.sources for step in lesson.steps)):
            assert "seed" not in where.lower(), (lesson.path, where)


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


@pytest.mark.parametrize("kind", ["next-move", "all-optimal"])
def test_a_move_question_with_one_legal_move_is_reported(tmp_path, kind):
    """Where one move is legal, its button is the only one enabled: clicking it answers without a
    thought (the buffer is empty after these moves, and arc-eager with reduce_correct goes on
    until every word has its head: only REDUCE is left)."""
    every = "SH.LA.RA.RA.SH.LA.RE.RA.RE.RA"
    text = GOOD.replace('system = "arc-eager"', 'system = "arc-eager-corrected"')
    text = text.replace('moves = "SH.LA.RA.SH"', f'moves = "{every}"')
    text = text[: text.index("[[steps.claims]]")] + f'[steps.question]\nkind = "{kind}"\n'
    _, problems = pl.check_files([write(tmp_path, "one-move.toml", text)])
    assert [p.where for p in problems] == ["one-move.toml, step 1"], problems
    assert "REDUCE is the only legal move here" in problems[0].message
    with_choice = text.replace(f'moves = "{every}"', 'moves = "SH.LA.RA.SH"')
    assert pl.check_files([write(tmp_path, "choice.toml", with_choice)])[1] == []


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


# -- what a step shows, and when: the rules the lessons of before broke ---------------------------------
def lesson_with(step: str, head: str = "", recap: bool = True) -> str:
    """A one-step lesson on “He sent her a letter .” (arc-eager), with ``step``'s fields."""
    top = 'recap = "A recap."' if recap else ""
    return (f'title = "One step"\n{top}\n{head}\n'
            '[board]\nsentence = "he-sent-her-a-letter"\nsystem = "arc-eager"\n\n'
            f"[[steps]]\n{step.strip()}\n")


def problems_of(tmp_path: Path, text: str) -> list[str]:
    path = write(tmp_path, "one.toml", text)
    lessons, problems = pl.check_files([path])
    return [str(p) for p in problems]


# Lesson 1 step 2 as it was: the text says the answer, the claim and the outline repeat it.
ANSWER_IN_TEXT = '''
text = """
After two shifts the stack is ROOT *book me*.  In the gold tree *me* depends on *book*, and *me* has no
dependents of its own, so RIGHT-ARC can attach it now.
"""
sentence = "book-me-the-morning-flight"
system = "arc-standard"
moves = "SH.SH"
highlight = "RA"
[[steps.claims]]
kind = "optimal"
moves = ["RA"]
[steps.question]
kind = "next-move"
'''


def test_a_question_whose_text_names_the_answer_is_reported(tmp_path):
    assert problems_of(tmp_path, lesson_with(ANSWER_IN_TEXT)) == [
        "one.toml, step 1: the text before the next-move question names the move that answers it: RIGHT-ARC"]


def test_the_explanation_after_the_answer_may_name_it(tmp_path):
    after = '"""\nafter = """\nRIGHT-ARC attaches it.'
    step = ANSWER_IN_TEXT.replace("so RIGHT-ARC can attach it now.", after)
    assert problems_of(tmp_path, lesson_with(step)) == []


def test_a_question_whose_text_gives_the_cost_asked_is_reported(tmp_path):
    step = '''
text = "Reducing *sent* now would lose *sent → her*, *sent → letter* and *sent → .*: cost 3."
moves = "SH.LA.RA"
[steps.question]
kind = "cost-of-move"
move = "RE"
'''  # lesson 4 step 2 as it was
    assert problems_of(tmp_path, lesson_with(step)) == [
        "one.toml, step 1: the text before the cost-of-move question gives the cost asked: 3"]
    for said in ("REDUCE costs three arcs here.", "It loses 3 arcs.", "What does REDUCE cost?"):
        found = problems_of(tmp_path, lesson_with(step.replace(step.split('"')[1], said)))
        assert bool(found) == (said != "What does REDUCE cost?"), said


def test_a_crossing_question_whose_text_names_the_crossing_pair_is_reported(tmp_path):
    step = '''
text = "Draw the arcs: *found → example* and *best → ever* **cross**. The tree is **non-projective**."
sentence = "found-best-example-ever"
system = "arc-hybrid-swap"
[steps.question]
kind = "crossing-arcs"
'''  # lesson 6 step 1 as it was
    assert problems_of(tmp_path, lesson_with(step)) == [
        "one.toml, step 1: the text before the crossing-arcs question names a crossing pair: "
        "best → ever and found → example",
        "one.toml, step 1: the text before the crossing-arcs question says the tree is not projective"]


@pytest.mark.parametrize(("look", "moves", "message"), [
    ('"the history table"', "SH.LA.RA.SH", "look 'the history table' names no target: write look = "
     "{target = ..., text = ...} with a target of: stack, buffer, arcs, gold-arcs, move, cost-table, "
     "compare, demo"),
    ('{target = "history", text = "the history table"}', "SH.LA.RA.SH",
     "unknown look target 'history'; choose one of stack, buffer, arcs, gold-arcs, move, cost-table, "
     "compare, demo"),
    ('{target = "cost-table", text = "the table"}', "SH.LA.RA.SH.SH.LA.SH.SH",
     "the look points at the table of moves, but the parse is over: the page shows none"),
    ('{target = "compare", text = "the two cost columns"}', "SH.LA.RA.SH",
     "the look points at a second oracle's column, but the board compares no oracle"),
    ('{target = "move", move = "SW", text = "the SWAP button"}', "SH.LA.RA.SH",
     "the look names the move 'SW', not a move of arc-eager (SH, LA, RA, RE)"),
    ('{target = "demo", text = "the curves"}', "SH.LA.RA.SH",
     "the look points at a demonstration, but the step runs none"),
])
def test_a_look_at_something_the_page_does_not_show_is_reported(tmp_path, look, moves, message):
    step = f'text = "Look."\nmoves = "{moves}"\nlook = {look}'
    assert problems_of(tmp_path, lesson_with(step)) == [f"one.toml, step 1: {message}"]


def test_a_step_without_a_board_shows_nothing_of_it(tmp_path):
    step = 'text = "The thesis."\nboard = false\nhighlight = "RA"\nlook = {target = "stack", text = "it"}'
    assert problems_of(tmp_path, lesson_with(step)) == [
        "one.toml, step 1: the look points at the stack, but the step shows no board",
        "one.toml, step 1: the step shows no board, yet highlights a move on it"]
    lesson = pl.load_lesson(write(tmp_path, "none.toml", lesson_with('text = "The thesis."\nboard = false')))
    assert lesson.steps[0].shows_board is False


def test_provenance_in_the_prose_is_reported_and_a_lesson_needs_a_recap(tmp_path):
    text = lesson_with('text = "Here (seed 000, §2.2) the parser shifts."\nsources = "seed 000"', recap=False)
    assert problems_of(tmp_path, text) == [
        "one.toml, step 1: the text cites 'seed 000': provenance goes in sources (a footnote)",
        "one.toml: the lesson has no recap: a one-line recap = \"...\" closes it"]


# Lesson 7 step 1 as it was: the exact oracle's best completion after SHIFT builds w3 → w4, not w4 → w3.
WRONG_ARC = '''
text = "The exact oracle finds a cheaper way: build the wrong arc *{arc}* and give up only *w5 → w4*."
moves = "SH.SH.SH"
highlight = "SH"
'''
R3 = '[sentences.r3]\nwords = "w1 w2 w3 w4 w5"\nheads = [3, 3, 5, 5, 0]\n'


def arc_step(arc: str) -> str:
    return lesson_with(WRONG_ARC.format(arc=arc), R3).replace(
        'sentence = "he-sent-her-a-letter"\nsystem = "arc-eager"', 'sentence = "r3"\nsystem = "arc-standard"')


def test_an_arc_the_prose_names_must_be_gold_built_or_in_a_best_completion(tmp_path):
    assert problems_of(tmp_path, arc_step("w4 → w3")) == [
        "one.toml, step 1: the text names w4 → w3: not a gold arc, not built, and in no best completion "
        "here (one builds no wrong arc); in no best completion after SH (one builds the wrong arc w3 → w4)"]
    assert problems_of(tmp_path, arc_step("w3 → w4")) == []
    assert problems_of(tmp_path, arc_step("w3 ← w4")) == problems_of(tmp_path, arc_step("w4 → w3"))
    assert problems_of(tmp_path, arc_step("w9 → w4")) == [
        "one.toml, step 1: the text names w9 → w4, but the word 'w9' occurs 0 times in the sentence: "
        "name it by its number"]


def test_a_best_completion_is_asked_of_the_search_not_of_one_oracles_choice():
    """w3 → w4 is in *a* best completion after SHIFT; w4 → w3 keeps at most 3 of the 5 gold arcs."""
    from parsing_core.lessons.prose import in_a_best_completion, most
    s = pl.board.Sentence.from_heads("w1 w2 w3 w4 w5".split(), [3, 3, 5, 5, 0])
    system = pl.board.get_system("arc-standard")
    c = pl.replay(system, s, ("SH", "SH", "SH", "SH"), "here")
    assert most(system, c, s.gold_arcs) == 4
    assert in_a_best_completion(system, c, s, (3, 4)) and not in_a_best_completion(system, c, s, (4, 3))


def test_the_docs_example_lesson_passes_the_checker(tmp_path):
    guide = Path(__file__).resolve().parent.parent / "docs" / "pages" / "writing-a-lesson.md"
    example = guide.read_text(encoding="utf-8").split('```toml\ntitle = "Shifting her"')[1].split("```")[0]
    assert problems_of(tmp_path, 'title = "Shifting her"' + example) == []


def test_a_which_systems_question_whose_text_says_who_can_build_the_tree_is_reported(tmp_path):
    step = '''
text = "Arc-eager cannot build this tree. Arc-hybrid-swap can build it, all 4 arcs."
sentence = "found-best-example-ever"
system = "arc-hybrid-swap"
[steps.question]
kind = "which-systems"
'''
    assert problems_of(tmp_path, lesson_with(step)) == [
        "one.toml, step 1: the text before the which-systems question says whether arc-eager can build "
        "the tree",
        "one.toml, step 1: the text before the which-systems question says whether arc-hybrid-swap can build "
        "the tree"]
    quiet = step.replace(step.split('"')[1], "Which systems could parse this sentence into its gold tree?")
    assert problems_of(tmp_path, lesson_with(quiet)) == []
