"""The stepper on a projector, a laptop and a phone: what must be on screen is on screen, whole.

* At a laptop's 1366×768 and 1440×900, for a 12-token sentence, the move buttons, the whole cost
  table and the whole picture of words and arcs are inside the window without scrolling; in
  presenter mode at 1920×1080 (a projector) the score and the history's current row are too,
  and the sidebar is out of the way.
* On a phone (390 px, touch) the controls and the moves stand four to a row, with no key hints,
  on the stepper and on a lesson (the same move buttons as Practice).
* Nothing a student must read is cut off: every cell of the cost table (the **loses** and
  **builds** columns included) shows its whole text, at a laptop's width and at a phone's.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

import parsing_core as pc
from tests.browser.conftest import FIRST_RUN_DONE
from tests.browser.test_stepper_browser import button, open_stepper
from ui.views.sources import custom_key

pytestmark = pytest.mark.browser

GAVE = pc.Sentence.from_heads("The man gave his young son a red ball on Sunday .".split(),
                              [2, 3, 0, 6, 6, 3, 9, 9, 3, 11, 3, 3])  # 12 tokens, arcs up to 9 words long
TWELVE_TOKENS = f"?s={custom_key(GAVE)}&sys=arc-eager&moves=SH.LA.SH.SH.SH"
# 12 tokens, non-projective: arc-eager cannot build it, and the board's note above it says so
NOT_BUILDABLE = "?s=woman-at-the-party-who-speaks&sys=arc-eager&moves=SH.LA"
COSTLY = "?moves=SH.LA.RA.SH"  # RA loses a ← letter: the loses column has text
BOARD = ".st-key-stepper-board"
WHOLE_BOARD = {"picture": f"{BOARD} .picture svg", "moves": f"{BOARD} .moves",
               "costs": f"{BOARD} .costs table"}
SCORE_AND_NOW = {"score": f"{BOARD} .score",
                 "current history row": f"{BOARD} .history tr.now td:nth-child(3)"}  # ROW and TRANSITION


def outside(page: Page, parts: dict[str, str]) -> list[str]:
    """The parts not wholly inside the window (they would need scrolling to be read)."""
    size = page.viewport_size
    assert size is not None
    out = []
    for name, selector in parts.items():
        box = page.locator(selector).first.bounding_box()
        assert box is not None, f"{name} is not on the page"
        if not (box["y"] >= 0 and box["y"] + box["height"] <= size["height"] and box["x"] >= 0
                and box["x"] + box["width"] <= size["width"]):
            out.append(f"{name} at {box}")
    return out


def opened(browser: Browser, app_url: str, query: str, width: int, height: int, touch: bool = False) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height},
                                  **({"is_mobile": True, "has_touch": True} if touch else {}))
    page = context.new_page()
    page.set_default_timeout(30_000)
    open_stepper(page, app_url, query)
    expect(page.locator(f"{BOARD} .costs table")).to_be_visible()
    page.wait_for_timeout(1_000)  # the picture and the fonts settle
    return page


@pytest.mark.parametrize("query", [TWELVE_TOKENS, NOT_BUILDABLE], ids=["projective", "not-buildable"])
@pytest.mark.parametrize("width, height", [(1366, 768), (1440, 900)])
def test_on_a_laptop_the_moves_their_costs_and_the_picture_share_one_screen(
        browser: Browser, app_url: str, artifacts: Path, width: int, height: int, query: str) -> None:
    page = opened(browser, app_url, query, width, height)
    try:
        assert outside(page, WHOLE_BOARD) == [], f"needs scrolling at {width}×{height}"
        page.screenshot(path=artifacts / f"stepper-{width}{'-note' if query == NOT_BUILDABLE else ''}.png")
    finally:
        page.context.close()


def test_presenter_mode_fits_the_board_the_score_and_the_history_on_a_projector(
        browser: Browser, app_url: str, artifacts: Path) -> None:
    page = opened(browser, app_url, TWELVE_TOKENS + "&present=1", 1920, 1080)
    try:
        sidebar = page.locator("[data-testid='stSidebar']")
        assert sidebar.get_attribute("data-collapsed") == "true"
        assert outside(page, WHOLE_BOARD | SCORE_AND_NOW) == [], "needs scrolling on a 1920×1080 projector"
        sizes = page.locator(f"{BOARD} :is(.history td, .costs td, .moves button)").evaluate_all(
            "cells => cells.map(c => parseFloat(getComputedStyle(c).fontSize))")
        assert min(sizes) >= 20, f"type a room cannot read: {min(sizes)} px"
        page.screenshot(path=artifacts / "stepper-projector.png")
    finally:
        page.context.close()


def rows_of(page: Page, selector: str) -> list[int]:
    """How many of the elements matching ``selector`` stand in each row (by their top edge)."""
    tops = [round(box["y"]) for box in page.locator(selector).evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().toJSON())")]
    return [tops.count(top) for top in sorted(set(tops))]


def rows_once_styled(page: Page, selector: str, expected: list[int], seconds: float = 15) -> list[int]:
    """:func:`rows_of`, measured again until it is ``expected`` or ``seconds`` have passed.  The
    phone grid's style comes in an ``st.html`` element, which the browser draws once that
    element's code has loaded: on a busy machine, after the run that sent it has ended."""
    deadline = time.monotonic() + seconds
    rows = rows_of(page, selector)
    while rows != expected and time.monotonic() < deadline:
        page.wait_for_timeout(250)
        rows = rows_of(page, selector)
    return rows


