"""A trained model in the stepper, in a real browser: pick it, let it finish the parse, download it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_stepper_browser import close_settings, open_settings, open_stepper, screenshot
from tests.test_stepper_model import train_run

pytestmark = pytest.mark.browser


def test_a_model_scores_the_moves_and_finishes_the_parse(page: Page, app_url: str, jobs_dir: Path,
                                                         artifacts: Path) -> None:
    train_run(jobs_dir, "arc-eager", "20260101-000000-arc-eager-model")
    open_stepper(page, app_url)
    choice = open_settings(page).locator(".st-key-stepper-model-choice input")
    choice.click()
    choice.fill("arc-eager-model")  # the selectbox filters its options as one types
    expect(page.get_by_role("option", name=re.compile("arc-eager-model"))).to_be_visible()
    choice.press("Enter")
    expect(page.get_by_text(re.compile(r"arc-eager, (un)?labelled, words"))).to_be_visible()
    close_settings(page)
    expect(page.get_by_text("the model's probability for each possible move")).to_be_visible()
    finish = page.get_by_role("button", name="Parse to the end with the model")
    finish.click()
    expect(page.get_by_text("The parse is finished")).to_be_visible(timeout=15_000)
    expect(finish).to_be_disabled()
    expect(page.get_by_role("button", name="This parse as CoNLL-U")).to_be_visible()
    screenshot(page, artifacts / "stepper-model.png")
