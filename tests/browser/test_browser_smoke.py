"""The app as a learner sees it: served by ``streamlit run``, opened in headless Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

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
