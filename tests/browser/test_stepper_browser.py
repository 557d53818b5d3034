"""The stepper as a learner sees it: a real server, headless Chromium, clicks and keys.

Seed 000's scenario (SH LA RA, then the wrong SH of "her") is clicked through on the board
component (Playwright's CSS locators reach into its shadow root); the drawing must be an SVG on
screen and the cost table must carry its colours (read from a screenshot of it).  Screenshots go
to ``test-artifacts/``.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import FIRST_RUN_DONE  # the app not running a script

pytestmark = pytest.mark.browser

OPTIMAL, COSTS_1 = (0xCF, 0xE3, 0xF3), (0xFB, 0xE3, 0xB8)  # ui.views.cost_table.SCALE[0], SCALE[1]
SCENARIO = ["SH", "LA", "RA", "SH"]
HOSTILE = '<script>alert("x")</script> "q" {b}'


BOARD = ".st-key-stepper-board"


def open_stepper(page: Page, app_url: str, query: str = "") -> Locator:
    """Open the stepper; returns the board's history table once the page is drawn."""
    page.goto(f"{app_url}/stepper{query}")
    history = page.locator(f"{BOARD} .history")
    expect(history).to_contain_text("ROOT", timeout=90_000)  # the first load imports torch (a busy machine)
    return history


def open_settings(page: Page) -> Locator:
    """Open the Settings popover beside the title (the sentence, the parser, the model, autoplay)
    unless it is open; returns its body."""
    body = page.get_by_test_id("stPopoverBody").filter(has=page.locator(".st-key-stepper-pick-source"))
    if body.count() == 0:
        page.locator(".st-key-stepper-settings button:visible").first.click()  # a button with help has a twin
    expect(body).to_be_visible()
    return body


def close_settings(page: Page) -> None:
    """Close the Settings popover (as Escape does), uncovering the board."""
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("stPopoverBody")).to_have_count(0)


def button(page: Page, key: str) -> Locator:
    """A button of the board: ``move-SH`` for SH; ``oracle`` (Oracle step), ``play`` and ``stop``
    (one button, its words changing), ``undo``, ``redo``, ``reset`` and ``hide`` for its controls."""
    if key.startswith("move-"):
        return page.locator(f"{BOARD} .moves button[data-kind='{key.removeprefix('move-')}']")
    if key in ("play", "stop"):
        return page.locator(f"{BOARD} .controls button[data-do='play']", has_text=key.title())
    return page.locator(f"{BOARD} .controls button[data-do='{key}']")


def settled(page: Page) -> None:
    """Wait until the board has drawn what the last click or key brought: the board drops a click
    made while it waits (so a double click is one move), and a URL can change before the board does."""
    expect(page.locator(f"{BOARD} .board.waiting")).to_have_count(0)


def drawing_svg(page: Page) -> Locator:
    """The words and arcs: the board's picture, an SVG arc diagram."""
    return page.locator(f"{BOARD} .picture svg")


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
        settled(page)
    expect(history).to_contain_text("[ROOT sent her]")
    drawing = drawing_svg(page)
    expect(drawing).to_be_visible()
    expect(page.locator(f"{BOARD} .memory .word.at")).to_have_text(["her3", "a4"])  # stack top, buffer front
    assert drawing.locator(".arc").count() >= 6
    costs = page.locator(f"{BOARD} .costs table")
    expect(costs).to_contain_text("✓ optimal")
    expect(costs).to_contain_text("✗ costs 1")
    png = costs.screenshot()
    assert share_of(png, OPTIMAL) > 0.05 and share_of(png, COSTS_1) > 0.02
    expect(button(page, "move-RA")).to_contain_text("✗ 1")  # the cost beside the move
    expect(page.locator(f"{BOARD} .mistake")).to_have_text("Your SH (move 4) cost 1: it lost sent → her.")
    expect(button(page, "move-RE")).to_be_disabled()
    screenshot(page, artifacts / "stepper.png")


STALE_STYLES = """e => {
  window.staleStyles = [];
  new MutationObserver(() => {
    const style = getComputedStyle(e);
    if (e.dataset.stale === "true") window.staleStyles.push([style.opacity, style.transitionDuration]);
  }).observe(e, {attributes: true, attributeFilter: ["data-stale"]});
}"""


