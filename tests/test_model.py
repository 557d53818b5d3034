"""The network and its pieces: vocabulary, features, shapes, lockstep parsing, loss, checkpoints."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
import torch

import parsing_core as pc
from parsing_core.checkpoint import VERSION, CheckpointError, load_checkpoint, save_checkpoint
from parsing_core.model import ModelConfig, Parser, TrainConfig, Vocab
from parsing_core.model import vocab as vocab_module
from parsing_core.model.batch import drop_words
from parsing_core.model.explore import Exploration, Supervision, choose, supervision_loss
from parsing_core.model.features import MoveSpace, feature_rows, feature_tokens
from parsing_core.model.vocab import SPECIALS
from parsing_core.synthetic import synthetic_treebank

TINY = ModelConfig(word_dim=8, upos_dim=4, char_dim=4, char_lstm_dim=4, lstm_dim=8, lstm_layers=1, mlp_dim=8)
SH, LA, RA, SW = (pc.Transition(k) for k in ("SH", "LA", "RA", "SW"))


@pytest.fixture(scope="module")
def sentences() -> list[pc.Sentence]:
    return synthetic_treebank(12, 0.4, seed=11, max_len=12)


def tiny_parser(sentences: list[pc.Sentence], system: str = "arc-hybrid", config: ModelConfig = TINY
                ) -> Parser:
    torch.manual_seed(0)
    return Parser(system, Vocab.build(sentences, min_count=1), config)


# -- vocabulary and features -----------------------------------------------------------------------
def test_vocab_round_trip_and_unknown_words(sentences: list[pc.Sentence]) -> None:
    vocab = Vocab.build(sentences, min_count=2)
    assert Vocab.from_dict(vocab.to_dict()) == vocab
    s = pc.Sentence(("zyzzyva", "the"))
    assert vocab.word_ids(s)[:2] == [2, 1]  # ROOT, then an unknown word
    assert vocab.label_id("no-such-label") is None


def test_spellings_are_remembered_up_to_a_cap_and_read_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vocab_module, "SPELLINGS_KEPT", 3)
    vocab = Vocab(SPECIALS, chars=(*SPECIALS, "a", "b"))
    words = ["ab", "ba", "", "abc", "b", "ab"]
    want = [(3, 4), (4, 3), (1,), (3, 4, 1), (4,), (3, 4)]  # c is unknown (1), "" reads as one UNK
    assert vocab.spellings(words) == want
    assert len(vocab._spelled) == len(set(words))  # a batch's new spellings go in together, under the cap
    more = [f"a{'b' * k}" for k in range(10)]
    assert vocab.spellings(more) == [(3, *(4,) * k) for k in range(10)]
    assert vocab.spellings(words) == want  # the same answers, remembered or not
    assert len(vocab._spelled) == len(set(words))  # nothing added past the cap
    assert [vocab.char_ids(w) for w in words] == want


def test_word_dropout_hides_rare_words_only() -> None:
    s = pc.Sentence.from_heads("a a a a b".split(), [0, 1, 1, 1, 1])
    vocab = Vocab.build([s], min_count=1)
    words = torch.tensor([vocab.word_ids(s)] * 2000)
    dropped = drop_words(words, vocab, alpha=1.0, generator=torch.Generator().manual_seed(0))
    hidden = (dropped == 1).float().mean(dim=0).tolist()  # per position: ROOT, a, a, a, a, b
    assert hidden[0] == 0
    assert abs(hidden[1] - 1 / 5) < 0.04 and abs(hidden[5] - 1 / 2) < 0.04  # α/(α+4), α/(α+1)


def test_feature_rows_point_into_the_batch_table() -> None:
    c = pc.Configuration((0, 1, 3), (4, 5), (None, 3, None, None, None), (None,) * 5)
    assert feature_rows(c, offset=12, empty_row=99) == [15, 13, 12, 16, 17, 99]
    assert feature_rows(c, 12, 99, children=True) == [12 + t if t >= 0 else 99
                                                      for t in feature_tokens(c, children=True)]


def test_move_space_masks_legal_kinds() -> None:
    space = MoveSpace(pc.get_system("arc-hybrid-swap"))
    assert space.kinds == ("SH", "LA", "RA", "SW")
    assert space.mask((SH, SW)) == [True, False, False, True]


# -- the network -----------------------------------------------------------------------------------
def test_scores_have_one_column_per_kind_and_label(sentences: list[pc.Sentence]) -> None:
    parser = tiny_parser(sentences, "arc-eager")
    batch = parser.encode(sentences[:3])
    table = parser.network.encode(batch)
    b, t = batch.words.shape
    assert table.shape == (b * t + 1, 6, 2 * TINY.mlp_dim)
    moves, labels = parser.network.score(table, torch.tensor([[0, 1, 2, 3, 4, b * t]]))
    assert moves.shape == (1, 4)
    assert labels is not None and labels.shape == (1, 2, len(parser.vocab.labels))


def test_precomputed_table_equals_the_mlp_on_concatenated_vectors(sentences: list[pc.Sentence]) -> None:
    """Σ_f W_f v_f over the table rows is W · [v_1; …; v_F]: the docstring's claim, checked."""
    parser = tiny_parser(sentences)
    net = parser.network.eval()
    batch = parser.encode(sentences[:2])
    rows = torch.tensor([[1, 2, 3, 4, 5, 6], [7, 7, 0, 1, 2, 3]])
    with torch.no_grad():
        moves, _ = net.score(net.encode(batch, packed=True), rows)  # as the reference reads them
        v, _ = net.lstm(torch.nn.utils.rnn.pack_padded_sequence(
            net.embed(batch), batch.lengths, batch_first=True, enforce_sorted=False))
        v, _ = torch.nn.utils.rnn.pad_packed_sequence(v, batch_first=True, total_length=batch.width)
        vectors = torch.cat([v.reshape(-1, v.shape[-1]), net.empty[None]])[rows].flatten(1)  # (N, F·2H)
        f, m = 6, TINY.mlp_dim
        w = net.project.weight.view(f, 2 * m, -1)[:, :m]  # (F, M, 2H): the move head's W_f
        hidden = torch.tanh(vectors @ w.permute(0, 2, 1).reshape(-1, m) + net.hidden_bias[:m])
    assert torch.allclose(moves, net.moves(hidden), atol=1e-5)


