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
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial

import numpy as np
import torch

from ..driver import max_steps
from ..errors import ParsingCoreError
from ..sentence import Sentence
from ..systems import get_system
from .batch import Encoded, encode
from .config import ModelConfig
from .features import ARC_KINDS, MoveSpace, feature_names
from .network import ParserNetwork
from .read_back import parsed_sentences
from .scoring import Scorer
from .state import BatchState
from .tensor_parse import GraphedParse, GreedyStep, parse_walk
from .tensor_state import TensorState
from .vocab import Vocab


@dataclass
class Parser:
    """Network + vocabulary + system name: everything needed to parse (and to save)."""

    system_name: str
    vocab: Vocab
    config: ModelConfig
    network: ParserNetwork = field(init=False)
    #: greedy parsing's recorded walks, by batch size, device and compiled steps (``path="graphs"``)
    graphed: dict[tuple[int, torch.device, bool], GraphedParse] = field(
        init=False, default_factory=dict, repr=False, compare=False)
    #: the tensor and graphs paths' steps fused by torch.compile (:mod:`.compiled`)
    compile_steps: bool = field(init=False, default=False, compare=False)
    greedy: dict[tuple[torch.device, bool], GreedyStep] = field(
        init=False, default_factory=dict, repr=False, compare=False)

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
        """Move the network; its LSTMs' weights are laid out again as one contiguous block each
        (cuDNN reads them in place, instead of compacting a copy at every call).  Walks recorded
        for greedy parsing read the weights where they were: they are dropped."""
        self.graphed.clear()
        self.network.to(device)
        for module in self.network.modules():
            if isinstance(module, torch.nn.LSTM):
                module.flatten_parameters()
        return self

    def encode(self, sentences: Sequence[Sentence], word_dropout: float = 0.0,
               generator: torch.Generator | None = None) -> Encoded:
        return encode(sentences, self.vocab, self.device, upos=self.config.upos_dim > 0,
                      chars=self.config.char_dim > 0, word_dropout=word_dropout, generator=generator)

    def scorer(self, sentence: Sentence) -> Scorer:
        """This parser bound to one sentence, to score any configuration of it (see :mod:`.scoring`)."""
        return Scorer(self, sentence)

    def parse(self, sentences: Sequence[Sentence], batch_size: int = 128, path: str = "auto",
              workers: int = 1) -> list[Sentence]:
        """The sentences with predicted heads (and labels), parsed ``batch_size`` at a time.

        ``path``: "tensor" walks each batch on a :class:`.tensor_state.TensorState` on the
        network's device (no copy to the host until the batch is parsed); "batched" on a
        :class:`.state.BatchState` (numpy); "graphs" pads each batch to ``batch_size`` rows and
        a bucket of lengths and, on a GPU, replays the walk of that shape as a CUDA graph
        (:mod:`.tensor_parse`: the first batch of each shape records it).  All parse alike, and
        alike to the tests' reference, which walks one configuration at a time
        (``tests/lockstep_parse.py``).  "auto" (the default) parses as "batched": step by step,
        the eager tensor path's few hundred small operations cost more kernel launches on a GPU
        than the numpy state's one copy each way (``docs/benchmarks/gpu.md``).

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
        if batch_size < 1 or workers < 1:
            raise ParsingCoreError(f"parse needs a batch size and workers of at least 1, not {batch_size} "
                                   f"and {workers}")
        walks: dict[str, Callable[[Sequence[Sentence]], list[Sentence]]] = {
            "tensor": self.parse_batch_tensor, "batched": self.parse_batch,
            "graphs": partial(self.parse_batch_graphed, batch_size)}
        parse_batch = walks[self.walk_path(path)]
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
                return self.read_back(sentences, state.heads, state.labels)
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

    def walk_path(self, path: str) -> str:
        """The path that ``path`` names here ("auto" resolved for this device and system)."""
        if check_path(path, PARSE_PATHS) != "auto":
            return path
        return "batched"

    def greedy_step(self) -> GreedyStep:
        """The tensor paths' greedy step on this device (compiled if :attr:`compile_steps`)."""
        key = (self.device, self.compile_steps)
        if key not in self.greedy:
            self.greedy[key] = GreedyStep(self.network, self.system, self.arc_slot.to(self.device),
                                          self.compile_steps)
        return self.greedy[key]

    @torch.inference_mode()
    def parse_batch_tensor(self, sentences: Sequence[Sentence]) -> list[Sentence]:
        """Greedy parsing of one batch on the device: 2n steps of tensor operations, one copy at the end.

        The same choices as :meth:`parse_batch`; final rows take no move (−1).
        """
        if not sentences:
            return []
        batch = self.encode(sentences)
        table = self.network.encode(batch)  # (B·T + 1, F, heads·M)
        lengths = [s.n for s in sentences]
        state = TensorState(self.system, lengths, self.device, self.vocab.labels)
        layout = (batch.width, len(sentences) * batch.width, self.config.children)
        state = parse_walk(self.greedy_step(), state, table, layout, 2 * max(lengths))
        if not bool(state.terminal().all()):
            raise ParsingCoreError(f"the parser did not finish after {2 * max(lengths)} steps")
        return self.read_back(sentences, *state.trees(len(sentences)))

    @torch.inference_mode()
    def parse_batch_graphed(self, size: int, sentences: Sequence[Sentence]) -> list[Sentence]:
        """Greedy parsing of one batch (at most ``size`` sentences) padded to ``size`` rows and a
        bucket of lengths: replayed as a CUDA graph on a GPU (see :mod:`.tensor_parse`)."""
        if not sentences:
            return []
        batch = self.encode(sentences)
        table = self.network.encode(batch)
        key = (size, self.device, self.compile_steps)
        if key not in self.graphed:
            self.graphed[key] = GraphedParse(self.greedy_step(), self.vocab.labels, size)
        final = self.graphed[key].final(table, [s.n for s in sentences], batch.width, self.config.children)
        return self.read_back(sentences, *final.trees(len(sentences)))

    def read_back(self, sentences: Sequence[Sentence], heads: np.ndarray, labels: np.ndarray
                  ) -> list[Sentence]:
        """The sentences with the trees of a finished batch's ``heads`` and ``labels`` arrays."""
        return parsed_sentences(sentences, heads, labels if self.labelled else None, self.vocab.labels)


#: How greedy parsing walks a batch (see :meth:`Parser.parse`).
PARSE_PATHS = ("auto", "graphs", "tensor", "batched")
#: How training walks a batch: the parse paths, and "legacy" (one configuration at a time, packed
#: sequences; kept to compare, its dev set parsed on the batched path).
PATHS = (*PARSE_PATHS, "legacy")


def check_path(path: str, paths: Sequence[str] = PATHS) -> str:
    """``path`` if it names a way of walking batches (one of ``paths``)."""
    if path not in paths:
        raise ParsingCoreError(f"unknown path {path!r}; choose {', '.join(paths)}")
    return path