def quick_clicks(page: Page) -> int:
    """How many clicks the board sent the quick way, answered with no run of the page."""
    return int(page.locator(f"{BOARD} .board").get_attribute("data-quick") or 0)


def test_a_click_mid_parse_runs_no_page_and_one_at_the_end_keeps_the_board_s_look(
        page: Page, app_url: str) -> None:
    """Mid-parse, a click changes the board alone: the server answers it over HTTP with the next
    board, and the page does not run (nothing is ever marked stale).  The click that ends the
    parse also changes what is below the board (the end's panel): that one reruns the board, and
    Streamlit's dimming of a running element (an opacity transition, the whole board repainted)
    is kept off the board."""
    open_stepper(page, app_url)
    page.locator(BOARD).evaluate(STALE_STYLES)
    finished = page.get_by_text("The parse is finished")
    clicks = 0
    while finished.count() == 0 and clicks < 40:
        button(page, "oracle").click()
        settled(page)
        clicks += 1
        if clicks == 3:
            assert quick_clicks(page) == 3 and page.evaluate("window.staleStyles") == []
    expect(finished).to_be_visible()
    assert quick_clicks(page) == clicks - 1  # the last click went the usual way
    assert len(moves_in_url(page).split(".")) == clicks
    seen = page.evaluate("window.staleStyles")
    assert seen, "the board was never marked as running"
    assert all(style == ["1", "0s"] for style in seen), seen


def test_a_click_the_quick_route_refuses_is_not_made_and_one_it_cannot_answer_goes_the_usual_way(
        page: Page, app_url: str) -> None:
    """Past the caps on quick clicks (429) the click is not made and the board says why; a route
    that fails (a server without it, a proxy in the way) leaves the click to the page's run."""
    open_stepper(page, app_url)
    refusal = '{"error": "600 board clicks a minute is the most one person may ask for: wait 5 s."}'
    page.route("**/api/board", lambda route: route.fulfill(status=429, content_type="application/json",
                                                           body=refusal))
    button(page, "oracle").click()
    settled(page)
    expect(page.locator(f"{BOARD} .board")).to_have_attribute("title", re.compile("600 board clicks"))
    assert moves_in_url(page) == "" and quick_clicks(page) == 0
    page.unroute("**/api/board")
    page.route("**/api/board", lambda route: route.fulfill(status=503, body="down"))
    button(page, "oracle").click()
    expect(page).to_have_url(re.compile(r"moves=SH(&|$)"))
    settled(page)
    assert quick_clicks(page) == 0


#: Records every animation the page starts (``window.motions``: the element's class and its first
#: keyframe), however short: a check made after the motion has ended still sees it was shown.
RECORD_MOTIONS = """
window.motions = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  window.motions.push([this.getAttribute("class") || "", JSON.stringify(frames[0])]);
  return animate.call(this, frames, options);
};
"""


def motions_after(page: Page, move: str, moves: str) -> list[list[str]]:
    """The animations a click on ``move`` started, once the board has drawn ``moves``."""
    page.evaluate("window.motions = []")
    button(page, f"move-{move}").click()
    expect(page).to_have_url(re.compile(rf"moves={re.escape(moves)}(&|$)"))
    settled(page)
    return page.evaluate("window.motions")


def test_a_move_is_shown_as_it_happens_once_the_learner_asks(page: Page, app_url: str) -> None:
    """Off at first; once "Show each move as it happens" is ticked (and after a reload, which the
    browser remembers), a SHIFT slides its word from the buffer to the stack, and a LEFT-ARC draws
    its arc and arrowhead; a move that builds nothing slides nothing it did not move."""
    page.add_init_script(RECORD_MOTIONS)
    open_stepper(page, app_url, "?s=he-sent-her-a-letter&sys=arc-eager")
    setting = page.locator(f"{BOARD} .motion").get_by_role("checkbox", name="Show each move as it happens")
    expect(setting).not_to_be_checked()
    assert motions_after(page, "SH", "SH") == []
    setting.check()
    page.reload()
    expect(page.locator(f"{BOARD} .history")).to_contain_text("ROOT", timeout=60_000)
    expect(setting).to_be_checked()
    shown = motions_after(page, "LA", "SH.LA")  # He ← sent: He leaves the stack, no word changes sides
    assert sorted(c for c, _ in shown) == ["arc-line", "arrowhead"], shown
    shown = motions_after(page, "SH", "SH.LA.SH")
    assert [c.split()[0] for c, _ in shown] == ["word"], shown  # sent slides onto the stack
    assert "translate(" in shown[0][1] and "translate(0px, 0px)" not in shown[0][1]
    setting.uncheck()
    assert motions_after(page, "RA", "SH.LA.SH.RA") == []


