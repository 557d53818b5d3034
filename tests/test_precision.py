"""Mixed precision (``TrainConfig.precision``): bfloat16 where the processor computes in it.

The encoder (embeddings, BiLSTMs, table) runs under autocast in bfloat16; what the walk, the
loss and the optimiser see stays float32, and so do the weights that a checkpoint keeps.
Where bfloat16 would only be emulated the run is refused with a message that says why.
"""

from __future__ import annotations

import math

import pytest
import torch

from parsing_core.errors import ParsingCoreError
from parsing_core.model import ModelConfig, TrainConfig, Trainer
from parsing_core.model import device as device_module
from parsing_core.model.device import bfloat16_native, check_precision
from parsing_core.synthetic import synthetic_treebank

TINY = ModelConfig(word_dim=16, lstm_dim=16, lstm_layers=2, mlp_dim=16, char_dim=8, min_count=1)
CPU = torch.device("cpu")


def test_an_unknown_precision_is_refused() -> None:
    with pytest.raises(ParsingCoreError, match="choose float32 or bfloat16"):
        TrainConfig(precision="float16")


def test_float32_is_always_allowed_and_bfloat16_only_where_native(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(device_module, "bfloat16_native", lambda device: False)
    assert check_precision("float32", CPU) == "float32"
    with pytest.raises(ParsingCoreError, match="Use float32"):
        check_precision("bfloat16", CPU)


def test_a_bfloat16_run_trains_in_mixed_precision() -> None:
    train = synthetic_treebank(48, 0.3, seed=2, max_len=12)
    config = TrainConfig(epochs=2, batch_size=8, seed=1, precision="bfloat16")
    if not bfloat16_native(CPU):
        with pytest.raises(ParsingCoreError, match="bfloat16"):
            Trainer(train, train[:8], "arc-hybrid", train_config=config, model_config=TINY)
        return
    trainer = Trainer(train, train[:8], "arc-hybrid", train_config=config, model_config=TINY)
    network = trainer.parser.network
    network.eval()  # no dropout: the two readings must differ only by their arithmetic
    batch = trainer.parser.encode(train[:4])
    table = network.encode(batch)
    assert table.dtype == torch.float32  # what the steps read
    network.precision = "float32"
    reference = network.encode(batch)
    network.precision = "bfloat16"
    assert not torch.equal(table, reference)  # it really computed in bfloat16 ...
    assert torch.allclose(table, reference, atol=0.05)  # ... and to bfloat16's precision
    result = trainer.run()
    assert all(math.isfinite(h["loss"]) for h in result.history)
    assert result.history[-1]["loss"] < result.history[0]["loss"]
    assert all(p.dtype == torch.float32 for p in network.parameters())  # checkpoints keep float32
    parsed = trainer.parser.parse(train[:8])
    assert [len(s.gold_heads) for s in parsed] == [s.n for s in train[:8]]
