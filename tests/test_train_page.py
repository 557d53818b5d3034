"""The Train page starts runs in their own processes, lists them from the jobs board (so a refresh
or another browser finds them, each with a Stop that works), and shows the buttons as they are
right after a click."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import parsing_core as pc
from parsing_core.checkpoint import load_checkpoint
from parsing_core.model import ModelConfig, TrainSpec
from server.jobs import JobBoard, TrainingJob
from tests.conftest import Server
from ui.views.safe_text import inert
from ui.views.training import PRESETS, jobs_root, run_name, run_title
from ui.widgets.checkpoints import finished_runs


def wait_for(condition, seconds: float = 90) -> None:
    deadline = time.time() + seconds
    while not condition():
        assert time.time() < deadline, "timed out"
        time.sleep(0.3)


def open_page(query: dict[str, str] | None = None) -> AppTest:
    """The Train page in a new browser session (as after a refresh, or from another browser)."""
    at = AppTest.from_file("../pages/train.py", default_timeout=60)
    at.query_params.update(query or {})
    return at.run()


def start_tiny(at: AppTest) -> TrainingJob:
    """Start a tiny run of many epochs from the page; returns its job once an epoch has ended."""
    before = {j.folder for j in JobBoard(jobs_root()).jobs()}
    at.selectbox(key="train.size").set_value("tiny")
    at.button(key="train.start").click().run()
    assert not at.exception
    (job,) = [j for j in JobBoard(jobs_root()).jobs() if j.folder not in before]
    wait_for(lambda: any(r["event"] == "epoch" for r in job.reports()))
    return job


def stop_button(at: AppTest, job: TrainingJob):
    return at.button(key=f"train.stop.{job.folder.name}")


def stop_keys(at: AppTest) -> list[str]:
    return [b.key for b in at.button if b.key.startswith("train.stop.")]


@pytest.fixture
def jobs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty jobs board; every run still going at the end is stopped."""
    monkeypatch.setenv("PARSING_JOBS_DIR", str(tmp_path))
    monkeypatch.delenv("PARSING_SHARED_SERVER", raising=False)
    yield tmp_path
    for job in JobBoard(tmp_path).running():
        job.stop()


def test_start_watch_and_stop_a_run_with_the_buttons_right_at_once(jobs: Path) -> None:
    at = open_page()
    job = start_tiny(at)
    assert job.status() == "running" and job.owner() == at.session_state["train.tab"]
    at.run()
    assert any("epoch" in p.text and inert(run_title(job.spec())) in p.text for p in at.get("progress"))
    assert at.get("plotly_chart")
    stop_button(at, job).click().run()  # one click, one run: nothing else reruns the page
    assert job.status() == "stopped" and job.exit_code() is not None
    assert not at.button(key="train.start").disabled
    assert stop_keys(at) == []
    assert any(c.value == "No run is going now." for c in at.caption)
    assert not at.exception


def chart_titles(at: AppTest) -> list[str]:
    return sorted(json.loads(c.proto.spec)["layout"]["title"]["text"] for c in at.get("plotly_chart"))


def test_the_frame_of_the_curves_waits_while_no_run_goes_and_gives_way_to_a_run(jobs: Path) -> None:
    at = open_page()
    assert chart_titles(at) == ["Training loss per batch"]  # empty axes: where a run's loss will grow
    job = start_tiny(at)
    at.run()
    assert chart_titles(at) == ["Dev accuracy per epoch", "Training loss per batch"]  # the run's own
    stop_button(at, job).click().run()
    assert chart_titles(at) == ["Dev accuracy per epoch", *["Training loss per batch"] * 2]  # the frame
    # again, and the ended run's curves under Results
    assert not at.exception


def test_after_a_refresh_the_run_is_listed_with_a_stop_that_works(jobs: Path) -> None:
    job = start_tiny(open_page())
    again = open_page()  # a new session: the first one's state is gone
    assert stop_keys(again) == [f"train.stop.{job.folder.name}"]
    assert any(inert(run_title(job.spec())) in p.text for p in again.get("progress"))
    stop_button(again, job).click().run()
    wait_for(lambda: pid_gone(job), 10)
    assert job.status() == "stopped" and job.checkpoint.exists()  # the best epoch so far, for the stepper
    assert load_checkpoint(job.checkpoint).info["stopped"] is True
    assert [r.name for r in finished_runs()] == [job.folder.name]  # the stepper's model picker offers it
    (title,) = [r.shown for r in finished_runs()]  # named by what it is, not by its folder
    assert title.startswith("arc-hybrid · dynamic · synthetic 1000 (80% non-proj.) · stopped at epoch ")
    assert job.folder.name not in title and "dev UAS" in title
    assert any(r["Status"] == "stopped" for r in again.table[0].value.to_dict("records"))