def test_keyboard_shortcuts_play_one_move_per_key_press_and_undo(page: Page, app_url: str) -> None:
    history = open_stepper(page, app_url)
    page.get_by_role("heading", name="Stepper").click()  # focus the page, not a widget
    for key, moves in [("s", "SH"), ("a", "SH.RA"), ("u", "SH.RA&step=1"), ("y", "SH.RA"), ("s", "SH.RA.SH")]:
        page.keyboard.press(key)
        expect(page).to_have_url(re.compile(rf"moves={re.escape(moves)}(&|$)"))
        settled(page)
        page.wait_for_timeout(700)  # a second move from the same key press would have come by now
        assert page.url.endswith(f"moves={moves}"), f"one key press played more than one move: {page.url}"
    page.keyboard.press("u")
    expect(history).to_contain_text("↷")  # the undone SH, ready for redo
    page.keyboard.press("h")  # hide the oracle for the room, then reveal it
    expect(page).to_have_url(re.compile(r"hide=1"))
    expect(button(page, "hide")).to_contain_text("Reveal the oracle")
    page.wait_for_timeout(700)
    page.keyboard.press("h")
    expect(button(page, "hide")).to_contain_text("Hide the oracle")
    assert "hide=" not in page.url


def test_oracle_step_reset_and_switch_are_the_board_s_own_buttons(page: Page, app_url: str) -> None:
    """On a gold tree arc-eager cannot build, the board says why and offers the system that can."""
    open_stepper(page, app_url, "?s=found-best-example-ever&sys=arc-eager")
    note = page.locator(f"{BOARD} .unbuildable")
    expect(note).to_contain_text("arc-eager builds only projective trees")
    expect(note.get_by_role("link", name="projective")).to_have_attribute("href", "/glossary#projective")
    expect(button(page, "reset")).to_be_disabled()
    button(page, "oracle").click()
    expect(page).to_have_url(re.compile(r"moves=[A-Z]{2}(&|$)"))  # the oracle's first move
    settled(page)
    page.keyboard.press("o")  # and its key
    expect(page).to_have_url(re.compile(r"moves=[A-Z]{2}\.[A-Z]{2}(&|$)"))
    settled(page)
    button(page, "reset").click()
    expect(page).not_to_have_url(re.compile(r"moves="))
    note.get_by_role("button", name=re.compile("Switch to arc-hybrid-swap")).click()
    expect(page).to_have_url(re.compile(r"sys=arc-hybrid-swap"))
    expect(note).to_be_empty()
    expect(open_settings(page).locator(".st-key-stepper-system input")).to_have_value("arc-hybrid-swap")


def test_the_browser_s_back_and_forward_walk_the_moves_and_the_settings(page: Page, app_url: str) -> None:
    """Each move is a new address in the browser's history: Back is Undo and Forward Redo (the
    board follows the link), and Back across a change of system brings the system back, in the
    Settings too."""
    open_stepper(page, app_url, "?s=found-best-example-ever&sys=arc-eager")
    rows = page.locator(f"{BOARD} .history tbody tr")
    for taken in (1, 2):
        button(page, "oracle").click()
        expect(page).to_have_url(re.compile(r"moves=" + r"\.".join(["[A-Z]{2}"] * taken) + r"(&|$)"))
        settled(page)
    two = moves_in_url(page)
    page.go_back()
    expect(rows.nth(1)).to_have_class("now")
    expect(rows).to_have_count(3)  # the move undone stays ahead, for Forward or Redo
    page.go_forward()
    expect(rows.nth(2)).to_have_class("now")
    settled(page)
    switch = page.locator(f"{BOARD} .unbuildable").get_by_role("button", name=re.compile("Switch to"))
    switch.click()
    expect(page).to_have_url(re.compile(r"sys=arc-hybrid-swap"))
    expect(rows).to_have_count(1)
    page.go_back()
    expect(page).to_have_url(re.compile(r"sys=arc-eager(&|$)"))
    expect(rows).to_have_count(3)
    expect(rows.nth(2)).to_have_class("now")
    assert moves_in_url(page) == two
    expect(open_settings(page).locator(".st-key-stepper-system input")).to_have_value("arc-eager")


