"""A trained model in the stepper: its scores beside the costs, model autoplay, parsing without gold.

The model is a tiny parser trained for a few seconds on the teaching sentences, saved as a
finished run of the Train page (a folder under ``PARSING_JOBS_DIR``), exactly where the
stepper looks for models.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
import torch
from streamlit.testing.v1 import AppTest
from test_stepper import board, oracle_step, table_with

import parsing_core as pc
from parsing_core.checkpoint import save_checkpoint
from parsing_core.model import ModelConfig, Parser, TrainConfig, Trainer, Vocab
from parsing_core.model.read_back import finished
from server.jobs import TrainingJob
from ui.stepper.model_view import CHOSEN, MODEL

PAGE = Path(__file__).resolve().parents[1] / "pages" / "stepper.py"
TINY = ModelConfig(word_dim=16, lstm_dim=16, lstm_layers=1, mlp_dim=16, min_count=1)


def train_run(root: Path, system: str, name: str) -> Path:
    """A finished Train-page run: a folder with the command, the log and the checkpoint."""
    sentences = pc.teaching_sentences()
    torch.manual_seed(0)
    trainer = Trainer(sentences, [], system, train_config=TrainConfig(epochs=3, batch_size=8, seed=1),
                      model_config=TINY)
    trainer.run()
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "command.json").write_text(json.dumps(["python", "-m", "parsing_core.train"]))
    (folder / "log.jsonl").write_text(json.dumps({"event": "test", "test_uas": 0.5}) + "\n")
    info = {"data": "teaching", "test_uas": 0.5}
    save_checkpoint(folder / "model.pt", trainer.parser, trainer.config, info)
    assert TrainingJob(folder).status() == "finished"
    return folder / "model.pt"


@pytest.fixture(scope="module")
def jobs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("jobs")
    train_run(root, "arc-eager", "20260101-000000-arc-eager-dynamic")
    train_run(root, "arc-hybrid", "20260101-000001-arc-hybrid-dynamic")
    return root


def stepper(jobs: Path, monkeypatch: pytest.MonkeyPatch, model: str | None = None) -> AppTest:
    monkeypatch.setenv("PARSING_JOBS_DIR", str(jobs))
    at = AppTest.from_file(str(PAGE), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    if model:
        choices = at.selectbox(key="stepper.model.choice").options
        path = next(str(p) for p in jobs.glob(f"*{model}*/model.pt"))
        assert path in choices or any(model in c for c in choices)
        at.selectbox(key="stepper.model.choice").set_value(path).run()
        assert not at.exception, at.exception
    return at


def model_table(at: AppTest) -> pd.DataFrame:
    return table_with(at, "model says")


def no_model_column(at: AppTest) -> bool:
    return "model says" not in board(at)["table"]["columns"] and all(
        "model says" not in d.value.columns for d in [*at.dataframe, *at.table])


def percent(cell: str) -> float:
    return float(cell.removesuffix(" %"))


# -- the library: a Scorer plays exactly what the batch parser plays ----------------------------------
@pytest.mark.parametrize("system", ["arc-standard", "arc-eager", "arc-hybrid"])
def test_the_scorer_plays_the_parse_of_the_batch_parser(system: str) -> None:
    sentences = pc.teaching_sentences()
    torch.manual_seed(0)
    config = TrainConfig(epochs=2, batch_size=8)
    trainer = Trainer(sentences, [], system, train_config=config, model_config=TINY)
    parser = trainer.run().parser
    for s, batch_parse in zip(sentences, parser.parse(sentences)):
        scorer = parser.scorer(s)
        trace = pc.run(parser.system, s, scorer.choose)
        assert finished(s, trace.final).heads == batch_parse.heads
        for c in trace.configurations[:-1]:
            scores = scorer.scores(c)
            legal = [m for m in scores if m.legal]
            assert {m.move for m in legal} == {t.kind for t in parser.system.legal(c)}
            assert abs(sum(m.probability or 0.0 for m in legal) - 1) < 1e-6
            assert sum(m.chosen for m in scores) == 1
            assert next(m for m in scores if m.chosen).score == max(m.score for m in legal)


def test_the_scorer_refuses_another_sentences_configuration() -> None:
    a, b = pc.teaching_sentences()[:2]
    assert a.n != b.n
    parser = Parser("arc-eager", Vocab.build([a, b], min_count=1), TINY)
    with pytest.raises(pc.ParsingCoreError, match="not one of the scorer's sentence"):
        parser.scorer(a).scores(parser.system.initial(b))


# -- the page ----------------------------------------------------------------------------------------
def test_without_a_model_the_page_shows_no_model_column(jobs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = stepper(jobs, monkeypatch)
    assert no_model_column(at)
    assert MODEL not in at.selectbox(key="stepper.autoplay.oracle").options


def test_model_scores_sit_beside_the_oracle_costs(jobs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = stepper(jobs, monkeypatch, "arc-eager")
    table = model_table(at)
    assert {"cost", "verdict", "model", "model says"} <= set(table.columns)
    possible = table[table["verdict"].str.startswith(("✓", "✗"))]
    assert abs(sum(map(percent, possible["model"])) - 100) <= len(possible)  # each rounded to 1 %
    assert (table["model says"].str.startswith(CHOSEN)).sum() == 1
    assert (table[~table["verdict"].str.startswith(("✓", "✗"))]["model"] == "–").all()


def test_the_model_plays_and_finishes_the_parse(jobs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = stepper(jobs, monkeypatch, "arc-eager")
    at.selectbox(key="stepper.autoplay.oracle").set_value(MODEL).run()
    chosen = next(m for m, says in zip(model_table(at)["move"], model_table(at)["model says"])
                  if says.startswith(CHOSEN))
    oracle_step(at)
    assert at.session_state["stepper.state"].taken() == (chosen,)
    at.button(key="stepper.model.finish").click().run()
    assert not at.exception
    assert any("The parse is finished" in s.value for s in at.success)
    assert at.button(key="stepper.model.finish").disabled


def test_a_typed_sentence_without_gold_is_parsed_by_the_model(jobs: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    at = stepper(jobs, monkeypatch, "arc-eager")
    at.radio(key="stepper.pick.source").set_value("typed").run()
    at.text_input(key="stepper.pick.words").input("She read the book .").run()
    assert not at.exception
    table = model_table(at)
    assert "cost" not in table.columns and (table["model says"].str.startswith(CHOSEN)).sum() == 1
    assert not [w for w in at.warning if "no gold tree" in w.value]
    assert any("never saw 1 of this sentence's 5 words" in w.value and "read" in w.value for w in at.warning)
    assert at.selectbox(key="stepper.autoplay.oracle").options == [f"same as the table: {MODEL}"]
    assert board(at)["oracle"]["player"] == MODEL and board(at)["oracle"]["move"]
    at.button(key="stepper.model.finish").click().run()
    assert not at.exception
    assert any("The parse is finished" in s.value for s in at.success)


def test_a_model_of_another_system_offers_to_switch(jobs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = stepper(jobs, monkeypatch, "arc-hybrid")
    assert any("trained for arc-hybrid" in w.value for w in at.warning)
    assert no_model_column(at)
    at.button(key="stepper.model.switch").click().run()
    assert not at.exception
    assert at.selectbox(key="stepper.system").value == "arc-hybrid"
    assert "model says" in model_table(at).columns
