"""Train a neural parser from the command line: ``python -m parsing_core.train``.

    python -m parsing_core.train                                   # synthetic treebank, no internet
    python -m parsing_core.train --nonprojective 0.6 --regime static
    python -m parsing_core.train --treebank en_lines --system arc-standard --oracle exact \\
        --upos-dim 25 --epochs 15 --out en_lines.pt --log en_lines.jsonl --predictions test.conllu
    python -m parsing_core.train --spec spec.json --log log.jsonl --out model.pt

Data: ``--treebank NAME`` reads its train/dev/test files from the data directory;
``--train/--dev/--test FILE`` read CoNLL-U files; with neither, a synthetic treebank
(:mod:`parsing_core.synthetic`) with ``--nonprojective`` crossing sentences is generated.
The flags build a :class:`~parsing_core.model.TrainSpec` (data, system, training and network
settings); ``--spec FILE`` reads one from JSON instead (what a training job of
:mod:`server.jobs` writes), and the data, training and network flags are then ignored.
A progress bar (tqdm) goes to stderr; ``--log`` writes one JSON line per batch and per epoch
(the records of :mod:`parsing_core.model.events`).
SIGTERM (what a job's Stop sends) or Ctrl-C ends the run after the batch it is in: the best
weights so far (the epoch with the best dev UAS) are saved to ``--out`` with ``"stopped": true``
in the checkpoint's info, then tested; a run stopped before its first epoch ended saves nothing.
The trainer itself is :class:`parsing_core.model.Trainer` (importable from here).
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from types import FrameType, TracebackType
from typing import IO, Any

from tqdm import tqdm

from .checkpoint import save_checkpoint
from .cli_common import JsonLog, add_data_arguments, clock, exit_status, load_data
from .conllu_io import write_conllu
from .errors import ParsingCoreError
from .model import (
    PRECISIONS,
    REGIMES,
    Callbacks,
    DataSpec,
    ModelConfig,
    TrainConfig,
    Trainer,
    TrainResult,
    TrainSpec,
)
from .model.events import BatchEvent, EpochEvent, Event, StartEvent, TestEvent
from .model.trainer import attachment_scores
from .sentence import Sentence
from .systems import list_systems

__all__ = ["Callbacks", "ModelConfig", "TrainConfig", "TrainSpec", "Trainer", "TrainResult", "main"]


class ProgressBar:
    """A tqdm bar per epoch (``epoch 2/10: 45%|####  | 45/108 [00:12<00:15, loss=0.41]``) on stderr,
    then one summary line per epoch.  The bar is drawn only on a terminal; the summaries always."""

    def __init__(self, stream: IO[str] = sys.stderr) -> None:
        self.stream = stream
        self.live = stream.isatty()
        self.bar: Any = None  # a tqdm bar while an epoch is drawn

    def batch(self, r: BatchEvent) -> None:
        if not self.live:
            return
        if r.batch == 1 or self.bar is None:
            self.close()
            self.bar = tqdm(total=r.batches, desc=f"epoch {r.epoch}", unit="batch", file=self.stream,
                            leave=False, dynamic_ncols=True)
        self.bar.set_postfix(loss=f"{r.loss:.3f}", refresh=False)
        self.bar.update(1)

    def epoch(self, r: EpochEvent) -> None:
        self.close()
        dev = "  ".join(f"{k.upper()} {100 * v:.2f}" for k, v in r.dev_scores.items())
        dropped = f"  ({r.dropped} walks left out: the oracle could not answer)" if r.dropped else ""
        self.stream.write(f"epoch {r.epoch}/{r.epochs}  loss {r.loss:.3f}  {clock(r.seconds)} "
                          f"({r.sentences_per_s:.0f} sent/s)  dev {dev or '-'}{dropped}\n")
        self.stream.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


class StopSignal:
    """Set by SIGTERM or SIGINT while installed; the trainer asks it (``should_stop``) before each
    batch.

    Used as ``with StopSignal() as stop:``; the handlers are installed only in the main thread
    (the only one where Python runs them) and the previous ones come back on leaving.
    """

    SIGNALS = (signal.SIGTERM, signal.SIGINT)

    def __init__(self) -> None:
        self.asked = False
        self.previous: dict[int, Any] = {}

    def __call__(self) -> bool:
        return self.asked

    def ask(self, number: int, frame: FrameType | None) -> None:
        """The first signal asks for a clean stop; a second one (Ctrl-C again) quits at once."""
        if self.asked:
            raise KeyboardInterrupt
        self.asked = True

    def __enter__(self) -> StopSignal:
        if threading.current_thread() is threading.main_thread():
            self.previous = {n: signal.signal(n, self.ask) for n in self.SIGNALS}
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        for number, handler in self.previous.items():
            signal.signal(number, handler)


class Reporter(Callbacks):
    """The CLI's callbacks: each record goes to the progress bar and to the log; ``stop`` is asked
    before every batch."""

    def __init__(self, bar: ProgressBar, log: JsonLog, stop: StopSignal | None = None) -> None:
        super().__init__(on_event=self.event, should_stop=stop)
        self.bar, self.log = bar, log

    def event(self, record: Event) -> None:
        if isinstance(record, BatchEvent):
            self.bar.batch(record)
        elif isinstance(record, EpochEvent):
            self.bar.epoch(record)
        self.log.write(record)


def configs(args: argparse.Namespace) -> tuple[TrainConfig, ModelConfig]:
    """The two configs from the command line (the option names are the field names)."""
    options = vars(args)
    train = TrainConfig(**{f.name: options[f.name] for f in fields(TrainConfig) if f.name in options})
    model = ModelConfig(**{f.name: options[f.name] for f in fields(ModelConfig) if f.name in options})
    return train, model


def spec_from_flags(args: argparse.Namespace) -> TrainSpec:
    """The spec the data, training and network flags describe."""
    options = vars(args)
    data = DataSpec(**{f.name: options[f.name] for f in fields(DataSpec) if f.name in options})
    train, model = configs(args)
    return TrainSpec(data, args.system, train, model)


def spec_of(args: argparse.Namespace) -> TrainSpec:
    """``--spec FILE`` when given, else the flags."""
    return TrainSpec.load(args.spec) if args.spec else spec_from_flags(args)


def main(argv: Sequence[str] | None = None) -> int:
    args = arguments().parse_args(argv)

    def work(log: JsonLog) -> None:
        with StopSignal() as stop:
            run(spec_of(args), args, log, stop)

    return exit_status(args.log, work)


def run(spec: TrainSpec, args: argparse.Namespace, log: JsonLog, stop: StopSignal | None = None) -> None:
    """Train as ``spec`` says, until the end or until ``stop()``; ``args`` only for the outputs
    (--out, --predictions)."""
    train, dev, test, source = load_data(spec.data, spec.train.seed)
    bar = ProgressBar()
    callbacks = Reporter(bar, log, stop)
    trainer = Trainer(train, dev, spec.system, train_config=spec.train, model_config=spec.model,
                      callbacks=callbacks)

    def keep_best(epoch: int) -> None:  # at once (atomically), so a run killed outright still leaves it
        info = {"data": source, "best_epoch": epoch, "oracle": trainer.oracle_name, "partial": True}
        keep(trainer, args.out, info, quiet=True)

    callbacks.on_best = keep_best
    print(f"{source}: {len(trainer.train)} of {len(train)} training sentences, {len(dev)} dev, "
          f"{len(test)} test; {spec.system}, oracle {trainer.oracle_name}, regime {trainer.config.regime}, "
          f"on {trainer.device_name}", file=sys.stderr)
    log.write(StartEvent(source, spec.system, trainer.device_name, trainer.config, spec.model,
                         len(trainer.train), len(train)))
    try:
        result = trainer.run()
    finally:
        bar.close()
    if result.diverged:
        kept = f"; the model of epoch {result.best_epoch} is kept" if result.best_epoch else ""
        if result.best_epoch:
            keep(trainer, args.out, {"data": source, "best_epoch": result.best_epoch, "stopped": True,
                                     "oracle": trainer.oracle_name, "diverged": result.diverged})
        raise ParsingCoreError(f"{result.diverged}: the run stopped itself{kept} (try a smaller "
                               "learning rate or clipping)")
    if result.stopped and result.best_epoch is None:
        print("stopped before the first epoch ended: no model to save", file=sys.stderr)
        return
    if result.stopped:
        print(f"stopped after {len(result.history)} epochs; keeping epoch {result.best_epoch}",
              file=sys.stderr)
    info: dict[str, Any] = {"data": source, "best_epoch": result.best_epoch, "oracle": trainer.oracle_name,
                            "epochs_done": len(result.history), "stopped": result.stopped}
    keep(trainer, args.out, info)  # first, so that a run killed while testing still leaves its model
    if test:
        info.update(evaluate_test(trainer, test, args.predictions, log))
        keep(trainer, args.out, info)


def keep(trainer: Trainer, out: str | None, info: dict[str, Any], quiet: bool = False) -> None:
    """Save the trainer's parser (its best weights) to ``out``, if given."""
    if out:
        path = save_checkpoint(Path(out), trainer.parser, trainer.config, info)
        if not quiet:
            print(f"saved {path}", file=sys.stderr)


def evaluate_test(trainer: Trainer, test: list[Sentence], predictions: str | None, log: JsonLog
                  ) -> dict[str, float]:
    """Parse the test set once: scores to stderr and the log, predictions to a file."""
    parsed = trainer.parser.parse(test)
    scores = {f"test_{k}": v for k, v in attachment_scores(parsed, test).items()}
    log.write(TestEvent(**scores))
    print("test  " + "  ".join(f"{k[5:].upper()} {100 * v:.2f}" for k, v in scores.items()), file=sys.stderr)
    if predictions:
        write_conllu(parsed, predictions)
    return scores


def arguments() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m parsing_core.train", description=__doc__.split("\n\n")[0])
    p.add_argument("--spec", help="a JSON training spec (data, system, train and model settings), as a "
                   "training job writes it; the data, training and network flags are then ignored")
    add_data_arguments(p, test=True)
    how = p.add_argument_group("training")
    how.add_argument("--system", choices=list_systems(), default="arc-hybrid")
    how.add_argument("--oracle", help="an oracle of the system (default: its first dynamic one)")
    how.add_argument("--regime", choices=REGIMES, default=TrainConfig.regime)
    how.add_argument("--oracle-model", help="the learned oracle's model for --regime imitation (a DQN "
                                            "from python -m parsing_core.rl; default $PARSING_DQN_MODEL)")
    how.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    how.add_argument("--precision", choices=PRECISIONS, default=TrainConfig.precision,
                     help="bfloat16: the BiLSTMs in bfloat16 (faster where the processor has it)")
    how.add_argument("--compile-steps", action="store_true",
                     help="fuse each step of the training walk with torch.compile (walks on the device; "
                          "needs a C++ compiler on a CPU, Triton on a GPU)")
    add_fields(how, TrainConfig, ["epochs", "batch_size", "lr", "explore_after", "explore_p", "word_dropout",
                                  "seed", "threads"])
    net = p.add_argument_group("network")
    add_fields(net, ModelConfig, ["word_dim", "upos_dim", "char_dim", "lstm_dim", "lstm_layers", "mlp_dim",
                                  "dropout", "min_count"])
    net.add_argument("--children", action="store_true", help="add the children of s0 and s1 to the features")
    out = p.add_argument_group("output")
    out.add_argument("--out", help="where to save the trained parser (.pt)")
    out.add_argument("--log", help="a JSON-lines metrics log")
    out.add_argument("--predictions", help="write the test predictions here (CoNLL-U)")
    return p


def add_fields(group: argparse._ArgumentGroup, config: type[Any], names: list[str]) -> None:
    """``--batch-size`` for the field ``batch_size``, with the field's type and default."""
    for f in fields(config):
        if f.name in names:
            default = getattr(config, f.name)
            group.add_argument(f"--{f.name.replace('_', '-')}", type=type(default), default=default)


if __name__ == "__main__":
    sys.exit(main())
