"""What a user takes away: the drawing as SVG and PNG without Graphviz's ``dot`` program, and the
homework sheet (the derivation with the stack, buffer and arcs left blank)."""

from __future__ import annotations

import doctest
import re
import struct

import pytest

import parsing_core as pc
import ui.stepper.worksheet_view
from ui.stepper.exports_view import MAX_PNG_PX, PNG_DPI, RenderError, render, run_graphviz
from ui.stepper.worksheet_view import BLANKS, blank_sheet, sheet_html
from ui.views.drawing import configuration_dot
from ui.views.oracle_view import arc_kinds
from ui.views.tables import derivation_table

SCENARIO = ["SH", "LA", "RA", "SH"]  # seed 000


def seed_000_dot() -> str:
    trace = pc.replay(pc.get_system("arc-eager"), pc.default_sentence(), SCENARIO)
    return configuration_dot(trace.system, trace.sentence, trace.final,
                             arc_kinds(trace.final, trace.sentence, None))


@pytest.fixture
def no_dot_program(monkeypatch: pytest.MonkeyPatch) -> None:
    """No ``dot`` (nor any other program) on the PATH."""
    monkeypatch.setenv("PATH", "")
    monkeypatch.setattr("shutil.which", lambda name, *args, **kwargs: None)


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


def test_svg_and_png_are_made_without_the_dot_program(no_dot_program: None) -> None:
    dot = seed_000_dot()
    svg = render(dot, "svg")
    assert svg.lstrip().startswith(b"<?xml") and b"</svg>" in svg
    assert b">stack \xcf\x83<" in svg and b">sent<" in svg  # "stack σ" and a word, as text
    size = re.search(rb'width="([\d.]+)pt" height="([\d.]+)pt"', svg)
    assert size is not None
    width_pt, height_pt = float(size[1]), float(size[2])
    width_px, height_px = png_size(render(dot, "png"))
    assert width_px == pytest.approx(width_pt * PNG_DPI / 72, abs=3)  # twice a screen's 96 dpi
    assert height_px == pytest.approx(height_pt * PNG_DPI / 72, abs=3)


def test_a_drawing_graphviz_aborts_on_is_drawn_with_its_labels_outside_the_layout() -> None:
    # Many crossing gold arcs, each labelled ✕, in one row: Graphviz 14.1's mincross fails an
    # assertion and aborts the process laying it out (found by drawing random trees).
    heads = [12, 11, 10, 0, 0, 4, 12, 0, 0, 0, 8, 0]
    tangled = pc.Sentence.from_heads([f"w{i}" for i in range(1, 13)], heads)
    system = pc.get_system("arc-eager")
    c = system.initial(tangled)
    dot = configuration_dot(system, tangled, c, arc_kinds(c, tangled, None), tangled.crossing_arcs())
    with pytest.raises(RenderError, match="exit status"):
        run_graphviz(dot, "svg")
    svg = render(dot, "svg")  # and this process is still here
    assert svg.count(b">\xe2\x9c\x95<") == len(tangled.crossing_arcs()) + 1  # every arc's ✕, the legend's
    assert png_size(render(dot, "png"))[0] > 0


def test_a_very_long_drawing_becomes_a_png_at_most_16000_pixels_long() -> None:
    n = 150
    sentence = pc.Sentence.from_heads([f"word{i}" for i in range(1, n + 1)], list(range(n)))
    system = pc.get_system("arc-standard")
    c = system.initial(sentence)
    dot = configuration_dot(system, sentence, c, arc_kinds(c, sentence, None))
    width, height = png_size(render(dot, "png"))
    assert 0.9 * MAX_PNG_PX < max(width, height) <= MAX_PNG_PX + 20  # Graphviz adds a few pixels of margin


def test_the_homework_sheet_keeps_the_transitions_and_blanks_the_configurations() -> None:
    trace = pc.replay(pc.get_system("arc-eager"), pc.default_sentence(), [*SCENARIO, "RA"])
    frame = derivation_table(trace).assign(COST=[0, 0, 0, 0, 1, 1])  # a column the sheet must leave off
    sheet = blank_sheet(frame)
    assert list(sheet.columns) == ["ROW", "TRANSITION", "STACK", "BUFFER", "ARCS"]
    assert sheet.iloc[0].tolist() == [1, "", "[ROOT]", "[He sent her a letter .]", "∅"]
    assert sheet["TRANSITION"].tolist()[1:] == [*SCENARIO, "RA"]
    assert (sheet.loc[1:, BLANKS] == "").all().all()
    page = sheet_html(frame, "Arc-eager")
    assert page.count("<tr>") == 1 + len(frame)  # the heading and one row a configuration
    assert "with Arc-eager by the 5 transitions given" in page
    assert "sent her" not in page.split("[He sent her a letter .]", 1)[1]  # no configuration after row 1
    assert "@page" in page and "COST" not in page


def test_the_homework_sheet_shows_hostile_words_as_text() -> None:
    sentence = pc.Sentence.from_heads(["<script>alert(1)</script>", "a&b"], [0, 1])
    frame = derivation_table(pc.replay(pc.get_system("arc-standard"), sentence, ["SH"]))
    page = sheet_html(frame, '<b>"sys"</b>')
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "a&amp;b" in page and "&lt;b&gt;&quot;sys&quot;&lt;/b&gt;" in page


def test_worksheet_doctests() -> None:
    result = doctest.testmod(ui.stepper.worksheet_view, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
