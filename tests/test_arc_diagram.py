"""The arc diagram's geometry, read off the SVG it writes: nested arcs stack, no two arcs run
along each other, feet apart, every kind of arc in its own line, every user string escaped.

Each arc is a path ``M x,y V top+r Q … H … Q … V y``: two legs and a top.  The tests parse
those numbers back and check them, on the seeds' sentences, on a 25-token treebank-like
sentence and on 300 random trees with random wrong arcs (crossings and arcs over the same
words included).
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import pytest

import parsing_core as pc
from ui.views import arc_layout
from ui.views.arc_diagram import DASHES, DrawnArc, Word, arc_svg, configuration_svg, layout
from ui.views.drawing import STYLES
from ui.views.oracle_view import arc_kinds

SVG = "{http://www.w3.org/2000/svg}"
WORDS = ("The teacher who had taught in the village school for many years finally decided to retire "
         "and move to the coast with her husband .").split()
HEADS = [2, 14, 5, 5, 2, 9, 9, 9, 5, 12, 12, 5, 14, 0, 16, 14, 18, 16, 21, 21, 18, 24, 24, 18, 14]
LONG = pc.Sentence.from_heads(WORDS, HEADS)
NUMBER = r"(-?[\d.]+)"
PATH = re.compile(rf"M{NUMBER},{NUMBER} V{NUMBER} Q{NUMBER},{NUMBER} {NUMBER},{NUMBER} H{NUMBER} "
                  rf"Q{NUMBER},{NUMBER} {NUMBER},{NUMBER} V{NUMBER}")


@dataclass(frozen=True)
class Drawn:
    """One arc as drawn: its ends (token numbers), kind, level, legs' x, top's y, legs' lower ends."""

    head: int
    dep: int
    kind: str
    level: int
    left: float
    right: float
    top: float
    left_low: float
    right_low: float
    corner: float


def drawn_arcs(svg: str) -> list[Drawn]:
    """The arcs of an SVG arc diagram, parsed back from their paths."""
    out = []
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        if g.get("class") != "arc":
            continue
        path = next(p for p in g.iter(f"{SVG}path") if p.get("class") == "arc-line")
        found = PATH.fullmatch(path.get("d", ""))
        assert found, path.get("d")
        x0, y0, _, _, top, x1, _, _, xr, _, _, _, low = map(float, found.groups())
        out.append(Drawn(int(g.get("data-head", "")), int(g.get("data-dep", "")), g.get("data-kind", ""),
                         int(g.get("data-level", "")), x0, xr, top, y0, low, x1 - x0))
    return out


def span_of(a: Drawn, order: list[int]) -> tuple[int, int]:
    i, j = order.index(a.head), order.index(a.dep)
    return (min(i, j), max(i, j))


def check_geometry(svg: str, order: list[int]) -> None:
    """Nested arcs stand strictly higher, no two arcs share a stretch of line, feet are apart."""
    arcs = drawn_arcs(svg)
    for a in arcs:
        for b in arcs:
            if a is b:
                continue
            if arc_layout.contains(span_of(a, order), span_of(b, order)):
                assert a.top < b.top and a.level > b.level, (a, b)  # y grows downwards
                assert a.left < b.left + 0.05 and b.right < a.right + 0.05
            if a.level != b.level:
                assert a.top != b.top
            tops_meet = min(a.right, b.right) - a.corner - b.corner > max(a.left, b.left)
            assert not (tops_meet and a.top == b.top), (a, b)  # side by side on one level at most
            for x_a, low_a in ((a.left, a.left_low), (a.right, a.right_low)):
                for x_b, low_b in ((b.left, b.left_low), (b.right, b.right_low)):
                    legs_meet = min(low_a, low_b) > max(a.top, b.top)
                    assert not (abs(x_a - x_b) < 1 and legs_meet), (a, b)  # no two legs on one line


def tree_svg(sentence: pc.Sentence, kinds: dict[pc.Arc, str] | None = None, scale: float = 1.0) -> str:
    system = pc.get_system("arc-standard")
    c = system.initial(sentence)
    return configuration_svg(system, sentence, c, kinds or arc_kinds(c, sentence, None),
                             sentence.crossing_arcs(), scale)


def test_nested_arcs_stand_higher_and_no_two_arcs_overlap_on_a_25_token_sentence() -> None:
    svg = tree_svg(LONG)
    arcs = drawn_arcs(svg)
    assert len(arcs) == 25 and {a.kind for a in arcs} == {"reachable"}
    check_geometry(svg, list(range(26)))
    by_arc = {(a.head, a.dep): a for a in arcs}
    root, teacher, school = by_arc[(0, 14)], by_arc[(14, 2)], by_arc[(5, 9)]
    assert root.top < teacher.top < school.top  # ROOT → decided spans teacher's arc, which spans school's


