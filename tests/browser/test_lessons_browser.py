"""Lesson 3 in a real browser on a projector-size window (1920x1080, presenter mode): the step's
text, question and live board; Next changes the step in the URL; a move off the path and the way
back; the screenshot goes to test-artifacts/lessons.png (the README's assets/lessons.png is one
of them, copied by hand after a look: a test never writes into the checkout)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect


def open_lesson(browser: Browser, app_url: str, step: int) -> Page:
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(f"{app_url}/lessons?lesson=03-static-oracles&step={step}&present=1")
    expect(page.locator(".st-key-lessons-text")).to_contain_text("error state", timeout=30_000)
    return page


def button(page: Page, key: str):
    return page.locator(f".st-key-{key.replace('.', '-')} button").first


def test_lesson_3_on_a_projector(browser: Browser, app_url: str, artifacts: Path) -> None:
    page = open_lesson(browser, app_url, 3)
    expect(page.get_by_text("Step 3 of 6")).to_be_visible()
    expect(page.locator(".st-key-lessons-drawing-arcs svg").first).to_be_visible()
    expect(page.get_by_text("Question.")).to_be_visible()
    font = page.evaluate("getComputedStyle(document.documentElement).fontSize")
    assert font == "22px", font  # presenter mode's large type

    button(page, "lessons.move.LA").click()
    expect(page.get_by_text("You are off the lesson's path.")).to_be_visible()
    button(page, "lessons.back_to_step").click()
    expect(page.get_by_text("You are off the lesson's path.")).to_have_count(0)

    question = page.locator(".st-key-lessons-q-03-static-oracles-3-question")
    question.get_by_text("SH · SHIFT", exact=True).click()
    button(page, "lessons.q.03-static-oracles.3.check").click()
    expect(page.get_by_text(re.compile(r"^Right: SHIFT is optimal"))).to_be_visible()
    page.locator("[data-testid='stMain']").evaluate("main => main.scrollTo(0, 0)")
    page.wait_for_timeout(800)
    page.screenshot(path=artifacts / "lessons.png")

    button(page, "lessons.next").click()
    expect(page.get_by_text("Step 4 of 6")).to_be_visible()
    assert re.search(r"[?&]step=4", page.url) and "present=1" in page.url
    page.context.close()
