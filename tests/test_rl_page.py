"""The RL oracle page: a small DQN run started from the page goes on in its own process, its
curves grow, and once it has ended its summary stands beside the untrained network's score, says
whether it learned, and one click puts its oracle in the Stepper (no restart, no setting)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import parsing_core as pc
from parsing_core.rl.oracle import runs_folder, trained_models
from server.jobs import TrainingJob
from ui.views.training import jobs_root

REPO = Path(__file__).resolve().parents[1]
PAGE = REPO / "pages" / "rl.py"


def run_tiny(at: AppTest, folder: Path) -> TrainingJob:
    """Start the smallest run from the page and wait for its end."""
    at.number_input(key="rl.sentences").set_value(60)
    at.number_input(key="rl.updates").set_value(200)  # typed, then Start clicked at once:
    at.button(key="rl.start").click().run()  # the run started is the form as it is at the click
    assert not at.exception
    [run] = list((folder / "rl").iterdir())
    job = TrainingJob(run)
    spec = json.loads((run / "spec.json").read_text())
    assert (spec["data"]["synthetic"], spec["config"]["updates"]) == (60, 200)  # the small run asked for
    assert at.button(key="rl.start").disabled  # one run at a time
    deadline = time.time() + 120
    while job.status() == "running":
        assert time.time() < deadline, "the run did not end"
        time.sleep(0.5)
    assert job.status() == "finished", job.failure()
    return job


def test_a_tiny_run_is_read_against_the_untrained_network_and_opens_in_the_stepper(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARSING_JOBS_DIR", str(tmp_path))
    monkeypatch.delenv("PARSING_DQN_MODEL", raising=False)
    at = AppTest.from_file(str(PAGE), default_timeout=60).run()
    assert not at.exception and any("No DQN run is going" in c.value for c in at.caption)
    job = run_tiny(at, tmp_path)
    at.run()
    assert not at.exception
    (facts,) = [t.value for t in at.table]
    assert list(facts.columns) == ["untrained (0 updates)", "after 200 updates"]
    assert "greedy move optimal (dev)" in facts.index
    assert "mean |Q + cost| (→ 0)" in facts.index  # the exact reward: Q* is minus the cost
    (said,) = [w.value for w in at.warning if "learned nothing" in w.value]  # 200 updates: too few
    untrained = facts.loc["greedy move optimal (dev)", "untrained (0 updates)"]
    assert "before any update" in said and f"against {untrained}" in said
    assert not any("PARSING_DQN_MODEL" in c.value for c in at.code)  # no restart, no setting
    name = f"dqn:{job.folder.name}"
    assert trained_models() == [name] and runs_folder() == jobs_root() / "rl"
    at.button(key=f"rl.use.{job.folder.name}").click().run()  # one click (here: no menu to switch with)
    assert not at.exception
    stepper = AppTest.from_function(stepper_after, default_timeout=60)
    stepper.session_state["stepper.state"] = at.session_state["stepper.state"]  # the session goes on
    stepper.run()
    assert not stepper.exception
    assert stepper.selectbox(key="stepper.system").value == "arc-standard"
    assert stepper.selectbox(key="stepper.oracle").value == name
    assert stepper.selectbox(key="stepper.compare").value == "exact"
    (shown,) = [o for o in stepper.selectbox(key="stepper.oracle").options if o.startswith("dqn · ")]
    assert shown.startswith("dqn · exact reward · synthetic 60 · 200 updates · finished · ")
    assert any(f"{name}: learned" in c.value for c in stepper.caption)


def stepper_after() -> None:
    """The Stepper page, in a session that has been elsewhere before."""
    import runpy
    from pathlib import Path

    runpy.run_path(str(Path.cwd() / "pages" / "stepper.py"))


def test_a_dqn_run_is_an_oracle_by_its_name_and_its_name_reaches_no_other_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARSING_JOBS_DIR", str(tmp_path))
    system = pc.get_system("arc-standard")
    assert not any(n.startswith("dqn:") for n in pc.list_oracles(system))
    with pytest.raises(pc.ParsingCoreError, match="no DQN model at"):
        pc.get_oracle(system, "dqn:../../etc")  # not a run's name: read as a path, which holds no model
    with pytest.raises(pc.ParsingCoreError, match="no DQN model at"):
        pc.get_oracle(system, "dqn:20261127-000000-none")


def test_the_baseline_is_the_untrained_network_and_leaves_the_training_as_it_was() -> None:
    from parsing_core.rl import RLConfig
    from parsing_core.rl.trainer import DQNTrainer
    from parsing_core.synthetic import synthetic_treebank

    train = synthetic_treebank(20, seed=1, max_len=8)
    config = RLConfig(updates=20, slots=4, batch_size=16, learn_start=16, report_every=10, eval_every=0)
    plain = DQNTrainer(train, train[:4], config).run().history
    with_baseline = DQNTrainer(train, train[:4], RLConfig.from_dict({**config.to_dict(), "baseline": True}))
    first, *rest = with_baseline.run().history
    assert first.update == 0 and type(first).__name__ == "RLEvalEvent"

    def seen(history: list) -> list[tuple]:
        return [(type(e).__name__, getattr(e, "agreement", None), getattr(e, "td_loss", None))
                for e in history]

    assert seen(rest) == seen(plain)


def test_under_the_thesis_reward_the_q_gap_is_not_said_to_fall_to_zero() -> None:
    """Only the exact reward makes Q* minus the cost; the thesis reward's run summary must not
    promise that |Q + cost| falls to 0."""
    from parsing_core.rl.events import RLEvalEvent
    from ui.rl.runs_view import summary

    start = RLEvalEvent(update=0, agreement=0.5, q_error=2.0, uas=0.1, configurations=50, sentences=5,
                        seconds=0.1)
    rows = {reward: list(summary([start], reward).index)[1] for reward in ("exact", "thesis", None)}
    assert rows == {"exact": "mean |Q + cost| (→ 0)",
                    "thesis": "mean |Q + cost| (thesis reward: need not → 0)", None: "mean |Q + cost|"}