@pytest.mark.parametrize("system", pc.list_systems())
def test_parse_gives_a_tree_for_every_sentence_in_order(system: str, sentences: list[pc.Sentence]) -> None:
    parser = tiny_parser(sentences, system)
    parsed = parser.parse(sentences, batch_size=5)
    assert [p.words for p in parsed] == [s.words for s in sentences]
    assert all(p.heads is not None and p.labels is not None for p in parsed)


def test_lockstep_batches_parse_like_one_sentence_at_a_time(sentences: list[pc.Sentence]) -> None:
    parser = tiny_parser(sentences, "arc-standard")
    assert parser.parse(sentences, batch_size=1) == parser.parse(sentences, batch_size=12)


def test_unlabelled_training_data_gives_an_unlabelled_parser() -> None:
    sents = [pc.Sentence.from_heads(s.words, s.heads) for s in synthetic_treebank(4, seed=1)]
    parser = tiny_parser(sents, config=ModelConfig(word_dim=8, lstm_dim=8, mlp_dim=8))
    assert not parser.labelled and parser.parse(sents)[0].labels is None


def test_plain_text_parses() -> None:
    sents = synthetic_treebank(3, seed=2)
    parser = tiny_parser(sents)
    raw = [pc.Sentence(s.words) for s in sents]
    assert [p.n for p in parser.parse(raw)] == [s.n for s in sents]


# -- choosing and the loss -------------------------------------------------------------------------
SPACE = MoveSpace(pc.get_system("arc-hybrid-swap"))


def test_choose_follows_the_model_when_it_is_right_else_its_favourite_optimal_move() -> None:
    costs = {SH: 0, LA: 0, RA: 2}
    assert choose(costs, [1.0, 3.0, 9.0, 0.0], SPACE, Exploration(), False)[0] == LA  # t_o, not SH
    assert choose(costs, [5.0, 3.0, 1.0, 0.0], SPACE, Exploration(), False)[0] == SH  # t_p is optimal


