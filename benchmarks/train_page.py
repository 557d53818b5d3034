"""From a click on the Train page's Start to the first point of its loss curve, in a real browser.

    python -m benchmarks.train_page [--runs 3] [--wait 20] [--write]

Starts the app on 127.0.0.1 twice, with a job process standing by (the default) and without
(``PARSING_STANDBY=0``), each with an empty jobs folder.  Each run opens the Train page in
Chromium (Debian's), waits ``--wait`` seconds (the server has been up a while, as in a class),
clicks *Start training* on the default run (1,000 synthetic sentences, 30 epochs, small), times
until the new run's loss line is drawn (the page reads the log once a second), noting when the
run's process appeared and its first batch was logged, then stops the run and waits for the
page to say that no run is going.  ``benchmarks.train --sections
first_point`` times the same run from the job's start to its log's first batch, without a page.
``--write`` also writes the table to ``docs/benchmarks/train_page.md``.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

from benchmarks.common import add_write_flag, table, write_page
from benchmarks.load import ARGS, CHROMIUM, free_port, start_server
from server.jobs.standby import STANDBY_ENV
from server.settings import Settings

INTRO = """From the click on *Start training* to the first point of the loss curve on the
[Train](../pages/train.md) page, in Chromium: each server up {wait:g} s before its first click, {runs}
runs on the same page, with a job process standing by and without; the seconds to the job's process
and to its first logged batch are read off the jobs folder meanwhile.  Target: the first point
within 3 s."""
LOSS_LINE = ".js-plotly-plot .scatterlayer path.js-line"


def first_point(page: Page, url: str, wait: float, jobs: Path) -> tuple[float, float, float]:
    """Seconds from the click on Start training to the job's process (its ``pid`` file), to the
    first batch in its log, and to the loss line drawn on the page."""
    page.goto(f"{url}/train")
    start_button = page.get_by_role("button", name="Start training")
    expect(start_button).to_be_enabled(timeout=90_000)
    time.sleep(wait)
    drawn = ("sel => [...document.querySelectorAll(sel)]"
             ".filter(p => (p.getAttribute('d') || '').length > 1).length")
    before = page.evaluate(drawn, LOSS_LINE)  # the lines of earlier runs stay on the page
    folders = set(jobs.iterdir())
    start = time.perf_counter()
    start_button.click()
    launched = batch = None
    while page.evaluate(drawn, LOSS_LINE) <= before:
        now = time.perf_counter() - start
        assert now < 120, "no point was drawn"
        new = [f for f in jobs.iterdir() if f not in folders]
        if launched is None and new and (new[0] / "pid").exists():
            launched = now
        if batch is None and new and '"batch"' in read(new[0] / "log.jsonl"):
            batch = now
        time.sleep(0.02)
    seconds = time.perf_counter() - start
    page.get_by_test_id("stMainBlockContainer").get_by_role("button", name="Stop", exact=True).first.click()
    expect(page.get_by_text("No run is going now.")).to_be_visible(timeout=60_000)
    return launched or seconds, batch or seconds, seconds


def read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--wait", type=float, default=20.0)
    add_write_flag(ap, "train_page")
    args = ap.parse_args()
    rows = []
    for standby in ("1", "0"):
        with tempfile.TemporaryDirectory() as jobs:
            os.environ.update({STANDBY_ENV: standby, Settings.variable("jobs_dir"): jobs})
            port = free_port()
            server = start_server(port)
            try:
                with sync_playwright() as pw:
                    browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                    page = browser.new_page(viewport={"width": 1440, "height": 900})
                    url = f"http://127.0.0.1:{port}"
                    times = [first_point(page, url, args.wait, Path(jobs)) for _ in range(args.runs)]
                    browser.close()
            finally:
                server.kill()
                server.wait()
        how = "a standby" if standby == "1" else "a new process"
        for run, (launched, batch, point) in enumerate(times, 1):
            rows.append([how, run, f"{launched:.2f}", f"{batch:.2f}", f"{point:.2f}"])
    text = table(["run started in", "run", "s to its process", "s to the first batch in the log",
                  "s to the first point on the page"], rows)
    print(text)
    if args.write:
        write_page("train_page", "Train page first point", [("From the click to the first point", text)],
                   intro=INTRO.format(wait=args.wait, runs=args.runs))


if __name__ == "__main__":
    main()
