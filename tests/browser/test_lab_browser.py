"""The Oracle lab in a real browser: a finished lab run (laid on the server's jobs board) shows its
speed plot, drawn by plotly; a confusion row opens the stepper at its configuration.  One visit of
the page serves both."""

from __future__ import annotations

import time
import urllib.parse
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

import parsing_core as pc
from parsing_core.experiments.lab import LabSpec
from server.jobs import JobBoard, TrainingJob
from ui.views.sources import sentence_from_key
from ui.views.state import StepperState

pytestmark = pytest.mark.browser
SENTENCES = 30
# The page draws its five plots after its text shows (some 4 s of the browser's main thread on an
# idle laptop, several times that on a loaded machine): a click waits for the page to be still, as
# a reader's would, for up to this long.
PATIENCE_MS = 120_000


@pytest.fixture(scope="module")
def finished_run(jobs_dir: Path) -> TrainingJob:
    """A small lab run on en_lines dev from the data directory (a link may name only the server's
    folders), with timings, run to its end."""
    if not any(f.name == "en_lines" and f.split == "dev" for f in pc.list_treebanks()):
        pytest.skip("en_lines dev is not in the data directory")
    spec = LabSpec("en_lines", "dev", None, sentences=SENTENCES, speed=True, lengths=(5, 10, 20), samples=3,
                   baseline_lengths=(6, 9))
    job = JobBoard(jobs_dir / "lab").start("browser", spec)
    deadline = time.time() + 45
    while job.status() == "running":
        assert time.time() < deadline, "the lab run did not end"
        time.sleep(0.3)
    assert job.status() == "finished", job.failure()
    return job


def open_lab(page: Page, app_url: str) -> None:
    page.goto(f"{app_url}/lab")
    expect(page.get_by_text(f"{SENTENCES} of {SENTENCES} sentences walked")).to_be_visible(timeout=60_000)


def test_the_speed_plot_renders_and_a_confusion_row_opens_the_stepper_at_its_configuration(
        page: Page, app_url: str, finished_run: TrainingJob, artifacts: Path) -> None:
    """One visit of the lab (its page draws five plots: the heaviest page to load) for both."""
    open_lab(page, app_url)
    link = page.get_by_role("link", name="open in the stepper").first
    expect(link).to_be_visible()
    first_tab = page.get_by_role("tab", selected=True)
    first_name = first_tab.inner_text()

    page.get_by_role("tab", name="Speed and growth").click(timeout=PATIENCE_MS)
    plot = page.locator(".js-plotly-plot", has_text="Time per configuration against sentence length")
    expect(plot).to_be_visible(timeout=60_000)  # plotly's script loads on first use: slow on a busy machine
    expect(plot.locator(".scatterlayer .trace")).to_have_count(3)  # search, exact, thesis-approx
    expect(plot.locator(".legend")).to_contain_text("slope ≈")
    expect(plot.locator(".xtitle")).to_contain_text("log scale")
    plot.screenshot(path=str(artifacts / "lab-speed-plot.png"))

    page.get_by_role("tab", name=first_name).click(timeout=PATIENCE_MS)
    expect(link).to_be_visible()
    href = link.get_attribute("href") or ""
    state, problems = StepperState.from_query(dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(href).query)))
    assert problems == [] and state.taken(), href
    s = sentence_from_key(state.sentence)
    c = pc.replay(state.make_system(), s, state.taken()).final
    top = "ROOT" if c.stack[-1] == 0 else s.words[c.stack[-1] - 1]
    if link.get_attribute("target") == "_blank":
        with page.context.expect_page(timeout=PATIENCE_MS) as opened:
            link.click(timeout=PATIENCE_MS)
        stepper = opened.value
    else:
        link.click(timeout=PATIENCE_MS)
        stepper = page
    expect(stepper).to_have_url(f"{app_url}/{href}" if not href.startswith("http") else href, timeout=30_000)
    costs = stepper.locator(".st-key-stepper-board .costs")  # both oracles' costs at the configuration
    expect(costs).to_contain_text("≠ optimal for one only", timeout=60_000)  # the confusion itself
    stack = stepper.locator(".st-key-stepper-board .memory .line", has_text="stack σ")
    expect(stack.locator(".word.at")).to_contain_text(top)
