"""The stepper page, driven headless with ``AppTest``: clicks, undo, shared links, bad input.

The board is one component that AppTest cannot click or read as a widget: the tests read the
data the page sends it (:func:`board`) and play a move as the component's callback does, through
:func:`ui.stepper.board_data.apply_action` (:func:`play`); the browser tests click the real thing.

The scenario is seed 000's: on "He sent her a letter ." arc-eager plays SH LA RA, then the
wrong SH of "her" (her should have been attached to sent by RA).  In the configuration that
follows, [ROOT sent her] | [a letter .], LA and SH are optimal and RA (her → a) costs the arc
a ← letter.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Block

import parsing_core as pc
from ui.stepper.board_data import apply_action
from ui.views.sources import custom_key, sentence_from_key

PAGE = Path(__file__).resolve().parents[1] / "pages" / "stepper.py"
TIMEOUT = 30
SCENARIO = ["SH", "LA", "RA", "SH"]


def stepper(**query: str) -> AppTest:
    """The page opened at a URL with these query parameters."""
    at = AppTest.from_file(str(PAGE), default_timeout=TIMEOUT)
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    return at


def click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click().run()
    assert not at.exception, at.exception
    return at


def board(at: AppTest) -> dict[str, Any]:
    """The data the board component was sent in the last run (JSON bytes)."""
    (component,) = at.get("bidi_component")
    return json.loads(component.proto.bytes)


def settings(at: AppTest) -> Block:
    """The Settings popover beside the title (the sentence, the parser, the model, autoplay)."""
    (found,) = [b for b in blocks(at.main) if b.type == "popover" and b.key == "stepper.settings"]
    return found


def blocks(block: Block) -> list[Block]:
    inner = [c for c in block.children.values() if isinstance(c, Block)]
    return inner + [b for c in inner for b in blocks(c)]


def oracle_step(at: AppTest) -> AppTest:
    """Click the board's Oracle step: the move the page decided, applied as the component's callback does."""
    move = board(at)["oracle"]["move"]
    assert move, "Oracle step is disabled"
    state = at.session_state["stepper.state"]
    at.session_state["stepper.state"] = apply_action(state, {"do": "oracle"}, move)
    at.run()
    assert not at.exception, at.exception
    return at


def can_step(at: AppTest) -> bool:
    return board(at)["oracle"]["move"] is not None


def play(at: AppTest, moves: list[str]) -> AppTest:
    """Click each move on the board: the action the component sends, applied as its callback does."""
    for move in moves:
        assert move.split(":")[0] in possible_moves(at), f"{move} is not possible"
        at.session_state["stepper.state"] = apply_action(at.session_state["stepper.state"],
                                                         {"do": "move", "move": move})
        at.run()
        assert not at.exception, at.exception
    return at


def control(at: AppTest, what: str) -> AppTest:
    """Click the board's undo, redo, reset or hide, as the component's callback does."""
    assert what == "hide" or board(at)["controls"][what], f"{what} is disabled"
    at.session_state["stepper.state"] = apply_action(at.session_state["stepper.state"], {"do": what})
    at.run()
    assert not at.exception, at.exception
    return at


def possible_moves(at: AppTest) -> set[str]:
    return {m["kind"] for m in board(at)["moves"] if m["reason"] is None}


def table_with(at: AppTest, column: str) -> pd.DataFrame:
    """The one table (the board's, or a Streamlit one) with ``column``."""
    tables = [d.value for d in [*at.dataframe, *at.table] if column in d.value.columns]
    costs = board(at)["table"]
    if costs and column in costs["columns"]:
        tables.append(pd.DataFrame([r["cells"] for r in costs["rows"]], columns=costs["columns"]))
    assert len(tables) == 1, f"expected one table with a {column} column, found {len(tables)}"
    return tables[0]


def verdicts(at: AppTest) -> dict[str, str]:
    costs = table_with(at, "verdict")
    return dict(zip(costs["move"], costs["verdict"]))


def history(at: AppTest) -> list[list[object]]:
    """The history's rows up to the current one (▶), without the mark column."""
    rows = board(at)["history"]["rows"]
    assert [row[0] for row in rows].count("▶") == 1
    return [[int(row[1]), *row[2:]] for row in rows if row[0] != "↷"]


def metrics(at: AppTest) -> list[str]:
    """The board's score, or the finished parse's metrics."""
    return [value for _, value in board(at)["score"]] or [m.value for m in at.metric]


def messages(at: AppTest) -> str:
    """Every error, warning and info on the page and on the board, as the reader sees it."""
    data: dict[str, Any] = board(at) if at.get("bidi_component") else {"notes": [], "mistake": ""}
    text = " ".join([*(str(e.value) for kind in (at.error, at.warning, at.info) for e in kind),
                     *(note for _, note in data["notes"]), data["mistake"]])
    return re.sub(r"\\(.)", r"\1", text)


def test_seed_000_scenario_shows_la_and_sh_optimal_and_ra_costly() -> None:
    at = play(stepper(), SCENARIO)
    assert verdicts(at) == {"SH": "✓ optimal", "LA": "✓ optimal", "RA": "✗ costs 1",
                            "RE": "not possible: the top has no head yet"}
    costs = table_with(at, "verdict").set_index("move")
    assert costs.loc["RA", "loses"] == "a ← letter"
    assert costs.loc["LA", "builds"] == "her ← a"  # optimal although wrong: her's gold head is lost
    assert history(at)[-1] == [5, "SH", "[ROOT sent her]", "[a letter .]", "", "✗ 1"]
    assert [row[-1] for row in history(at)] == ["", "0", "0", "0", "✗ 1"]
    assert "Your SH (move 4) cost 1: it lost sent → her." in messages(at)
    assert "RE" not in possible_moves(at)
    assert at.query_params["moves"] == "SH.LA.RA.SH"


def test_score_counts_the_arc_lost_by_the_wrong_shift() -> None:
    at = play(stepper(), SCENARIO)
    assert metrics(at) == ["2 of 6", "83%"]


def test_undo_restores_the_previous_state_and_redo_replays() -> None:
    at = play(stepper(), SCENARIO[:3])
    before_rows, before_costs = history(at), verdicts(at)
    play(at, SCENARIO[3:])
    control(at, "undo")
    assert history(at) == before_rows
    assert verdicts(at) == before_costs and before_costs["RA"] == "✓ optimal"
    assert at.query_params["step"] == "3"
    control(at, "redo")
    assert history(at)[-1][1] == "SH" and verdicts(at)["RA"] == "✗ costs 1"


def test_a_move_after_undo_replaces_the_undone_moves() -> None:
    at = play(stepper(), SCENARIO)
    control(at, "undo")
    play(at, ["RA"])
    assert at.query_params["moves"] == "SH.LA.RA.RA"
    assert not board(at)["controls"]["redo"]


def test_a_shared_url_reproduces_the_state() -> None:
    clicked = play(stepper(), SCENARIO)
    query = {k: clicked.query_params[k] for k in clicked.query_params}
    opened = stepper(**query)
    assert history(opened) == history(clicked)
    assert verdicts(opened) == verdicts(clicked)
    assert metrics(opened) == metrics(clicked)


def test_a_url_with_a_step_opens_in_the_middle_of_the_history() -> None:
    at = stepper(s="he-sent-her-a-letter", sys="arc-eager", moves="SH.LA.RA.SH", step="2")
    assert len(history(at)) == 3
    assert board(at)["controls"]["redo"]
    control(at, "redo")
    assert history(at)[-1][1] == "RA"


def test_a_bad_url_gives_a_message_and_falls_back() -> None:
    at = stepper(sys="arc-nonsense", s="no-such-sentence", oracle="nope", moves="SH.RE.RE")
    text = messages(at)
    assert "arc-nonsense" in text and "no-such-sentence" in text and "move 2" in text
    assert history(at)[-1][1] == "SH"  # the legal prefix of the moves, on the default sentence


def test_a_damaged_custom_sentence_in_the_url_is_reported() -> None:
    at = stepper(s="custom:!!!not-base64")
    assert "damaged" in messages(at)
    assert "He sent her a letter" in board(at)["caption"]


def test_labelled_arcs_take_the_label_picked_beside_the_button() -> None:
    at = stepper(lab="1")
    play(at, ["SH"])
    left_arc = next(m for m in board(at)["moves"] if m["kind"] == "LA")
    assert left_arc["label"] == "nsubj" and "obj" in left_arc["labels"]  # the gold label picked first
    assert left_arc["cost"] == "✓ 0" and "any other label costs 1 more" in board(at)["legend"]
    play(at, ["LA:obj"])  # the label picked beside the button
    assert history(at)[-1][1] == "LA:obj"
    assert at.query_params["moves"] == "SH.LA:obj"


def test_a_second_oracle_shows_beside_the_first_with_disagreements_flagged() -> None:
    at = play(stepper(vs="static"), SCENARIO)
    costs = table_with(at, "agree").set_index("move")
    assert costs.loc["LA", "agree"].startswith("≠")  # static names one move only
    assert "static oracle only names" in messages(at)


def test_a_sentence_too_long_for_search_falls_back_and_says_so() -> None:
    chain = pc.Sentence.from_heads([f"w{i}" for i in range(1, 13)], [0, *range(1, 12)])
    at = stepper(s=custom_key(chain), oracle="search")
    assert "up to 10 tokens" in messages(at) and "instead" in messages(at)
    assert verdicts(at)["RA"] == "✓ optimal"  # ROOT → w1 first: the tree is a chain


def test_a_tree_the_system_cannot_build_still_lets_the_user_click() -> None:
    at = stepper(s="found-best-example-ever", sys="arc-eager", oracle="static")
    assert "no static oracle for this sentence" in messages(at)
    play(at, ["SH"])
    assert history(at)[-1][1] == "SH"


def test_hostile_typed_words_are_shown_as_text() -> None:
    at = stepper()
    at.radio(key="stepper.pick.source").set_value("typed").run()
    at.text_input(key="stepper.pick.words").input('<script>alert(1)</script> "q" \\ {x} :red[b]').run()
    assert not at.exception, at.exception
    data = board(at)
    assert '<script>alert(1)</script> "q"' in data["caption"]  # text, set as text by the component
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in data["picture"] and "<script>" not in data["picture"]
    assert "no gold tree" in messages(at)
    play(at, ["SH"])  # a sentence without a gold tree can still be parsed


@pytest.mark.parametrize("text, problem", [
    ("1\tHe\n", "expected 10 tab-separated columns"),
    ("1\ta\t_\t_\t_\t_\t2\tx\t_\t_\n2\tb\t_\t_\t_\t_\t1\tx\t_\t_", "cycle 1 → 2 → 1"),
    ("/etc/passwd", "expected 10 tab-separated columns"),  # never read as a path
])
def test_bad_conllu_gives_a_clear_message(text: str, problem: str) -> None:
    at = stepper()
    at.radio(key="stepper.pick.source").set_value("conllu").run()
    at.text_area(key="stepper.pick.conllu").input(text).run()
    assert not at.exception, at.exception
    assert problem in messages(at)
    assert "He sent her a letter" in board(at)["caption"]  # the last good sentence stays


def test_pasted_conllu_becomes_the_sentence_and_its_link() -> None:
    pasted = pc.write_conllu([pc.Sentence.from_heads(["Dogs", "bark"], [2, 0], ["nsubj", "root"])])
    at = stepper()
    at.radio(key="stepper.pick.source").set_value("conllu").run()
    at.text_area(key="stepper.pick.conllu").input(pasted).run()
    assert "Dogs bark" in board(at)["caption"]
    shared = stepper(**{k: at.query_params[k] for k in at.query_params})
    assert "Dogs bark" in board(shared)["caption"]


@pytest.mark.parametrize("system", pc.list_systems())
def test_every_system_plays_its_oracle_to_the_end(system: str) -> None:
    at = stepper(sys=system, s="keep-reading-books")
    while can_step(at):
        oracle_step(at)
    assert at.success and "finished" in at.success[0].value
    assert at.metric[0].label == "UAS" and at.metric[0].value == "100%"
    assert any("No mistakes: every move was optimal." in m.value for m in at.markdown)
    assert not at.warning  # no "no legal move: finished or stuck"


def test_the_end_of_a_parse_sums_up_the_mistakes() -> None:
    at = play(stepper(), ["SH", "LA", "RA", "SH"])  # the last SH loses sent → her
    while can_step(at):
        oracle_step(at)
    assert at.success and "finished" in at.success[0].value
    assert [m.value for m in at.metric] == ["83%"]  # 5 of 6 words get their gold head
    summary = next(m.value for m in at.markdown if "costly move" in m.value)
    assert "**1 costly move** (together they cost 1 gold arc)" in summary
    assert "SH (move 4) cost 1: it lost sent → her" in re.sub(r"\\(.)", r"\1", summary)


def test_the_board_carries_its_state_version_which_only_a_change_raises() -> None:
    """The browser keeps the newest version of a session it has drawn (``board.js``): a rerun that
    changes nothing sends the same version, a change a higher one; another session has another id."""
    at = stepper(s="he-sent-her-a-letter", sys="arc-eager")
    first, session = board(at)["version"], board(at)["session"]
    at.run()
    assert board(at)["version"] == first > 0 and board(at)["session"] == session != ""
    at.toggle(key="stepper.presenter").set_value(True).run()
    assert board(at)["version"] > first and board(at)["session"] == session
    assert board(stepper(s="he-sent-her-a-letter", sys="arc-eager"))["session"] != session  # another session


def test_a_click_made_on_an_older_drawing_of_the_board_changes_nothing() -> None:
    """Each click names the drawing it was made on: a click on an older drawing (a Play step asked
    again after the first arrived, a move racing a change of the settings) is dropped."""
    def page() -> None:
        import streamlit as st

        from ui.stepper.board_component import key_of, take
        from ui.views.state import StepperState
        from ui.widgets.board import Board

        board = Board("t")
        board.start(StepperState())
        session, drawn = board.version()
        for on in (drawn - 1, drawn, drawn):  # an older drawing's click, then the same click twice
            st.session_state[key_of(board)] = {"action": {"do": "move", "move": "SH", "session": session,
                                                          "on": on}}
            take(board)
        st.session_state["taken"] = board.get().taken()

    at = AppTest.from_function(page, default_timeout=TIMEOUT).run()
    assert not at.exception, at.exception
    assert at.session_state["taken"] == ("SH",)


def test_presenter_mode_enlarges_the_drawing_and_goes_into_the_link() -> None:
    at = stepper()
    at.toggle(key="stepper.presenter").set_value(True).run()
    assert at.query_params["present"] == "1"
    assert board(at)["presenter"] and 'font-size="28.0' in board(at)["picture"]  # words 1.5 × 18.7 px
    assert stepper(present="1").toggle(key="stepper.presenter").value


@pytest.mark.skipif(not pc.list_treebanks(), reason="no .conllu files in the data directory")
def test_a_treebank_sentence_is_picked_by_projectivity_and_shared() -> None:
    at = stepper()
    at.radio(key="stepper.pick.source").set_value("treebank").run()
    at.checkbox(key="stepper.pick.nonprojective").check().run()
    assert not at.exception, at.exception
    key = at.query_params["s"]
    assert key.startswith("treebank:") and not sentence_from_key(key).is_projective
    shared = stepper(s=key)
    assert shared.radio(key="stepper.pick.source").value == "treebank"
    assert shared.query_params["s"] == key


def test_a_typed_data_directory_lists_its_treebanks_and_the_link_names_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARSING_ALLOWED_DIRS", str(tmp_path))  # a folder the server may read
    pc.write_conllu(pc.teaching_sentences(), tmp_path / "xx_teach-ud-dev.conllu")
    at = stepper()
    at.radio(key="stepper.pick.source").set_value("treebank").run()
    at.text_input(key="stepper.pick.folder").input(str(tmp_path / "missing")).run()
    assert any("There is no folder" in e.value for e in at.error)
    at.text_input(key="stepper.pick.folder").input(str(tmp_path)).run()
    assert not at.exception, at.exception
    assert at.selectbox(key="stepper.pick.treebank").options == ["xx_teach dev"]
    key = at.query_params["s"]
    assert key == f"treebank:xx_teach:dev:0:{tmp_path}"
    assert sentence_from_key(key).words == pc.teaching_sentences()[0].words
    shared = stepper(s=key)
    assert shared.text_input(key="stepper.pick.folder").value == str(tmp_path)
    assert shared.query_params["s"] == key


def test_svg_png_and_the_homework_sheet_are_offered_without_graphvizs_dot_program(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("shutil.which", lambda name, *args, **kwargs: None)  # no `dot` program anywhere
    at = stepper()
    assert not at.get("download_button")  # closed menus hold nothing: a click does not rebuild them
    at.session_state["stepper.drawing-menu"] = at.session_state["stepper.derivation-menu"] = True  # opened
    at.run()
    keys = {b.key for b in at.get("download_button")}
    assert {f"stepper.{name}" for name in ("dot", "svg", "png", "csv", "tex", "sheet")} <= keys


def test_the_share_menu_writes_the_link_only_when_opened() -> None:
    at = play(stepper(), ["SH"])
    assert not at.code  # closed: the link, which changes at every click, is not sent
    at.session_state["stepper.share"] = True
    at.run()
    assert "moves=SH" in at.code[0].value


def test_the_board_is_one_component_with_the_picture_the_memory_and_the_legend() -> None:
    at = stepper(moves="SH.LA")
    assert not at.get("graphviz_chart")  # the board draws the picture itself, from SVG text
    data = board(at)
    assert data["picture"].startswith("<svg") and data["picture"].count('class="arc"') >= 1
    assert data["memory"] == {"stack": [["ROOT", 0]], "buffer": [[w, i] for i, w in
                                                                 enumerate("sent her a letter .".split(), 2)]}
    assert ["━━━━", "#0072B2", "built, correct"] in data["legend_arcs"]


def possible(at: AppTest) -> dict[str, str]:
    return {m: v for m, v in verdicts(at).items() if not v.startswith("not possible")}


@pytest.mark.parametrize("policy_oracle", ["nederhof", "nederhof-linear"])
def test_nederhof_shows_true_costs_and_its_scores_apart(policy_oracle: str) -> None:
    """One word on arc-eager with reduce_correct: SH then RE attaches it, so SH is optimal, not a
    dead end; Nederhof's ρ (−∞ for that SH) is shown in its own, labelled table."""
    hi = pc.Sentence.from_heads(["Hi"], [0])
    at = stepper(s=custom_key(hi), sys="arc-eager-corrected", oracle=policy_oracle)
    assert possible(at) == {"SH": "✓ optimal", "RA": "✓ optimal"}
    assert "Nederhof's scores, policy sbr" in [e.label for e in at.expander]
    rho = table_with(at, "ρ").set_index("move")
    assert rho.loc["SH", "ρ"] == float("-inf") and rho.loc["RA", "canonical"] == "★"
    assert rho.loc["SH", "canonical"] == ""


def test_seed_vector_v6_true_costs_in_the_stepper() -> None:
    """Nederhof's Table 5, line 3 (gold 0 → 1 → 2 → 3): SH is as good as RA; RE loses 3 ← 2."""
    chain = pc.Sentence.from_heads("a b c".split(), [0, 1, 2])
    at = stepper(s=custom_key(chain), sys="arc-eager-corrected", oracle="nederhof", moves="SH.RA")
    assert possible(at) == {"SH": "✓ optimal", "RA": "✓ optimal", "RE": "✗ costs 1"}
    assert table_with(at, "verdict").set_index("move").loc["RE", "loses"] == "e.g. b → c"
