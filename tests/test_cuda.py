"""Training and parsing on a CUDA GPU (skipped where torch sees none).

The CPU tests prove the batched path exact; these ask what changes on a GPU: the network's
kernels (cuDNN's LSTM, cuBLAS) round differently and some are not deterministic, so the
tests compare with tolerances where the CPU tests ask for equality, and say how far apart
the two devices are.  A checkpoint trained on the GPU must load and parse on the CPU.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from parsing_core import Sentence
from parsing_core.checkpoint import load_checkpoint, save_checkpoint
from parsing_core.model import Callbacks, ModelConfig, Parser, TrainConfig, Trainer, Vocab
from parsing_core.synthetic import synthetic_treebank

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")

SMALL = ModelConfig(word_dim=32, lstm_dim=32, lstm_layers=1, mlp_dim=32, char_dim=8, char_lstm_dim=8,
                    min_count=1)
TRAIN = synthetic_treebank(200, 0.3, seed=11, max_len=20)
DEV = synthetic_treebank(60, 0.3, seed=12, max_len=20)
SYSTEMS = ["arc-standard", "arc-eager", "arc-hybrid", "arc-hybrid-swap"]


def agreement(a: list[Sentence], b: list[Sentence]) -> float:
    """The share of tokens given the same head and label in two parses of the same sentences."""
    same = [x == y for s, t in zip(a, b)
            for x, y in zip(zip(s.gold_heads, s.labels), zip(t.gold_heads, t.labels))]
    return sum(same) / len(same)


@pytest.mark.parametrize("system", SYSTEMS)
def test_both_paths_parse_alike_on_the_gpu(system: str) -> None:
    """An untrained network on the GPU: the batched and the one-configuration path give the same trees."""
    torch.manual_seed(3)
    parser = Parser(system, Vocab.build(TRAIN, min_count=1), SMALL).to("cuda")
    parser.network.eval()
    batched, legacy = parser.parse(DEV, 16, "batched"), parser.parse(DEV, 16, "legacy")
    assert agreement(batched, legacy) >= 0.99


def test_on_the_gpu_packed_and_padded_sentences_read_alike() -> None:
    """On a GPU the BiLSTMs read packed sequences (cuDNN's layout); the padded way gives the same table."""
    torch.manual_seed(2)
    parser = Parser("arc-hybrid", Vocab.build(TRAIN, min_count=1), SMALL).to("cuda")
    parser.network.eval()
    batch = parser.encode(DEV[:16])
    chosen, padded = parser.network.encode(batch), parser.network.encode(batch, packed=False)
    assert torch.equal(chosen, parser.network.encode(batch, packed=True))
    for b, n in enumerate(batch.lengths.tolist()):  # rows beyond a sentence's end are never read
        rows = slice(b * batch.width, b * batch.width + n)
        assert torch.allclose(chosen[rows], padded[rows], atol=1e-5)


@pytest.mark.parametrize(("system", "oracle"), [("arc-hybrid", "goldberg-nivre"), ("arc-standard", "exact")])
def test_a_run_on_the_gpu_learns_and_its_checkpoint_parses_alike_on_the_cpu(
        system: str, oracle: str, tmp_path: Path) -> None:
    config = TrainConfig(epochs=8, batch_size=16, seed=2, device="cuda", explore_after=1, lr=0.005)
    trainer = Trainer(TRAIN, DEV, system, oracle, "dynamic", config, SMALL)
    history = trainer.run().history
    assert history[0]["device"].startswith("cuda (")
    assert history[-1]["loss"] < history[0]["loss"] and history[-1]["dev_uas"] > 0.7
    assert sum(h["explored"] for h in history) > 0
    path = save_checkpoint(tmp_path / "gpu.pt", trainer.parser, config)
    on_cpu, on_gpu = load_checkpoint(path, "cpu").parser, load_checkpoint(path, "cuda").parser
    assert on_cpu.device.type == "cpu" and on_gpu.device.type == "cuda"
    assert agreement(on_cpu.parse(DEV), on_gpu.parse(DEV)) >= 0.99


def test_two_seeded_runs_on_the_gpu_agree_closely() -> None:
    """cuDNN's LSTM backward is not deterministic: the same seed gives losses equal to rounding
    at first, and the walks (which follow the network's choices) may part later."""
    def losses() -> list[float]:
        seen: list[float] = []
        config = TrainConfig(epochs=1, batch_size=16, seed=5, device="cuda")
        Trainer(TRAIN, [], "arc-eager", "goldberg-nivre", "dynamic", config, SMALL,
                callbacks=Callbacks(on_batch=lambda r: seen.append(r["loss"]))).run()
        return seen

    first, second = losses(), losses()
    assert len(first) == len(second) == 13
    assert first[0] == pytest.approx(second[0], rel=1e-4)


def test_bfloat16_trains_on_a_gpu_that_has_it() -> None:
    if not torch.cuda.is_bf16_supported():
        pytest.skip("this GPU has no bfloat16")
    config = TrainConfig(epochs=8, batch_size=16, seed=2, device="cuda", precision="bfloat16", lr=0.005)
    history = Trainer(TRAIN, DEV, "arc-hybrid", "goldberg-nivre", "dynamic", config, SMALL).run().history
    assert history[-1]["loss"] < history[0]["loss"] and history[-1]["dev_uas"] > 0.7


def test_auto_picks_the_gpu() -> None:
    config = TrainConfig(epochs=1, batch_size=16, seed=2, device="auto")
    trainer = Trainer(TRAIN[:32], [], "arc-hybrid", "goldberg-nivre", "dynamic", config, SMALL)
    assert trainer.device.type == "cuda" and trainer.device_name.startswith("cuda (")
