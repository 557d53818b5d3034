"""From a click on the Train page's Start to the first point of its loss curve, in a real browser.

    python -m benchmarks.train_page [--runs 3] [--wait 20]

Starts the app on 127.0.0.1 twice, with a job process standing by (the default) and without
(``PARSING_STANDBY=0``), each with an empty jobs folder.  Each run opens the Train page in
Chromium (Debian's), waits ``--wait`` seconds (the server has been up a while, as in a class),
clicks *Start training* on the default run (1,000 synthetic sentences, 30 epochs, small), times
until the new run's loss line is drawn (the page reads the log once a second), then stops the
run and waits for the page to say that no run is going.  ``benchmarks.train --sections
first_point`` times the same run from the job's start to its log's first batch, without a page.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

from playwright.sync_api import Page, expect, sync_playwright

from benchmarks.common import table
from benchmarks.load import ARGS, CHROMIUM, free_port, start_server
from parsing_core.jobs.standby import STANDBY_ENV

LOSS_LINE = ".js-plotly-plot .scatterlayer path.js-line"


def first_point(page: Page, url: str, wait: float) -> float:
    """Seconds from the click on Start training to the loss line's first drawn point."""
    page.goto(f"{url}/train")
    start_button = page.get_by_role("button", name="Start training")
    expect(start_button).to_be_enabled(timeout=90_000)
    time.sleep(wait)
    drawn = ("sel => [...document.querySelectorAll(sel)]"
             ".filter(p => (p.getAttribute('d') || '').length > 1).length")
    before = page.evaluate(drawn, LOSS_LINE)  # the lines of earlier runs stay on the page
    start = time.perf_counter()
    start_button.click()
    page.wait_for_function(f"([sel, before]) => ({drawn})(sel) > before", arg=[LOSS_LINE, before],
                           timeout=120_000, polling=20)
    seconds = time.perf_counter() - start
    page.get_by_test_id("stMainBlockContainer").get_by_role("button", name="Stop", exact=True).first.click()
    expect(page.get_by_text("No run is going now.")).to_be_visible(timeout=60_000)
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--wait", type=float, default=20.0)
    args = ap.parse_args()
    rows = []
    for standby in ("1", "0"):
        with tempfile.TemporaryDirectory() as jobs:
            os.environ.update({STANDBY_ENV: standby, "PARSING_JOBS_DIR": jobs})
            port = free_port()
            server = start_server(port)
            try:
                with sync_playwright() as pw:
                    browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                    page = browser.new_page(viewport={"width": 1440, "height": 900})
                    url = f"http://127.0.0.1:{port}"
                    times = [first_point(page, url, args.wait) for _ in range(args.runs)]
                    browser.close()
            finally:
                server.kill()
                server.wait()
        how = "a standby" if standby == "1" else "a new process"
        each = " / ".join(f"{t:.2f}" for t in times)
        rows.append([how, args.runs, each, f"{statistics.median(times):.2f}"])
    print(table(["run started in", "runs", "seconds from the click to the first point", "median"], rows))


if __name__ == "__main__":
    main()