def test_the_default_run_and_the_first_preset_show_why_the_oracle_matters(jobs: Path) -> None:
    """80 % non-projective data, where the static oracle learns from 200 of 1,000 trees: Start runs
    it with the dynamic oracle, the button beside it the same data with both oracles."""
    at = open_page()
    assert at.slider(key="train.rate").value == 0.8
    title = ("arc-hybrid · dynamic, goldberg-nivre, k=1 p=0.9 · synthetic 1000 (80% non-proj.) · 10 epochs · "
             "small")
    assert f"**Start training**: {inert(title)}." in at.caption[0].value
    at.button(key="train.first.start").click().run()
    specs = sorted((j.spec() for j in JobBoard(jobs).jobs()), key=lambda spec: spec.train.regime)
    assert [(s.train.regime, s.data.nonprojective, s.data.synthetic, s.train.epochs) for s in specs] == [
        ("dynamic", 0.8, 1000, 10), ("static", 0.8, 1000, 10)]
    assert not at.exception


def test_the_static_regime_trains_with_the_static_oracle(jobs: Path) -> None:
    """The static regime follows the static oracle's derivation: with the form's default oracle
    (goldberg-nivre) left as it was, a run once started and failed at once."""
    at = open_page()
    at.selectbox(key="train.regime").set_value("static").run()
    assert any("trains with it, not with goldberg-nivre" in c.value for c in at.caption)
    at.selectbox(key="train.size").set_value("tiny")
    at.button(key="train.start").click().run()
    assert not at.exception
    (job,) = JobBoard(jobs_root()).jobs()
    spec = TrainSpec.load(job.folder / "spec.json")
    assert (spec.train.regime, spec.train.oracle) == ("static", "static")


def test_a_full_board_is_shown_with_every_stop_and_start_disabled(jobs: Path) -> None:
    at = open_page()
    at.button(key="train.preset.start").click().run()  # static vs dynamic at 80 % non-projective
    first, second = JobBoard(jobs).jobs()
    assert sorted([first.spec(), second.spec()], key=run_name) == sorted(PRESETS[0].runs, key=run_name)
    other = open_page()  # another browser
    assert sorted(stop_keys(other)) == sorted(f"train.stop.{j.folder.name}" for j in (first, second))
    assert other.button(key="train.start").disabled and other.button(key="train.preset.start").disabled
    stop_button(other, first).click().run()
    assert not other.button(key="train.start").disabled
    assert stop_keys(other) == [f"train.stop.{second.folder.name}"]


