"""The stepper's pure helpers, without a page: drawing, cost table, links, oracle answers, exports.

Drawings are checked on their DOT structure (which edges, in which style), never on pixels.
"""

from __future__ import annotations

import doctest
import random
import re
import string

import pandas as pd
import pytest

import parsing_core as pc
import ui.stepper.exports_view
import ui.views.cost_table
import ui.views.safe_text
import ui.views.sources
import ui.views.state
from ui.stepper.exports_view import can_render, csv_text, latex_text, render
from ui.views.cost_table import SCALE, cost_frame, styled
from ui.views.drawing import CROSSING, STYLES, configuration_dot
from ui.views.labels import UD_RELATIONS, label_choices
from ui.views.oracle_view import arc_kinds, ask, completion, pick
from ui.views.sources import DEFAULT_KEY, custom_key, is_shareable, sentence_from_key
from ui.views.state import StepperState, default_oracle, system_options
from ui.views.tables import derivation_table
from ui.widgets.sentence_inputs import typed_sentence, uploaded_text

HOSTILE = ["<script>alert(1)</script>", '"quoted"', "back\\slash", "{brace}", "a&b"]
SCENARIO = ["SH", "LA", "RA", "SH"]


def seed_000(moves: list[str] = SCENARIO, system: str = "arc-eager") -> pc.Trace:
    return pc.replay(pc.get_system(system), pc.default_sentence(), moves)


def edges(dot: str) -> dict[tuple[int, int], str]:
    """The arcs of a drawing: (head, dependent) → the edge's attribute text (word nodes only)."""
    found = re.findall(r"^\s*w(\d+) -> w(\d+) \[(.*)\]$", dot, flags=re.M)
    return {(int(h), int(d)): attrs for h, d, attrs in found if "invis" not in attrs}


def style_of(attrs: str) -> str:
    return next(kind for kind, style in STYLES.items()
                if f'color="{style["color"]}"' in attrs and f"penwidth={style['penwidth']}" in attrs)


# -- ui.* doctests -------------------------------------------------------------------------
@pytest.mark.parametrize("module", [ui.views.sources, ui.views.state, ui.views.cost_table,
                                    ui.stepper.exports_view, ui.views.safe_text])
