"""The batched path parses and trains exactly like the one-configuration path.

Parsing: an untrained network (its moves are arbitrary, so illegal favourites are common)
parses a synthetic treebank on both paths, for every system, labelled or not, with and
without the children features: the trees and labels must be equal.  Training: the same seed
on both paths gives the same supervision (rows, legal masks, minimum-cost sets, labels, the
counts) batch by batch, and the same losses epoch by epoch, exploration included.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
import torch

import parsing_core as pc
from parsing_core.model import ModelConfig, Parser, TrainConfig, Trainer, Vocab
from parsing_core.model.batch import Lockstep
from parsing_core.model.explore import Exploration
from parsing_core.synthetic import synthetic_treebank
from tests.lockstep_parse import lockstep_parse

TINY = ModelConfig(word_dim=8, lstm_dim=8, lstm_layers=1, mlp_dim=8, char_dim=0, min_count=1)
SYSTEMS = ["arc-standard", "arc-eager", "arc-eager-corrected", "arc-hybrid", "arc-hybrid-swap",
           "arc-standard-swap"]
SENTENCES = synthetic_treebank(60, 0.4, seed=5, max_len=20)


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("labelled", [True, False])
@pytest.mark.parametrize("children", [True, False])
def test_both_paths_parse_alike(system: str, labelled: bool, children: bool) -> None:
    torch.manual_seed(3)
    sentences = SENTENCES[:30] if labelled else [s.with_tree(s.gold_heads) for s in SENTENCES[:30]]
    parser = Parser(system, Vocab.build(sentences, min_count=1), ModelConfig(**{**TINY.__dict__,
                                                                                "children": children}))
    assert parser.labelled == labelled
    batched, legacy = parser.parse(sentences, 8, "batched"), lockstep_parse(parser, sentences, 8)
    assert [(s.gold_heads, s.labels) for s in batched] == [(s.gold_heads, s.labels) for s in legacy]


def test_the_lockstep_walk_is_the_tests_reference_not_a_parse_path() -> None:
    parser = Parser("arc-eager", Vocab.build(SENTENCES, min_count=1), TINY)
    with pytest.raises(pc.ParsingCoreError, match="unknown path 'legacy'"):
        parser.parse(SENTENCES[:2], 8, "legacy")


def supervision(trainer: Trainer, sentences: list[pc.Sentence], table: torch.Tensor, path: str, seed: int
                ) -> tuple:
    """What one walk over ``sentences`` teaches (exploring with a seeded draw), on one path."""
    width = max(s.n for s in sentences) + 1
    explore = Exploration(True, 0.9, random.Random(seed))
    if path == "legacy":
        walk = Lockstep(trainer.system, sentences, width, trainer.model_config.children)
        sup = trainer.walker.walk(walk, table, sentences, explore)
    else:
        sup = trainer.walker.walk_batch(sentences, width, trainer.model_config.children, table, explore)
    return (sup.rows, sup.legal, sup.best, sup.choice, sup.label_at, sup.steps, sup.errors, sup.explored,
            sup.dropped)


CASES = [("arc-standard", "thesis-approx"), ("arc-standard", "exact"), ("arc-eager", "goldberg-nivre"),
         ("arc-hybrid", "goldberg-nivre"), ("arc-eager-corrected", "nederhof-linear"),
         ("arc-hybrid-swap", None), ("arc-standard-swap", None)]


@pytest.mark.parametrize(("system", "oracle"), CASES)
def test_both_walks_teach_the_same(system: str, oracle: str | None) -> None:
    torch.manual_seed(1)
    trainer = Trainer(SENTENCES, [], system, oracle, "dynamic", TrainConfig(epochs=1, seed=1),
                      ModelConfig(**{**TINY.__dict__, "children": True}))
    for start in range(0, 60, 20):
        chunk = SENTENCES[start:start + 20]
        table = trainer.parser.network.encode(trainer.parser.encode(chunk)).detach()  # dropout: once
        batched = supervision(trainer, chunk, table, "batched", start)
        assert batched == supervision(trainer, chunk, table, "legacy", start)
        assert batched[5] > 0 and (batched[4] or not trainer.parser.labelled)


@pytest.mark.parametrize(("system", "oracle"), [("arc-hybrid", "goldberg-nivre"), ("arc-standard", "exact")])
def test_a_fixed_seed_gives_the_same_losses_on_both_paths(system: str, oracle: str) -> None:
    def losses(path: str) -> list[tuple[float, int, int, float]]:
        config = TrainConfig(epochs=2, explore_after=1, batch_size=8, seed=4)
        trainer = Trainer(SENTENCES[:40], SENTENCES[40:], system, oracle, "dynamic", config, TINY, path=path)
        trainer.parser.network.packed = True  # both read packed sequences: only the walks differ
        return [(h["loss"], h["errors"], h["explored"], h["dev_uas"]) for h in trainer.run().history]

    batched = losses("batched")
    assert batched == losses("legacy")
    assert batched[1][2] > 0  # the second epoch explored


def test_padded_and_packed_sentences_read_alike() -> None:
    """The batched path's BiLSTMs (words and characters) read padded sentences: the same table."""
    torch.manual_seed(2)
    model = ModelConfig(word_dim=8, lstm_dim=8, lstm_layers=2, mlp_dim=8, char_dim=4, char_lstm_dim=4,
                        min_count=1, dropout=0.0)
    parser = Parser("arc-hybrid", Vocab.build(SENTENCES, min_count=1), model)
    batch = parser.encode(SENTENCES[:16])
    padded, packed = parser.network.encode(batch, packed=False), parser.network.encode(batch, packed=True)
    width = batch.width
    for b, n in enumerate(batch.lengths.tolist()):  # rows beyond a sentence's end are never read
        rows = slice(b * width, b * width + n)
        assert torch.allclose(padded[rows], packed[rows], atol=1e-6)
    assert torch.equal(padded[-1], packed[-1])  # the empty vector's row