def test_on_a_shared_server_only_the_tab_that_started_a_run_may_stop_it(
        jobs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARSING_SHARED_SERVER", "1")
    mine = open_page()
    token = mine.query_params["tab"]  # the tab's token rides in its address
    job = start_tiny(mine)
    stranger = open_page()
    assert stop_keys(stranger) == []
    assert any("someone else's run" in c.value for c in stranger.caption)
    assert any("Shared server" in c.value for c in stranger.caption)
    refreshed = open_page({"tab": token})  # the same tab after a refresh
    stop_button(refreshed, job).click().run()
    assert job.status() == "stopped"


def pid_gone(job: TrainingJob) -> bool:
    return not Path(f"/proc/{job.pid()}").exists()


def tiny_treebank(folder: Path) -> None:
    """A treebank folder of our own: the teaching sentences as ``xx_teach`` train and dev."""
    folder.mkdir(parents=True, exist_ok=True)
    for split in ("train", "dev"):
        pc.write_conllu(pc.teaching_sentences(), folder / f"xx_teach-ud-{split}.conllu")


def test_a_treebank_from_a_typed_data_directory_trains(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARSING_JOBS_DIR", str(tmp_path / "jobs"))
    monkeypatch.setenv("PARSING_ALLOWED_DIRS", str(tmp_path))  # a folder the server may read
    tiny_treebank(tmp_path / "data")
    at = AppTest.from_file("../pages/train.py", default_timeout=60).run()
    at.radio(key="train.source").set_value("folder").run()
    at.text_input(key="train.folder").input(str(tmp_path / "nowhere")).run()
    assert any("There is no folder" in e.value for e in at.error)
    assert at.button(key="train.start").disabled
    at.text_input(key="train.folder").input(str(tmp_path / "data")).run()
    assert at.selectbox(key="train.data").options == ["xx_teach"]
    at.selectbox(key="train.size").set_value("tiny")
    at.number_input(key="train.epochs").set_value(1)
    at.button(key="train.start").click().run()
    assert not at.exception
    (folder,) = (tmp_path / "jobs").iterdir()
    spec = TrainSpec.load(folder / "spec.json")
    assert spec.data.treebank == "xx_teach"
    assert spec.data.data_dir == str(tmp_path / "data")
    assert spec.model == ModelConfig.preset("tiny") and spec.train.epochs == 1
    command = json.loads((folder / "command.json").read_text())
    assert command[command.index("--spec") + 1] == str(folder / "spec.json")
    job = TrainingJob(folder)
    deadline = time.time() + 120
    while job.status() == "running":
        assert time.time() < deadline
        time.sleep(0.5)
    assert job.status() == "finished", job.failure()
    assert any(r["event"] == "epoch" for r in job.reports())


def test_a_ud_treebank_is_downloaded_by_name_with_progress(tmp_path: Path, server: Server,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARSING_UD_URL", server.base_url)
    monkeypatch.setenv("PARSING_CACHE_DIR", str(tmp_path / "cache"))
    text = pc.write_conllu(pc.teaching_sentences())
    server.files["/UD_English-LinES/master/en_lines-ud-train.conllu"] = text.encode()
    server.files["/UD_English-LinES/master/en_lines-ud-dev.conllu"] = text.encode()
    at = AppTest.from_file("../pages/train.py", default_timeout=60).run()
    at.radio(key="train.source").set_value("ud").run()
    assert at.text_input(key="train.ud").value == "en_lines"
    assert at.button(key="train.start").disabled
    at.button(key="train.download").click().run()
    assert not at.exception
    assert any("No test split" in i.value and "HTTP 404" in i.value for i in at.info)
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == [
        "en_lines-ud-dev.conllu", "en_lines-ud-train.conllu"]
    at.run()
    assert any("is downloaded" in c.value for c in at.caption)
    assert not at.button(key="train.start").disabled


def test_a_download_that_fails_says_why(tmp_path: Path, server: Server,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARSING_UD_URL", server.base_url)
    monkeypatch.setenv("PARSING_CACHE_DIR", str(tmp_path / "cache"))
    at = AppTest.from_file("../pages/train.py", default_timeout=60).run()
    at.radio(key="train.source").set_value("ud").run()
    at.text_input(key="train.ud").input("de_gsd").run()
    at.button(key="train.download").click().run()
    assert any("could not download de" in e.value and "HTTP 404" in e.value for e in at.error)
    assert at.button(key="train.start").disabled


def test_mixed_precision_is_offered_where_the_processor_has_bfloat16(jobs: Path) -> None:
    import torch

    from parsing_core.model.device import bfloat16_native

    at = open_page()
    box = at.checkbox(key="train.bfloat16")
    if not bfloat16_native(torch.device("cpu")):
        assert box.disabled and "no native bfloat16" in box.help
        return
    assert not box.disabled and not box.value  # float32 unless asked
    box.check()
    at.selectbox(key="train.size").set_value("tiny")
    at.button(key="train.start").click().run()
    assert not at.exception
    (job,) = JobBoard(jobs).jobs()
    assert job.spec().train.precision == "bfloat16"
    assert run_title(job.spec()).endswith("· bfloat16")


def test_imitation_trains_with_the_dqn_run_picked(jobs: Path) -> None:
    """A DQN run saved on the server is an oracle of its own (``dqn:<run>``); picked, imitation
    follows it.  With another oracle picked, the run imitates the first learned one, and says so."""
    from parsing_core.rl import RLConfig, RLSpec, save_dqn
    from parsing_core.rl.network import DuelingQNetwork

    runs = ["20261129-100000-first", "20261129-100001-second"]
    for run in runs:
        folder = jobs / "rl" / run
        folder.mkdir(parents=True)
        config = RLConfig(hidden=8)
        save_dqn(folder / "model.pt", DuelingQNetwork(config.features.size, 8), config)
        RLSpec(config=config).save(folder / "spec.json")
    at = open_page()
    at.selectbox(key="train.system").set_value("arc-standard").run()
    at.selectbox(key="train.oracle").set_value("exact").run()
    at.selectbox(key="train.regime").set_value("imitation").run()
    listed = [o for o in at.selectbox(key="train.oracle").options if o.startswith("dqn")]
    assert len(listed) == 2, at.selectbox(key="train.oracle").options
    (said,) = [c.value for c in at.caption if "Imitation follows a learned oracle" in c.value]
    assert "not exact" in said
    at.selectbox(key="train.oracle").set_value(f"dqn:{runs[0]}").run()
    assert not any("Imitation follows a learned oracle" in c.value for c in at.caption)
    at.selectbox(key="train.size").set_value("tiny")
    at.button(key="train.start").click().run()
    assert not at.exception
    (job,) = [j for j in JobBoard(jobs_root()).jobs()]
    spec = TrainSpec.load(job.folder / "spec.json")
    assert (spec.train.regime, spec.train.oracle) == ("imitation", f"dqn:{runs[0]}")
