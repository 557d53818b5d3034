"""A trained parser: the network, its vocabulary and its transition system, parsing in lockstep.

At test time the parser is one more ``choose`` function (the best-scoring legal move), but
run for a whole batch at once: every step scores all unfinished configurations in one call
and applies each one's best legal move, with the best label for an arc move.

Systems whose final configuration may leave tokens without a head (arc-eager ends when the
buffer is empty) have those tokens attached to ROOT with the label ``root``, as MaltParser
does, so that every prediction is a tree.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
import torch

from ..configuration import Configuration
from ..driver import max_steps
from ..errors import ParsingCoreError
from ..sentence import Sentence
from ..systems import get_system
from .batch import Encoded, Lockstep, encode, index_tensor
from .config import ModelConfig
from .features import ARC_KINDS, MoveSpace, feature_names
from .network import ParserNetwork
from .scoring import Scorer, best_label, best_move
from .state import BatchState
from .vocab import Vocab


@dataclass
class Parser:
    """Network + vocabulary + system name: everything needed to parse (and to save)."""

    system_name: str
    vocab: Vocab
    config: ModelConfig
    network: ParserNetwork = field(init=False)

    def __post_init__(self) -> None:
        self.system = get_system(self.system_name, labelled=bool(self.vocab.labels))
        self.space = MoveSpace(self.system)
        self.moves = [next(m for m in self.system.moves if m.kind == k) for k in self.space.kinds]
        self.network = ParserNetwork(self.config, self.vocab, len(self.space), len(self.features))
        #: for each kind, its row of the label scorer (ARC_KINDS), −1 for a kind that builds no arc
        self.arc_slot = torch.tensor([ARC_KINDS.index(k) if k in ARC_KINDS else -1 for k in self.space.kinds])

    @property
    def features(self) -> tuple[str, ...]:
        return feature_names(self.config.children)

    @property
    def labelled(self) -> bool:
        return self.system.labelled

    @property
    def device(self) -> torch.device:
        return self.network.device

    def to(self, device: torch.device | str) -> Parser:
        self.network.to(device)
        return self

    def encode(self, sentences: Sequence[Sentence], word_dropout: float = 0.0,
               generator: torch.Generator | None = None) -> Encoded:
        return encode(sentences, self.vocab, self.device, upos=self.config.upos_dim > 0,
                      chars=self.config.char_dim > 0, word_dropout=word_dropout, generator=generator)

    def scorer(self, sentence: Sentence) -> Scorer:
        """This parser bound to one sentence, to score any configuration of it (see :mod:`.scoring`)."""
        return Scorer(self, sentence)

    def parse(self, sentences: Sequence[Sentence], batch_size: int = 128, path: str = "batched",
              workers: int = 1) -> list[Sentence]:
        """The sentences with predicted heads (and labels), parsed ``batch_size`` at a time.

        ``path``: "batched" walks each batch on a :class:`.state.BatchState`; "legacy" one
        configuration at a time (:class:`.batch.Lockstep`, kept to compare); both parse alike.

        ``workers`` > 1 (on a CPU): that many batches at once, each in a thread of its own
        with one torch thread.  torch's kernels let go of Python's lock while they compute, so
        the threads keep the cores busy, and one thread per batch wastes less than two torch
        threads on one batch's small matrices (``benchmarks/train.py --sections parsing``
        measures both).  The batches go to the workers longest first: the batch of the longest
        sentences is the slowest, and begun last it kept one core busy alone.  torch's thread
        count is the process's: it is 1 while the batches run and is put back after, so parse
        this way in a process of its own (the command line, a training job), not beside other
        torch work.
        """
        parse_batch = self.parse_batch if check_path(path) == "batched" else self.parse_batch_legacy
        self.network.eval()
        order = sorted(range(len(sentences)), key=lambda i: sentences[i].n)  # little padding per batch
        chunks = [order[start:start + batch_size] for start in range(0, len(order), batch_size)]
        out: list[Sentence | None] = [None] * len(sentences)

        def one(chunk: list[int]) -> list[Sentence]:
            return parse_batch([sentences[i] for i in chunk])

        if workers > 1 and self.device.type == "cpu" and len(chunks) > 1:
            threads = torch.get_num_threads()
            torch.set_num_threads(1)
            try:  # the longest batches first, so that no worker is left alone with one at the end
                with ThreadPoolExecutor(workers) as pool:
                    parsed_chunks = list(pool.map(one, chunks[::-1]))[::-1]
            finally:
                torch.set_num_threads(threads)
        else:
            parsed_chunks = [one(chunk) for chunk in chunks]
        for chunk, parsed in zip(chunks, parsed_chunks):
            for i, sentence in zip(chunk, parsed):
                out[i] = sentence
        return [s for s in out if s is not None]

    @torch.inference_mode()
    def parse_batch(self, sentences: Sequence[Sentence]) -> list[Sentence]:
        """Greedy parsing of one batch on the batched state (the network should be in eval mode).

        Every step scores the active configurations in one call and takes, for each, the legal
        kind of highest score (the first of equal ones, as :func:`.scoring.best_move`) with the
        best label of its arc kind (:func:`.scoring.best_label`).
        """
        if not sentences:
            return []
        batch = self.encode(sentences)
        table = self.network.encode(batch)  # (B·T + 1, F, heads·M)
        state = BatchState(self.system, [s.n for s in sentences], self.vocab.labels)
        layout = (batch.width, len(sentences) * batch.width, self.config.children)
        limit = max_steps(self.system, max(s.n for s in sentences))
        active = np.flatnonzero(~state.terminal())
        for _ in range(limit + 1):
            if not len(active):
                return [finished(s, state.configuration(i), self.labelled) for i, s in enumerate(sentences)]
            state.apply(*self.choices(state, active, layout, table))
            active = active[~state.terminal()[active]]
        raise ParsingCoreError(f"the parser did not finish after {limit} steps")

    def choices(self, state: BatchState, active: np.ndarray, layout: tuple[int, int, bool],
                table: torch.Tensor) -> tuple[np.ndarray, np.ndarray]:
        """(B,) the kind and (B,) the label id each active row takes (−1 elsewhere)."""
        rows = torch.from_numpy(state.feature_rows(*layout)[active]).to(self.device)
        moves, labels = self.network.score(table, rows)  # (N, K), (N, 2, L)
        legal = torch.from_numpy(state.legal_mask()[active]).to(self.device)
        chosen = moves.masked_fill(~legal, -math.inf).argmax(dim=1)  # (N,)
        kinds = np.full(state.size, -1, dtype=np.int64)
        kinds[active] = chosen.cpu().numpy()
        label_ids = np.full(state.size, -1, dtype=np.int64)
        if labels is not None:
            slot = self.arc_slot.to(chosen.device)[chosen]  # (N,) LA → 0, RA → 1, other kinds −1
            best = labels.argmax(dim=2).gather(1, slot.clamp(min=0)[:, None])[:, 0]
            label_ids[active] = torch.where(slot >= 0, best, -1).cpu().numpy()
        return kinds, label_ids

    @torch.inference_mode()
    def parse_batch_legacy(self, sentences: Sequence[Sentence]) -> list[Sentence]:
        """Greedy parsing of one batch in lockstep, one configuration at a time."""
        if not sentences:
            return []
        batch = self.encode(sentences)
        table = self.network.encode(batch, packed=True)  # (B·T + 1, F, heads·M)
        walk = Lockstep(self.system, sentences, batch.width, self.config.children)
        limit = max_steps(self.system, max(s.n for s in sentences))
        while walk.active:
            if walk.steps > limit:
                raise ParsingCoreError(f"the parser did not finish after {limit} steps")
            self.step(walk, table)
            walk.advance()
        return [finished(s, c, self.labelled) for s, c in zip(sentences, walk.configs)]

    def step(self, walk: Lockstep, table: torch.Tensor) -> None:
        """Score every active configuration once and apply its best legal move.

        The choice (:func:`.scoring.best_move`, :func:`.scoring.best_label`) is the one a
        :class:`.Scorer` shows for a single configuration.
        """
        rows = index_tensor(walk.rows(walk.active), self.device)
        moves, labels = self.network.score(table, rows)  # (N, K), (N, 2, L)
        raw: list[list[float]] = moves.tolist()
        best_labels: list[list[int]] | None = labels.argmax(dim=2).tolist() if labels is not None else None
        for n, i in enumerate(walk.active):
            c = walk.configs[i]  # not final, so some move is legal
            move = self.moves[best_move(self.moves, raw[n], c)]
            label = best_label(self.vocab, move.kind, best_labels[n] if best_labels is not None else None)
            walk.move(i, move.effect(c, label))


PATHS = ("batched", "legacy")


def check_path(path: str) -> str:
    """``path`` if it names a way of walking batches (:data:`PATHS`)."""
    if path not in PATHS:
        raise ParsingCoreError(f"unknown path {path!r}; choose batched or legacy")
    return path


def finished(sentence: Sentence, c: Configuration, labelled: bool = True) -> Sentence:
    """The sentence with the tree of a final configuration (headless tokens go to ROOT)."""
    heads = [0 if h is None else h for h in c.heads]
    if not labelled:
        return sentence.with_tree(heads)
    labels = ["root" if h is None else (lab or "_") for h, lab in zip(c.heads, c.labels)]
    return sentence.with_tree(heads, labels)
