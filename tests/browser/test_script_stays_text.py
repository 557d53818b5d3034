"""A ``<script>`` typed or linked anywhere stays text: on every page, every text field and every link
parameter gets a payload that would run if it were let loose as markup, and it never runs.

The payload sets ``window.__xss`` from a script tag, an image's ``onerror`` and an SVG's
``onload``; after each page has shown what it was given, ``window.__xss`` is still undefined, no
dialog opened, and where the page repeats the input back (a drawing's tokens, a message naming
what was not understood) the ``<script>`` is on screen as characters.
"""

from __future__ import annotations

import functools
import urllib.parse
from pathlib import Path

import pytest
from playwright.sync_api import Dialog, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.conftest import FIRST_RUN_DONE  # the app not running a script

PAYLOAD = ('<script>window.__xss=1</script><img src=x onerror="window.__xss=2">'
           '<svg onload="window.__xss=3">')
PARAMS = ("s", "sys", "moves", "oracle", "lesson", "step", "items", "title", "set", "view", "run", "owner",
          "q")
PAGES = ("", "lessons", "stepper", "practice", "train", "rl", "lab", "glossary")
ECHOED = {"stepper", "practice", "lab", "train"}  # pages whose fields repeat what was typed back
FIELDS = ("[data-testid='stTextInput'] input, [data-testid='stTextArea'] textarea, "
          "label[data-testid='stRadioOption']")


#: Counts the app's script runs in ``window.__runs`` (each time the app's state turns "running"), so
#: that an action can wait for the run it started, however late a busy machine starts it.
COUNT_RUNS = """
window.__runs = 0;
let seen = null;
new MutationObserver(() => {
  const app = document.querySelector("[data-testid='stApp']");
  const now = app && app.getAttribute('data-test-script-state');
  if (now === 'running' && seen !== 'running') window.__runs += 1;
  seen = now;
}).observe(document, {subtree: true, childList: true, attributes: true,
                      attributeFilter: ['data-test-script-state']});
"""
RUN_START_S = 10  # how long an action that reruns the script may take to start that run


def settle(page: Page) -> None:
    """Wait until the app has finished running the script the last input started."""
    for _ in range(2):  # twice: a run may start a second one (a link rewritten, a fragment)
        page.wait_for_timeout(400)
        page.wait_for_selector(FIRST_RUN_DONE, timeout=60_000)


def rerun_by(page: Page, act) -> None:
    """Do ``act`` (an input the app answers with a run), wait for that run to start, then settle."""
    before = page.evaluate("() => window.__runs")
    act()
    try:
        page.wait_for_function("before => window.__runs > before", arg=before, timeout=RUN_START_S * 1000)
    except PlaywrightTimeoutError:
        pass  # the app did not rerun (the input changed nothing): nothing to wait for
    settle(page)


def open_popovers(page: Page) -> None:
    """Open the page's popover, if it has one (the Stepper's Settings): a closed popover's fields
    are not drawn, so they could not be typed into."""
    toggle = page.locator("[data-testid='stPopover'] button:visible")
    if toggle.count():
        toggle.first.click()
        page.get_by_test_id("stPopoverBody").wait_for()
        settle(page)


# The choices of the sentence and treebank pickers that open text fields.
SOURCES = ("Treebank", "CoNLL-U", "Type it", "data directory", "Universal Dependencies")


def fill_every_field(page: Page) -> int:
    """Type the payload into every enabled text field, also those a sentence picker opens, on
    every tab of the page."""
    tabs = page.get_by_role("tab")
    filled = 0
    for index in range(max(1, tabs.count())):
        if tabs.count():
            tabs.nth(index).click()
            settle(page)
        filled += fill_fields_in_view(page)
        for choice in SOURCES:
            options = page.locator("label[data-testid='stRadioOption']").filter(has_text=choice)
            for option in range(options.count()):
                label = options.nth(option)
                if label.is_visible() and not label.locator("input").is_checked():  # a chosen one's are typed
                    rerun_by(page, label.click)
                    filled += fill_fields_in_view(page)
    return filled


def fill_fields_in_view(page: Page) -> int:
    """Type the payload into every enabled, visible text field; returns how many took it."""
    filled = 0
    for selector, commit in (("[data-testid='stTextInput'] input:not([disabled])", "Enter"),
                             ("[data-testid='stTextArea'] textarea:not([disabled])", "Control+Enter")):
        for index in range(page.locator(selector).count()):
            field = page.locator(selector).nth(index)
            if not field.is_visible():
                continue
            field.fill(PAYLOAD)
            rerun_by(page, functools.partial(field.press, commit))
            filled += 1
    return filled


@pytest.mark.parametrize("path", PAGES)
def test_a_script_stays_text_on_every_page(page: Page, app_url: str, artifacts: Path, path: str) -> None:
    dialogs: list[str] = []

    def record(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", record)
    page.add_init_script(COUNT_RUNS)
    query = urllib.parse.urlencode(dict.fromkeys(PARAMS, PAYLOAD))
    page.goto(f"{app_url}/{path}?{query}")
    page.wait_for_selector("[data-testid='stApp']", timeout=60_000)
    page.wait_for_function("() => window.__runs > 0", timeout=60_000)  # the page's first run began
    settle(page)
    open_popovers(page)
    if path in ECHOED:  # its fields drawn (a first run on a fresh server may still be importing)
        page.locator(FIELDS).first.wait_for(timeout=60_000)
        settle(page)  # a radio button is drawn before the text fields below it in the same run
    filled = fill_every_field(page)
    settle(page)
    assert page.evaluate("() => window.__xss") is None
    assert not dialogs
    loose = "[data-testid='stMain'] img[src='x'], [data-testid='stMain'] svg[onload]"
    assert page.locator(loose).count() == 0
    # textContent, not innerText: the input may be repeated on a tab not in view.  A tag let loose
    # would not read "<script>" there: its text would be only what is between the tags.
    # The Stepper's board is a component in a shadow root (Playwright's locators reach into it).
    shown = (page.locator("[data-testid='stMain']").text_content() or "") + " ".join(
        page.locator(".st-key-stepper-board .caption, .st-key-stepper-board .picture").all_text_contents())
    page.screenshot(path=artifacts / f"script-{path or 'welcome'}.png", full_page=True)
    if path in ECHOED:
        assert filled, f"no text field on /{path}"
        assert "<script>" in shown, f"/{path} did not repeat the input back as text"
    assert page.locator("[data-testid='stException']").count() == 0
