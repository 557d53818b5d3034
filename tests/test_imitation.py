"""The thesis's imitation regime (chapter 8): a parser trained to do what a learned DQN oracle
would do — the walk and the target are the DQN's greedy move — from the library and the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

import parsing_core as pc
from parsing_core import train as train_cli
from parsing_core.checkpoint import load_checkpoint
from parsing_core.model import ModelConfig, TrainConfig, Trainer
from parsing_core.rl import RLConfig, save_dqn
from parsing_core.rl.network import DuelingQNetwork
from parsing_core.synthetic import synthetic_treebank

TINY = ModelConfig(word_dim=16, lstm_dim=16, lstm_layers=1, mlp_dim=16)


@pytest.fixture(scope="module")
def dqn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A DQN checkpoint (untrained weights: the regime only needs its greedy moves)."""
    torch.manual_seed(0)
    config = RLConfig(hidden=8)
    network = DuelingQNetwork(config.features.size, 8)
    return save_dqn(tmp_path_factory.mktemp("dqn") / "dqn.pt", network, config)


def test_the_imitation_regime_follows_the_dqn_and_learns_its_choices(dqn: Path) -> None:
    sentences = synthetic_treebank(60, seed=2)
    config = TrainConfig(regime="imitation", oracle_model=str(dqn), epochs=8, batch_size=8, seed=1)
    trainer = Trainer(sentences, [], "arc-standard", train_config=config, model_config=TINY)
    assert trainer.oracle_name == "dqn" and trainer.config.regime == "imitation"
    result = trainer.run()
    teacher = pc.get_oracle(trainer.system, "dqn", model=dqn)
    agree = total = 0
    for s in sentences[:20]:  # the parser's moves along the DQN's own walk
        scorer = trainer.parser.scorer(s)
        c = trainer.system.initial(s)
        while not trainer.system.is_terminal(c):
            costs = teacher.costs(c, s)
            choice = scorer.choose(c, trainer.system.legal(c))
            agree += costs[choice.bare] == 0
            total += 1
            c = trainer.system.apply(c, min(costs, key=costs.__getitem__))
    assert result.history and agree / total > 0.8, f"the parser agrees with the DQN on {agree}/{total}"


def test_imitation_needs_the_learned_oracle() -> None:
    for oracle in ("exact", "nope"):
        with pytest.raises(pc.ParsingCoreError, match="imitation regime follows the learned oracle"):
            Trainer(pc.teaching_sentences(), [], "arc-standard",
                    train_config=TrainConfig(regime="imitation", oracle=oracle), model_config=TINY)
    with pytest.raises(pc.ParsingCoreError, match="needs a trained model"):
        Trainer(pc.teaching_sentences(), [], "arc-standard", train_config=TrainConfig(regime="imitation"),
                model_config=TINY)


def test_the_command_line_trains_by_imitation(dqn: Path, tmp_path: Path) -> None:
    out = tmp_path / "parser.pt"
    code = train_cli.main(["--system", "arc-standard", "--regime", "imitation", "--oracle-model", str(dqn),
                           "--synthetic", "40", "--epochs", "1", "--word-dim", "16", "--lstm-dim", "16",
                           "--lstm-layers", "1", "--mlp-dim", "16", "--out", str(out)])
    assert code == 0
    assert load_checkpoint(out).train_config.regime == "imitation"


def test_imitation_follows_the_saved_run_picked_not_the_default_model(
        dqn: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With $PARSING_DQN_MODEL set, a run picked by name (``dqn:<run>``) is still the one imitated."""
    from parsing_core.rl import RLSpec

    monkeypatch.setenv("PARSING_JOBS_DIR", str(tmp_path))
    monkeypatch.setenv("PARSING_DQN_MODEL", str(dqn))
    folder = tmp_path / "rl" / "20261129-100000-picked"
    folder.mkdir(parents=True)
    config = RLConfig(hidden=8)
    torch.manual_seed(1)
    save_dqn(folder / "model.pt", DuelingQNetwork(config.features.size, 8), config)
    RLSpec(config=config).save(folder / "spec.json")
    trainer = Trainer(synthetic_treebank(8, seed=2), [], "arc-standard", model_config=TINY,
                      train_config=TrainConfig(regime="imitation", oracle="dqn:20261129-100000-picked"))
    assert trainer.oracle_name == "dqn:20261129-100000-picked"
    assert Path(trainer.new_oracle().path).resolve() == (folder / "model.pt").resolve()
