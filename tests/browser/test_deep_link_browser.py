"""A deep link opened first on a freshly started server runs through ``app.py``.

With a ``pages/`` folder beside ``app.py``, Streamlit starts in its old multipage mode: a first
request for ``/stepper`` would run ``pages/stepper.py`` alone, under a navigation Streamlit
builds from the folder ("app", "stepper", "train") and without ``app.py``'s page config.  Each
test here starts its own server, so that the deep link really is the server's first request.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .conftest import REPO, free_port, stop, wait_until_healthy


@pytest.fixture
def fresh_url(tmp_path: Path) -> Iterator[str]:
    """A new ``streamlit run app.py`` that no browser has opened yet."""
    port = free_port()
    command = [
        sys.executable, "-m", "streamlit", "run", "app.py",
        "--server.headless", "true", "--server.port", str(port), "--server.address", "127.0.0.1",
        "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
    ]
    log = tmp_path / "server.log"
    env = {**os.environ, "PARSING_JOBS_DIR": str(tmp_path / "jobs")}
    with log.open("wb") as out:
        server = subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=out)
    try:
        wait_until_healthy(server, f"http://127.0.0.1:{port}", log)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(server)


def test_a_deep_link_on_a_fresh_server_gets_the_apps_navigation_and_state(page: Page, fresh_url: str) -> None:
    page.goto(f"{fresh_url}/stepper?s=he-sent-her-a-letter&sys=arc-eager&moves=SH.LA&step=2")
    history = page.locator(".st-key-stepper-board .history")
    expect(history).to_contain_text("ROOT", timeout=90_000)  # the first load imports torch (a busy machine)
    nav = page.locator("[data-testid='stSidebarNav']")
    expect(nav).to_contain_text("Welcome")  # app.py's page titles, not the folder's file names
    expect(nav).to_contain_text("Stepper")
    expect(nav.get_by_text("app", exact=True)).to_have_count(0)
    expect(page).to_have_url(re.compile(r"/stepper\?.*moves=SH\.LA(&|$)"))
