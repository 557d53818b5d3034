"""The Train page in a real browser: a tiny run starts, its curves grow, it stops."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def epochs_done(page: Page) -> int:
    text = page.get_by_text(re.compile(r"epoch \d+/\d+")).first.inner_text()
    return int(re.search(r"epoch (\d+)/", text).group(1))


def loss_points(page: Page) -> int:
    """Length of the drawn loss line's path: it grows with every batch."""
    path = page.locator(".js-plotly-plot .scatterlayer path.js-line").first
    return len(path.get_attribute("d") or "")


def test_a_tiny_run_grows_its_curves_and_stops(page: Page, app_url: str, artifacts: Path) -> None:
    page.goto(f"{app_url}/train")
    expect(page.get_by_role("heading", name="Train a parser")).to_be_visible(timeout=30_000)
    page.get_by_label("Epochs", exact=True).fill("40")
    page.get_by_label("Epochs", exact=True).press("Enter")
    page.get_by_role("button", name="Start training").click()
    expect(page.get_by_text(re.compile(r"epoch [1-9]\d*/40"))).to_be_visible(timeout=60_000)
    first_epochs, first_points = epochs_done(page), loss_points(page)
    deadline = time.time() + 60
    while not (epochs_done(page) > first_epochs and loss_points(page) > first_points):
        assert time.time() < deadline, "the curves did not grow"
        time.sleep(0.5)
    page.set_viewport_size({"width": 1280, "height": 1600})
    page.screenshot(path=artifacts / "train.png", full_page=True)
    page.get_by_role("button", name="Stop").click()
    expect(page.get_by_text(re.compile(r"\(stopped\)"))).to_be_visible(timeout=30_000)
