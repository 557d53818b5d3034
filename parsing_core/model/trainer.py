"""The trainer: epochs of lockstep training walks, dev evaluation, and reports through callbacks.

The trainer knows nothing about a user interface.  After every batch and every epoch it
builds a typed record (:class:`~.events.BatchEvent`, :class:`~.events.EpochEvent`: the same
lines the CLI writes to its metrics log) and hands it to ``on_event(record)``, and its plain
dict (``record.to_json()``) to ``on_batch(report)`` or ``on_epoch(report)``; it asks
``should_stop()`` before every batch, so a background job can show progress and be stopped
cleanly.

>>> import parsing_core as pc
>>> from parsing_core.synthetic import synthetic_treebank
>>> train = synthetic_treebank(40, seed=1)
>>> config = TrainConfig(epochs=1, batch_size=8, seed=1)
>>> model = ModelConfig(word_dim=16, lstm_dim=16, lstm_layers=1, mlp_dim=16)
>>> trainer = Trainer(train, train[:10], "arc-hybrid", train_config=config, model_config=model)
>>> trainer.oracle_name, trainer.config.regime
('goldberg-nivre', 'dynamic')
>>> result = trainer.run()
>>> [r["event"] for r in result.history], 0 <= result.history[0]["dev_uas"] <= 1
(['epoch'], True)
"""

from __future__ import annotations

import copy
import gc
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import torch

from ..errors import ParsingCoreError
from ..metrics import las, uas
from ..oracles import ModelOracle, Oracle, get_oracle, oracle_class
from ..sentence import Sentence
from ..systems import TransitionSystem, get_system
from .batch import Lockstep
from .config import ModelConfig, TrainConfig, default_oracle
from .device import check_precision, describe, finish, pick_device, set_seed
from .events import BatchEvent, EpochEvent, Event
from .explore import Exploration, Supervision, supervision_loss
from .parser import Parser, check_path
from .tensor_graphs import GraphedWalker
from .tensor_oracles import tensor_costs
from .tensor_state import supports
from .tensor_walks import TensorSupervision, TensorWalker, tensor_loss
from .vocab import Vocab
from .walks import BatchedWalker

Report = dict[str, Any]


@dataclass
class Callbacks:
    """What the trainer tells its caller, and how the caller stops it."""

    on_batch: Callable[[Report], None] | None = None  # BatchEvent.to_json()
    on_epoch: Callable[[Report], None] | None = None  # EpochEvent.to_json()
    should_stop: Callable[[], bool] | None = None
    on_event: Callable[[Event], None] | None = None  # the typed record, batch or epoch
    on_best: Callable[[int], None] | None = None  # a new best dev epoch: the parser holds its weights now


@dataclass
class TrainResult:
    parser: Parser
    history: list[Report] = field(default_factory=list)  # EpochEvent.to_json() of each finished epoch
    best_epoch: int | None = None  # the epoch whose weights the parser has (keep_best)
    stopped: bool = False  # should_stop() ended the run early, or the loss diverged
    diverged: str | None = None  # why the run stopped itself (a loss that is not a number)


def resolve(config: TrainConfig, system: TransitionSystem, oracle: str | None, regime: str | None
            ) -> TrainConfig:
    """The config with the regime and oracle to use (the arguments win over the config's)."""
    regime = regime or config.regime
    oracle = oracle or config.oracle or default_oracle(system, regime)
    if regime == "imitation" and not learned(system, oracle):
        raise ParsingCoreError(f"the imitation regime follows the learned oracle (dqn, or a saved run's "
                               f"dqn:<run>), not {oracle!r}")
    if regime == "static" and oracle != "static":
        raise ParsingCoreError(f"the static regime follows the static oracle; choose another regime "
                               f"to train with {oracle!r}")
    return replace(config, regime=regime, oracle=oracle)


def learned(system: TransitionSystem, oracle: str) -> bool:
    """Is ``oracle`` a learned one (a model's: ``dqn``, ``dqn:<run>``), which imitation follows?"""
    try:
        return issubclass(oracle_class(system, oracle), ModelOracle)
    except ParsingCoreError:
        return False


def trainable(sentences: Sequence[Sentence], system: TransitionSystem, regime: str) -> list[Sentence]:
    """Sentences with a gold tree; for the static regime only those the system can build."""
    usable = [s for s in sentences if s.has_gold]
    if regime == "static":
        usable = [s for s in usable if system.why_unbuildable(s) is None]
    return usable