def test_a_shared_link_reproduces_the_state_and_a_row_click_jumps(page: Page, app_url: str) -> None:
    open_stepper(page, app_url, "?s=he-sent-her-a-letter&sys=arc-eager&moves=SH.LA.RA.SH&step=3")
    expect(drawing_svg(page)).to_contain_text("sent")
    expect(page.locator(f"{BOARD} .memory .word.at").first).to_have_text("sent2")  # the stack's top
    expect(button(page, "redo")).to_be_enabled()
    rows = page.locator(f"{BOARD} .history tbody tr")
    expect(rows).to_have_count(5)
    rows.nth(1).locator("td").nth(3).click()  # the STACK cell of ROW 2, far from any checkbox
    expect(page).to_have_url(re.compile(r"step=1(&|$)"))
    expect(rows.nth(1)).to_have_class("now")
    settled(page)
    button(page, "redo").click()  # a move by a button, then the same row again: a fresh click
    expect(page).to_have_url(re.compile(r"step=2(&|$)"))
    settled(page)
    rows.nth(1).locator("td").last.click()
    expect(page).to_have_url(re.compile(r"step=1(&|$)"))
    settled(page)
    rows.nth(4).click()  # an undone row: forward again, as redo would
    expect(page).to_have_url(re.compile(r"moves=SH\.LA\.RA\.SH$"))
    rules = page.locator(f"{BOARD} details.rules")  # a fold of the board, closed at first
    expect(rules.locator("table")).to_be_hidden()
    rules.get_by_text("The rules of arc-eager").click()
    expect(rules.locator("tr", has_text="▶")).to_contain_text("SHIFT")  # the move just made, at step 1
    page.reload()  # the address the page wrote opens the same board
    expect(rows).to_have_count(5, timeout=60_000)
    expect(rows.nth(4)).to_have_class("now")


def test_autoplay_stops_when_asked_and_at_the_end(page: Page, app_url: str) -> None:
    open_stepper(page, app_url, "?moves=SH.LA.RA.RA.SH.LA.RE")  # three moves before the end
    button(page, "play").click()  # one move a second
    page.wait_for_url(re.compile(r"moves=SH\.LA\.RA\.RA\.SH\.LA\.RE\.RA"))
    button(page, "stop").click()
    expect(button(page, "play")).to_be_visible()
    expect(page.locator(f"{BOARD} .board")).to_have_attribute("data-play", "stopped by Stop")
    settled(page)  # a move sent just before Stop is still drawn: it was played before Stop
    page.wait_for_selector(FIRST_RUN_DONE)
    stopped = moves_in_url(page)
    page.wait_for_timeout(1_500)
    assert moves_in_url(page) == stopped
    open_settings(page).locator(".st-key-stepper-autoplay-speed input[type='range']").press("Home")  # 0.25 s
    close_settings(page)
    button(page, "play").click()
    try:
        expect(page.get_by_text("The parse is finished")).to_be_visible(timeout=15_000)
    except AssertionError as err:  # Play on or off, and what stopped it (no mark: a new board)
        play = page.locator(f"{BOARD} .board").get_attribute("data-play")
        raise AssertionError(f"not finished at moves={moves_in_url(page)}; Play: {play}") from err
    expect(button(page, "play")).to_be_disabled()
    expect(page.locator(f"{BOARD} .board")).to_have_attribute("data-play", "stopped by the end of the parse")
    assert moves_in_url(page) == "SH.LA.RA.RA.SH.LA.RE.RA.RE.RA"  # the static oracle's sequence


def test_hostile_text_is_shown_as_text(page: Page, app_url: str, artifacts: Path) -> None:
    page.on("dialog", lambda dialog: pytest.fail(f"a script ran: {dialog.message}"))
    open_stepper(page, app_url)
    open_settings(page).locator(".st-key-stepper-pick-source").get_by_text("Type it").click()
    words = page.locator(".st-key-stepper-pick-words input")
    words.fill(HOSTILE)
    words.press("Enter")
    expect(page.get_by_text(f"“{HOSTILE}”", exact=False)).to_be_visible()
    drawing = drawing_svg(page)
    expect(drawing).to_contain_text('<script>alert("x")</script>')
    assert page.locator("script", has_text="alert").count() == 0
    screenshot(page, artifacts / "stepper-hostile.png")