@pytest.mark.parametrize("seed", range(300))
def test_random_trees_with_wrong_and_crossing_arcs_keep_the_rules(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 12)
    heads = [rng.randint(0, d - 1) if d > 1 else 0 for d in range(1, n + 1)]  # a tree: heads point left
    rng.shuffle(order := list(range(1, n + 1)))
    renamed = {0: 0, **{old: new for old, new in zip(range(1, n + 1), order)}}
    tree = [0] * n
    for d, h in enumerate(heads, 1):
        tree[renamed[d] - 1] = renamed[h]  # the same tree, its words shuffled: crossings and right heads
    sentence = pc.Sentence.from_heads([f"w{i}" for i in range(1, n + 1)], tree)
    kinds = {arc: rng.choice(["reachable", "lost", "correct"]) for arc in sentence.gold_arcs}
    for h, d in list(sentence.gold_arcs)[: rng.randint(0, n)]:
        kinds[(d, h)] = "wrong"  # the reverse of a gold arc: the same words, another level
    svg = tree_svg(sentence, kinds)
    check_geometry(svg, list(range(n + 1)))


def test_arcs_meeting_at_one_word_stand_on_distinct_feet_inner_arcs_inside() -> None:
    words = [Word(t, f"w{t}") for t in range(6)]
    arcs = [DrawnArc(2, 0, "correct"), DrawnArc(2, 1, "correct"), DrawnArc(2, 3, "reachable"),
            DrawnArc(2, 5, "lost"), DrawnArc(3, 2, "wrong")]
    shape = layout(words, arcs)
    feet = sorted(s.head_x if s.arc.head == 2 else s.dep_x for s in shape.arcs)
    assert len(set(feet)) == 5 and min(b - a for a, b in zip(feet, feet[1:])) >= 8  # 9 px apart
    x = {(s.arc.head, s.arc.dep): (s.head_x if s.arc.head == 2 else s.dep_x) for s in shape.arcs}
    assert x[(2, 1)] < x[(2, 0)] < x[(2, 5)]  # reaching left: the inner one further left, then the outer
    assert x[(2, 5)] < x[(3, 2)] and x[(2, 5)] < x[(2, 3)]  # reaching right: the outer one further left
    check_geometry(arc_svg(words, arcs), list(range(6)))


def test_an_arrowhead_points_down_at_each_dependent() -> None:
    shape = layout([Word(0, "ROOT"), Word(1, "Hello"), Word(2, "world")],
                   [DrawnArc(0, 1, "correct"), DrawnArc(1, 2, "correct")])
    svg = arc_svg([Word(0, "ROOT"), Word(1, "Hello"), Word(2, "world")],
                  [DrawnArc(0, 1, "correct"), DrawnArc(1, 2, "correct")])
    tips = re.findall(r'class="arrowhead" d="M[^"]* L([\d.]+),([\d.]+) Z"', svg)
    assert sorted((float(x), float(y)) for x, y in tips) == sorted(
        (round(s.dep_x, 1), round(shape.base, 1)) for s in shape.arcs)


def test_every_kind_of_arc_has_its_colour_and_its_own_line() -> None:
    sentence = pc.Sentence.from_heads(["a", "b", "c", "d", "e"], [0, 1, 2, 3, 4])
    kinds = {(0, 1): "correct", (1, 2): "reachable", (2, 3): "lost", (4, 3): "wrong", (4, 5): "built"}
    arcs = {g.get("data-kind", ""): g for g in ET.fromstring(tree_svg(sentence, kinds)).iter(f"{SVG}g")
            if g.get("class") == "arc"}
    assert set(arcs) == set(STYLES)
    for kind, g in arcs.items():
        line = next(p for p in g.iter(f"{SVG}path") if p.get("class") == "arc-line")
        assert line.get("stroke") == STYLES[kind]["color"]
        assert (line.get("stroke-dasharray") or "") == DASHES[kind]
        title = g.find(f"{SVG}title")
        assert title is not None and (title.text or "").startswith(("built", "gold"))
    gold_lines = {(DASHES[k], STYLES[k]["penwidth"]) for k in ("correct", "wrong", "reachable", "lost")}
    assert len(gold_lines) == 4  # with a gold tree, no two kinds share a line: colour is never alone


