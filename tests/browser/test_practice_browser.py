"""Practice as a class meets it: a real server with its database, headless Chromium.

A teacher's set of three items is made in the store; a learner opens its link, signs in, answers
the three items (taking one hint on the first), and the set's results page then shows, item by
item, that one learner solved it, with the hint counted where it was taken.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

import parsing_core.exercises as ex
from server.progress import open_store
from tests.browser.conftest import FIRST_RUN_DONE, settled
from tests.browser.test_classroom_browser import rows_once_styled

pytestmark = pytest.mark.browser
POOL = ex.SentencePool()  # the page's own sentences: the teaching set


@pytest.fixture
def practice_server(app_url: str) -> tuple[str, str]:
    """(base URL, database URL): the session's ``streamlit run app.py`` (``app_url``) and the
    database it keeps learners' progress in, the one this worker's environment names
    (``tests/conftest.py`` gives each worker a database of its own; its server inherits it).  Each
    test makes its own set and signs in its own learner, so what the others wrote does not count."""
    return app_url, os.environ["PARSING_DATABASE_URL"]


def three_items() -> list[ex.ItemSpec]:
    """A next move, all optimal moves and a step count in arc-eager: answered by a click, ticks, numbers."""
    kinds = ("next-move", "all-optimal", "count-steps")
    return [ex.draw(kind, "arc-eager", 1, 1, 3, POOL)[0] for kind in kinds]


def item_of(spec: ex.ItemSpec) -> ex.Item[Any]:
    return ex.make_item(spec, POOL.find(spec.sentence))


def button(page: Page, key: str) -> Locator:
    """The button with widget key ``practice.<key>`` (a button with help has a twin: the first)."""
    return page.locator(f".st-key-practice-{key.replace('.', '-')} button").first


def answer(page: Page, item: ex.Item[Any]) -> None:
    """Give the item's key through the page, and wait for the verdict."""
    if item.spec.kind == "next-move":
        button(page, f"move.{item.key.kind}").click()
    else:
        if item.spec.kind == "all-optimal":
            for t in item.key:
                box = page.get_by_role("checkbox", name=t.name, exact=True)
                page.locator("label").filter(has=box).click()
                expect(box).to_be_checked()
        else:
            page.get_by_label("Fewest moves").fill(str(item.key.fewest))
            page.get_by_label("Most moves").fill(str(item.key.most))
        settled(page)  # the form of the run before may still stand beside this one's
        page.get_by_role("button", name="Check").click()
    verdict = page.locator("[data-testid='stMain'] [data-testid='stAlertContentSuccess']")
    expect(verdict).to_contain_text("Right")


def test_a_learner_completes_a_set_with_one_hint_and_the_results_show_it(
        page: Page, practice_server: tuple[str, str], artifacts: Path) -> None:
    url, database = practice_server
    specs = three_items()
    store = open_store(database)
    made = store.create_set("Three items", {"items": [s.text for s in specs]}, [s.id for s in specs])
    store.close()
    page.goto(f"{url}/practice?set={made.id}")
    expect(page.get_by_text("Three items: item 1 of 3")).to_be_visible(timeout=30_000)
    page.get_by_label("Nickname").fill("Dana")
    page.get_by_label("Class code (optional)").fill("ling101")
    button(page, "register").click()
    expect(page.get_by_text("Practising as")).to_be_visible()
    settled(page)  # the sign-in note above the item goes: everything below it moves up one place
    for number, spec in enumerate(specs, 1):
        expect(page.get_by_text(f"Three items: item {number} of 3 · id {spec.id}")).to_be_visible()
        settled(page)  # the item before's inputs, left in place until this run draws over them
        if number == 1:
            expect(button(page, "hint")).to_contain_text("Hint (1 of 3: a pointer)")
            button(page, "hint").click()
            expect(page.get_by_text("Hint 1 (a pointer):")).to_be_visible()
        answer(page, item_of(spec))
        expect(button(page, "another")).to_contain_text("Finish the set" if number == 3 else "Next item")
        button(page, "another").click()
    expect(page.get_by_text("Set Three items finished: 3 items.")).to_be_visible()
    page.screenshot(path=artifacts / "practice-set-finished.png")

    page.goto(f"{url}/practice?set={made.id}&view=results")
    table = page.locator(".st-key-practice-results table")
    expect(table).to_be_visible(timeout=30_000)
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(3)
    for number, spec in enumerate(specs):
        cells = rows.nth(number).locator("td")
        expect(cells.nth(0)).to_have_text(spec.id)
        expect(cells.nth(3)).to_have_text("1")  # answered
        expect(cells.nth(4)).to_have_text("1")  # solved
        expect(cells.nth(6)).to_have_text("1" if number == 0 else "0")  # hints before solving
    page.screenshot(path=artifacts / "practice-set-results.png", full_page=True)