def test_spellings_read_in_runs_of_similar_length_as_in_one_call() -> None:
    """The character BiLSTM reads a batch's spellings in runs of similar length (shortest first),
    each padded to its own longest: the same vectors as one call over them all, and every
    token still finds its own spelling's vector."""
    torch.manual_seed(3)
    words = ["a", "of", "cat", "dogs", "horse", "plural", "kitchen", "elephants", "cooperation",
             "international", "misunderstanding", "a", "cat"]
    sentences = [pc.Sentence.from_heads(words[i:i + 5], [0] + [1] * 4) for i in range(0, 9, 2)]
    model = ModelConfig(word_dim=8, lstm_dim=8, lstm_layers=1, mlp_dim=8, char_dim=4, char_lstm_dim=4,
                        min_count=1, dropout=0.0)
    parser = Parser("arc-hybrid", Vocab.build(sentences, min_count=1), model)
    batch = parser.encode(sentences)
    assert batch.chars is not None and batch.char_lengths is not None and batch.types is not None
    lengths = batch.char_lengths.tolist()
    assert lengths == sorted(lengths) and len(batch.char_groups) > 2
    assert [a for a, _, _ in batch.char_groups] == [0, *(b for _, b, _ in batch.char_groups[:-1])]
    assert batch.char_groups[-1][1] == len(lengths)
    chars = parser.network.chars
    assert chars is not None
    runs = chars(batch.chars, batch.char_lengths, groups=batch.char_groups)
    whole = chars(batch.chars, batch.char_lengths)
    assert torch.allclose(runs, whole, atol=1e-6)
    for b, s in enumerate(sentences):
        for i, w in enumerate(s.words, start=1):
            u = int(batch.types[b, i])
            assert tuple(batch.chars[u, :lengths[u]].tolist()) == parser.vocab.char_ids(w)


def test_an_unknown_path_is_refused() -> None:
    with pytest.raises(pc.ParsingCoreError, match="unknown path"):
        Trainer(SENTENCES[:4], [], "arc-hybrid", train_config=TrainConfig(epochs=1), model_config=TINY,
                path="fast")


def test_parsing_batches_in_worker_threads_gives_the_same_trees() -> None:
    torch.manual_seed(4)
    parser = Parser("arc-hybrid", Vocab.build(SENTENCES, min_count=1), TINY)
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        alone = parser.parse(SENTENCES, 8)
        torch.set_num_threads(2)
        together = parser.parse(SENTENCES, 8, workers=3)  # 8 batches, 3 at a time, one torch thread each
        assert torch.get_num_threads() == 2  # put back after the batches
    finally:
        torch.set_num_threads(before)
    assert [(s.gold_heads, s.labels) for s in together] == [(s.gold_heads, s.labels) for s in alone]
    assert [s.words for s in together] == [s.words for s in SENTENCES]  # in the order given


def test_a_sentence_the_oracle_cannot_judge_is_left_out_alike_on_both_walks() -> None:
    """Exact search answers sentences of up to 14 tokens: the longer ones of the batch are left out
    (dropped) at their first choice, on both paths, and the shorter ones still teach."""
    torch.manual_seed(1)
    trainer = Trainer(SENTENCES, [], "arc-standard", "search", "dynamic", TrainConfig(epochs=1, seed=1), TINY)
    chunk = SENTENCES[:12]  # 5 to 17 tokens
    table = trainer.parser.network.encode(trainer.parser.encode(chunk)).detach()
    batched = supervision(trainer, chunk, table, "batched", 0)
    assert batched == supervision(trainer, chunk, table, "legacy", 0)
    too_long = sum(s.n > trainer.walker.oracle(0).max_length for s in chunk)  # type: ignore[attr-defined]
    assert batched[8] == too_long > 0 and batched[5] > 0


@pytest.mark.parametrize(("system", "oracle"), [("arc-standard", "exact"), ("arc-hybrid", "goldberg-nivre")])
def test_a_step_asks_for_the_scores_before_the_oracle_works(system: str, oracle: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """So that on a GPU the oracle's work (Python, or numpy arrays) overlaps the network's: each
    step asks the network first, then the oracle, then reads the scores."""
    trainer = Trainer(SENTENCES, [], system, oracle, "dynamic", TrainConfig(epochs=1, seed=1), TINY)
    said: list[str] = []

    def telling(name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        def told(*args: Any) -> Any:
            said.append(name)
            return call(*args)
        return told

    walker, network = trainer.walker, trainer.parser.network
    monkeypatch.setattr(network, "score_moves", telling("scores", network.score_moves))
    if walker.costs is None:  # the Python oracle, one configuration at a time
        monkeypatch.setattr(walker, "teaching_costs", telling("oracle", walker.teaching_costs))
    else:  # the batched one, all rows at once
        monkeypatch.setattr(walker, "costs", telling("oracle", walker.costs))
    chunk = SENTENCES[:4]
    table = trainer.parser.network.encode(trainer.parser.encode(chunk)).detach()
    supervision(trainer, chunk, table, "batched", 0)
    steps = "".join("S" if s == "scores" else "o" for s in said)  # S: scores asked, o: the oracle
    assert re.fullmatch(r"(So+)+", steps), steps