def test_on_a_phone_the_buttons_stand_four_to_a_row_without_key_hints(browser: Browser, app_url: str,
                                                                     artifacts: Path) -> None:
    page = opened(browser, app_url, "?sys=arc-hybrid-swap", 390, 844, touch=True)
    try:
        assert rows_of(page, f"{BOARD} .controls button") == [3, 3]  # step play undo, redo reset hide
        assert rows_of(page, f"{BOARD} .moves button") == [4]  # SH LA RA SW
        hints = page.locator(f"{BOARD} kbd")
        assert hints.count() > 0 and all(not hints.nth(i).is_visible() for i in range(hints.count()))
        expect(page.locator(f"{BOARD} .keys")).to_be_hidden()
        assert outside(page, {"moves": f"{BOARD} .moves"}) == []
        page.screenshot(path=artifacts / "stepper-phone.png", full_page=True)
    finally:
        page.context.close()


LESSON_MOVES = ".st-key-lessons-moves [data-testid='stColumn']"


@contextmanager
def lesson_on_a_phone(browser: Browser, app_url: str, lesson: str) -> Iterator[Page]:
    """Step 1 of ``lesson`` on a touch phone (390×844), its controls drawn and none stale."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        page.goto(f"{app_url}/lessons?lesson={lesson}&step=1")
        expect(page.locator(".st-key-lessons-moves button").first).to_be_visible(timeout=30_000)
        page.wait_for_selector(FIRST_RUN_DONE, timeout=30_000)
        yield page
    finally:
        context.close()


def test_a_lessons_move_buttons_stand_four_to_a_row_on_a_phone(browser: Browser, app_url: str) -> None:
    with lesson_on_a_phone(browser, app_url, "01-transition-parsing") as page:
        assert rows_once_styled(page, LESSON_MOVES, [3]) == [3]  # SH LA RA
        assert rows_of(page, ".st-key-lessons-controls > div") == [4, 1]  # undo redo reset step | play


def test_on_a_phone_a_move_buttons_name_is_whole_four_to_a_row(browser: Browser, app_url: str) -> None:
    """Arc-eager's four moves at a quarter of a phone each: "LA · LEFT-ARC" wraps, never "LA · LEF…"."""
    with lesson_on_a_phone(browser, app_url, "03-static-oracles") as page:
        assert rows_once_styled(page, LESSON_MOVES, [4]) == [4]  # SH LA RA RE
        cut = page.eval_on_selector_all(  # a label box whose text runs past its width ends in "…"
            ".st-key-lessons-moves button *",
            "boxes => boxes.filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.textContent)")
        assert cut == [], f"names cut short on a phone: {cut}"


@pytest.mark.parametrize("width", [1440, 390])
def test_no_cost_table_cell_is_cut_off(browser: Browser, app_url: str, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        open_stepper(page, app_url, COSTLY)
        table = page.locator(f"{BOARD} .costs table")
        expect(table).to_contain_text("a ← letter")
        cut = table.locator("td, th").evaluate_all(
            "cells => cells.filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.innerText)")
        assert cut == [], f"cut off at {width} px: {cut}"
        expect(button(page, "move-SH")).to_be_visible()
    finally:
        context.close()
