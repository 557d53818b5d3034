"""The drawing stays readable for a long sentence, on a laptop and on a phone, in real Chromium.

A 25-token sentence is opened in the stepper at 1440×900 and at 390×844: a word's text (the
bounding box of its SVG ``<text>``) must stay at least ``MIN_TEXT_PX`` high, the row of words
must keep its natural width and scroll sideways rather than shrink into the column, and
presenter mode must draw the words larger.  Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

import parsing_core as pc
from ui.views.sources import custom_key

pytestmark = pytest.mark.browser

MIN_TEXT_PX = 12  # the README's promise: a word's text at least 12 px high, whatever the sentence length
WORDS = ("The teacher who had taught in the village school for many years finally decided to retire "
         "and move to the coast with her husband .").split()
HEADS = [2, 14, 5, 5, 2, 9, 9, 9, 5, 12, 12, 5, 14, 0, 16, 14, 18, 16, 21, 21, 18, 24, 24, 18, 14]
LONG_SENTENCE = pc.Sentence.from_heads(WORDS, HEADS)
WINDOWS = {"laptop": (1440, 900), "phone": (390, 844)}


def open_drawing(browser: Browser, size: tuple[int, int], app_url: str, presenter: bool = False) -> Page:
    """The stepper at a window size, on the 25-token sentence, three moves in (so arcs are drawn)."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.set_default_timeout(30_000)
    key = custom_key(LONG_SENTENCE)
    page.goto(f"{app_url}/stepper?s={key}&sys=arc-standard&moves=SH.SH.LA&present={int(presenter)}")
    expect(word_text(page, "husband")).to_be_attached(timeout=30_000)  # the first load imports torch
    return page


def word_text(page: Page, word: str) -> Locator:
    """The SVG ``<text>`` of a word in the row of words (not in the stack or buffer)."""
    return page.locator(".st-key-stepper-drawing-arcs g.node text").filter(has_text=word).first


def text_height(page: Page, word: str) -> float:
    box = word_text(page, word).bounding_box()
    assert box is not None
    return float(box["height"])


def scroll_sizes(page: Page) -> tuple[float, float]:
    """The row of words' scrollable width and visible width, in px."""
    row = page.locator(".st-key-stepper-drawing-arcs")
    width, visible = row.evaluate("row => [row.scrollWidth, row.clientWidth]")
    return float(width), float(visible)


@pytest.mark.parametrize("window", list(WINDOWS))
def test_a_25_token_sentence_keeps_its_words_readable_and_scrolls_sideways(
        browser: Browser, app_url: str, artifacts: Path, window: str) -> None:
    assert LONG_SENTENCE.n == 25 and LONG_SENTENCE.is_projective
    page = open_drawing(browser, WINDOWS[window], app_url)
    heights = [text_height(page, word) for word in ("teacher", "coast", "husband")]
    assert min(heights) >= MIN_TEXT_PX, heights
    width, visible = scroll_sizes(page)
    assert width > 1.5 * visible  # drawn at its natural width, not fitted to the column
    row = page.locator(".st-key-stepper-drawing-arcs")
    row.scroll_into_view_if_needed()  # down the page, not sideways
    expect(word_text(page, "husband")).not_to_be_in_viewport()  # off to the right, not shrunk into view
    page.screenshot(path=artifacts / f"drawing-25-tokens-{window}.png")
    row.evaluate("row => row.scrollTo(row.scrollWidth, 0)")
    expect(word_text(page, "husband")).to_be_in_viewport()  # the end of the sentence, scrolled to
    expect(page.locator(".st-key-stepper-drawing-memory")).to_contain_text("▲ top")
    page.context.close()


def test_presenter_mode_draws_the_words_larger(browser: Browser, app_url: str, artifacts: Path) -> None:
    normal = open_drawing(browser, (1920, 1080), app_url)
    normal_height = text_height(normal, "teacher")
    normal.context.close()
    presenter = open_drawing(browser, (1920, 1080), app_url, presenter=True)
    assert text_height(presenter, "teacher") >= 1.4 * normal_height
    presenter.locator(".st-key-stepper-drawing").scroll_into_view_if_needed()
    presenter.screenshot(path=artifacts / "drawing-25-tokens-presenter.png")
    presenter.context.close()


def test_the_drawing_downloads_as_png_and_the_derivation_as_a_homework_sheet(
        browser: Browser, app_url: str) -> None:
    page = open_drawing(browser, WINDOWS["laptop"], app_url)
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