def test_built_arcs_show_their_labels_and_crossing_gold_arcs_their_mark() -> None:
    system = pc.get_system("arc-standard", labelled=True)
    sentence = pc.Sentence.from_heads(["She", "left"], [2, 0], ["nsubj", "root"])
    c = pc.replay(system, sentence, ["SH", "SH", "LA:nsubj"]).final
    svg = configuration_svg(system, sentence, c, arc_kinds(c, sentence, None))
    assert re.findall(r'class="arc-label"[^>]*>([^<]*)<', svg) == ["nsubj"]  # the gold ROOT → left: no label
    assert 'paint-order="stroke"' in svg and 'stroke="#FFFFFF"' in svg  # on a white halo
    tangled = pc.Sentence.from_heads(["found", "best", "example", "ever"], [0, 3, 1, 2])
    groups = ET.fromstring(tree_svg(tangled)).iter(f"{SVG}g")
    marked = [(g.get("data-head"), g.get("data-dep")) for g in groups if g.get("class") == "arc"
              and any(t.get("class") == "arc-label" and t.text == "✕" for t in g.iter(f"{SVG}text"))]
    assert sorted(marked) == [("1", "3"), ("2", "4")]


def test_user_text_is_escaped_and_nothing_can_run() -> None:
    words = ['<script>alert("x")</script>', 'a"b', "x&y", "<img src=x onerror=alert(1)>"]
    sentence = pc.Sentence.from_heads(words, [0, 1, 1, 1], ["<b>", "'q'", "&amp;", "on=1"])
    system = pc.get_system("arc-standard", labelled=True)
    c = pc.replay(system, sentence, ["SH", "SH", "RA:<b>"]).final
    svg = configuration_svg(system, sentence, c, arc_kinds(c, sentence, None))
    root = ET.fromstring(svg)  # well-formed: every < and & of the user's text is an entity
    tags = {el.tag.removeprefix(SVG) for el in root.iter()}
    assert tags <= {"svg", "g", "rect", "text", "path", "title"}
    assert not any(name.startswith("on") for el in root.iter() for name in el.attrib)
    texts = [el.text for el in root.iter(f"{SVG}text")]
    assert words[0] in texts and words[3] in texts and "<b>" in texts  # drawn as the characters they are
    assert "<script" not in svg and "&lt;script&gt;" in svg


def test_each_column_is_wide_enough_for_its_word_and_the_picture_grows_with_the_words() -> None:
    words = [Word(0, "ROOT"), Word(1, "I"), Word(2, "WWWWWWWW"), Word(3, "internationalisation"),
             Word(4, "本")]
    shape = layout(words, [])
    for i, w in enumerate(words):
        assert shape.columns.widths[i] >= arc_layout.text_width(w.text, 14 * 4 / 3) + 2 * 9
    assert shape.columns.widths[2] > shape.columns.widths[1] * 3
    assert layout(words, [], scale=1.5).width == pytest.approx(1.5 * shape.width, rel=0.01)


def test_the_picture_is_as_high_as_its_highest_level() -> None:
    flat = layout([Word(t, f"w{t}") for t in range(4)], [DrawnArc(1, 2, "correct")])
    nested = layout([Word(t, f"w{t}") for t in range(4)],
                    [DrawnArc(1, 2, "correct"), DrawnArc(0, 3, "correct"), DrawnArc(1, 3, "correct")])
    assert [s.level for s in nested.arcs] == [1, 3, 2]
    assert nested.height - flat.height == pytest.approx(2 * 24)  # two levels more


def test_a_long_label_between_neighbours_fits_between_the_arcs_feet() -> None:
    words = [Word(0, "ROOT"), Word(1, "a"), Word(2, "b"), Word(3, "c")]
    arcs = [DrawnArc(2, 1, "correct", "compound:prt"), DrawnArc(2, 3, "correct", "x")]
    shape = layout(words, arcs)
    long, short = shape.arcs
    assert long.right - long.left >= arc_layout.text_width("compound:prt", 11 * 4 / 3) + 16
    crowded = [DrawnArc(2, 1, "wrong", "det"), *(DrawnArc(2, t, "reachable") for t in (3, 4, 5)),
               DrawnArc(0, 2, "reachable"), DrawnArc(3, 1, "lost")]  # many feet on b, two on a
    det = layout([*words, Word(4, "d"), Word(5, "e")], crowded).arcs[0]
    assert det.right - det.left >= arc_layout.text_width("det", 11 * 4 / 3) + 16  # 8 px of line each side
    assert shape.columns.lefts[3] - shape.columns.lefts[2] < shape.columns.lefts[2] - shape.columns.lefts[1]


def test_an_arcs_tooltip_names_it_in_sentence_order_numbering_repeated_words() -> None:
    words = [Word(0, "ROOT"), Word(1, "Hop"), Word(2, "Hop"), Word(3, "bus")]
    svg = arc_svg(words, [DrawnArc(1, 2, "lost"), DrawnArc(3, 1, "reachable", crossing=True)])
    assert re.findall(r'<g class="arc"[^>]*><title>([^<]*)</title>', svg) == [
        "gold, still reachable: Hop₁ ← bus", "gold, lost: Hop₁ → Hop₂"]  # the higher arc first
