"""A batch of sentences as tensors, and the configurations that walk through it in lockstep.

**Lockstep**: the B sentences of a batch are parsed together.  The BiLSTM reads all of them
in one call (padded, see :mod:`.bilstm`); then, at every step, the
configurations that are not final yet are scored in one call of the MLP, and each takes
its move in Python.  One call per step for the whole batch, instead of one per
configuration, is what lets a GPU help (bist-parser and UUParser scored one configuration
at a time and ran slower on a GPU than on a CPU).

>>> import parsing_core as pc
>>> from parsing_core.model.vocab import Vocab
>>> sents = [pc.Sentence.from_heads("a b".split(), [0, 1]), pc.Sentence.from_heads(["c"], [0])]
>>> batch = encode(sents, Vocab.build(sents, min_count=1))
>>> batch.words.tolist(), batch.lengths.tolist(), batch.width     # ROOT (2) first, padding 0
([[2, 3, 4], [2, 5, 0]], [3, 2], 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np
import torch
from torch import Tensor

from ..configuration import Configuration
from ..sentence import Sentence
from ..systems import TransitionSystem
from .features import feature_rows
from .vocab import PAD, ROOT, UNK, Vocab


@dataclass(frozen=True)
class Encoded:
    """The network's input for B sentences (T = longest sentence + 1 for ROOT)."""

    words: Tensor  # (B, T) word ids, ROOT first, PAD after the sentence
    lengths: Tensor  # (B,) n + 1
    upos: Tensor | None = None  # (B, T)
    types: Tensor | None = None  # (B, T) index of each token's spelling in ``chars``
    chars: Tensor | None = None  # (U, Lc) character ids of the U distinct spellings, shortest first
    char_lengths: Tensor | None = None  # (U,)
    char_groups: tuple[tuple[int, int, int], ...] = ()  # runs of similar length (see spelling_groups)

    @property
    def width(self) -> int:
        return int(self.words.shape[1])


def index_tensor(rows: Sequence[Sequence[int]], device: torch.device | str = "cpu") -> Tensor:
    """A (N, F) tensor of row numbers, via numpy: four times faster than ``torch.tensor`` on lists."""
    return torch.from_numpy(np.asarray(rows, dtype=np.int64)).to(device)


def flags(values: Sequence[bool] | Sequence[Sequence[bool]], device: torch.device | str = "cpu") -> Tensor:
    """A bool tensor of (nested) lists, via numpy like :func:`index_tensor`."""
    return torch.from_numpy(np.asarray(values, dtype=bool)).to(device)


def padded(rows: Sequence[Sequence[int]], width: int) -> Tensor:
    """A (len(rows), width) tensor of the rows, each followed by PAD; filled by numpy in one
    assignment (padding each list in Python and handing torch nested lists took half of encoding).

    >>> padded([[2, 3, 4], [2]], 4).tolist()
    [[2, 3, 4, 0], [2, 0, 0, 0]]
    """
    lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    out = np.full((len(rows), width), PAD, dtype=np.int64)
    out[np.arange(width) < lengths[:, None]] = np.fromiter(chain.from_iterable(rows), dtype=np.int64,
                                                           count=int(lengths.sum()))
    return torch.from_numpy(out)


def encode(sentences: Sequence[Sentence], vocab: Vocab, device: torch.device | str = "cpu",
           upos: bool = False, chars: bool = False, word_dropout: float = 0.0,
           generator: torch.Generator | None = None) -> Encoded:
    """Look the sentences up in ``vocab``; with ``word_dropout`` α > 0, hide rare words (training)."""
    width = max(s.n for s in sentences) + 1
    words = padded([vocab.word_ids(s) for s in sentences], width)
    if word_dropout > 0:
        words = drop_words(words, vocab, word_dropout, generator)
    lengths = torch.tensor([s.n + 1 for s in sentences], dtype=torch.long)
    tags = padded([vocab.upos_ids(s) for s in sentences], width).to(device) if upos else None
    if not chars:
        return Encoded(words.to(device), lengths, tags)
    types, char_ids, char_lengths = spellings(sentences, vocab, width)
    return Encoded(words.to(device), lengths, tags, types.to(device), char_ids.to(device),
                   char_lengths.to(device), spelling_groups(char_lengths.tolist()))


