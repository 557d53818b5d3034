"""The stepper page, driven headless with ``AppTest``: clicks, undo, shared links, bad input.

The scenario is seed 000's: on "He sent her a letter ." arc-eager plays SH LA RA, then the
wrong SH of "her" (her should have been attached to sent by RA).  In the configuration that
follows, [ROOT sent her] | [a letter .], LA and SH are optimal and RA (her → a) costs the arc
a ← letter.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import parsing_core as pc
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


def play(at: AppTest, moves: list[str]) -> AppTest:
    for move in moves:
        click(at, f"stepper.move.{move}")
    return at


def table_with(at: AppTest, column: str) -> pd.DataFrame:
    tables = [d.value for d in [*at.dataframe, *at.table] if column in d.value.columns]
    assert len(tables) == 1, f"expected one table with a {column} column, found {len(tables)}"
    return tables[0]


def verdicts(at: AppTest) -> dict[str, str]:
    costs = table_with(at, "verdict")
    return dict(zip(costs["move"], costs["verdict"]))


def history(at: AppTest) -> list[list[object]]:
    """The history's rows up to the current one (▶), without the NOW column."""
    table = table_with(at, "TRANSITION")
    assert table["NOW"].tolist().count("▶") == 1
    return table[table["NOW"] != "↷"].drop(columns="NOW").values.tolist()


def messages(at: AppTest) -> str:
    """Every error, warning and info on the page, as the reader sees it (Markdown escapes undone)."""
    text = " ".join(str(e.value) for kind in (at.error, at.warning, at.info) for e in kind)
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
    assert at.button(key="stepper.move.RE").disabled
    assert at.query_params["moves"] == "SH.LA.RA.SH"


def test_score_counts_the_arc_lost_by_the_wrong_shift() -> None:
    at = play(stepper(), SCENARIO)
    assert [m.value for m in at.metric] == ["2 of 6", "83%"]


def test_undo_restores_the_previous_state_and_redo_replays() -> None:
    at = play(stepper(), SCENARIO[:3])
    before_rows, before_costs = history(at), verdicts(at)
    play(at, SCENARIO[3:])
    click(at, "stepper.undo")
    assert history(at) == before_rows
    assert verdicts(at) == before_costs and before_costs["RA"] == "✓ optimal"
    assert at.query_params["step"] == "3"
    click(at, "stepper.redo")
    assert history(at)[-1][1] == "SH" and verdicts(at)["RA"] == "✗ costs 1"


def test_a_move_after_undo_replaces_the_undone_moves() -> None:
    at = play(stepper(), SCENARIO)
    click(at, "stepper.undo")
    play(at, ["RA"])
    assert at.query_params["moves"] == "SH.LA.RA.RA"
    assert at.button(key="stepper.redo").disabled


def test_a_shared_url_reproduces_the_state() -> None:
    clicked = play(stepper(), SCENARIO)
    query = {k: clicked.query_params[k] for k in clicked.query_params}
    opened = stepper(**query)
    assert history(opened) == history(clicked)
    assert verdicts(opened) == verdicts(clicked)
    assert [m.value for m in opened.metric] == [m.value for m in clicked.metric]


def test_a_url_with_a_step_opens_in_the_middle_of_the_history() -> None:
    at = stepper(s="he-sent-her-a-letter", sys="arc-eager", moves="SH.LA.RA.SH", step="2")
    assert len(history(at)) == 3
    assert not at.button(key="stepper.redo").disabled
    click(at, "stepper.redo")
    assert history(at)[-1][1] == "RA"


def test_a_bad_url_gives_a_message_and_falls_back() -> None:
    at = stepper(sys="arc-nonsense", s="no-such-sentence", oracle="nope", moves="SH.RE.RE")
    text = messages(at)
    assert "arc-nonsense" in text and "no-such-sentence" in text and "move 2" in text
    assert history(at)[-1][1] == "SH"  # the legal prefix of the moves, on the default sentence


def test_a_damaged_custom_sentence_in_the_url_is_reported() -> None:
    at = stepper(s="custom:!!!not-base64")
    assert "damaged" in messages(at)
    assert "He sent her a letter" in at.markdown[0].value


def test_labelled_arcs_take_the_label_picked_beside_the_button() -> None:
    at = stepper(lab="1")
    click(at, "stepper.move.SH")
    assert at.selectbox(key="stepper.label.LA.1").value == "nsubj"  # the gold label first
    assert "cost with this label: 0" in [c.value for c in at.caption]
    at.selectbox(key="stepper.label.LA.1").set_value("obj").run()
    assert "cost with this label: 1" in [c.value for c in at.caption]  # the right arc, a wrong label
    click(at, "stepper.move.LA")
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
    click(at, "stepper.move.SH")
    assert history(at)[-1][1] == "SH"


