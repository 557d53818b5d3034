"""Training: overfitting, determinism, every regime with every oracle, callbacks, stopping, CLIs."""

from __future__ import annotations

import gc
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import torch

import parsing_core as pc
from parsing_core import parse as parse_cli
from parsing_core import train as train_cli
from parsing_core.checkpoint import load_checkpoint
from parsing_core.model import Callbacks, ModelConfig, Report, TrainConfig, Trainer
from parsing_core.model import trainer as trainer_module
from parsing_core.model.device import bfloat16_native
from parsing_core.synthetic import synthetic_treebank

TINY = ModelConfig(word_dim=16, lstm_dim=16, lstm_layers=1, mlp_dim=16, min_count=1)
# Short sentences, so that even the exhaustive-search oracle of the swap systems (≤ 6 tokens) answers.
SHORT = synthetic_treebank(6, nonprojective_rate=0.5, seed=2, min_len=4, max_len=6)


def quick(**changes: object) -> TrainConfig:
    return TrainConfig(**{"epochs": 1, "batch_size": 4, "seed": 1, **changes})  # type: ignore[arg-type]


def test_overfits_five_sentences() -> None:
    five = synthetic_treebank(5, nonprojective_rate=0.0, seed=3, max_len=14)
    config = quick(epochs=60, batch_size=5, lr=0.01, keep_best=False)
    model = ModelConfig(word_dim=32, lstm_dim=32, lstm_layers=1, mlp_dim=32, dropout=0.0, min_count=1)
    result = Trainer(five, five, "arc-hybrid", train_config=config, model_config=model).run()
    assert result.history[-1]["dev_uas"] == 1.0
    assert result.history[-1]["dev_las"] >= 0.95


def test_two_seeded_runs_give_identical_losses() -> None:
    def losses() -> list[float]:
        seen: list[float] = []
        trainer = Trainer(SHORT, SHORT[:2], "arc-eager", train_config=quick(epochs=3, explore_after=1),
                          model_config=TINY, callbacks=Callbacks(on_batch=lambda r: seen.append(r["loss"])))
        trainer.run()
        return seen

    first = losses()
    assert len(first) == 6 and first == losses()


def every_regime_and_oracle() -> list[tuple[str, str, str]]:
    cases = []
    for name in pc.list_systems():
        system = pc.get_system(name)
        cases.append((name, "static", "static"))
        cases += [(name, oracle, regime) for oracle in pc.list_oracles(system) if oracle != "static"
                  for regime in ("nondeterministic", "dynamic")]
    return cases


@pytest.mark.parametrize("system,oracle,regime", every_regime_and_oracle())
def test_one_short_epoch_runs(system: str, oracle: str, regime: str) -> None:
    batches: list[Report] = []
    trainer = Trainer(SHORT, SHORT[:2], system, oracle, regime, quick(explore_after=0), TINY,
                      Callbacks(on_batch=batches.append))
    result = trainer.run()
    [epoch] = result.history
    assert epoch["dropped"] == 0 and epoch["steps"] > 0
    assert len(batches) == epoch["sentences"] // 4 + (epoch["sentences"] % 4 > 0)
    assert 0 <= epoch["dev_uas"] <= 1 and epoch["device"].startswith(("cpu", "cuda"))
    json.dumps([epoch, *batches])  # reports are plain JSON


def test_static_regime_uses_only_trees_the_system_can_build() -> None:
    projective = sum(s.is_projective for s in SHORT)
    def used(system: str) -> int:
        return len(Trainer(SHORT, [], system, regime="static", model_config=TINY).train)

    assert used("arc-standard") == projective and used("arc-standard-swap") == len(SHORT)
    with pytest.raises(pc.ParsingCoreError, match="static regime"):
        Trainer(SHORT, [], "arc-eager", oracle="goldberg-nivre", regime="static")


def test_exploration_starts_after_k_epochs() -> None:
    config = quick(epochs=2, explore_after=1, explore_p=1.0, keep_best=False)
    history = Trainer(SHORT, [], "arc-hybrid", train_config=config, model_config=TINY).run().history
    assert [h["exploring"] for h in history] == [False, True]
    assert history[0]["explored"] == 0 < history[0]["errors"]
    assert history[1]["explored"] == history[1]["errors"] > 0


def test_an_oracle_that_cannot_answer_leaves_the_sentence_out() -> None:
    long = synthetic_treebank(3, seed=4, min_len=10, max_len=12)
    [epoch] = Trainer(long, [], "arc-hybrid-swap", "search", "dynamic", quick(), TINY).run().history
    assert epoch["dropped"] == 3


def test_should_stop_ends_the_run_between_batches() -> None:
    batches: list[Report] = []
    callbacks = Callbacks(on_batch=batches.append, should_stop=lambda: len(batches) >= 1)
    result = Trainer(SHORT, SHORT, "arc-hybrid", train_config=quick(epochs=5, batch_size=2),
                     model_config=TINY, callbacks=callbacks).run()
    assert result.stopped and len(batches) == 1 and result.history == []


