"""The Train page in a real browser: a run starts, its curves grow, and it stays listed, with a Stop
that works, after a reload and in another browser.  One run serves the whole story: a run keeps a
core busy for as long as it goes (the suite runs on two)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from streamlit.proto.BackMsg_pb2 import BackMsg

from server.jobs import JobBoard, TrainingJob
from tests.browser.conftest import FIRST_RUN_DONE

pytestmark = pytest.mark.browser


def epochs_done(page: Page) -> int:
    text = page.get_by_text(re.compile(r"epoch \d+/\d+")).first.inner_text()
    return int(re.search(r"epoch (\d+)/", text).group(1))


def loss_points(page: Page) -> int:
    """Length of the drawn loss line's path (in the chart titled so; the accuracy chart comes
    first): it grows with every batch."""
    title = page.locator(".gtitle", has_text="Training loss per batch")
    chart = page.locator(".js-plotly-plot").filter(has=title)
    path = chart.locator(".scatterlayer path.js-line").first
    return len(path.get_attribute("d") or "")


@pytest.fixture
def board(jobs_dir: Path) -> Iterator[JobBoard]:
    """The server's jobs board; a run a failed test leaves going is stopped."""
    board = JobBoard(jobs_dir)
    yield board
    for job in board.running():
        job.stop()


def growth(job: TrainingJob, page: Page, epochs: int, points: int) -> str:
    """What grew and what did not: the run's own log against the page (to tell a slow run from a
    page that stopped looking)."""
    logged = [r["event"] for r in map(json.loads, job.log.read_text().splitlines()) if r]
    return (f"the run logged {logged.count('epoch')} epochs and {logged.count('batch')} batches "
            f"(status {job.status()}); the page shows epoch {epochs_done(page)} (was {epochs}) and a "
            f"loss path of {loss_points(page)} characters (was {points})")


def open_train(page: Page, app_url: str) -> None:
    page.goto(f"{app_url}/train")
    expect(page.get_by_role("heading", name="Train a parser")).to_be_visible(timeout=30_000)


def start(page: Page, epochs: int) -> None:
    page.get_by_label("Epochs", exact=True).fill(str(epochs))
    page.get_by_label("Epochs", exact=True).press("Enter")
    page.get_by_role("button", name="Start training").click()
    expect(page.get_by_text(re.compile(rf"epoch [1-9]\d*/{epochs}"))).to_be_visible(timeout=60_000)


def stop_button(page: Page) -> Locator:
    """A run's Stop (not Streamlit's own Stop in the header, shown while the page reruns)."""
    return page.get_by_test_id("stMainBlockContainer").get_by_role("button", name="Stop", exact=True).first


def stop_and_see_it_stopped(page: Page) -> None:
    stop_button(page).click()
    expect(page.get_by_text("No run is going now.")).to_be_visible(timeout=30_000)
    expect(page.get_by_role("button", name="Start training")).to_be_enabled()


def test_a_run_grows_its_curves_and_after_a_reload_and_in_another_browser_it_is_listed_with_a_working_stop(
        page: Page, browser: Browser, app_url: str, board: JobBoard, artifacts: Path) -> None:
    """One run, watched as a class would: its curves grow; a reload finds it still going, with its
    Stop; a second browser lists it and stops it; the first browser sees it stopped."""
    open_train(page, app_url)
    start(page, 40)
    job = board.running()[0]
    first_epochs, first_points = epochs_done(page), loss_points(page)
    deadline = time.time() + 180  # an epoch of the default run takes seconds, a minute on a loaded machine
    while not (epochs_done(page) > first_epochs and loss_points(page) > first_points):
        if time.time() > deadline:
            page.screenshot(path=artifacts / "train-curves-still.png")
            pytest.fail(f"the curves did not grow: {growth(job, page, first_epochs, first_points)}")
        time.sleep(0.5)
    page.set_viewport_size({"width": 1440, "height": 900})
    page.get_by_role("heading", name="Train a parser").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "train.png")

    page.reload()
    expect(page.get_by_text(re.compile(r"epoch \d+/40"))).to_be_visible(timeout=30_000)
    expect(stop_button(page)).to_be_enabled()
    other = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
    open_train(other, app_url)
    try:
        expect(other.get_by_text(re.compile(r"epoch \d+/40"))).to_be_visible(timeout=30_000)
    except AssertionError as err:  # say how the run's progress was drawn (once seen without its label)
        other.screenshot(path=artifacts / "train-other-browser.png")
        bars = other.get_by_test_id("stProgress")
        drawn = [bars.nth(i).evaluate("e => e.outerHTML")[:600] for i in range(bars.count())]
        raise AssertionError(f"no 'epoch n/40' in the other browser; its progress bars: {drawn}") from err
    stop_and_see_it_stopped(other)
    assert job.status() == "stopped" and job.exit_code() is not None
    expect(page.get_by_text("No run is going now.")).to_be_visible(timeout=30_000)  # the first one follows
    other.context.close()


def test_with_no_run_going_the_page_looks_at_the_runs_every_five_seconds(page: Page, app_url: str,
                                                                          board: JobBoard) -> None:
    """An open Train tab with nothing going reruns its runs' panel every five seconds, not every
    second (each look redraws part of the page in the browser).  The looks are counted as the
    page asks for them: the automatic reruns it sends the server (a count of the page's "running"
    state would miss a quick rerun whose start and end reach a busy browser together), and timed
    between looks, not in a fixed window: a busy machine's browser, still reading the charts' code
    of its first Train page, once sent none in 11 s."""
    assert not board.running()
    asked: list[tuple[float, bytes]] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: asked.append((time.monotonic(), frame))
                                          if isinstance(frame, bytes) else None))
    open_train(page, app_url)
    expect(page.get_by_text("No run is going now.")).to_be_visible()
    page.wait_for_selector(FIRST_RUN_DONE, timeout=30_000)
    start, deadline = time.monotonic(), time.monotonic() + LOOKS_WITHIN_S
    while len(looks := [t for t in auto_reruns(asked) if t > start]) < 4 and time.monotonic() < deadline:
        page.wait_for_timeout(500)
    assert len(looks) >= 4, f"{len(looks)} looks in {LOOKS_WITHIN_S} s"
    gaps = sorted(b - a for a, b in zip(looks, looks[1:]))
    assert gaps[len(gaps) // 2] >= 3, f"a look every {gaps} s"  # every 5 s (every second: about 1)


LOOKS_WITHIN_S = 60  # four looks, five seconds apart, on a busy machine


def auto_reruns(frames: list[tuple[float, bytes]]) -> list[float]:
    """When the page asked the server for an automatic rerun (a fragment's ``run_every``)."""
    messages = [(at, BackMsg.FromString(frame)) for at, frame in list(frames)]
    return [at for at, m in messages
            if m.WhichOneof("type") == "rerun_script" and m.rerun_script.is_auto_rerun]
