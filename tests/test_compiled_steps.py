"""Compiled steps walk and parse exactly as eager ones, and a step that cannot be compiled still runs.

``torch.compile`` fuses a tensor walk's step (:mod:`parsing_core.model.compiled`).  Compiled on a
CPU with TorchInductor (C++ loops: the GPU's Triton kernels are held to the eager path in
``tests/test_cuda.py``), the training walk of the GPU's setting (arc-hybrid, Goldberg–Nivre,
exploring) must teach row for row what the eager step teaches on 512 random trees, with the
same random draws.  Every
other supported system and oracle, and greedy parsing, are captured whole by dynamo (``fullgraph``)
and run as captured (the quick "eager" backend): the same supervision, the same trees.
"""

from __future__ import annotations

import warnings

import pytest
import torch

import parsing_core as pc
from parsing_core.model import ModelConfig, Parser, TrainConfig, Trainer, Vocab, compiled
from parsing_core.model.explore import Exploration
from parsing_core.model.tensor_walks import TensorWalker
from tests.test_tensor_walks import CASES, TINY, labelled_forest


def walks(system: str, oracle: str, regime: str, trees: list[pc.Sentence], children: bool = True
          ) -> tuple[list[object], list[object]]:
    """The supervision of each batch of 32 ``trees``, walked by the eager and the compiled step
    (exploring with p = 0.9 on torch's generator, seeded alike)."""
    torch.manual_seed(1)
    trainer = Trainer(trees, [], system, oracle, regime, TrainConfig(epochs=1, seed=1),
                      ModelConfig(**{**TINY.__dict__, "children": children}), path="batched")
    parser = trainer.parser
    eager, fused = (TensorWalker(trainer.system, oracle, parser.space, parser.vocab, parser.network, "device",
                                 compiled=c) for c in (False, True))
    eager_sups, fused_sups = [], []
    for start in range(0, len(trees), 32):
        chunk = trees[start:start + 32]
        table = parser.network.encode(parser.encode(chunk)).detach()
        width = max(s.n for s in chunk) + 1
        for walker, out in ((eager, eager_sups), (fused, fused_sups)):
            torch.manual_seed(start)
            out.append(walker.walk_batch(chunk, width, children, table, Exploration(True, 0.9)).lists())
    assert not fused.next_step.broken  # type: ignore[attr-defined]  # compiled, not fallen back
    return eager_sups, fused_sups


def test_inductor_fuses_the_exploring_walk_without_changing_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Compiled by Inductor into C++ loops (one compiler process: a pool would cost more than it
    saves on one small graph); the children's features are traced in the test below."""
    monkeypatch.setattr(torch._inductor.config, "compile_threads", 1)
    trees = labelled_forest(11, 512, projective=False)  # 16 batches, one compiled graph
    eager, fused = walks("arc-hybrid", "goldberg-nivre", "dynamic", trees, children=False)
    assert fused == eager
    assert sum(s.explored for s in eager) > 0 and sum(s.steps for s in eager) > 0  # type: ignore[attr-defined]


@pytest.mark.parametrize(("system", "oracle", "regime"), CASES)
def test_every_supported_walk_is_traced_whole(system: str, oracle: str, regime: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "BACKEND", "eager")
    trees = labelled_forest(len(system) + len(oracle), 64, projective=regime == "static")
    eager, fused = walks(system, oracle, regime, trees)
    assert fused == eager


@pytest.mark.parametrize("system", ["arc-standard", "arc-eager", "arc-hybrid"])
def test_compiled_greedy_steps_parse_alike(system: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "BACKEND", "eager")
    torch.manual_seed(3)
    trees = labelled_forest(7, 64, projective=False)
    model = ModelConfig(**{**TINY.__dict__, "children": True})
    parser = Parser(system, Vocab.build(trees, min_count=1), model)
    expected = [(s.gold_heads, s.labels) for s in parser.parse(trees, 32, "batched")]
    parser.compile_steps = True
    for path in ("tensor", "graphs"):
        assert [(s.gold_heads, s.labels) for s in parser.parse(trees, 32, path)] == expected
    assert not parser.greedy_step().next.broken  # type: ignore[attr-defined]


def test_a_step_that_cannot_be_compiled_runs_eagerly_and_says_so_once() -> None:
    calls = []

    def step(x: torch.Tensor) -> torch.Tensor:
        calls.append(1)
        return x + len(x.nonzero().tolist())  # reads the device from the host: no single graph

    fused = compiled.Compiled(step, "the test's step")
    with pytest.warns(UserWarning, match="the test's step could not be compiled"):
        assert fused(torch.tensor([0, 2, 3])).tolist() == [2, 4, 5]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert fused(torch.tensor([1])).tolist() == [2]
    assert fused.broken


def test_the_trainer_compiles_the_tensor_walk_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "BACKEND", "eager")
    trees = labelled_forest(5, 40, projective=False)
    config = TrainConfig(epochs=1, explore_after=0, batch_size=16, seed=2, compile_steps=True)
    trainer = Trainer(trees[:32], trees[32:], "arc-hybrid", "goldberg-nivre", "dynamic", config, TINY)
    assert trainer.tensor_walker is not None and trainer.parser.compile_steps  # auto: the tensor walk
    history = trainer.run().history
    assert history[0]["explored"] > 0 and history[0]["loss"] == history[0]["loss"]  # explored; not NaN
    assert not trainer.tensor_walker.next_step.broken  # type: ignore[attr-defined]
    with pytest.raises(pc.ParsingCoreError, match="not on the batched path"):
        Trainer(trees[:8], [], "arc-hybrid", train_config=config, model_config=TINY, path="batched")
    with pytest.raises(pc.ParsingCoreError, match="tensor path has no exact oracle"):
        Trainer(trees[:8], [], "arc-standard", "exact", "dynamic", config, TINY)
