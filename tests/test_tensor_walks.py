"""Training and parsing on the tensor path teach and parse exactly as on the numpy path.

Training walks over hundreds of random labelled trees (projective and not, 1 to 16 words)
must give the numpy walker's supervision row for row (feature rows with children, legal masks,
minimum-cost sets, labels, the counts), exploring with the same seeded draws; a fixed seed must
give the same losses, errors, explorations and dev scores epoch by epoch; an untrained network
must parse to the same trees.  A path that cannot be walked on tensors is refused clearly.
"""

from __future__ import annotations

import random

import pytest
import torch

import parsing_core as pc
from parsing_core.model import ModelConfig, Parser, TrainConfig, Trainer, Vocab
from parsing_core.model.explore import Exploration
from parsing_core.model.tensor_walks import TensorWalker
from parsing_core.synthetic import synthetic_treebank
from tests.test_tensor_state import forest

TINY = ModelConfig(word_dim=8, lstm_dim=8, lstm_layers=1, mlp_dim=8, char_dim=0, min_count=1)
LABELS = ("nsubj", "obj", "amod", "root")
CASES = [("arc-hybrid", "goldberg-nivre", "dynamic"), ("arc-eager", "goldberg-nivre", "dynamic"),
         ("arc-hybrid", "static", "static"), ("arc-eager", "static", "static"),
         ("arc-standard", "static", "static")]
SENTENCES = synthetic_treebank(60, 0.4, seed=5, max_len=20)


def labelled_forest(seed: int, size: int, projective: bool) -> list[pc.Sentence]:
    rnd = random.Random(seed)
    return [pc.Sentence.from_heads(g.words, g.gold_heads, [rnd.choice(LABELS) for _ in g.words])
            for g in forest(rnd, size, projective=projective)]


def exploring(seed: int) -> Exploration:
    return Exploration(True, 0.9, random.Random(seed))


@pytest.mark.parametrize(("system", "oracle", "regime"), CASES)
def test_both_walks_teach_the_same_on_random_trees(system: str, oracle: str, regime: str) -> None:
    """192 random trees a case (projective ones for the static oracle), exploring with p = 0.9."""
    torch.manual_seed(1)
    trees = labelled_forest(len(system) + len(oracle), 192, projective=regime == "static")
    trainer = Trainer(trees, [], system, oracle, regime, TrainConfig(epochs=1, seed=1),
                      ModelConfig(**{**TINY.__dict__, "children": True}), path="batched")
    parser = trainer.parser
    walker = TensorWalker(trainer.system, oracle, parser.space, parser.vocab, parser.network)
    for start in range(0, len(trees), 32):
        chunk = trees[start:start + 32]
        width = max(s.n for s in chunk) + 1
        table = parser.network.encode(parser.encode(chunk)).detach()
        numpy_sup = trainer.walker.walk_batch(chunk, width, True, table, exploring(start))
        tensor_sup = walker.walk_batch(chunk, width, True, table, exploring(start))
        assert tensor_sup.lists() == numpy_sup
        assert numpy_sup.steps > 0 and numpy_sup.label_at


@pytest.mark.parametrize(("system", "oracle", "regime"), CASES)
def test_a_fixed_seed_gives_the_same_losses_on_both_paths(system: str, oracle: str, regime: str) -> None:
    def history(path: str) -> list[tuple[float, ...]]:
        config = TrainConfig(epochs=2, explore_after=1, batch_size=8, seed=4)
        trainer = Trainer(SENTENCES[:40], SENTENCES[40:], system, oracle, regime, config, TINY, path=path)
        keys = ("loss", "errors", "explored", "dev_uas", "dev_las")
        return [tuple(h[k] for k in keys) for h in trainer.run().history]

    tensor = history("tensor")
    assert tensor == history("batched")
    assert regime == "static" or tensor[1][2] > 0  # the second epoch explored


@pytest.mark.parametrize(("system", "oracle", "regime"), CASES[:2])
def test_padded_walks_teach_the_same(system: str, oracle: str, regime: str) -> None:
    """The walks as CUDA graphs record them (sentences padded to a bucket of lengths, the batch to
    its full size, the table padded alike), walked eagerly on the CPU: the same losses."""
    def history(path: str) -> list[tuple[float, ...]]:
        config = TrainConfig(epochs=2, explore_after=1, batch_size=16, seed=6)
        trainer = Trainer(SENTENCES[:40], SENTENCES[40:], system, oracle, regime, config, TINY, path=path)
        return [(h["loss"], h["errors"], h["explored"], h["dev_uas"]) for h in trainer.run().history]

    assert history("graphs") == history("tensor")


@pytest.mark.parametrize("system", ["arc-standard", "arc-eager", "arc-hybrid"])
@pytest.mark.parametrize("children", [True, False])
def test_both_paths_parse_alike(system: str, children: bool) -> None:
    torch.manual_seed(3)
    trees = labelled_forest(7, 96, projective=False)
    model = ModelConfig(**{**TINY.__dict__, "children": children})
    parser = Parser(system, Vocab.build(trees, min_count=1), model)
    tensor, numpy_ = parser.parse(trees, 32, "tensor"), parser.parse(trees, 32, "batched")
    assert [(s.gold_heads, s.labels) for s in tensor] == [(s.gold_heads, s.labels) for s in numpy_]
    padded = parser.parse(trees, 40, "graphs")  # batches padded to 40 rows and lengths to eights
    assert [(s.gold_heads, s.labels) for s in padded] == [(s.gold_heads, s.labels) for s in numpy_]


def test_auto_walks_numpy_on_a_cpu_and_refuses_what_tensors_cannot_walk() -> None:
    trainer = Trainer(SENTENCES[:8], [], "arc-hybrid", train_config=TrainConfig(epochs=1, device="cpu"),
                      model_config=TINY)
    assert trainer.tensor_walker is None and trainer.parser.walk_path("auto") == "batched"
    with pytest.raises(pc.ParsingCoreError, match="tensor path has no exact oracle"):
        Trainer(SENTENCES[:8], [], "arc-standard", "exact", "dynamic", TrainConfig(epochs=1), TINY,
                path="tensor")
    with pytest.raises(pc.ParsingCoreError, match="tensor path has no"):
        Trainer(SENTENCES[:8], [], "arc-hybrid-swap", train_config=TrainConfig(epochs=1), model_config=TINY,
                path="tensor")