@pytest.mark.parametrize("path", ["batched", "tensor"])
def test_a_batch_reads_its_losses_once_and_before_the_backward_pass(path: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """On a GPU each read of a tensor from the host waits for all queued work: read before backward,
    the backward pass and the optimiser's step run while the host prepares the next batch."""
    log: list[str] = []
    trainer_file = trainer_module.__file__

    def logged(name: str) -> Callable[..., object]:
        real = getattr(torch.Tensor, name)

        def read(self: torch.Tensor, *args: object) -> object:
            if sys._getframe(1).f_code.co_filename == trainer_file:  # the trainer's own reads
                log.append("read")
            return real(self, *args)
        return read

    for name in ("item", "tolist", "__bool__", "__float__"):
        monkeypatch.setattr(torch.Tensor, name, logged(name))
    trainer = Trainer(SHORT, [], "arc-hybrid", train_config=quick(), model_config=TINY, path=path)
    real_backward = torch.Tensor.backward
    monkeypatch.setattr(torch.Tensor, "backward", lambda self, *a, **k: (log.append("backward"),
                                                                        real_backward(self, *a, **k))[1])
    history = trainer.run().history
    batches = -(-len(SHORT) // 4)
    assert log == ["read", "backward"] * batches
    assert history and math.isfinite(history[0]["loss"]) and history[0]["loss"] > 0


def test_a_run_sets_what_it_starts_with_aside_from_the_collector_and_gives_it_back() -> None:
    """Everything alive at the start (the sentences, the network) is frozen for the run
    (``gc.freeze``: full collections skip it) and unfrozen when the run ends, also when it fails."""
    assert gc.get_freeze_count() == 0
    seen: list[int] = []
    callbacks = Callbacks(on_epoch=lambda report: seen.append(gc.get_freeze_count()))
    Trainer(SHORT, [], "arc-hybrid", train_config=quick(epochs=2), model_config=TINY,
            callbacks=callbacks).run()
    assert len(seen) == 2 and min(seen) > 1000
    assert gc.get_freeze_count() == 0

    def fail(report: Report) -> None:
        raise RuntimeError("a callback failed")

    with pytest.raises(RuntimeError):
        Trainer(SHORT, [], "arc-hybrid", train_config=quick(), model_config=TINY,
                callbacks=Callbacks(on_epoch=fail)).run()
    assert gc.get_freeze_count() == 0


def test_keep_best_restores_the_best_dev_epoch() -> None:
    result = Trainer(SHORT, SHORT, "arc-hybrid", train_config=quick(epochs=3), model_config=TINY).run()
    best = max(result.history, key=lambda h: h["dev_uas"])
    assert result.best_epoch == best["epoch"]
    assert pc.uas(result.parser.parse(SHORT), SHORT) == best["dev_uas"]


def test_the_command_lines_say_what_is_wrong_with_a_log_or_a_spec(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A log in a folder that is not there, a negative synthetic size and a lab spec that cannot be
    read are one line of error and status 1, not a traceback."""
    from parsing_core.experiments import job as lab_cli

    nowhere = tmp_path / "no" / "log.jsonl"
    assert train_cli.main(["--synthetic", "4", "--epochs", "1", "--log", str(nowhere)]) == 1
    assert "error: could not write the log" in capsys.readouterr().err
    assert train_cli.main(["--synthetic", "-5", "--epochs", "1"]) == 1
    assert "error: a synthetic treebank has 0 sentences or more, not -5" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text("{not json")
    for spec in ("bad.json", "missing.json"):
        assert lab_cli.main(["--spec", str(tmp_path / spec), "--log", str(tmp_path / "lab.jsonl")]) == 1
        assert capsys.readouterr().err.startswith("error: ")


def test_train_and_parse_command_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model, log, pred = tmp_path / "m.pt", tmp_path / "log.jsonl", tmp_path / "pred.conllu"
    argv = ["--synthetic", "40", "--epochs", "2", "--batch-size", "8", "--word-dim", "8", "--lstm-dim", "8",
            "--lstm-layers", "1", "--mlp-dim", "8", "--out", str(model), "--log", str(log),
            "--predictions", str(pred), "--system", "arc-standard", "--oracle", "thesis-approx"]
    assert train_cli.main(argv) == 0
    events = [json.loads(line)["event"] for line in log.read_text().splitlines()]
    assert events == ["start"] + ["batch"] * 5 + ["epoch"] + ["batch"] * 5 + ["epoch", "test"]
    assert len(pc.read_conllu_file(pred)) == 4
    assert load_checkpoint(model).info["oracle"] == "thesis-approx"
    text = tmp_path / "in.txt"
    text.write_text("the old dog saw a cat .\nAnna slept .\n")
    assert parse_cli.main([str(model), str(text), "-o", str(tmp_path / "out.conllu")]) == 0
    assert [s.n for s in pc.read_conllu_file(tmp_path / "out.conllu")] == [7, 3]
    mixed = parse_cli.main([str(model), str(text), "-o", str(tmp_path / "bf16.conllu"),
                            "--precision", "bfloat16"])
    if bfloat16_native(torch.device("cpu")):
        assert mixed == 0 and [s.n for s in pc.read_conllu_file(tmp_path / "bf16.conllu")] == [7, 3]
    else:
        assert mixed == 1 and "bfloat16" in capsys.readouterr().err
    assert parse_cli.main([str(text), str(text)]) == 1
    assert "not a parser checkpoint" in capsys.readouterr().err
    assert parse_cli.main([str(model), str(text), "--batch-size", "0"]) == 1
    assert "error: parse needs a batch size and workers of at least 1" in capsys.readouterr().err