def test_exploration_follows_wrong_moves_but_never_into_a_wrong_swap_nor_a_dead_end() -> None:
    always = Exploration(on=True, p=1.0, rng=random.Random(0))
    assert choose({SH: 0, RA: 1}, [0.0, 0.0, 5.0, 0.0], SPACE, always, False) == (RA, [SH], True, True)
    assert choose({SH: 0, SW: 1}, [0.0, 0.0, 0.0, 5.0], SPACE, always, True)[0] == SH  # wrong swap
    assert choose({SH: 1, SW: 0}, [5.0, 0.0, 0.0, 0.0], SPACE, always, True)[0] == SW  # forced swap
    assert choose({SH: 0, RA: math.inf}, [0.0, 0.0, 5.0, 0.0], SPACE, always, False)[0] == SH
    never = Exploration(True, 0.0)
    assert choose({SH: 0, RA: 1}, [0.0, 0.0, 5.0, 0.0], SPACE, never, False) == (SH, [SH], True, False)


def test_loss_is_minus_log_of_the_probability_of_the_minimum_cost_set(sentences: list[pc.Sentence]) -> None:
    parser = tiny_parser(sentences, "arc-hybrid-swap")
    net = parser.network
    table = net.encode(parser.encode(sentences[:1]))
    sup = Supervision(rows=[[0, 1, 2, 3, 4, 5]], legal=[[True, True, False, True]],
                      best=[[True, False, False, True]], choice=[True], steps=1)
    move_loss, label_loss = supervision_loss(net, table, sup)
    scores = net.score(table, torch.tensor(sup.rows))[0][0]
    p = torch.softmax(scores[[0, 1, 3]], dim=0)  # softmax over the legal moves only, once
    assert torch.isclose(move_loss, -torch.log(p[0] + p[2]))
    assert label_loss.item() == 0


# -- checkpoints -----------------------------------------------------------------------------------
def test_checkpoint_round_trip_parses_the_same(tmp_path: Path, sentences: list[pc.Sentence]) -> None:
    parser = tiny_parser(sentences, "arc-eager")
    path = save_checkpoint(tmp_path / "sub" / "p.pt", parser, TrainConfig(epochs=2), {"note": "x"})
    loaded = load_checkpoint(path, device="cpu")
    assert loaded.train_config == TrainConfig(epochs=2) and loaded.info == {"note": "x"}
    assert loaded.parser.parse(sentences) == parser.parse(sentences)
    assert [p.name for p in path.parent.iterdir()] == ["p.pt"]  # no temporary file left


def bad_files(tmp_path: Path, sentences: list[pc.Sentence]) -> dict[str, Path]:
    good = save_checkpoint(tmp_path / "good.pt", tiny_parser(sentences))
    payload = torch.load(good, weights_only=True)
    files = {"missing": tmp_path / "missing.pt", "directory": tmp_path}
    (tmp_path / "text.pt").write_text("not a checkpoint")
    files["text"] = tmp_path / "text.pt"
    (tmp_path / "cut.pt").write_bytes(good.read_bytes()[: len(good.read_bytes()) // 2])
    files["cut"] = tmp_path / "cut.pt"
    for name, change in [("version", {"version": VERSION + 1}), ("format", {"format": "other"}),
                         ("config", {"config": "{not json"}),
                         ("weights", {"weights": {k: v[:1] for k, v in payload["weights"].items()}})]:
        torch.save({**payload, **change}, tmp_path / f"{name}.pt")
        files[name] = tmp_path / f"{name}.pt"
    torch.save({"format": "parsing_core.parser", "weights": random.Random}, tmp_path / "code.pt")
    files["code"] = tmp_path / "code.pt"
    return files


def test_every_bad_checkpoint_gives_a_clear_error(tmp_path: Path, sentences: list[pc.Sentence]) -> None:
    expected = {"missing": "no checkpoint", "directory": "not a file", "text": "not a parser checkpoint",
                "cut": "not a parser checkpoint", "version": "version 2 checkpoint",
                "format": "not a parsing_core", "config": "configuration is unreadable",
                "weights": "do not fit", "code": "refused rather than run"}
    for name, path in bad_files(tmp_path, sentences).items():
        with pytest.raises(CheckpointError, match=expected[name]):
            load_checkpoint(path)
    assert issubclass(CheckpointError, pc.ParsingCoreError)