def test_hostile_typed_words_are_shown_as_text() -> None:
    at = stepper()
    at.radio(key="stepper.pick.source").set_value("typed").run()
    at.text_input(key="stepper.pick.words").input('<script>alert(1)</script> "q" \\ {x} :red[b]').run()
    assert not at.exception, at.exception
    caption = at.markdown[0].value
    assert "<script>" not in caption and "&lt;script&gt;" in caption and "\\:red\\[b\\]" in caption
    dot = at.get("graphviz_chart")[0].proto.spec
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dot and "<script>" not in dot
    assert "no gold tree" in messages(at)
    click(at, "stepper.move.SH")  # a sentence without a gold tree can still be parsed


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
    assert "He sent her a letter" in at.markdown[0].value  # the last good sentence stays


def test_pasted_conllu_becomes_the_sentence_and_its_link() -> None:
    pasted = pc.write_conllu([pc.Sentence.from_heads(["Dogs", "bark"], [2, 0], ["nsubj", "root"])])
    at = stepper()
    at.radio(key="stepper.pick.source").set_value("conllu").run()
    at.text_area(key="stepper.pick.conllu").input(pasted).run()
    assert "Dogs bark" in at.markdown[0].value
    shared = stepper(**{k: at.query_params[k] for k in at.query_params})
    assert "Dogs bark" in shared.markdown[0].value


@pytest.mark.parametrize("system", pc.list_systems())
def test_every_system_plays_its_oracle_to_the_end(system: str) -> None:
    at = stepper(sys=system, s="keep-reading-books")
    while not at.button(key="stepper.oracle_step").disabled:
        click(at, "stepper.oracle_step")
    assert at.success and "finished" in at.success[0].value
    assert at.metric[0].label == "UAS" and at.metric[0].value == "100%"
    assert any("No mistakes: every move was optimal." in m.value for m in at.markdown)
    assert not at.warning  # no "no legal move: finished or stuck"


def test_the_end_of_a_parse_sums_up_the_mistakes() -> None:
    at = play(stepper(), ["SH", "LA", "RA", "SH"])  # the last SH loses sent → her
    while not at.button(key="stepper.oracle_step").disabled:
        click(at, "stepper.oracle_step")
    assert at.success and "finished" in at.success[0].value
    assert [m.value for m in at.metric] == ["83%"]  # 5 of 6 words get their gold head
    summary = next(m.value for m in at.markdown if "costly move" in m.value)
    assert "**1 costly move** (together they cost 1 gold arc)" in summary
    assert "SH (move 4) cost 1: it lost sent → her" in re.sub(r"\\(.)", r"\1", summary)


def test_presenter_mode_enlarges_the_drawing_and_goes_into_the_link() -> None:
    at = stepper()
    at.toggle(key="stepper.presenter").set_value(True).run()
    assert at.query_params["present"] == "1"
    assert "fontsize=21" in at.get("graphviz_chart")[0].proto.spec  # 14 pt words, 1.5 times larger
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
    keys = {b.key for b in at.get("download_button")}
    assert {f"stepper.{name}" for name in ("dot", "svg", "png", "csv", "tex", "sheet")} <= keys


def test_the_words_the_stack_and_buffer_and_the_legend_are_drawn_apart() -> None:
    arcs, memory, legend = (chart.proto.spec for chart in stepper(moves="SH.LA").get("graphviz_chart"))
    assert "w1 -> w2" in arcs and "memory [" not in arcs and "legend [" not in arcs
    assert "stack σ" in memory and "w1 [" not in memory and "legend [" not in memory
    assert "built, correct" in legend and "w1 [" not in legend and "memory [" not in legend


def drawing_places(at: AppTest) -> dict[str, str]:
    """The key of the container each piece of the picture sits in (``stepper-drawing-<piece>-<digest>``)."""
    places: dict[str, str] = {}

    def walk(node: object) -> None:
        for child in getattr(node, "children", {}).values():
            block_id = str(getattr(child.proto, "id", ""))
            found = re.search(r"stepper-drawing-(arcs|memory|legend)-[0-9a-f]{8}$", block_id)
            if found:
                places[found.group(1)] = found.group(0)
            walk(child)
    walk(at._tree)
    return places


def test_a_piece_of_the_picture_is_drawn_afresh_exactly_when_it_changes() -> None:
    """A piece whose DOT changed gets a new container, so the browser draws it with a new renderer
    instead of morphing the old paths into the new; a piece that did not change keeps its place."""
    at = stepper(s="woman-at-the-party-who-speaks", sys="arc-standard")
    before = (drawing_places(at), [chart.proto.spec for chart in at.get("graphviz_chart")])
    legend_changed = legend_kept = 0
    for _ in range(9):
        click(at, "stepper.oracle_step")
        after = (drawing_places(at), [chart.proto.spec for chart in at.get("graphviz_chart")])
        assert set(after[0]) == {"arcs", "memory", "legend"}
        for i, piece in enumerate(("arcs", "memory", "legend")):
            assert (after[0][piece] != before[0][piece]) == (after[1][i] != before[1][i]), piece
        legend_changed += after[1][2] != before[1][2]
        legend_kept += after[1][2] == before[1][2]
        assert after[1][0] != before[1][0]  # every move changes the words and arcs
        before = after
    assert legend_changed and legend_kept  # both cases were met


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
