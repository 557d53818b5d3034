"""Lessons in a real browser.  Lesson 3 on a projector-size window (1920x1080, presenter mode): the
step's text, question and live board; Next changes the step in the URL; a move off the path and
the way back.  Lessons 1 and 6 on a laptop (1440x900): every word of every step's row is on the
screen, none cut.  Lessons 1, 4 and 6 on a phone (390x844): the words and arcs and the question's
answer fit one screen.  The screenshots go to test-artifacts/ (docs/images/lessons.png is one
of them, copied by hand after a look: a test never writes into the checkout)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import FIRST_RUN_DONE


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
    expect(page.get_by_text("Step 3 of 7")).to_be_visible()
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
    expect(page.get_by_text("Step 4 of 7")).to_be_visible()
    assert re.search(r"[?&]step=4", page.url) and "present=1" in page.url
    page.context.close()


# Each word of the row: its box against the row's visible box and the window (a word cut shows
# less than its box; one off screen starts right of the window).
WORDS_SHOWN = """() => {
  const row = document.querySelector('.st-key-lessons-drawing-arcs .arc-row');
  const box = row.getBoundingClientRect();
  return [...row.querySelectorAll('svg text')].filter(t => t.textContent.trim()).map(t => {
    const r = t.getBoundingClientRect();
    return {word: t.textContent, inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5
            && r.right <= window.innerWidth};
  });
}"""


@pytest.mark.parametrize(("lesson", "steps"), [("01-transition-parsing", 6),
                                               ("06-non-projectivity-and-swap", 6)])
def test_every_word_of_lessons_1_and_6_fits_a_laptop_screen(browser: Browser, app_url: str, artifacts: Path,
                                                             lesson: str, steps: int) -> None:
    page = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
    page.goto(f"{app_url}/lessons?lesson={lesson}&step=1")
    for step in range(1, steps + 1):
        if step > 1:  # on to the next step as a learner goes, without loading the page again
            button(page, "lessons.next").click()
        expect(page.get_by_text(f"Step {step} of {steps}")).to_be_visible(timeout=30_000)
        page.wait_for_selector(FIRST_RUN_DONE, timeout=30_000)  # the step's row drawn, not the last one's
        expect(page.locator(".st-key-lessons-drawing-arcs .arc-row svg")).to_be_visible()
        words = page.evaluate(WORDS_SHOWN)
        assert len(words) >= 5 and all(w["inside"] for w in words), (step, words)
        row = page.locator(".st-key-lessons-drawing-arcs .arc-row")
        assert row.evaluate("r => r.scrollWidth <= r.clientWidth"), step  # nothing to scroll to
        assert row.evaluate("r => r.clientWidth") >= 900, step  # the page's width: room for 8 words
    page.screenshot(path=artifacts / f"lessons-{lesson[:2]}-1440.png")
    page.context.close()


# The picture's top, the bottom of the question's answer (its inputs and Check) and of the page's
# header bar, in px from the top of the window.
SPAN = """key => {
  const box = e => e.getBoundingClientRect();
  const answer = [...document.querySelectorAll(`[class*="st-key-${key}-answer"], .st-key-${key}-check`)];
  return {top: box(document.querySelector('.st-key-lessons-drawing-arcs')).top,
          bottom: Math.max(...answer.map(e => box(e).bottom)),
          header: box(document.querySelector("[data-testid='stHeader']")).bottom};
}"""


@pytest.mark.parametrize(("lesson", "step"), [("01-transition-parsing", 3), ("04-dynamic-oracles", 2),
                                              ("06-non-projectivity-and-swap", 1)])
def test_on_a_phone_the_picture_and_the_answer_fit_one_screen(browser: Browser, app_url: str, artifacts: Path,
                                                               lesson: str, step: int) -> None:
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{app_url}/lessons?lesson={lesson}&step={step}")
    key = f"lessons-q-{lesson}-{step}"
    expect(button(page, f"{key}.check")).to_be_visible(timeout=30_000)
    expect(page.locator(".st-key-lessons-drawing-arcs svg").first).to_be_visible()
    page.wait_for_selector(FIRST_RUN_DONE, timeout=30_000)  # measured once the run has drawn it all
    span = page.evaluate(SPAN, key)
    for _ in range(5):  # the picture just under the header bar (again if the page moved meanwhile)
        page.locator("[data-testid='stMain']").evaluate("(main, by) => main.scrollBy(0, by)",
                                                        span["top"] - span["header"])
        page.wait_for_timeout(500)
        span = page.evaluate(SPAN, key)
        if abs(span["top"] - span["header"]) < 2:
            break
    assert span["top"] >= span["header"] - 1 and span["bottom"] <= 844, span
    page.screenshot(path=artifacts / f"lessons-{lesson[:2]}-{step}-phone.png")
    page.context.close()
