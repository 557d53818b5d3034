"""Jobs from specs: a run's settings as one value, written to spec.json, read back by the job;
the log's lines as typed records that round-trip through JSON."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

import pytest

import parsing_core as pc
from parsing_core import train as train_cli
from parsing_core.errors import ParsingCoreError
from parsing_core.model import (
    DEFAULT_PRESET,
    MODEL_PRESETS,
    BatchEvent,
    DataSpec,
    EpochEvent,
    ModelConfig,
    StartEvent,
    TestEvent,
    TrainConfig,
    TrainSpec,
    read_event,
)
from server.jobs import TRAIN, JobBoard, JobError, TrainingJob, get_kind, kind_of_spec
from ui.views.training import (
    PAGE_DEFAULTS,
    accuracy_figure,
    data_spec,
    default_choice,
    loss_figure,
    progress,
    run_spec,
)

TINY = TrainSpec(DataSpec(synthetic=40, nonprojective=0.5), "arc-standard",
                 TrainConfig(epochs=1, oracle="thesis-approx", explore_after=0, seed=3),
                 ModelConfig(word_dim=16, lstm_dim=16, lstm_layers=1, mlp_dim=16))
FLAGS = ["--synthetic", "40", "--nonprojective", "0.5", "--system", "arc-standard", "--epochs", "1",
         "--oracle", "thesis-approx", "--explore-after", "0", "--seed", "3", "--word-dim", "16",
         "--lstm-dim", "16", "--lstm-layers", "1", "--mlp-dim", "16"]
# The walk counts of a batch of 8 sentences, and of an epoch of 40 (a record's own fields go first).
WALKS = {"sentences": 8, "steps": 100, "errors": 3, "explored": 2, "dropped": 0, "seconds": 0.01,
         "sentences_per_s": 800.0, "device": "cpu"}


def epoch_walks(steps: int, errors: int, explored: int, dropped: int) -> dict[str, Any]:
    return {"sentences": 40, "steps": steps, "errors": errors, "explored": explored, "dropped": dropped,
            "seconds": 0.2, "sentences_per_s": 200.0, "device": "cpu"}


def wait_for(condition, seconds: float = 60) -> None:
    deadline = time.time() + seconds
    while not condition():
        assert time.time() < deadline, "timed out"
        time.sleep(0.2)


def test_presets_are_named_and_the_default_is_one_of_them() -> None:
    assert list(MODEL_PRESETS) == ["tiny", "small", "default"] and DEFAULT_PRESET in MODEL_PRESETS
    assert ModelConfig.preset("default") == ModelConfig()
    assert ModelConfig.preset("tiny").lstm_layers == 1
    with pytest.raises(ParsingCoreError, match="no model preset 'huge'"):
        ModelConfig.preset("huge")


def test_a_spec_round_trips_through_spec_json(tmp_path: Path) -> None:
    path = TINY.save(tmp_path / "spec.json")
    assert TrainSpec.load(path) == TINY
    assert train_cli.spec_of(train_cli.arguments().parse_args(["--spec", str(path)])) == TINY
    assert TrainSpec.from_json({}) == TrainSpec()
    with pytest.raises(ParsingCoreError, match="TrainSpec has no setting colour"):
        TrainSpec.from_json({"colour": "red"})
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ParsingCoreError, match="cannot read the training spec"):
        TrainSpec.load(tmp_path / "bad.json")


def test_the_flags_and_the_spec_build_equal_specs(tmp_path: Path) -> None:
    from_flags = train_cli.spec_from_flags(train_cli.arguments().parse_args(FLAGS))
    assert from_flags == TINY
    path = from_flags.save(tmp_path / "spec.json")
    assert train_cli.spec_of(train_cli.arguments().parse_args(["--spec", str(path)])) == from_flags
    assert train_cli.spec_from_flags(train_cli.arguments().parse_args([])) == TrainSpec()
    compiled = train_cli.spec_from_flags(train_cli.arguments().parse_args(["--compile-steps"]))
    assert compiled.train.compile_steps and not TrainSpec().train.compile_steps


def test_kinds_are_found_from_the_spec_class() -> None:
    assert kind_of_spec(TINY) is TRAIN and get_kind("train") is TRAIN
    assert TRAIN.module == "parsing_core.train"
    with pytest.raises(JobError, match="no kind of job 'lunch'"):
        get_kind("lunch")


def test_a_job_started_from_a_spec_finishes_with_the_expected_events(tmp_path: Path) -> None:
    job = JobBoard(tmp_path).start("spec", TINY)
    assert json.loads(job.spec_file.read_text()) == TINY.to_json()
    assert job.spec() == TINY and job.kind is TRAIN
    wait_for(lambda: job.status() != "running")
    assert job.status() == "finished", job.failure()
    records = TrainingJob(job.folder).events()
    start, *batches, epoch, test = records
    assert isinstance(start, StartEvent) and isinstance(epoch, EpochEvent) and isinstance(test, TestEvent)
    assert batches and all(isinstance(b, BatchEvent) and b.epoch == 1 for b in batches)
    assert [b.batch for b in batches] == list(range(1, batches[0].batches + 1))
    assert start.system == "arc-standard" and start.model == TINY.model
    assert start.train == TINY.train  # the oracle and regime as resolved: here as given
    assert epoch.epochs == 1 and epoch.dev_uas is not None and 0 <= test.test_uas <= 1
    assert job.checkpoint.exists()


def test_a_static_run_logs_how_many_training_sentences_it_left_out(tmp_path: Path) -> None:
    """Half of the 40 synthetic trees cross: arc-hybrid cannot build them, and the static oracle
    needs a tree it can build.  The log says how many the run trained on, for the Train page."""
    log = tmp_path / "log.jsonl"
    flags = [*FLAGS[:FLAGS.index("--system")], "--system", "arc-hybrid", "--epochs", "1",
             "--oracle", "static", "--regime", "static", *FLAGS[FLAGS.index("--explore-after"):]]
    assert train_cli.main([*flags, "--log", str(log)]) == 0
    start = read_event(json.loads(log.read_text().splitlines()[0]))
    assert isinstance(start, StartEvent) and start.offered == 40
    assert start.sentences is not None and 10 < start.sentences < 30
    assert start.left_out == 40 - start.sentences


def test_every_line_of_a_cli_log_round_trips_through_its_record(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    assert train_cli.main([*FLAGS, "--epochs", "2", "--log", str(log)]) == 0
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [line["event"] for line in lines][0::len(lines) - 1] == ["start", "test"]
    for line in lines:
        record = read_event(line)
        assert record.to_json() == line and list(record.to_json()) == list(line)  # same keys, same order
        assert read_event(json.loads(json.dumps(record.to_json()))) == record


def test_each_record_round_trips_through_json() -> None:
    records = [
        StartEvent("synthetic (40, 50% non-projective)", "arc-hybrid", "cpu", TrainConfig(oracle="static",
                   regime="static"), ModelConfig.preset("tiny")),
        StartEvent("synthetic (40, 50% non-projective)", "arc-hybrid", "cpu", TrainConfig(oracle="static",
                   regime="static"), ModelConfig.preset("tiny"), sentences=19, offered=40),
        BatchEvent(0.5, 0.4, 0.1, **WALKS, epoch=1, batch=2, batches=5),
        EpochEvent(1, 3, True, 0.5, **epoch_walks(500, 20, 18, 1)),
        EpochEvent(2, 3, True, 0.4, 0.8, 0.7, 0.82, 0.71, 0.05, **epoch_walks(500, 15, 13, 0)),
        TestEvent(0.8, 0.7, 0.82, 0.71),
    ]
    for record in records:
        assert read_event(json.loads(json.dumps(record.to_json()))) == record
    assert "sentences" not in records[0].to_json() and records[1].left_out == 21  # an older log: not counted
    assert "dev_uas" not in records[3].to_json() and records[3].dev_scores == {}
    assert records[4].dev_scores == {"uas": 0.8, "las": 0.7, "uas_nopunct": 0.82, "las_nopunct": 0.71}


def test_the_progress_bar_draws_on_a_terminal_and_summarises_each_epoch() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Terminal()
    bar = train_cli.ProgressBar(stream)
    for b in (1, 2):
        bar.batch(BatchEvent(0.5, 0.4, 0.1, **WALKS, epoch=1, batch=b, batches=2))
    bar.epoch(EpochEvent(1, 3, True, 0.5, 0.8, 0.7, 0.82, 0.71, 0.05, **epoch_walks(500, 20, 18, 1)))
    text = stream.getvalue()
    assert "epoch 1:" in text and "/2 [" in text  # tqdm's bar (redrawn at most every 0.1 s)
    assert "epoch 1/3  loss 0.500" in text and "UAS 80.00" in text and "1 walks left out" in text


def test_the_page_builds_the_spec_its_old_command_line_meant() -> None:
    spec = run_spec(data_spec("synthetic", nonprojective=0.6), "arc-eager", "goldberg-nivre", "dynamic", 7, 2,
                    0.8, "tiny")
    old = ["--system", "arc-eager", "--oracle", "goldberg-nivre", "--regime", "dynamic", "--epochs", "7",
           "--explore-after", "2", "--explore-p", "0.8", "--synthetic", "1000", "--nonprojective", "0.6",
           "--word-dim", "32", "--lstm-dim", "32", "--mlp-dim", "32", "--lstm-layers", "1"]
    assert spec == train_cli.spec_from_flags(train_cli.arguments().parse_args(old))
    treebank = run_spec(data_spec("xx_teach", "/data"), "arc-hybrid", "static", "static", 1, 1, 0.9,
                        "default")
    assert treebank.data == train_cli.spec_from_flags(train_cli.arguments().parse_args(
        ["--treebank", "xx_teach", "--data-dir", "/data"])).data


def test_the_page_offers_the_oracle_it_offered_before() -> None:
    assert pc.list_systems().index(PAGE_DEFAULTS.system) == 3  # the page's old index=3
    for name in pc.list_systems():
        oracles = [o for o in pc.list_oracles(pc.get_system(name)) if o != "search"]
        assert default_choice(pc.get_system(name), oracles) == oracles[min(1, len(oracles) - 1)]


def test_the_page_reads_progress_from_typed_records() -> None:
    start = StartEvent("synthetic", "arc-hybrid", "cpu", TrainConfig(epochs=4), ModelConfig.preset("tiny"))
    batch = BatchEvent(0.5, 0.4, 0.1, **WALKS, epoch=1, batch=1, batches=1)
    epoch = EpochEvent(1, 4, False, 0.5, 0.5, 0.4, 0.5, 0.4, 0.1, sentences=8, steps=100, errors=3,
                       explored=0, dropped=0, seconds=2.0, sentences_per_s=4.0, device="cpu")
    assert progress([]).text == "starting…"
    state = progress([start, batch, epoch])
    assert state.fraction == 0.25 and state.text == "epoch 1/4 · 4 sentences/s · about 6 s left · cpu"
    assert list(loss_figure({"run": [start, batch, epoch]}).data[0].y) == [0.5]
    assert list(accuracy_figure({"run": [start, batch, epoch]}).data[0].y) == [50.0]


def test_the_progress_bar_moves_during_the_first_epoch() -> None:
    start = StartEvent("synthetic", "arc-hybrid", "cpu", TrainConfig(epochs=4), ModelConfig.preset("tiny"))
    batches = [BatchEvent(0.5, 0.4, 0.1, **WALKS, epoch=1, batch=b, batches=4) for b in (1, 2)]
    state = progress([start, *batches])
    assert state.fraction == 2 / 4 / 4  # half of the first of four epochs
    assert state.text == "epoch 0/4 · 800 sentences/s · estimating… · cpu"