def test_progress_brought_from_another_computer_is_imported(
        page: Page, practice_server: tuple[str, str], tmp_path: Path) -> None:
    """Fay practised at home (another database), exported her progress, and imports it here."""
    url, _ = practice_server
    spec = three_items()[0]
    home = open_store(f"sqlite:///{tmp_path / 'home.sqlite3'}")
    fay = home.register("Fay", class_code="ling101")
    home.record_answer(fay, spec.id, f"{spec.kind}/{spec.system}", correct=False, answer={"spec": spec.text})
    saved = tmp_path / "progress.json"
    saved.write_text(json.dumps(home.export_progress(fay)))
    home.close()
    page.goto(f"{url}/practice")
    page.get_by_label("Nickname").fill("Fay")
    page.get_by_label("Class code (optional)").fill("ling101")
    button(page, "register").click()
    expect(page.get_by_text("Practising as")).to_contain_text("Fay")
    page.get_by_role("radio", name="My progress").click()
    expect(page.get_by_text("Nothing answered yet.")).to_be_visible()
    page.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(saved)
    page.get_by_role("button", name="Import it").click()
    expect(page.get_by_text("Imported: answers you already had were skipped.")).to_be_visible()
    page.get_by_role("radio", name="Practise").click()
    expect(page.get_by_text("Review (0 due)")).to_be_visible()  # missed five minutes ago at most: not yet
    page.get_by_role("radio", name="My progress").click()
    expect(page.locator(".st-key-practice-queue")).to_be_visible()
    expect(page.get_by_text("Nothing answered yet.")).to_have_count(0)


def signed_in_as(page: Page, nickname: str) -> None:
    expect(page.locator("[data-testid='stSidebar']").get_by_text("Practising as")).to_contain_text(nickname)


def test_a_reload_and_a_ready_made_set_keep_the_learner_signed_in(
        page: Page, practice_server: tuple[str, str], artifacts: Path) -> None:
    url, _ = practice_server
    page.goto(f"{url}/practice")
    expect(page.get_by_label("Nickname")).to_be_visible(timeout=60_000)  # a fresh server's first page
    page.get_by_label("Nickname").fill("Gus")
    page.get_by_label("Class code (optional)").fill("ling101")
    button(page, "register").click()
    signed_in_as(page, "Gus")
    page.locator(".st-key-practice-level").get_by_text("2", exact=True).click()
    page.wait_for_url("**level=2**")
    assert "learner=" in page.url and "ling101" not in page.url.lower() and "gus" not in page.url.lower()
    page.reload()
    signed_in_as(page, "Gus")  # still signed in, and still at level 2
    expect(page.locator(".st-key-practice-level").get_by_role("radio", name="2")).to_be_checked()
    page.get_by_text("A ready-made set").click()
    page.get_by_role("button", name="First steps: moves in arc-eager").click()
    expect(page.get_by_text("First steps: moves in arc-eager: item 1 of 6")).to_be_visible()
    assert len(page.context.pages) == 1  # the set opened in this tab
    signed_in_as(page, "Gus")
    page.reload()
    expect(page.get_by_text("First steps: moves in arc-eager: item 1 of 6")).to_be_visible()
    signed_in_as(page, "Gus")
    page.screenshot(path=artifacts / "practice-reloaded-set.png")
    pasted = page.context.new_page()  # a set's link pasted into another tab: the browser's cookie signs in
    pasted.goto(f"{url}/practice?{page.url.split('?')[1].split('&learner=')[0]}")
    expect(pasted.get_by_text("First steps: moves in arc-eager: item 1 of 6")).to_be_visible()
    signed_in_as(pasted, "Gus")
    pasted.close()
    page.goto(page.url.replace("learner=", "learner=9"))  # an altered token
    expect(page.get_by_text("Not signed in: this sign-in link")).to_be_visible()
    page.wait_for_function("!document.cookie.includes('parsing_learner=')")  # out of the cookie too
    page.goto(f"{url}/practice")
    expect(page.get_by_label("Nickname")).to_be_visible()
    expect(page.get_by_text("Practising as")).to_have_count(0)


def test_on_a_phone_the_question_its_buttons_and_the_drawing_share_the_first_screen(
        browser: Browser, app_url: str) -> None:
    """390×844, touch: the moves four to a row and Hint, Show me and Another like this one row of
    three (Streamlit stacks columns on a phone: five full-width rows put the drawing off screen), so
    the question, every button and the whole drawing of words and arcs are on the first screen."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{app_url}/practice")
        page.wait_for_selector(FIRST_RUN_DONE, timeout=30_000)
        columns = "[data-testid='stColumn']"
        assert rows_once_styled(page, f".st-key-practice-help {columns}", [3]) == [3]
        assert rows_once_styled(page, f".st-key-practice-moves {columns}", [4]) == [4]  # SH LA RA RE
        question = page.get_by_text("which move should the parser take?")
        drawing = page.locator("svg").filter(has=page.locator("text", has_text="ROOT")).first
        for seen in (question, page.get_by_role("button", name="Another like this"), drawing):
            box = seen.bounding_box()
            assert box is not None and box["y"] + box["height"] <= 844, box
    finally:
        context.close()