def drop_words(words: Tensor, vocab: Vocab, alpha: float, generator: torch.Generator | None) -> Tensor:
    """Replace each known word by UNK with probability α / (α + its training count)."""
    counts = torch.from_numpy(vocab.count_array)[words]  # (B, T)
    keep_p = counts / (counts + alpha)
    hide = (torch.rand(words.shape, generator=generator) >= keep_p) & (words > ROOT)
    return words.masked_fill(hide, UNK)


def spellings(sentences: Sequence[Sentence], vocab: Vocab, width: int) -> tuple[Tensor, Tensor, Tensor]:
    """(types (B, T), chars (U, Lc), lengths (U,)): each distinct spelling once, the shortest first
    (so that :func:`spelling_groups` finds runs of similar length); 0 is padding, 1 ROOT.

    >>> sents = [Sentence.from_heads(["Hello", "a", "cat"], [0, 1, 1])]
    >>> types, chars, lengths = spellings(sents, Vocab.build(sents, min_count=1), 4)
    >>> types.tolist(), lengths.tolist()
    ([[1, 4, 2, 3]], [1, 1, 1, 3, 5])
    """
    distinct = list(dict.fromkeys(chain.from_iterable(s.words for s in sentences)))
    spelled = [(PAD,), (ROOT,), *vocab.spellings(distinct)]
    order = sorted(range(len(spelled)), key=lambda i: len(spelled[i]))  # stable: PAD, ROOT stay 0, 1
    rank = dict(zip(order, range(len(order))))
    index = {w: rank[i] for i, w in enumerate(distinct, start=2)}
    types = [[1, *map(index.__getitem__, s.words)] for s in sentences]
    lengths = torch.tensor([len(spelled[i]) for i in order], dtype=torch.long)
    return padded(types, width), padded([spelled[i] for i in order], int(lengths[-1])), lengths


def spelling_groups(lengths: Sequence[int], ratio: float = 1.5, least: int = 3
                    ) -> tuple[tuple[int, int, int], ...]:
    """Runs (start, end, width) of spellings sorted by length, to be read by the character
    BiLSTM one run at a time, each padded only to its own longest spelling.

    Read in one call, every spelling is padded to the longest of the batch: two characters
    of padding for every real one on en_lines.  A run starts at a spelling of length l and
    takes the following ones up to ``ratio`` · l characters (at least ``least``), so that a
    few calls (three to five a batch on en_lines) do two fifths of the work (en_lines test:
    56,594 cells instead of 135,237, for 45,761 characters).

    >>> spelling_groups([1, 1, 2, 3, 4, 6, 7, 11, 19])
    ((0, 4, 3), (4, 6, 6), (6, 7, 7), (7, 8, 11), (8, 9, 19))
    """
    runs, start = [], 0
    while start < len(lengths):
        cap = max(least, int(ratio * lengths[start]))
        end = start
        while end < len(lengths) and lengths[end] <= cap:
            end += 1
        end = max(end, start + 1)
        runs.append((start, end, int(lengths[end - 1])))
        start = end
    return tuple(runs)


class Lockstep:
    """The configurations of one batch, advancing together; finished ones drop out of ``active``."""

    def __init__(self, system: TransitionSystem, sentences: Sequence[Sentence], width: int,
                 children: bool = False) -> None:
        self.system, self.sentences, self.width, self.children = system, sentences, width, children
        self.configs: list[Configuration] = [system.initial(s) for s in sentences]
        self.active = [i for i, c in enumerate(self.configs) if not system.is_terminal(c)]
        self.empty_row = len(sentences) * width  # the table's last row: the empty vector
        self.steps = 0

    def rows(self, which: Sequence[int]) -> list[list[int]]:
        """Feature rows (see :func:`.features.feature_rows`) of the configurations ``which``."""
        return [feature_rows(self.configs[i], i * self.width, self.empty_row, self.children) for i in which]

    def move(self, i: int, c: Configuration) -> None:
        self.configs[i] = c

    def advance(self) -> None:
        """End a step: drop the configurations that reached a final one."""
        self.steps += 1
        self.active = [i for i in self.active if not self.system.is_terminal(self.configs[i])]

    def stop(self, i: int) -> None:
        """Take configuration ``i`` out of the walk (e.g. its oracle cannot answer)."""
        self.active = [j for j in self.active if j != i]
