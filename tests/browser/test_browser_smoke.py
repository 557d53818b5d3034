"""The app as a learner sees it: served by ``streamlit run``, opened in headless Chromium."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import FIRST_RUN_DONE, STARTUP_TIMEOUT_S

pytestmark = pytest.mark.browser


def test_welcome_page_shows_a_derivation(page: Page, app_url: str, artifacts: Path) -> None:
    page.goto(app_url)
    expect(page.get_by_role("heading", name="Transition parsing lab")).to_be_visible()
    derivation = page.locator(".st-key-welcome-derivation [data-testid='stTable']")
    expect(derivation).to_be_visible()
    expect(derivation).to_contain_text("+(He ← sent)")
    # Streamlit scrolls inside its own container, so a full-page shot needs a tall window.
    page.set_viewport_size({"width": 1280, "height": 2000})
    page.screenshot(path=artifacts / "welcome.png", full_page=True)


def test_a_welcome_card_opens_lesson_1_in_the_same_tab(page: Page, app_url: str) -> None:
    page.goto(app_url)
    page.get_by_role("link", name="Start Lesson 1").click()
    expect(page).to_have_url(f"{app_url}/lessons?lesson=01-transition-parsing&step=1")
    assert len(page.context.pages) == 1  # no new tab
    expect(page.get_by_role("heading", name="What a transition parser does")).to_be_visible()


def test_a_glossary_term_on_welcome_opens_the_one_glossary_tab(page: Page, app_url: str) -> None:
    page.goto(app_url)
    head = page.get_by_role("link", name="head", exact=True)
    expect(head).to_have_attribute("target", "glossary")
    with page.context.expect_page() as opened:
        head.click()
    glossary = opened.value
    expect(glossary.get_by_role("heading", name="Glossary")).to_be_visible()
    page.get_by_role("link", name="dependent", exact=True).click()  # the same tab, not a third
    expect(glossary).to_have_url(f"{app_url}/glossary#dependent")
    assert len(page.context.pages) == 2


#: A label Streamlit cuts short ends in "…": its box is narrower than its text.
CUT_LABELS = """() => [...document.querySelectorAll('[data-testid=stMain] :is(button, label)')]
  .flatMap((b) => [b, ...b.querySelectorAll('*')])
  .filter((b) => b.scrollWidth > b.clientWidth + 1 && getComputedStyle(b).textOverflow === 'ellipsis')
  .map((b) => b.textContent)"""


def test_train_start_is_above_the_fold_on_a_laptop(page: Page, app_url: str) -> None:
    """At 1366×768 both start buttons are on the first screen, their names whole (the second was
    "Start static vs dyna…" when the two shared the row half and half)."""
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{app_url}/train")
    for name in ("Start training", "Start static vs dynamic"):
        button = page.get_by_role("button", name=name)
        # A server's first Train page starts the job process standing by (torch imported) and has
        # the browser load the charts' code: on a busy machine its widgets come long after its text.
        expect(button).to_be_visible(timeout=STARTUP_TIMEOUT_S * 1000)
        box = button.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 768, (name, box)
    assert page.evaluate(CUT_LABELS) == []


def test_no_label_of_the_oracle_labs_form_is_cut_short_on_a_laptop(page: Page, app_url: str) -> None:
    """At 1366×768 every button and checkbox of the Oracle lab's form reads whole (a checkbox's
    label never wraps: "Then time every oracle of the s…" was cut at every width)."""
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{app_url}/lab")
    page.wait_for_selector(FIRST_RUN_DONE)
    expect(page.get_by_role("button", name="Start", exact=True)).to_be_visible()
    assert page.evaluate(CUT_LABELS) == []


def test_no_page_around_the_app_may_steer_it(page: Page, app_url: str) -> None:
    """The app trusts no embedding origin (``client.allowedOrigins = []``): the server lists none,
    and the page never opens its channel to a host (it would announce itself with GUEST_READY)."""
    with urllib.request.urlopen(f"{app_url}/_stcore/host-config", timeout=10) as response:
        assert json.load(response)["allowedOrigins"] == []
    page.add_init_script("window.__hostMessages = [];"
                         "addEventListener('message', (e) => { if (e.data && e.data.stCommVersion === 1)"
                         " window.__hostMessages.push(e.data.type); });")
    page.goto(f"{app_url}/stepper")
    page.wait_for_selector(FIRST_RUN_DONE)
    said = page.evaluate("window.__hostMessages")
    assert "SET_PAGE_TITLE" in said  # the page does post to its host, were there one listening
    assert "GUEST_READY" not in said
