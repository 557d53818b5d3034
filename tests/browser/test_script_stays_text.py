"""A ``<script>`` typed or linked anywhere stays text: on every page, every text field and every link
parameter gets a payload that would run if it were let loose as markup, and it never runs.

The payload sets ``window.__xss`` from a script tag, an image's ``onerror`` and an SVG's
``onload``; after each page has shown what it was given, ``window.__xss`` is still undefined, no
dialog opened, and where the page repeats the input back (a drawing's tokens, a message naming
what was not understood) the ``<script>`` is on screen as characters.
"""

from __future__ import annotations

import urllib.parse
from pathlib import Path

import pytest
from playwright.sync_api import Dialog, Page

PAYLOAD = ('<script>window.__xss=1</script><img src=x onerror="window.__xss=2">'
           '<svg onload="window.__xss=3">')
PARAMS = ("s", "sys", "moves", "oracle", "lesson", "step", "items", "title", "set", "view", "run", "owner",
          "q")
PAGES = ("", "lessons", "stepper", "practice", "train", "rl", "lab", "glossary")
ECHOED = {"stepper", "practice", "lab", "train"}  # pages whose fields repeat what was typed back
FIELDS = ("[data-testid='stTextInput'] input, [data-testid='stTextArea'] textarea, "
          "label[data-testid='stRadioOption']")


def settle(page: Page) -> None:
    """Wait until the app has finished running the script the last input started."""
    for _ in range(2):  # twice: a run may start a second one (a link rewritten, a fragment)
        page.wait_for_timeout(400)
        page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", timeout=60_000)


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
                if options.nth(option).is_visible():
                    options.nth(option).click()
                    settle(page)
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
            field.press(commit)
            settle(page)
            filled += 1
    return filled


@pytest.mark.parametrize("path", PAGES)
def test_a_script_stays_text_on_every_page(page: Page, app_url: str, artifacts: Path, path: str) -> None:
    dialogs: list[str] = []

    def record(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", record)
    query = urllib.parse.urlencode(dict.fromkeys(PARAMS, PAYLOAD))
    page.goto(f"{app_url}/{path}?{query}")
    page.wait_for_selector("[data-testid='stApp']", timeout=60_000)
    settle(page)
    if path in ECHOED:  # its fields drawn (a first run on a fresh server may still be importing)
        page.locator(FIELDS).first.wait_for(timeout=60_000)
    filled = fill_every_field(page)
    settle(page)
    assert page.evaluate("() => window.__xss") is None
    assert not dialogs
    loose = "[data-testid='stMain'] img[src='x'], [data-testid='stMain'] svg[onload]"
    assert page.locator(loose).count() == 0
    # textContent, not innerText: the input may be repeated on a tab not in view.  A tag let loose
    # would not read "<script>" there: its text would be only what is between the tags.
    shown = (page.locator("[data-testid='stMain']").text_content() or "") + page.eval_on_selector_all(
        "[data-testid='stGraphVizChart'] svg text", "texts => texts.map(t => t.textContent).join(' ')")
    page.screenshot(path=artifacts / f"script-{path or 'welcome'}.png", full_page=True)
    if path in ECHOED:
        assert filled, f"no text field on /{path}"
        assert "<script>" in shown, f"/{path} did not repeat the input back as text"
    assert page.locator("[data-testid='stException']").count() == 0