def attachment_scores(pred: Sequence[Sentence], gold: Sequence[Sentence]) -> dict[str, float]:
    """UAS and LAS, with and without punctuation, as fractions."""
    return {"uas": uas(pred, gold), "las": las(pred, gold), "uas_nopunct": uas(pred, gold, ignore_punct=True),
            "las_nopunct": las(pred, gold, ignore_punct=True)}


def length_batches(lengths: Sequence[int], batch_size: int, rng: random.Random) -> list[list[int]]:
    """Shuffled batches of sentences of similar length (the walk lasts as long as its longest)."""
    order = list(range(len(lengths)))
    rng.shuffle(order)
    pool = 20 * batch_size
    batches = []
    for start in range(0, len(order), pool):
        chunk = sorted(order[start:start + pool], key=lengths.__getitem__)
        batches += [chunk[i:i + batch_size] for i in range(0, len(chunk), batch_size)]
    rng.shuffle(batches)
    return batches


def read_losses(*losses: torch.Tensor) -> list[float]:
    """The losses as numbers: the batch's one read of the device, made before the backward pass.

    Reading a GPU tensor from the host waits for every kernel queued before it.  Read here, it
    waits for the forward pass only; the backward pass and the optimiser's step are then queued
    and left running while the host prepares the next batch.  (Each ``loss.item()`` after the
    step, and a ``torch.isfinite(loss)`` test before backward, would each wait for all of it.)

    >>> read_losses(torch.tensor(0.5, requires_grad=True) * 2, torch.tensor(1.0))
    [1.0, 1.0]
    """
    return torch.stack([t.detach().float() for t in losses]).tolist()


@contextmanager
def out_of_the_collectors_way() -> Iterator[None]:
    """Hide what is alive when a run starts from Python's garbage collector until it ends.

    The sentences, the vocabulary and the network live as long as the run, yet every full
    collection walks them again; an epoch allocates enough long-lived objects (an oracle's
    cached tables, the walks' records) to trigger several.  ``gc.freeze`` sets them aside and
    ``gc.unfreeze`` gives them back afterwards (what became garbage meanwhile is collected then).
    Measured on an exploring arc-standard epoch of en_lines train: four full collections took
    1.1 s of a 16 s epoch with the exact oracle (0.4 s with the approximate one), 0.1 s once frozen.
    """
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


