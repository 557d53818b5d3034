"""Fixtures for browser tests: a real ``streamlit run serve.py`` server and a headless Chromium page.

Chromium is Debian's, not Playwright's download: its headless shell (``apt-get install
chromium-headless-shell``), the same Chromium build as the ``chromium`` package, engine and
version, without the windowed browser around it.  It is what Playwright itself runs for headless
tests, and it draws the same pages for much less CPU (six page visits, eight clicks among them:
16–17 CPU-s against 27–30 for ``chromium --headless``), which matters on two cores where the
browser tests' pages are a third of the suite's CPU.  Without it the tests fall back to
``chromium`` on a workstation; without either they are skipped there.  In CI (``CI=true``) the
headless shell must be there, or the browser tests fail.
Screenshots go to ``test-artifacts/`` (gitignored), kept after the run for a person to look at.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.needs import unavailable

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")  # Debian's chromium-headless-shell package
# Without the background-networking flags Chromium's connections are refused on a closed network.
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
STARTUP_TIMEOUT_S = 60
FIRST_RUN_DONE = "[data-testid='stApp'][data-test-script-state='notRunning']"
# An element the run going now has not drawn again yet: Streamlit leaves the run before's in place,
# faded, until the new run draws over it or ends (a form moved by one place is shown twice meanwhile).
STALE = "[data-testid='stElementContainer'][data-stale='true']"
# A page's first run imports torch and reads treebanks: on a busy two-core machine that takes
# longer than Playwright's 5 s default.
expect.set_options(timeout=20_000)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def is_healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return bool(response.read().decode().strip() == "ok")
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def wait_until_healthy(server: subprocess.Popen[bytes], url: str, log: Path) -> None:
    """Poll the health endpoint; fail with the server's output if it dies or never answers."""
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"streamlit exited with {server.returncode}:\n{log.read_text()}")
        if is_healthy(url):
            return
        time.sleep(0.25)
    pytest.fail(f"streamlit not healthy after {STARTUP_TIMEOUT_S} s:\n{log.read_text()}")


@pytest.fixture(scope="session")
def jobs_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server's ``PARSING_JOBS_DIR``: training runs stay here, and tests may lay runs in it."""
    return tmp_path_factory.mktemp("jobs")


@pytest.fixture(scope="session")
def app_url(tmp_path_factory: pytest.TempPathFactory, jobs_dir: Path, browser: Browser) -> Iterator[str]:
    """Base URL of ``streamlit run serve.py`` (the app with its quick board clicks) on a free port, its
    first run done; stopped after the session."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [
        sys.executable, "-m", "streamlit", "run", "serve.py",
        "--server.headless", "true", "--server.port", str(port), "--server.address", "127.0.0.1",
        "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
    ]
    log = tmp_path_factory.mktemp("streamlit") / "server.log"
    env = {**os.environ, "PARSING_JOBS_DIR": str(jobs_dir)}
    with log.open("wb") as out:
        server = subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=out)
    try:
        wait_until_healthy(server, url, log)
        open_once(browser, url)
        yield url
    finally:
        stop(server)


def open_once(browser: Browser, url: str) -> None:
    """Open the app once and wait for its first run to end, as a server's first visitor does.

    The first run imports what every page shares and starts the app's warm-up: tens of seconds on
    a busy machine, paid here once per server rather than by whichever test happens to come first
    (under pytest-xdist each worker has a server of its own) against a timeout meant for a click.
    """
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url, timeout=STARTUP_TIMEOUT_S * 1000)
        page.wait_for_selector(FIRST_RUN_DONE, timeout=STARTUP_TIMEOUT_S * 1000)
    finally:
        context.close()


def settled(page: Page, timeout: float | None = None) -> None:
    """Wait until the page's run has drawn everything again (no element left from the run before).
    Call it once something the new run draws is seen: before the run starts nothing is stale yet."""
    expect(page.locator(STALE)).to_have_count(0, timeout=timeout)


def stop(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def browser_binary() -> Path | None:
    """The Chromium the browser tests run: the headless shell, else (not in CI) the windowed
    browser run headless, else None."""
    if HEADLESS_SHELL.exists():
        return HEADLESS_SHELL
    if CHROMIUM.exists() and os.environ.get("CI") != "true":
        return CHROMIUM
    return None


def require_chromium() -> Path:
    """The Chromium to run (:func:`browser_binary`); the test is skipped or, in CI, failed without one."""
    binary = browser_binary()
    if binary is None:
        unavailable(f"{HEADLESS_SHELL} is missing; install it with "
                    "`apt-get install -y chromium-headless-shell`")
    return binary


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's headless Chromium (:func:`browser_binary`), driven by Playwright, for the whole session."""
    binary = require_chromium()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(binary), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh browser page (1280×900) per test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """``test-artifacts/`` at the repository root, for screenshots."""
    path = REPO / "test-artifacts"
    path.mkdir(exist_ok=True)
    return path
