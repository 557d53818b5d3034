"""The arc diagram in real Chromium: readable at 25 tokens on a laptop, from the back of a room at
10 tokens, whole in a lesson's column, and the drawing's downloads.

A word's size is the bounding box of its SVG ``<text>``; an arc's height is the top of its
line's bounding box.  The diagram is found wherever the page puts it (Playwright's CSS
locators reach into a component's shadow root).  Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

import parsing_core as pc
from ui.views.arc_layout import contains
from ui.views.sources import custom_key

pytestmark = pytest.mark.browser

MIN_TEXT_PX = 12  # the Stepper docs' promise: a word's text at least 12 px high, whatever the sentence length
WORDS = ("The teacher who had taught in the village school for many years finally decided to retire "
         "and move to the coast with her husband .").split()
HEADS = [2, 14, 5, 5, 2, 9, 9, 9, 5, 12, 12, 5, 14, 0, 16, 14, 18, 16, 21, 21, 18, 24, 24, 18, 14]
LONG_SENTENCE = pc.Sentence.from_heads(WORDS, HEADS)
HOPS = pc.Sentence.from_heads("Hop onto a Hop On / Hop Off bus .".split(), [0, 9, 9, 9, 4, 7, 4, 7, 1, 1])
WINDOWS = {"laptop": (1440, 900), "phone": (390, 844)}

# The words (text and box) and arcs (ends and line box) of a diagram, in page pixels.
GEOMETRY = """svg => ({
  words: [...svg.querySelectorAll('g.word')].map(g => {
    const t = g.querySelector('text.word-text').getBoundingClientRect();
    const r = g.querySelector('rect').getBoundingClientRect();
    return {token: +g.dataset.token, height: t.height, left: t.left, right: t.right,
            inside: t.left >= r.left - 0.5 && t.right <= r.right + 0.5};
  }),
  arcs: [...svg.querySelectorAll('g.arc')].map(g => {
    const b = g.querySelector('path.arc-line').getBoundingClientRect();
    return {head: +g.dataset.head, dep: +g.dataset.dep, top: b.top};
  }),
})"""
# The nearest box around the diagram that scrolls sideways: [its content's width, its visible width,
# whether it is shaded at an edge (a gradient behind the words)].
SCROLLER = """svg => {
  for (let e = svg.parentElement; e; e = e.parentElement || e.getRootNode().host) {
    const style = getComputedStyle(e);
    if (['auto', 'scroll'].includes(style.overflowX))
      return [e.scrollWidth, e.clientWidth, style.backgroundImage.includes('gradient')];
  }
  return null;
}"""
HINT = re.compile(r"scroll .*sideways", re.I)


def open_stepper(browser: Browser, size: tuple[int, int], app_url: str, sentence: pc.Sentence,
                 moves: str, presenter: bool = False) -> Page:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{app_url}/stepper?s={custom_key(sentence)}&sys=arc-standard&moves={moves}"
              f"&present={int(presenter)}")
    expect(diagram(page)).to_be_attached(timeout=90_000)  # the first load imports torch
    return page


def diagram(page: Page) -> Locator:
    return page.locator("svg.arc-diagram").first


def geometry(page: Page) -> dict[str, Any]:
    return dict(diagram(page).evaluate(GEOMETRY))


def nested_pairs(arcs: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(outer, inner) for every two arcs of which one strictly contains the other (ROOT first)."""
    def span(a: dict[str, Any]) -> tuple[int, int]:
        return min(a["head"], a["dep"]), max(a["head"], a["dep"])

    return [(a, b) for a in arcs for b in arcs if contains(span(a), span(b))]


def assert_nested_arcs_stand_higher(arcs: list[dict[str, Any]]) -> int:
    pairs = nested_pairs(arcs)
    for outer, inner in pairs:
        assert outer["top"] < inner["top"] - 5, (outer, inner)  # a level is 24 px at scale 1
    return len(pairs)


