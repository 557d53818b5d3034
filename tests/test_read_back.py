"""A parsed batch read back all at once gives exactly what reading one configuration at a time gives.

:mod:`parsing_core.model.read_back` checks every row's tree with numpy and builds each sentence
from the arrays; :func:`~parsing_core.model.read_back.finished` reads one configuration and checks
its tree token by token (:meth:`Sentence.with_tree`).  Over thousands of random rows (trees with
headless tokens and unlabelled arcs, and rows that are no tree at all) the two must agree:
the same sentences, the same verdict, the same error.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import parsing_core as pc
from parsing_core.configuration import Configuration
from parsing_core.errors import TreeError
from parsing_core.model.read_back import finished, parsed_sentences, trees
from tests.strategies import all_trees

NAMES = ("det", "nsubj", "obj")
RNG = np.random.default_rng(7)


def random_tree(n: int) -> list[int]:
    """A random tree over n tokens: each token in a random order attaches to ROOT or to one before it."""
    order = RNG.permutation(np.arange(1, n + 1)).tolist()
    heads = [0] * n
    for i, d in enumerate(order):
        heads[d - 1] = ([0, *order[:i]])[RNG.integers(0, i + 1)]
    return heads


def batch(rows: list[tuple[list[int], list[int]]], width: int) -> tuple[np.ndarray, np.ndarray]:
    """(heads, labels) arrays as a batch state holds them: column 0 ROOT's, −1 past each row."""
    heads, labels = (np.full((len(rows), width), -1, dtype=np.int64) for _ in range(2))
    for i, (h, lab) in enumerate(rows):
        heads[i, 1:len(h) + 1], labels[i, 1:len(lab) + 1] = h, lab
    return heads, labels


def one_at_a_time(s: pc.Sentence, heads: list[int], labels: list[int], labelled: bool) -> pc.Sentence:
    c = Configuration((), (), tuple(None if h < 0 else h for h in heads),
                      tuple(None if lab < 0 else NAMES[lab] for lab in labels))
    return finished(s, c, labelled)


@pytest.mark.parametrize("labelled", [True, False])
def test_trees_read_back_all_at_once_as_one_at_a_time(labelled: bool) -> None:
    sentences, rows = [], []
    for _ in range(3000):
        n = int(RNG.integers(1, 16))
        tree = random_tree(n)
        heads = [-1 if RNG.random() < 0.15 else h for h in tree]  # no head: it goes to ROOT
        labels = RNG.integers(-1, len(NAMES), n).tolist()  # −1: an arc without a label
        words = [f"w{i}" for i in range(n)]
        sentences.append(pc.Sentence.from_heads(words, [0] * n, sent_id=f"s{len(rows)}"))
        rows.append((heads, labels))
    heads, labels = batch(rows, 20)  # padded past the longest, as a padded batch is
    got = parsed_sentences(sentences, heads, labels if labelled else None, NAMES)
    want = [one_at_a_time(s, h, lab, labelled) for s, (h, lab) in zip(sentences, rows)]
    assert got == want
    assert [s.sent_id for s in got] == [s.sent_id for s in sentences]


def test_every_small_head_list_is_judged_a_tree_exactly_when_a_sentence_accepts_it() -> None:
    heads_lists = [list(h) for n in range(1, 5) for h in itertools.product(range(-1, n + 2), repeat=n)]
    heads, _ = batch([(h, []) for h in heads_lists], 6)
    n = np.array([len(h) for h in heads_lists])
    accepted = [is_accepted(h) for h in heads_lists]
    assert trees(heads, n).tolist() == accepted
    assert sum(accepted) == sum(count_with_headless(k) for k in range(1, 5))  # not a vacuous check


def is_accepted(heads: list[int]) -> bool:
    try:
        pc.Sentence.from_heads(["w"] * len(heads), [0 if h < 0 else h for h in heads])
    except TreeError:
        return False
    return True


def count_with_headless(n: int) -> int:
    """Head lists over −1..n that are trees once −1 reads as ROOT: each tree, with each ROOT
    child written either 0 or −1."""
    return sum(2 ** sum(h == 0 for h in tree) for tree in all_trees(n))


def test_a_row_that_is_no_tree_says_what_is_wrong_as_the_slow_path_does() -> None:
    s = pc.Sentence.from_heads(["a", "b", "c"], [0, 1, 2])
    heads, labels = batch([([2, 1, 0], [0, 0, 0])], 4)
    with pytest.raises(TreeError, match="cycle 1 → 2 → 1"):
        parsed_sentences([s], heads, labels, NAMES)
    heads, labels = batch([([0, 2, 0], [0, 0, 0])], 4)
    with pytest.raises(TreeError, match="token 2 is its own head"):
        parsed_sentences([s], heads, labels, NAMES)
