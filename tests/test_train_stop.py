"""A stopped training run keeps the weights of its best epoch so far, and SIGTERM asks for that stop."""

from __future__ import annotations

import os
import signal

from parsing_core import train as train_cli
from parsing_core.model import ModelConfig, TrainConfig, Trainer
from parsing_core.model.events import EpochEvent, Event
from parsing_core.synthetic import synthetic_treebank


def test_a_trainer_stopped_after_some_epochs_keeps_its_best_dev_weights() -> None:
    epochs: list[EpochEvent] = []

    def heard(record: Event) -> None:
        if isinstance(record, EpochEvent):
            epochs.append(record)

    dev = synthetic_treebank(20, 0.3, seed=2)
    trainer = Trainer(synthetic_treebank(60, 0.3, seed=1), dev, "arc-hybrid",
                      train_config=TrainConfig(epochs=50, batch_size=8, seed=1),
                      model_config=ModelConfig(word_dim=16, lstm_dim=16, lstm_layers=1, mlp_dim=16),
                      callbacks=train_cli.Callbacks(on_event=heard, should_stop=lambda: len(epochs) >= 6))
    result = trainer.run()
    assert result.stopped and len(result.history) == 6
    best = max(epochs, key=lambda e: e.dev_uas or 0.0)
    assert result.best_epoch == best.epoch < 6  # with these seeds the last epoch is not the best
    scores, _ = trainer.evaluate(dev)
    assert scores["uas"] == best.dev_uas  # the weights are the best epoch's, not the last one's


def test_sigterm_asks_for_a_clean_stop_and_the_old_handler_comes_back() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with train_cli.StopSignal() as stop:
        assert not stop()
        os.kill(os.getpid(), signal.SIGTERM)  # handled in this (main) thread, before the next line
        assert stop()
    assert signal.getsignal(signal.SIGTERM) == before
