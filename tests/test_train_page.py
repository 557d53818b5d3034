"""The Train page starts a run in its own process, shows it, and stops it."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import parsing_core as pc
from parsing_core.jobs import TrainingJob
from parsing_core.model import ModelConfig, TrainSpec
from tests.conftest import Server


def test_start_watch_and_stop_a_run(tmp_path, monkeypatch):
    monkeypatch.setenv("PARSING_JOBS_DIR", str(tmp_path))
    at = AppTest.from_file("../pages/train.py", default_timeout=60).run()
    assert not at.exception
    at.selectbox(key="train.size").set_value("tiny")
    at.number_input(key="train.epochs").set_value(30)
    at.button(key="train.start").click().run()
    assert not at.exception
    folders = [p for p in tmp_path.iterdir() if p.is_dir()]
    assert len(folders) == 1
    job = TrainingJob(folders[0])
    assert job.status() == "running"
    deadline = time.time() + 60
    while not any(r["event"] == "epoch" for r in job.reports()):
        assert time.time() < deadline
        time.sleep(0.3)
    at.run()
    assert any("epoch" in p.text for p in at.get("progress")) or at.get("plotly_chart")
    at.button(key="train.stop").click().run()
    assert job.status() == "stopped"
    assert not at.exception


def tiny_treebank(folder: Path) -> None:
    """A treebank folder of our own: the teaching sentences as ``xx_teach`` train and dev."""
    folder.mkdir(parents=True, exist_ok=True)
    for split in ("train", "dev"):
        pc.write_conllu(pc.teaching_sentences(), folder / f"xx_teach-ud-{split}.conllu")


def test_a_treebank_from_a_typed_data_directory_trains(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARSING_JOBS_DIR", str(tmp_path / "jobs"))
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
