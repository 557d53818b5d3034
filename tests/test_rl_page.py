"""The RL oracle page: a small DQN run started from the page goes on in its own process, its
curves grow, and once it has ended its summary and model are shown."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from parsing_core.jobs import TrainingJob

PAGE = Path(__file__).resolve().parents[1] / "pages" / "rl.py"


def test_a_run_started_from_the_page_is_watched_and_summed_up(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARSING_JOBS_DIR", str(tmp_path))
    at = AppTest.from_file(str(PAGE), default_timeout=60).run()
    assert not at.exception and any("No DQN run is going" in c.value for c in at.caption)
    at.number_input(key="rl.sentences").set_value(60)
    at.number_input(key="rl.updates").set_value(200)  # typed, then Start clicked at once:
    at.button(key="rl.start").click().run()  # the run started is the form as it is at the click
    assert not at.exception
    [folder] = list((tmp_path / "rl").iterdir())
    job = TrainingJob(folder)
    spec = json.loads((folder / "spec.json").read_text())
    assert (spec["data"]["synthetic"], spec["config"]["updates"]) == (60, 200)  # the small run asked for
    assert at.button(key="rl.start").disabled  # one run at a time
    deadline = time.time() + 120
    while job.status() == "running":
        assert time.time() < deadline, "the run did not end"
        time.sleep(0.5)
    assert job.status() == "finished", job.failure()
    at.run()
    assert not at.exception
    facts = [t.value for t in at.table]
    assert facts and "greedy move optimal (dev)" in facts[0].index
    assert any(str(job.checkpoint) in c.value for c in at.code)
