"""The synthetic treebank: the requested non-projectivity, valid UD-like trees, determinism."""

from __future__ import annotations

import pytest

import parsing_core as pc
from parsing_core.synthetic import Token, move, movements, subtree, synthetic_treebank


@pytest.mark.parametrize("rate", [0.0, 0.1, 0.41, 0.6, 1.0])
def test_requested_rate_is_met(rate: float) -> None:
    sents = synthetic_treebank(200, nonprojective_rate=rate, seed=3)
    measured = sum(not s.is_projective for s in sents) / len(sents)
    assert abs(measured - rate) <= 0.01


def test_deterministic_by_seed() -> None:
    assert synthetic_treebank(30, 0.5, seed=1) == synthetic_treebank(30, 0.5, seed=1)
    assert synthetic_treebank(30, 0.5, seed=1) != synthetic_treebank(30, 0.5, seed=2)


def test_sentences_are_single_rooted_labelled_trees_within_the_lengths() -> None:
    for s in synthetic_treebank(100, 0.5, seed=4, min_len=6, max_len=12):
        assert 6 <= s.n <= 12
        assert s.root_count == 1
        assert s.labels is not None and s.upos is not None
        assert s.labels[s.heads.index(0)] == "root"
        assert s.words[-1] == "." and s.labels[-1] == "punct"


def test_every_system_with_swap_builds_the_trees() -> None:
    system = pc.get_system("arc-hybrid-swap")
    for s in synthetic_treebank(20, 0.5, seed=5, max_len=15):
        assert pc.run(system, s, pc.get_oracle(system, "static").chooser(s)).heads == s.heads


def test_conllu_round_trip() -> None:
    sents = synthetic_treebank(5, 0.4, seed=6)
    assert pc.read_conllu(pc.write_conllu(sents)) == sents


# "the man who had a dog arrived ." → extraposition of the relative clause
MAN = [Token("the", "DET", "det", 1), Token("man", "NOUN", "nsubj", 5), Token("who", "PRON", "nsubj", 3),
       Token("had", "VERB", "acl:relcl", 1), Token("dogs", "NOUN", "obj", 3),
       Token("arrived", "VERB", "root", -1), Token(".", "PUNCT", "punct", 5)]


def test_extraposition_moves_the_clause_behind_the_verb() -> None:
    assert subtree(MAN, 3) == [2, 3, 4]
    moved = move(MAN, [2, 3, 4], to_front=False)
    assert [t.word for t in moved] == ["the", "man", "arrived", "who", "had", "dogs", "."]
    assert [t.head for t in moved] == [1, 2, -1, 4, 1, 4, 2]
    s = pc.Sentence.from_heads([t.word for t in moved], [t.head + 1 for t in moved])
    assert not s.is_projective


def test_movements_lists_extrapositions_and_hyperbata() -> None:
    assert len(movements(MAN)) == 1  # one relative clause, no adjective


BAD = [{"nonprojective_rate": 1.5}, {"min_len": 2}, {"min_len": 9, "max_len": 5}]


@pytest.mark.parametrize("kwargs", BAD)
def test_bad_arguments_are_refused(kwargs: dict[str, float]) -> None:
    with pytest.raises(pc.ParsingCoreError):
        synthetic_treebank(5, **kwargs)  # type: ignore[arg-type]
