"""The drawing in pieces: words and arcs, stack and buffer, legend, each at its own natural size.

The words and arcs are an SVG arc diagram, read as it is; the stack and buffer and the legend
are DOT text, laid out by Graphviz's library (``pygraphviz``) to check what a browser would be
given: a longer sentence makes the picture wider, never its type smaller.
"""

from __future__ import annotations

import re

import pytest

import parsing_core as pc
from ui.stepper.exports_view import render
from ui.views.arc_diagram import WORD_PX, configuration_pieces
from ui.views.drawing import WORD_POINTS, configuration_dot
from ui.views.oracle_view import arc_kinds, completion

TREEBANK_PICKER_MAX = 120  # ui.widgets.sentence_inputs.LENGTHS[1]: the longest sentence a treebank lists


def chain(n: int) -> pc.Sentence:
    """``n`` words, each the head of the next: one arc per word, a drawing as wide as the sentence."""
    return pc.Sentence.from_heads([f"word{i}" for i in range(1, n + 1)], list(range(n)))


def pieces_after(sentence: pc.Sentence, moves: list[str], scale: float = 1.0) -> tuple[str, str, str]:
    system = pc.get_system("arc-standard")
    c = pc.replay(system, sentence, moves).final
    p = configuration_pieces(system, sentence, c, arc_kinds(c, sentence, None), scale=scale)
    return p.arcs, p.memory, p.legend


def nodes(dot: str) -> list[str]:
    return re.findall(r"^\s*(\w+) \[label=", dot, flags=re.M)


def svg_tokens(svg: str) -> list[int]:
    """The token numbers of the words in an arc diagram, left to right."""
    return [int(t) for t in re.findall(r'<g class="word" data-token="(\d+)"', svg)]


def arc_diagram_size(svg: str) -> tuple[float, float]:
    size = re.match(r'<svg [^>]*width="([\d.]+)" height="([\d.]+)"', svg)
    assert size is not None
    return float(size[1]), float(size[2])


def svg_word_sizes(svg: str) -> set[float]:
    return {float(size) for size in re.findall(r'class="word-text" [^>]*font-size="([\d.]+)"', svg)}


def svg_size(svg: bytes) -> tuple[float, float]:
    """Width and height in points, as Graphviz writes them (``width="588pt"``)."""
    size = re.search(rb'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg)
    assert size is not None
    return float(size[1]), float(size[2])


def test_each_piece_holds_only_its_part_and_the_whole_holds_them_all() -> None:
    trace = pc.replay(pc.get_system("arc-eager"), pc.default_sentence(), ["SH", "LA", "RA", "SH", "RA"])
    gold = trace.sentence
    kinds = arc_kinds(trace.final, gold, completion(trace, gold, "goldberg-nivre"))
    pieces = configuration_pieces(trace.system, gold, trace.final, kinds)
    assert svg_tokens(pieces.arcs) == list(range(7))
    assert nodes(pieces.memory) == ["memory"] and nodes(pieces.legend) == ["legend"]
    assert "built, wrong" in pieces.legend and "gold, lost" in pieces.legend  # her → a, sent → her
    assert "word on the stack" in pieces.legend and "word in the buffer" in pieces.legend
    whole = configuration_dot(trace.system, gold, trace.final, kinds)
    assert set(nodes(whole)) == {*(f"w{t}" for t in range(7)), "memory", "legend"}
    assert pieces.arcs.count('class="arc"') == len(kinds)  # the same arcs as the whole picture's
    for piece in (pieces.memory, pieces.legend):
        body = [line for line in piece.splitlines()[4:] if line.strip() not in ("}", "rank=same")]
        assert all(line in whole for line in body)  # the same nodes and arcs, drawn the same way


def test_the_stack_and_buffer_and_the_legend_do_not_depend_on_the_arcs_or_the_sentence_length() -> None:
    system, short, long = pc.get_system("arc-standard"), chain(5), chain(TREEBANK_PICKER_MAX)
    c = pc.replay(system, short, ["SH", "SH", "SH"]).final
    gold_arcs = configuration_pieces(system, short, c, arc_kinds(c, short, None))
    no_arcs = configuration_pieces(system, short, c, {})
    assert gold_arcs.memory == no_arcs.memory and gold_arcs.arcs != no_arcs.arcs
    c_long = pc.replay(system, long, ["SH", "SH", "SH"]).final
    long_arcs = configuration_pieces(system, long, c_long, arc_kinds(c_long, long, None))
    assert long_arcs.legend == gold_arcs.legend


@pytest.mark.parametrize("n", [5, 25, TREEBANK_PICKER_MAX])
def test_the_words_keep_their_type_size_however_long_the_sentence(n: int) -> None:
    arcs, memory, _ = pieces_after(chain(n), ["SH"] * n)
    assert f"fontsize={WORD_POINTS}" in memory
    assert svg_word_sizes(arcs) == {round(WORD_PX, 1)} == {round(WORD_POINTS * 4 / 3, 1)}


def test_a_longer_sentence_makes_the_words_row_wider_not_smaller() -> None:
    widths = {n: arc_diagram_size(pieces_after(chain(n), ["SH"] * n)[0])[0] for n in (5, 25, 120)}
    assert widths[5] < widths[25] < widths[120]
    assert widths[120] / widths[25] > 0.8 * 121 / 26  # about the same width per word, at any length


def test_presenter_mode_draws_every_piece_half_as_large_again() -> None:
    small_arcs, *small = pieces_after(chain(8), ["SH"] * 3)
    big_arcs, *big = pieces_after(chain(8), ["SH"] * 3, scale=1.5)
    normal = [arc_diagram_size(small_arcs), *(svg_size(render(p, "svg")) for p in small)]
    larger = [arc_diagram_size(big_arcs), *(svg_size(render(p, "svg")) for p in big)]
    assert all(1.3 < b[0] / s[0] < 1.6 for s, b in zip(normal, larger))
    assert 1.45 < larger[0][1] / normal[0][1] < 1.55  # the arc diagram is higher too
    assert svg_word_sizes(pieces_after(chain(8), [], scale=1.5)[0]) == {round(1.5 * WORD_PX, 1)}


def test_a_board_gets_the_arc_diagram_from_source_data_and_a_hidden_oracle_hides_the_gold_arcs() -> None:
    from ui.views.sources import custom_key
    from ui.widgets import compute

    parse = compute.Parse(custom_key(pc.default_sentence()), "arc-eager", (), False)
    moves = ("SH", "LA", "RA", "SH", "RA")
    svg = compute.arc_svg_of(parse, moves, "goldberg-nivre", 1.5, False)
    assert svg == compute.pieces_of(parse, moves, "goldberg-nivre", 1.5, False).arcs
    assert {"correct", "wrong", "lost", "reachable"} <= set(re.findall(r'data-kind="(\w+)"', svg))
    hidden = compute.arc_svg_of(parse, moves, "goldberg-nivre", 1.5, True)
    assert set(re.findall(r'data-kind="(\w+)"', hidden)) == {"built"}  # her → a: built, no word on gold
    assert "<script" not in svg and svg.startswith("<svg")