def test_doctests(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.failed == 0 and result.attempted > 0


# -- drawing -------------------------------------------------------------------------------
def test_the_seed_000_drawing_tells_each_kind_of_arc_by_style() -> None:
    trace = seed_000([*SCENARIO, "RA"])  # her → a: a wrong arc
    gold = trace.sentence
    kinds = arc_kinds(trace.final, gold, completion(trace, gold, "goldberg-nivre"))
    dot = configuration_dot(trace.system, gold, trace.final, kinds)
    assert {arc: style_of(attrs) for arc, attrs in edges(dot).items()} == {
        (2, 1): "correct", (0, 2): "correct",  # He ← sent, ROOT → sent: built and gold
        (3, 4): "wrong",  # her → a: built, not gold
        (2, 3): "lost", (5, 4): "lost",  # sent → her and a ← letter can no longer be built
        (2, 5): "reachable", (2, 6): "reachable",
    }
    assert 'style="dashed,bold"' in edges(dot)[(3, 4)] and "style=dotted" in edges(dot)[(2, 5)]


def test_the_drawing_marks_the_stack_top_and_the_buffer_front_and_has_a_legend() -> None:
    trace = seed_000()
    dot = configuration_dot(trace.system, trace.sentence, trace.final, {(2, 1): "correct"})
    assert re.search(r"<b>her</b><br/><font[^>]*>▲ top", dot)
    assert re.search(r"<b>a</b><br/><font[^>]*>▲ front", dot)
    assert "subgraph legend_beside_memory" in dot and "built, correct" in dot and "gold, lost" not in dot


def test_hostile_tokens_and_labels_are_escaped_in_the_drawing() -> None:
    sentence = pc.Sentence.from_heads(HOSTILE, [0, 1, 1, 1, 1], ["root", "<b>", "x", "y", "z"])
    system = pc.get_system("arc-standard", labelled=True)
    trace = pc.replay(system, sentence, ["SH", "SH", "RA:<i>\"x\""])
    dot = configuration_dot(system, sentence, trace.final, arc_kinds(trace.final, sentence, None))
    assert "<script>" not in dot and "&lt;script&gt;alert(1)&lt;/script&gt;" in dot
    assert "&quot;quoted&quot;" in dot and "back\\slash" in dot and "a&amp;b" in dot
    assert "label=<&lt;i&gt;&quot;x&quot;>" in dot  # the user's label, as text
    if can_render():  # Graphviz itself accepts the escaped text
        assert b"&lt;script&gt;" in render(dot, "svg")


def test_crossing_gold_arcs_are_marked_and_root_last_is_drawn_last() -> None:
    gold = sentence_from_key("found-best-example-ever")
    system = pc.get_system("arc-hybrid-swap", root_last=True)
    c = system.initial(gold)
    crossing = gold.crossing_arcs(system.root_last)
    dot = configuration_dot(system, gold, c, arc_kinds(c, gold, None), crossing)
    assert crossing and all(CROSSING in edges(dot)[arc] for arc in crossing)
    assert "crossing gold arc" in dot
    order = re.findall(r"^\s*(w\d+) \[label=", dot, flags=re.M)
    assert order[-1] == "w0"


def test_without_a_gold_tree_built_arcs_are_plain() -> None:
    sentence = pc.Sentence.from_heads(["a", "b"], None)
    trace = pc.replay(pc.get_system("arc-standard"), sentence, ["SH", "SH", "LA"])
    kinds = arc_kinds(trace.final, sentence, None)
    assert kinds == {(2, 1): "built"}


# -- cost table ----------------------------------------------------------------------------
def test_the_cost_table_colours_optimal_and_costly_moves_and_says_so_in_words() -> None:
    trace = seed_000()
    frame = cost_frame(trace, [ask(trace.system, "goldberg-nivre", trace.final, trace.sentence)])
    html = styled(frame).to_html()
    assert frame.set_index("move").loc["RA", "verdict"] == "✗ costs 1"
    rows = {m: i for i, m in enumerate(frame["move"])}
    assert re.search(rf"#T_\w+_row{rows['SH']}_col0[^{{]*{{\s*background-color: {SCALE[0]}", html)
    assert re.search(rf"#T_\w+_row{rows['RA']}_col0[^{{]*{{\s*background-color: {SCALE[1]}", html)


def test_two_oracles_side_by_side_flag_their_disagreements() -> None:
    trace = seed_000()
    verdicts = [ask(trace.system, name, trace.final, trace.sentence) for name in ("search", "static")]
    frame = cost_frame(trace, verdicts).set_index("move")
    assert list(frame.columns) == ["builds", "cost", "verdict", "loses", "cost (static)", "agree"]
    assert frame.loc["LA", "agree"].startswith("≠") and frame.loc["SH", "agree"] == ""
    assert frame.loc["RA", "loses"] == "e.g. a ← letter"  # the search oracle: an example completion


# -- oracle answers ------------------------------------------------------------------------
@pytest.mark.parametrize("system_name", pc.list_systems())
def test_every_oracle_of_every_system_answers_or_explains_why_not(system_name: str) -> None:
    system = pc.get_system(system_name)
    gold = pc.default_sentence()
    for name in pc.list_oracles(system):
        verdict = ask(system, name, system.initial(gold), gold)
        assert verdict.costs or verdict.error, name


def test_the_search_oracle_falls_back_beyond_its_limit() -> None:
    gold = pc.Sentence.from_heads([f"w{i}" for i in range(1, 16)], [0, *range(1, 15)])
    system = pc.get_system("arc-eager")
    verdict = ask(system, "search", system.initial(gold), gold)
    assert verdict.oracle != "search" and verdict.costs and "instead" in verdict.warnings[0]


def test_an_oracle_exact_for_projective_trees_warns_on_a_non_projective_one() -> None:
    gold, system = sentence_from_key("found-best-example-ever"), pc.get_system("arc-eager")
    verdict = ask(system, "goldberg-nivre", system.initial(gold), gold)
    assert verdict.costs and "approximate for this sentence" in verdict.warnings[0]


def test_no_gold_tree_no_costs_but_a_message() -> None:
    system, sentence = pc.get_system("arc-eager"), pc.Sentence.from_heads(["a"], None)
    verdict = ask(system, "goldberg-nivre", system.initial(sentence), sentence)
    assert not verdict.costs and "no gold tree" in (verdict.error or "")


def test_best_reachable_after_the_wrong_shift_is_five_of_six() -> None:
    trace = seed_000()
    done = completion(trace, trace.sentence, "static")  # static is not exact: an exact one is used
    assert done is not None and done.exact and done.correct == 5 and done.oracle != "static"


def test_tie_breaks() -> None:
    sh, la, re_ = pc.Transition("SH"), pc.Transition("LA"), pc.Transition("RE")
    assert pick((sh, re_), "first", 3) == sh and pick((sh, re_), "arcs", 3) == re_
    assert pick((sh, la), "random", 7) == pick((sh, la), "random", 7)
    assert pick((), "first", 0) is None


# -- sentences, labels and links -----------------------------------------------------------
def test_custom_keys_round_trip_hostile_tokens_and_sentences_without_gold() -> None:
    for sentence in (pc.Sentence.from_heads(HOSTILE, [0, 1, 1, 1, 1]), pc.Sentence.from_heads(HOSTILE, None)):
        assert sentence_from_key(custom_key(sentence)) == sentence


@pytest.mark.parametrize("key, problem", [
    ("custom:%%%", "damaged"), ("custom:" + "A" * 40, "damaged"), ("treebank:x", "cannot read"),
    ("no-such-id", "no teaching sentence"), ("treebank:en_lines:dev:999999", "en_lines"),
])
def test_bad_sentence_keys_raise_library_errors(key: str, problem: str) -> None:
    with pytest.raises(pc.ParsingCoreError, match=problem):
        sentence_from_key(key)


def test_a_very_long_pasted_sentence_is_not_put_in_links() -> None:
    rnd = random.Random(0)
    words = ["".join(rnd.choices(string.ascii_letters, k=12)) for _ in range(150)]
    key = custom_key(pc.Sentence.from_heads(words, None))
    assert not is_shareable(key)
    state = StepperState(sentence=key, moves=("SH",), cursor=1)
    assert state.to_query()["s"] == DEFAULT_KEY and "moves" not in state.to_query()


def test_links_round_trip_labels_with_dots_and_colons() -> None:
    state = StepperState(labelled=True, moves=("SH", "LA:nmod:poss", "RA:a.b"), cursor=2, presenter=True)
    back, problems = StepperState.from_query({**state.to_query(), "moves": "SH.LA:nmod:poss.RA:a.b"})
    assert back.moves[:2] == state.moves[:2] and back.cursor == 2 and back.presenter and not problems


def test_system_options_and_default_oracles_come_from_the_library() -> None:
    assert system_options("arc-hybrid") == ("root_last",)
    assert system_options("arc-standard") == ("single_root",)
    for name in pc.list_systems():
        system = pc.get_system(name)
        assert default_oracle(system) in pc.list_oracles(system)


def test_label_choices_put_the_sentences_labels_first() -> None:
    choices = label_choices(pc.default_sentence())
    assert choices[:6] == ["det", "iobj", "nsubj", "obj", "punct", "root"]
    assert set(UD_RELATIONS) <= set(choices) and len(choices) == len(set(choices))


# -- exports -------------------------------------------------------------------------------
def test_history_exports_as_csv_and_latex_with_escaping() -> None:
    frame = derivation_table(pc.replay(pc.get_system("arc-eager"),
                                       pc.Sentence.from_heads(["50%", "&", "$x_1$"], [0, 1, 1]), ["RA"]))
    assert csv_text(frame).splitlines()[0] == "ROW,TRANSITION,STACK,BUFFER,ARCS"
    latex = latex_text(frame)
    assert r"50\%" in latex and r"\&" in latex and r"\$x\_1\$" in latex and r"$\rightarrow$" in latex


# -- typed and uploaded sentences ----------------------------------------------------------
def head_table(heads: list[int | None], labels: list[str]) -> pd.DataFrame:
    return pd.DataFrame({"head": pd.array(heads, dtype="Int64"), "label": labels})


@pytest.mark.parametrize("heads, labels, problem", [
    ([2, None, 2], ["", "", ""], r"word 2 \(b\) has no head yet"),
    ([2, 1, 0], ["", "", ""], "cycle"),
    ([0, 1, 4], ["", "", ""], "out of range"),
    ([0, 1, 1], ["root", "a b", "x"], "spaces"),
])
def test_a_typed_head_table_is_checked(heads: list[int | None], labels: list[str], problem: str) -> None:
    with pytest.raises(pc.TreeError, match=problem):
        typed_sentence(["a", "b", "c"], head_table(heads, labels))


def test_a_typed_head_table_makes_a_sentence_with_or_without_a_tree() -> None:
    assert not typed_sentence(["a", "b"], head_table([None, None], ["", ""])).has_gold
    partly = typed_sentence(["a", "b"], head_table([0, 1], ["root", ""]))
    assert partly.heads == (0, 1) and partly.labels is None  # labels only when all are given
    assert typed_sentence(["a", "b"], head_table([0, 1], ["root", "obj"])).labels == ("root", "obj")


def test_uploads_must_be_utf8_text() -> None:
    class Upload:
        def __init__(self, data: bytes) -> None:
            self.data = data

        def getvalue(self) -> bytes:
            return self.data

    assert uploaded_text(Upload("\ufeff# x\n".encode())) == "# x\n"
    with pytest.raises(pc.ParsingCoreError, match="not UTF-8"):
        uploaded_text(Upload(b"\xff\xfe\x00"))
