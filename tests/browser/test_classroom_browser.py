"""The stepper on a projector and in a student's browser: what must be on screen is on screen, whole.

* Presenter mode at 1920×1080 (a projector): for a 10-token sentence the move buttons, the whole
  drawing of words and arcs and the whole cost table are inside the window without scrolling, and
  the sidebar is out of the way.
* Nothing a student must read is cut off: every cell of the cost table (the **loses** and
  **builds** columns included) shows its whole text, at a laptop's width and at a phone's.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.test_stepper_browser import button, drawing_svg, open_stepper

pytestmark = pytest.mark.browser

TEN_TOKENS = "?s=student-who-won&sys=arc-standard&moves=SH.SH.SH&present=1"
COSTLY = "?moves=SH.LA.RA.SH"  # RA loses a ← letter: the loses column has text


def inside(page: Page, selector: str, height: int) -> bool:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not on screen"
    return box["y"] >= 0 and box["y"] + box["height"] <= height


def test_presenter_mode_fits_a_ten_token_parse_on_a_projector(browser: Browser, app_url: str,
                                                             artifacts: Path) -> None:
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        open_stepper(page, app_url, TEN_TOKENS)
        expect(drawing_svg(page)).to_be_visible()
        expect(page.locator(".st-key-stepper-costs [data-testid='stTable']")).to_be_visible()
        page.wait_for_timeout(1_000)
        sidebar = page.locator("[data-testid='stSidebar']")
        assert sidebar.get_attribute("data-collapsed") == "true"
        for part in (".st-key-stepper-move-SH", ".st-key-stepper-drawing-arcs", ".st-key-stepper-costs"):
            assert inside(page, part, 1080), f"{part} needs scrolling on a 1920x1080 projector"
        page.screenshot(path=artifacts / "stepper-projector.png")
    finally:
        context.close()


@pytest.mark.parametrize("width", [1440, 390])
def test_no_cost_table_cell_is_cut_off(browser: Browser, app_url: str, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        open_stepper(page, app_url, COSTLY)
        table = page.locator(".st-key-stepper-costs [data-testid='stTable']")
        expect(table).to_contain_text("a ← letter")
        cut = table.locator("td, th").evaluate_all(
            "cells => cells.filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.innerText)")
        assert cut == [], f"cut off at {width} px: {cut}"
        expect(button(page, "move-SH")).to_be_visible()
    finally:
        context.close()
