"""What a trained parser thinks of one configuration: a score for every move, and its choice.

Parsing a treebank runs whole batches in lockstep (:meth:`.Parser.parse`); a teaching page
wants the opposite: one sentence, any configuration a learner reached, every move's score.
:class:`Scorer` reads the sentence once with the BiLSTM and then scores configurations of
it on demand, so stepping through a sentence costs one small MLP call per step.

The scores are the network's raw outputs; ``probability`` is their softmax over the *legal*
moves only (what the parser actually chooses among), and the parser's choice is the legal
move with the highest score, with its best label when the parser was trained labelled.
:meth:`Scorer.choose` has the driver's ``choose(c, legal)`` signature, so a model plays a
parse through :func:`parsing_core.run` like any oracle.

>>> import parsing_core as pc
>>> from parsing_core.model import ModelConfig, Parser, Vocab
>>> s = pc.Sentence.from_heads("book the flight".split(), [0, 3, 1], ["root", "det", "obj"])
>>> tiny = ModelConfig(word_dim=8, lstm_dim=8, lstm_layers=1, mlp_dim=8, min_count=1)
>>> parser = Parser("arc-standard", Vocab.build([s], min_count=1), tiny)
>>> scorer = parser.scorer(s)
>>> system = pc.get_system("arc-standard")
>>> [(m.move, m.legal) for m in scorer.scores(system.initial(s))]
[('SH', True), ('LA', False), ('RA', False)]
>>> trace = pc.run(system, s, scorer.choose)       # the model plays a whole parse
>>> trace.is_complete
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol

import torch

from ..configuration import Configuration
from ..errors import ParsingCoreError
from ..sentence import Sentence
from ..systems import Move, TransitionSystem
from ..transition import Transition
from .batch import Encoded, index_tensor
from .config import ModelConfig
from .features import ARC_KINDS, MoveSpace, feature_rows
from .move_score import MoveScore
from .network import ParserNetwork
from .vocab import Vocab


class Model(Protocol):
    """What scoring needs of a parser (:class:`.Parser` is one; this module never imports it,
    so that :mod:`.parser` can import this one: the parser's choice is defined here, once)."""

    @property
    def network(self) -> ParserNetwork: ...
    @property
    def vocab(self) -> Vocab: ...
    @property
    def config(self) -> ModelConfig: ...
    @property
    def system(self) -> TransitionSystem: ...
    @property
    def space(self) -> MoveSpace: ...
    @property
    def moves(self) -> Sequence[Move]: ...
    @property
    def device(self) -> torch.device: ...
    def encode(self, sentences: Sequence[Sentence]) -> Encoded: ...


def best_move(moves: Sequence[Move], scores: Sequence[float], c: Configuration) -> int:
    """The parser's choice in ``c``: the index of the highest-scoring legal move.

    The moves are tried best first (ties in move order), so usually one precondition is
    checked, not all: in batch parsing this is the Python half of parsing speed.
    """
    for k in sorted(range(len(scores)), key=lambda k: -scores[k]):
        if moves[k].why_not(c) is None:
            return k
    raise ParsingCoreError("no legal move: the configuration is final")


def best_label(vocab: Vocab, kind: str, labels: Sequence[int] | None) -> str | None:
    """The label the parser gives a move of ``kind``: ``labels`` holds, per arc kind, the index of
    its best label (None for an unlabelled parser); None for a move that builds no arc."""
    if labels is None or kind not in ARC_KINDS:
        return None
    return vocab.label(labels[ARC_KINDS.index(kind)])


class Scorer:
    """A parser bound to one sentence: the BiLSTM has read it; configurations are scored on demand."""

    def __init__(self, parser: Model, sentence: Sentence) -> None:
        self.parser, self.sentence = parser, sentence
        parser.network.eval()
        with torch.inference_mode():
            batch = parser.encode([sentence])
            self.table = parser.network.encode(batch)  # (T + 1, F, heads·M)
        self.empty_row = batch.width  # the table's last row: the empty vector

    def scores(self, c: Configuration) -> list[MoveScore]:
        """Every move kind of the parser's system, in display order, with its score."""
        if c.n != self.sentence.n:
            raise ParsingCoreError("this configuration is not one of the scorer's sentence")
        parser = self.parser
        row = feature_rows(c, 0, self.empty_row, parser.config.children)
        rows = index_tensor([row], parser.device)
        with torch.inference_mode():
            moves, labels = parser.network.score(self.table, rows)
        raw: list[float] = moves[0].tolist()
        final = parser.system.is_terminal(c)
        legal = [i for i, m in enumerate(parser.moves) if not final and m.why_not(c) is None]
        probability = dict(zip(legal, softmax([raw[i] for i in legal])))
        chosen = None if final else best_move(parser.moves, raw, c)
        best: list[int] | None = labels[0].argmax(dim=1).tolist() if labels is not None else None
        out = []
        for i, kind in enumerate(parser.space.kinds):
            label = best_label(parser.vocab, kind, best)
            out.append(MoveScore(kind, raw[i], i in probability, probability.get(i), label, i == chosen))
        return out

    def best(self, c: Configuration) -> Transition:
        """The move the parser takes in ``c`` (labelled when the parser is)."""
        for m in self.scores(c):
            if m.chosen:
                return m.transition
        raise ParsingCoreError("no legal move: the configuration is final")

    def choose(self, c: Configuration, legal: tuple[Transition, ...]) -> Transition:
        """The driver's chooser: the parser's best move among ``legal``."""
        allowed = {t.kind for t in legal}
        ranked = sorted((m for m in self.scores(c) if m.move in allowed), key=lambda m: -m.score)
        if not ranked:
            raise ParsingCoreError("none of the legal moves is one the parser knows")
        return ranked[0].transition


def softmax(values: list[float]) -> list[float]:
    """Probabilities from scores (an empty list stays empty)."""
    if not values:
        return []
    top = max(values)
    exps = [math.exp(v - top) for v in values]
    total = sum(exps)
    return [e / total for e in exps]