class Trainer:
    """Train a :class:`Parser` for ``system`` on ``train``, evaluating on ``dev`` every epoch.

    ``oracle`` and ``regime``, when given, replace those of ``train_config``.
    """

    def __init__(self, train: Sequence[Sentence], dev: Sequence[Sentence] = (), system: str = "arc-hybrid",
                 oracle: str | None = None, regime: str | None = None,
                 train_config: TrainConfig | None = None, model_config: ModelConfig | None = None,
                 callbacks: Callbacks | None = None, path: str = "auto") -> None:
        self.path = check_path(path)
        self.model_config = model_config or ModelConfig()
        self.callbacks = callbacks or Callbacks()
        self.diverged: str | None = None  # set when the loss stops being a number
        self.system = get_system(system)
        self.config = resolve(train_config or TrainConfig(), self.system, oracle, regime)
        self.oracle_name = str(self.config.oracle)  # resolve() always names one
        self.oracle = get_oracle(self.system, self.oracle_name, **self.oracle_options())
        set_seed(self.config.seed, self.config.threads)
        self.device = pick_device(self.config.device)
        self.train = trainable(train, self.system, self.config.regime)
        if not self.train:
            raise ParsingCoreError(f"none of the {len(train)} training sentences can be used by "
                                   f"the {self.config.regime} regime on {system}")
        self.dev = [s for s in dev if s.has_gold]
        vocab = Vocab.build(self.train, self.model_config.min_count, self.model_config.lowercase)
        self.parser = Parser(system, vocab, self.model_config).to(self.device)
        self.parser.network.packed = self.path == "legacy"  # the legacy path reads packed sequences
        self.parser.network.precision = check_precision(self.config.precision, self.device)
        self.parser.compile_steps = self.config.compile_steps
        # fused: one kernel over all the weights, four times quicker per step than Adam's loop
        # over them (mostly the word embeddings), the same update up to rounding
        self.optimizer = torch.optim.Adam(self.parser.network.parameters(), lr=self.config.lr, fused=True)
        self.walker = BatchedWalker(self.new_oracle, self.parser.space, vocab, self.parser.network)
        self.tensor_walker = self.make_tensor_walker()
        graphs = self.path == "graphs" or (self.path == "auto" and self.device.type == "cuda")
        self.graphed = GraphedWalker(self.tensor_walker, self.config.batch_size) if (
            graphs and self.tensor_walker is not None) else None
        self.rng = random.Random(self.config.seed)
        self.generator = torch.Generator().manual_seed(self.config.seed)
        self.history: list[Report] = []

    def make_tensor_walker(self) -> TensorWalker | None:
        """The walker on the device, when the path asks for it ("auto": on a GPU) and the system
        and oracle have tensor forms (or ``compile_steps`` asks for it); None for the numpy walks.
        Exploration draws on the host on a CPU (the numpy path's numbers), on the device on a GPU
        or with compiled steps (see :mod:`.tensor_walks`)."""
        compiled = self.config.compile_steps
        wanted = self.path in ("tensor", "graphs") or (self.path == "auto" and (self.device.type == "cuda"
                                                                                 or compiled))
        possible = supports(self.system) and tensor_costs(self.system.name, self.oracle_name) is not None
        if (self.path in ("tensor", "graphs") or compiled) and not possible:
            raise ParsingCoreError(f"the tensor path has no {self.oracle_name} oracle for "
                                   f"{self.system.name}; use the batched path")
        if compiled and not wanted:
            raise ParsingCoreError("compile_steps compiles the tensor walk's steps: not on the "
                                   f"{self.path} path")
        if not (wanted and possible):
            return None
        draws = "device" if self.device.type == "cuda" or compiled else "host"
        return TensorWalker(self.system, self.oracle_name, self.parser.space, self.parser.vocab,
                            self.parser.network, draws, compiled)

    @property
    def device_name(self) -> str:
        return describe(self.device)

    def new_oracle(self) -> Oracle:
        """One more oracle object of the run's kind (each sentence slot of a batch has its own)."""
        return get_oracle(self.system, self.oracle_name, **self.oracle_options())

    def oracle_options(self) -> dict[str, str]:
        """What the oracle is built with: a learned oracle's model file (``oracle_model``)."""
        return {"model": self.config.oracle_model} if self.config.oracle_model else {}

    def stop_requested(self) -> bool:
        return bool(self.callbacks.should_stop and self.callbacks.should_stop())

    # -- the loop ------------------------------------------------------------------------------
    def run(self) -> TrainResult:
        """Train for ``epochs`` epochs (or until ``should_stop()``); keep the best dev weights."""
        with out_of_the_collectors_way():
            return self.run_epochs()

    def run_epochs(self) -> TrainResult:
        """:meth:`run`'s loop over the epochs."""
        result = TrainResult(self.parser, self.history)
        best_uas, best_state = -1.0, None
        for epoch in range(1, self.config.epochs + 1):
            record = self.train_epoch(epoch)
            if record is None or self.stop_requested():
                result.stopped, result.diverged = True, self.diverged
                break
            if self.dev:
                scores, seconds = self.evaluate(self.dev)
                record = replace(record, dev_uas=scores["uas"], dev_las=scores["las"],
                                 dev_uas_nopunct=scores["uas_nopunct"], dev_las_nopunct=scores["las_nopunct"],
                                 dev_seconds=seconds)
                if scores["uas"] > best_uas:
                    best_uas, result.best_epoch = scores["uas"], epoch
                    best_state = copy.deepcopy(self.parser.network.state_dict())
                    if self.callbacks.on_best:
                        self.callbacks.on_best(epoch)
            report = record.to_json()
            self.history.append(report)
            self.tell(record, self.callbacks.on_epoch, report)
        if self.config.keep_best and best_state is not None:
            self.parser.network.load_state_dict(best_state)
        else:
            result.best_epoch = self.history[-1]["epoch"] if self.history else None
        return result

    def tell(self, record: Event, plain: Callable[[Report], None] | None, report: Report | None = None
             ) -> None:
        """Hand a record to ``on_event`` and its dict to ``plain`` (on_batch or on_epoch)."""
        if self.callbacks.on_event:
            self.callbacks.on_event(record)
        if plain:
            plain(report if report is not None else record.to_json())

    def train_epoch(self, epoch: int) -> EpochEvent | None:
        """One pass over the training sentences; None if stopped part-way."""
        exploring = self.config.regime == "dynamic" and epoch > self.config.explore_after
        explore = Exploration(exploring, self.config.explore_p, self.rng)
        batches = length_batches([s.n for s in self.train], self.config.batch_size, self.rng)
        totals = {"loss": 0.0, "steps": 0, "errors": 0, "explored": 0, "dropped": 0}
        start = time.perf_counter()
        for b, indices in enumerate(batches, start=1):
            if self.stop_requested():
                return None
            record = replace(self.train_batch([self.train[i] for i in indices], explore),
                             epoch=epoch, batch=b, batches=len(batches))
            if not math.isfinite(record.loss):  # a NaN or infinite loss: stop, keep the best weights
                self.diverged = f"the training loss became {record.loss} at epoch {epoch}, batch {b}"
                self.tell(record, self.callbacks.on_batch)
                return None
            totals["loss"] += record.loss * len(indices)
            totals["steps"] += record.steps
            totals["errors"] += record.errors
            totals["explored"] += record.explored
            totals["dropped"] += record.dropped
            self.tell(record, self.callbacks.on_batch)
        finish(self.device)  # the last batch's backward pass belongs to this epoch's time
        seconds = time.perf_counter() - start
        return EpochEvent(epoch=epoch, epochs=self.config.epochs, exploring=exploring,
                          loss=totals["loss"] / len(self.train), steps=int(totals["steps"]),
                          errors=int(totals["errors"]), explored=int(totals["explored"]),
                          dropped=int(totals["dropped"]), sentences=len(self.train), seconds=seconds,
                          sentences_per_s=len(self.train) / seconds, device=self.device_name)

    def train_batch(self, sentences: Sequence[Sentence], explore: Exploration) -> BatchEvent:
        """Walk one batch in lockstep, then one backward pass and one optimiser step."""
        start = time.perf_counter()
        network = self.parser.network
        network.train()
        batch = self.parser.encode(sentences, self.config.word_dropout, self.generator)
        table = network.encode(batch)  # (B·T + 1, F, heads·M)
        sup: Supervision | TensorSupervision
        if self.graphed is not None:  # the walk of the padded batch, and the padded table it reads
            sup, table = self.graphed.walk_batch(sentences, batch.width, self.model_config.children, table,
                                                 explore)
            move_loss, label_loss = tensor_loss(network, table, sup)
        elif self.tensor_walker is not None:
            sup = self.tensor_walker.walk_batch(sentences, batch.width, self.model_config.children,
                                                table.detach(), explore)
            move_loss, label_loss = tensor_loss(network, table, sup)
        else:
            sup = self.walk(sentences, batch.width, table.detach(), explore)
            move_loss, label_loss = supervision_loss(network, table, sup)
        loss = move_loss + label_loss
        total, moves, labels = read_losses(loss, move_loss, label_loss)
        self.optimizer.zero_grad()
        if loss.requires_grad and math.isfinite(total):  # a diverged loss must not spoil the weights
            loss.backward()  # type: ignore[no-untyped-call]  # torch leaves Tensor.backward unannotated
            if self.config.clip > 0:
                torch.nn.utils.clip_grad_norm_(network.parameters(), self.config.clip)
            self.optimizer.step()  # queued: the next batch's host work runs while the device does this
        seconds = time.perf_counter() - start
        return BatchEvent(loss=total, move_loss=moves, label_loss=labels,
                          sentences=len(sentences), steps=sup.steps, errors=sup.errors, explored=sup.explored,
                          dropped=sup.dropped, seconds=seconds, sentences_per_s=len(sentences) / seconds,
                          device=self.device_name)

    def walk(self, sentences: Sequence[Sentence], width: int, table: torch.Tensor, explore: Exploration
             ) -> Supervision:
        """The batch's training walk, on the batched state or (``path="legacy"``) one configuration
        at a time; both give the same supervision."""
        children = self.model_config.children
        if self.path == "legacy":
            walk = Lockstep(self.system, sentences, width, children)
            return self.walker.walk(walk, table, sentences, explore)
        return self.walker.walk_batch(sentences, width, children, table, explore)

    def evaluate(self, gold: Sequence[Sentence], batch_size: int = 128) -> tuple[dict[str, float], float]:
        """(attachment scores, seconds) of the current parser on ``gold``."""
        start = time.perf_counter()
        path = "batched" if self.path == "legacy" else self.path  # the legacy walk parses as the batched one
        pred = self.parser.parse(gold, batch_size, path, workers=self.config.threads)
        return attachment_scores(pred, gold), time.perf_counter() - start
