"""The stepper as a learner sees it: a real server, headless Chromium, clicks and keys.

Seed 000's scenario (SH LA RA, then the wrong SH of "her") is clicked through; the drawing must
be an SVG on screen and the cost table must carry its colours (the table is drawn on a canvas,
so its colours are read from a screenshot of it).  Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

OPTIMAL, COSTS_1 = (0xCF, 0xE3, 0xF3), (0xFB, 0xE3, 0xB8)  # ui.views.cost_table.SCALE[0], SCALE[1]
SCENARIO = ["SH", "LA", "RA", "SH"]
HOSTILE = '<script>alert("x")</script> "q" {b}'


def open_stepper(page: Page, app_url: str, query: str = "") -> Locator:
    """Open the stepper; returns its history table once the page is drawn."""
    page.goto(f"{app_url}/stepper{query}")
    history = page.locator(".st-key-stepper-history")
    expect(history).to_contain_text("ROOT", timeout=30_000)  # the first load imports torch
    return history


def button(page: Page, key: str) -> Locator:
    """The button with widget key ``stepper.<key>`` (dots become dashes in Streamlit's class names)."""
    return page.locator(f".st-key-stepper-{key} button").first  # a button with help has a twin


def drawing_svg(page: Page) -> Locator:
    """The words and arcs drawn by Graphviz (not the toolbar's icons; the stack and buffer are apart)."""
    return page.locator(".st-key-stepper-drawing-arcs [data-testid='stGraphVizChart'] svg:has(g.graph)")


def moves_in_url(page: Page) -> str:
    match = re.search(r"[?&]moves=([^&]*)", page.url)
    return match.group(1) if match else ""


def share_of(png: bytes, colour: tuple[int, int, int]) -> float:
    """The fraction of a screenshot's pixels within a small distance of ``colour``."""
    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=int).reshape(-1, 3)
    return float((np.abs(pixels - colour).sum(axis=1) <= 12).mean())


def screenshot(page: Page, path: Path) -> None:
    """The whole page: Streamlit scrolls inside its own container, so make the window tall and scroll up."""
    page.set_viewport_size({"width": 1400, "height": 1750})
    page.locator("[data-testid='stMain']").evaluate("main => main.scrollTo(0, 0)")
    page.wait_for_timeout(500)
    page.screenshot(path=path, full_page=True)


def test_clicking_the_seed_000_scenario_shows_the_drawing_and_the_coloured_costs(
        page: Page, app_url: str, artifacts: Path) -> None:
    history = open_stepper(page, app_url)
    for move in SCENARIO:
        button(page, f"move-{move}").click()
        expect(page).to_have_url(re.compile(r"moves=" + r"\.".join(SCENARIO[:SCENARIO.index(move) + 1])))
    expect(history).to_contain_text("[ROOT sent her]")
    drawing = drawing_svg(page)
    expect(drawing).to_be_visible()
    expect(page.locator(".st-key-stepper-drawing-memory")).to_contain_text("▲ top")
    assert drawing.locator("g.edge").count() >= 6
    costs = page.locator(".st-key-stepper-costs")
    expect(costs).to_contain_text("✓ optimal")
    expect(costs).to_contain_text("✗ costs 1")
    png = costs.locator("[data-testid='stTable']").screenshot()
    assert share_of(png, OPTIMAL) > 0.05 and share_of(png, COSTS_1) > 0.02
    expect(button(page, "move-RE")).to_be_disabled()
    screenshot(page, artifacts / "stepper.png")


def test_keyboard_shortcuts_play_the_moves_and_undo(page: Page, app_url: str) -> None:
    history = open_stepper(page, app_url)
    page.get_by_role("heading", name="Stepper").click()  # focus the page, not a widget
    for key, moves in [("s", "SH"), ("a", "SH.RA"), ("u", "SH.RA&step=1")]:
        page.keyboard.press(key)
        expect(page).to_have_url(re.compile(rf"moves={re.escape(moves)}(&|$)"))
    expect(history).to_contain_text("↷")  # the undone RA, ready for redo


def test_a_shared_link_reproduces_the_state_and_a_row_click_jumps(page: Page, app_url: str) -> None:
    open_stepper(page, app_url, "?s=he-sent-her-a-letter&sys=arc-eager&moves=SH.LA.RA.SH&step=3")
    expect(drawing_svg(page)).to_contain_text("sent")
    stack = page.locator(".st-key-stepper-drawing g.node", has_text="stack σ")
    expect(stack).to_contain_text("▲ top")
    expect(button(page, "redo")).to_be_enabled()
    grid = page.locator(".st-key-stepper-history [data-testid='stDataFrame']")
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 12, box["y"] + 35 + 1 * 35 + 17)  # the row selector of ROW 2
    expect(page).to_have_url(re.compile(r"step=1(&|$)"))
    button(page, "redo").click()  # a move by a button, then the same row again: a fresh click
    expect(page).to_have_url(re.compile(r"step=2(&|$)"))
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 12, box["y"] + 35 + 1 * 35 + 17)
    expect(page).to_have_url(re.compile(r"step=1(&|$)"))
    rules = page.locator(".st-key-stepper-rules")  # drawn only once opened
    expect(rules.locator("table")).to_have_count(0)
    rules.get_by_text("The rules of arc-eager").click()
    expect(rules.locator("tr", has_text="▶")).to_contain_text("SHIFT")  # the move just made, at step 1


def test_autoplay_stops_when_asked_and_at_the_end(page: Page, app_url: str) -> None:
    open_stepper(page, app_url, "?moves=SH.LA.RA.RA.SH.LA.RE")  # three moves before the end
    button(page, "play").click()  # one move a second
    page.wait_for_url(re.compile(r"moves=SH\.LA\.RA\.RA\.SH\.LA\.RE\.RA"))
    button(page, "stop").click()
    expect(button(page, "play")).to_be_visible()
    stopped = moves_in_url(page)
    page.wait_for_timeout(1_500)
    assert moves_in_url(page) == stopped
    page.locator(".st-key-stepper-autoplay-speed input[type='range']").press("Home")  # 0.25 s a move
    button(page, "play").click()
    expect(page.get_by_text("The parse is finished")).to_be_visible(timeout=15_000)
    expect(button(page, "play")).to_be_disabled()
    assert moves_in_url(page) == "SH.LA.RA.RA.SH.LA.RE.RA.RE.RA"  # the static oracle's sequence


def test_hostile_text_is_shown_as_text(page: Page, app_url: str, artifacts: Path) -> None:
    page.on("dialog", lambda dialog: pytest.fail(f"a script ran: {dialog.message}"))
    open_stepper(page, app_url)
    page.locator(".st-key-stepper-pick-source").get_by_text("Type it").click()
    words = page.locator(".st-key-stepper-pick-words input")
    words.fill(HOSTILE)
    words.press("Enter")
    expect(page.get_by_text(f"“{HOSTILE}”", exact=False)).to_be_visible()
    drawing = drawing_svg(page)
    expect(drawing).to_contain_text('<script>alert("x")</script>')
    assert page.locator("script", has_text="alert").count() == 0
    screenshot(page, artifacts / "stepper-hostile.png")
