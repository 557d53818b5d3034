"""A value the page gives a widget in a closed popover survives later runs (``ui.widgets.held``).

Streamlit sends a value written to ``st.session_state`` only with the run that wrote it; a widget
in a closed popover is not drawn then, and once the popover is opened after another run it showed
its default, which the next rerun sent back as a choice.  On the Stepper the system turned into
arc-standard (the list's first) the moment a learner picked a sentence source.  The page here is
that situation alone: a system the page starts on, in a popover, a rerun, then another choice.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .conftest import FIRST_RUN_DONE, REPO, free_port, stop, wait_until_healthy

pytestmark = pytest.mark.browser

SCRIPT = """
import streamlit as st
from ui.widgets.held import hold

hold("system", "arc-hybrid")  # as the Stepper starts its picker on the link's system
with st.popover("Settings"):
    system = st.selectbox("Transition system", ["arc-standard", "arc-eager", "arc-hybrid"], key="system")
    source = st.radio("Sentence from", ["Teaching set", "Type it"], key="source")
st.button("Rerun")
st.session_state.runs = st.session_state.get("runs", 0) + 1
st.markdown(f"run {st.session_state.runs} on **{system}**, sentence from **{source}**")
"""


@pytest.fixture
def held_url(tmp_path: Path) -> Iterator[str]:
    script = tmp_path / "held_page.py"
    script.write_text(SCRIPT)
    port = free_port()
    command = [sys.executable, "-m", "streamlit", "run", str(script), "--server.headless", "true",
               "--server.port", str(port), "--server.address", "127.0.0.1",
               "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    log = tmp_path / "server.log"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    with log.open("wb") as out:
        server = subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=out)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_healthy(server, url, log)
        yield url
    finally:
        stop(server)


def test_a_held_value_in_a_closed_popover_survives_a_rerun_and_the_next_choice(
        page: Page, held_url: str) -> None:
    page.goto(held_url)
    said = page.get_by_test_id("stMarkdown")
    expect(said).to_contain_text("run 1 on arc-hybrid")
    page.get_by_role("button", name="Rerun").click()  # a run that does not write the value again
    expect(said).to_contain_text("run 2 on arc-hybrid")
    page.wait_for_selector(FIRST_RUN_DONE)
    page.get_by_role("button", name="Settings").click()
    page.get_by_test_id("stPopoverBody").get_by_text("Type it").click()  # another choice: a rerun
    expect(said).to_contain_text("sentence from Type it")
    expect(said).to_contain_text("run 3 on arc-hybrid")
    expect(page.get_by_role("combobox", name="Transition system")).to_have_value("arc-hybrid")  # as shown
