"""The Train page names runs by what they are, tables the ended ones with their dev and test
scores, and adds each run that ends to the comparison by itself.  Runs are laid on disk as a
job leaves them (spec, log, exit code), so nothing trains here."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from parsing_core.model import (
    DataSpec,
    EpochEvent,
    ModelConfig,
    StartEvent,
    TestEvent,
    TrainConfig,
    TrainSpec,
)
from server.jobs import JobBoard, TrainingJob
from ui.views.training import (
    PAGE_DEFAULTS,
    PRESETS,
    kept_epoch,
    may_stop,
    result_row,
    run_name,
    run_title,
    shared_server,
    with_new_runs,
)


def epoch(n: int, of: int, uas: float | None) -> EpochEvent:
    return EpochEvent(n, of, False, 0.5, uas, None if uas is None else uas - 0.01, uas, uas, 0.1,
                      sentences=10, steps=100, errors=3, explored=0, dropped=0, seconds=2.0,
                      sentences_per_s=5.0, device="cpu")


def lay_run(root: Path, name: str, spec: TrainSpec, dev: list[float], test: float | None = None,
            status: str = "finished", counted: tuple[int, int] | None = None) -> TrainingJob:
    """A run's folder as the job leaves it: spec, log (start, epochs, test), exit code; ``counted``:
    the sentences trained on and offered, as the start line says (None: an older log)."""
    folder = root / name
    folder.mkdir(parents=True)
    spec.save(folder / "spec.json")
    (folder / "kind").write_text("train")
    (folder / "command.json").write_text(json.dumps(["python", "-m", "parsing_core.train"]))
    lines = [StartEvent("synthetic", spec.system, "cpu", spec.train, spec.model, *(counted or ()))]
    lines += [epoch(i, spec.train.epochs, uas) for i, uas in enumerate(dev, start=1)]
    lines += [TestEvent(test, test - 0.02, test, test)] if test is not None else []
    (folder / "log.jsonl").write_text("".join(json.dumps(r.to_json()) + "\n" for r in lines))
    (folder / "exitcode").write_text("1" if status == "failed" else "0")
    if status == "stopped":
        (folder / "stopped").touch()
    if status == "failed":
        (folder / "stderr.txt").write_text("error: the oracle could not be found\n")
    return TrainingJob(folder)


STATIC = replace(PAGE_DEFAULTS, train=replace(PAGE_DEFAULTS.train, regime="static", oracle="static",
                                              epochs=4))
DYNAMIC = replace(PAGE_DEFAULTS, train=replace(PAGE_DEFAULTS.train, epochs=4))


def test_a_run_is_named_by_system_regime_oracle_data_epochs_and_size() -> None:
    spec = TrainSpec(DataSpec(treebank="en_lines"), "arc-eager", TrainConfig(regime="nondeterministic",
                     oracle="goldberg-nivre", epochs=7), ModelConfig.preset("tiny"))
    assert run_title(spec) == "arc-eager · nondeterministic, goldberg-nivre · en_lines · 7 epochs · tiny"
    assert run_name(spec) == "arc-eager-nondeterministic-goldberg-nivre-en_lines-7ep-tiny"
    assert run_title(STATIC).startswith("arc-hybrid · static oracle · synthetic 1000 (80% non-proj.) · 4 ")
    assert run_name(replace(spec, data=DataSpec(train="/x/my train.conllu"))).endswith("-my-train-7ep-tiny")


def test_each_preset_starts_two_runs_that_differ_in_what_it_asks() -> None:
    static_dynamic = PRESETS[0]
    assert "80 %" in static_dynamic.title and len(static_dynamic.runs) == 2
    static, dynamic = static_dynamic.runs
    assert {static.data.nonprojective, dynamic.data.nonprojective} == {0.8}
    assert (static.train.regime, static.train.oracle) == ("static", "static")
    assert (dynamic.train.regime, dynamic.train.oracle) == ("dynamic", "goldberg-nivre")
    for preset in PRESETS:
        assert len(preset.runs) <= 2  # the board runs two at once
        assert len({run_name(s) for s in preset.runs}) == len(preset.runs)


def test_the_kept_epoch_is_the_first_with_the_best_dev_uas() -> None:
    epochs = [epoch(1, 4, 0.5), epoch(2, 4, 0.9), epoch(3, 4, 0.9), epoch(4, 4, 0.8)]
    assert kept_epoch(epochs, keep_best=True).epoch == 2
    assert kept_epoch(epochs, keep_best=False).epoch == 4
    assert kept_epoch([], keep_best=True) is None


def test_a_result_row_has_the_kept_epochs_dev_scores_and_the_test_scores() -> None:
    events = [epoch(1, 4, 0.5), epoch(2, 4, 0.9), epoch(3, 4, 0.8), TestEvent(0.88, 0.86, 0.88, 0.86)]
    row = result_row("run", "now", "stopped", DYNAMIC, events)
    assert row["Epochs"] == "3/4" and row["Kept epoch"] == 2
    assert (row["Dev UAS"], row["Dev LAS"], row["Test UAS"], row["Test LAS"]) == (90.0, 89.0, 88.0, 86.0)
    assert row["Training s"] == 6.3
    assert result_row("run", "now", "stopped", DYNAMIC, [])["Test UAS"] is None


def test_new_runs_join_the_comparison_and_removed_ones_stay_out() -> None:
    assert with_new_runs([], seen=["a"], available=["a", "b"]) == ["b"]
    assert with_new_runs(["b"], seen=["a", "b"], available=["a", "b"]) == ["b"]


def test_the_stop_rule() -> None:
    assert not shared_server({}) and shared_server({"PARSING_SHARED_SERVER": "1"})
    assert not shared_server({"PARSING_SHARED_SERVER": "0"})
    assert may_stop(None, "me", shared=False) and may_stop("me", "me", shared=True)
    assert not may_stop(None, "me", shared=True) and not may_stop("you", "me", shared=True)


@pytest.fixture
def jobs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PARSING_JOBS_DIR", str(tmp_path))
    return tmp_path


def table(at: AppTest) -> list[dict[str, object]]:
    (frame,) = at.table
    return frame.value.to_dict("records")


def test_the_page_tables_ended_runs_and_compares_each_new_one(jobs: Path) -> None:
    lay_run(jobs, "20260101-100000-static", STATIC, [0.6, 0.7, 0.75, 0.74], test=0.72, counted=(205, 1000))
    lay_run(jobs, "20260101-100100-dynamic", DYNAMIC, [0.7, 0.9], status="stopped", counted=(1000, 1000))
    lay_run(jobs, "20260101-100200-broken", DYNAMIC, [], status="failed")
    at = AppTest.from_file("../pages/train.py", default_timeout=60).run()
    assert not at.exception
    rows = table(at)
    assert [r["Status"] for r in rows] == ["failed", "stopped", "finished"]  # newest first
    stopped, finished = rows[1], rows[2]
    assert finished["Run"] == run_title(STATIC) and finished["Epochs"] == "4/4"
    assert (finished["Kept epoch"], finished["Dev UAS"], finished["Test UAS"], finished["Test LAS"]) == (
        3, 75.0, 72.0, 70.0)
    assert stopped["Epochs"] == "2/4" and stopped["Dev UAS"] == 90.0
    assert (finished["Trained on"], stopped["Trained on"]) == ("205 of 1,000 sentences", "1,000 sentences")
    assert pd.isna(rows[0]["Trained on"])  # an older log, not counted: shown "—"
    assert any("the oracle could not be found" in e.value for e in at.error)
    compared = at.multiselect(key="train.compare")
    assert compared.value == ["20260101-100000-static", "20260101-100100-dynamic"]
    compared.unselect("20260101-100000-static").run()
    lay_run(jobs, "20260101-100300-new", DYNAMIC, [0.8, 0.85, 0.9, 0.95], test=0.93)
    at.run()
    assert at.multiselect(key="train.compare").value == ["20260101-100100-dynamic", "20260101-100300-new"]
    assert len(table(at)) == 4


def test_a_run_laid_by_another_board_is_listed_with_its_title(jobs: Path) -> None:
    job = lay_run(jobs, "20260101-090000-x", STATIC, [0.5])
    assert JobBoard(jobs).jobs() == [job] and job.status() == "finished"
    at = AppTest.from_file("../pages/train.py", default_timeout=60).run()
    assert table(at)[0]["Run"] == run_title(STATIC)


def test_a_run_going_says_how_many_sentences_it_left_out() -> None:
    """The static oracle needs trees the system can build: a run going says it trains on fewer."""
    from ui.views.training import progress

    static = StartEvent("synthetic", "arc-hybrid", "cpu", STATIC.train, STATIC.model, 205, 1000)
    every = StartEvent("synthetic", "arc-hybrid", "cpu", DYNAMIC.train, DYNAMIC.model, 1000, 1000)
    assert progress([static]).text.endswith(" · 205 of 1,000 sentences")
    assert "sentences ·" not in progress([every]).text and not progress([every]).text.endswith("sentences")