@pytest.mark.parametrize("window", list(WINDOWS))
def test_a_25_token_sentence_keeps_its_words_readable_its_arcs_apart_and_scrolls_sideways(
        browser: Browser, app_url: str, artifacts: Path, window: str) -> None:
    assert LONG_SENTENCE.n == 25 and LONG_SENTENCE.is_projective
    page = open_stepper(browser, WINDOWS[window], app_url, LONG_SENTENCE, "SH.SH.LA")
    drawn = geometry(page)
    assert len(drawn["words"]) == 26 and len(drawn["arcs"]) == 25
    assert min(w["height"] for w in drawn["words"]) >= MIN_TEXT_PX
    assert all(w["inside"] for w in drawn["words"])  # no word runs out of its box
    assert assert_nested_arcs_stand_higher(drawn["arcs"]) > 40
    width, visible, shaded = diagram(page).evaluate(SCROLLER)
    assert width > 1.5 * visible  # drawn at its natural width, not fitted to the column
    assert shaded or page.get_by_text(HINT).first.is_visible()  # a cue: the edge shaded, or a line saying so
    diagram(page).scroll_into_view_if_needed()
    husband = page.locator("svg.arc-diagram g.word[data-token='24']").first
    expect(husband).not_to_be_in_viewport()  # off to the right, not shrunk into view
    page.screenshot(path=artifacts / f"drawing-25-tokens-{window}.png")
    husband.scroll_into_view_if_needed()
    expect(husband).to_be_in_viewport()  # the end of the sentence, scrolled to
    page.context.close()


def test_presenter_mode_draws_10_tokens_for_the_back_of_the_room_on_one_screen(
        browser: Browser, app_url: str, artifacts: Path) -> None:
    normal = open_stepper(browser, (1920, 1080), app_url, HOPS, "SH.SH")
    normal_height = min(w["height"] for w in geometry(normal)["words"])
    normal.context.close()
    page = open_stepper(browser, (1920, 1080), app_url, HOPS, "RA.SH.SH.LA.SH.RA", presenter=True)
    drawn = geometry(page)
    heights = [w["height"] for w in drawn["words"]]
    assert min(heights) >= 1.4 * normal_height and min(heights) >= 24
    assert all(w["inside"] and 0 <= w["left"] and w["right"] <= 1920 for w in drawn["words"])
    assert assert_nested_arcs_stand_higher(drawn["arcs"]) >= 10
    width, visible, _ = diagram(page).evaluate(SCROLLER) or (0, 0, False)
    assert width <= visible  # nothing to scroll
    box = diagram(page).bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 1080  # on the first screen
    page.screenshot(path=artifacts / "drawing-10-tokens-presenter.png")
    page.context.close()


@pytest.mark.parametrize("lesson", ["01-transition-parsing&step=1", "06-non-projectivity-and-swap&step=2"])
def test_a_lesson_sentence_fits_its_column_with_nothing_cut(browser: Browser, app_url: str, artifacts: Path,
                                                            lesson: str) -> None:
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.goto(f"{app_url}/lessons?lesson={lesson}")
    expect(diagram(page)).to_be_attached(timeout=90_000)
    drawn = geometry(page)
    assert all(w["inside"] for w in drawn["words"])
    width, visible, _ = diagram(page).evaluate(SCROLLER) or (0, 0, False)
    assert width <= visible  # the whole row in the column: nothing to scroll to
    expect(page.get_by_text(HINT)).to_have_count(0)  # and no word of scrolling
    for token in range(len(drawn["words"])):
        expect(page.locator(f"svg.arc-diagram g.word[data-token='{token}']").first).to_be_in_viewport()
    page.screenshot(path=artifacts / f"drawing-lesson-{lesson.split('&')[0]}.png")
    context.close()


def test_the_drawing_downloads_as_png_and_the_derivation_as_a_homework_sheet(
        browser: Browser, app_url: str) -> None:
    page = open_stepper(browser, WINDOWS["laptop"], app_url, LONG_SENTENCE, "SH.SH.LA")
    page.locator(".st-key-stepper-drawing-menu button").first.click()  # the menu of the drawing's files
    with page.expect_download() as png:
        page.locator(".st-key-stepper-png button").first.click()  # with help, a button has a twin
    assert Path(png.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"  # made without a dot program
    page.keyboard.press("Escape")
    page.locator(".st-key-stepper-derivation-menu button").first.click()
    with page.expect_download() as sheet:
        page.locator(".st-key-stepper-sheet button").first.click()
    html = Path(sheet.value.path()).read_text(encoding="utf-8")
    assert "Derivation sheet" in html and html.count("<tr>") == 1 + 4  # the heading, the start, 3 moves
    assert "[ROOT teacher]" not in html  # the stack after the moves is left for the student
    page.context.close()
