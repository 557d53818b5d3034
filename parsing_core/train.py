"""Train a neural parser from the command line: ``python -m parsing_core.train``.

    python -m parsing_core.train                                   # synthetic treebank, no internet
    python -m parsing_core.train --nonprojective 0.6 --regime static
    python -m parsing_core.train --treebank en_lines --system arc-standard --oracle exact \\
        --upos-dim 25 --epochs 15 --out en_lines.pt --log en_lines.jsonl --predictions test.conllu

Data: ``--treebank NAME`` reads its train/dev/test files from the data directory;
``--train/--dev/--test FILE`` read CoNLL-U files; with neither, a synthetic treebank
(:mod:`parsing_core.synthetic`) with ``--nonprojective`` crossing sentences is generated.
A progress bar goes to stderr; ``--log`` writes one JSON line per batch and per epoch.
The trainer itself is :class:`parsing_core.model.Trainer` (importable from here).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import IO, Any

from .checkpoint import save_checkpoint
from .conllu_io import read_conllu_file, write_conllu
from .errors import ParsingCoreError
from .model import REGIMES, Callbacks, ModelConfig, Report, TrainConfig, Trainer, TrainResult
from .model.trainer import attachment_scores
from .sentence import Sentence
from .synthetic import synthetic_treebank
from .systems import list_systems
from .treebanks import load_treebank

__all__ = ["Callbacks", "ModelConfig", "TrainConfig", "Trainer", "TrainResult", "main"]

Data = tuple[list[Sentence], list[Sentence], list[Sentence], str]


class ProgressBar:
    """``epoch 2/10 [#####.....] 45/108  312 sent/s  ETA 0:25  loss 0.41`` on one stderr line."""

    def __init__(self, stream: IO[str] = sys.stderr, width: int = 24) -> None:
        self.stream, self.width = stream, width
        self.start = time.perf_counter()
        self.sentences = 0
        self.live = stream.isatty()

    def batch(self, r: Report) -> None:
        if r["batch"] == 1:
            self.start, self.sentences = time.perf_counter(), 0
        self.sentences += r["sentences"]
        if not self.live:
            return
        elapsed = time.perf_counter() - self.start
        done = r["batch"] / r["batches"]
        eta = elapsed * (1 - done) / done
        bar = "#" * round(done * self.width)
        self.stream.write(f"\repoch {r['epoch']} [{bar:.<{self.width}}] {r['batch']}/{r['batches']}  "
                          f"{self.sentences / elapsed:.0f} sent/s  ETA {clock(eta)}  loss {r['loss']:.3f} ")
        self.stream.flush()

    def epoch(self, r: Report) -> None:
        dev = "  ".join(f"{k[4:].upper()} {100 * v:.2f}" for k, v in r.items()
                        if k.startswith("dev_") and k != "dev_seconds")
        dropped = f"  ({r['dropped']} walks left out: the oracle could not answer)" if r["dropped"] else ""
        self.stream.write("\r\033[K" if self.live else "")
        self.stream.write(f"epoch {r['epoch']}/{r['epochs']}  loss {r['loss']:.3f}  {clock(r['seconds'])} "
                          f"({r['sentences_per_s']:.0f} sent/s)  dev {dev or '-'}{dropped}\n")
        self.stream.flush()


def clock(seconds: float) -> str:
    minutes, s = divmod(int(seconds), 60)
    return f"{minutes // 60}:{minutes % 60:02d}:{s:02d}" if minutes >= 60 else f"{minutes}:{s:02d}"


class JsonLog:
    """One JSON object per line; flushed at once so another process can follow it."""

    def __init__(self, path: str | None) -> None:
        self.file = open(path, "w", encoding="utf-8") if path else None  # noqa: SIM115

    def write(self, record: dict[str, Any]) -> None:
        if self.file:
            self.file.write(json.dumps(record) + "\n")
            self.file.flush()

    def close(self) -> None:
        if self.file:
            self.file.close()


class Reporter(Callbacks):
    """The CLI's callbacks: each report goes to the progress bar and to the log."""

    def __init__(self, bar: ProgressBar, log: JsonLog) -> None:
        super().__init__(on_batch=self.batch, on_epoch=self.epoch)
        self.bar, self.log = bar, log

    def batch(self, report: Report) -> None:
        self.bar.batch(report)
        self.log.write(report)

    def epoch(self, report: Report) -> None:
        self.bar.epoch(report)
        self.log.write(report)


def load_data(args: argparse.Namespace) -> Data:
    """(train, dev, test, description) from the arguments."""
    if args.treebank:
        name, folder = args.treebank, args.data_dir
        return (load_treebank(name, "train", folder), optional(name, "dev", folder),
                optional(name, "test", folder), name)
    if args.train:
        dev = read_conllu_file(args.dev) if args.dev else []
        test = read_conllu_file(args.test) if args.test else []
        return read_conllu_file(args.train), dev, test, args.train
    rate, n, seed = args.nonprojective, args.synthetic, args.seed
    sizes = [n, n // 10, n // 10]
    train, dev, test = (synthetic_treebank(size, rate, seed=seed + i) for i, size in enumerate(sizes))
    return train, dev, test, f"synthetic ({n}, {rate:.0%} non-projective)"


def optional(name: str, split: str, folder: str | None) -> list[Sentence]:
    try:
        return load_treebank(name, split, folder)
    except ParsingCoreError:
        return []


def configs(args: argparse.Namespace) -> tuple[TrainConfig, ModelConfig]:
    """The two configs from the command line (the option names are the field names)."""
    options = vars(args)
    train = TrainConfig(**{f.name: options[f.name] for f in fields(TrainConfig) if f.name in options})
    model = ModelConfig(**{f.name: options[f.name] for f in fields(ModelConfig) if f.name in options})
    return train, model


def main(argv: Sequence[str] | None = None) -> int:
    args = arguments().parse_args(argv)
    log = JsonLog(args.log)
    try:
        run(args, log)
        return 0
    except ParsingCoreError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    finally:
        log.close()


def run(args: argparse.Namespace, log: JsonLog) -> None:
    train, dev, test, source = load_data(args)
    train_config, model_config = configs(args)
    trainer = Trainer(train, dev, args.system, train_config=train_config, model_config=model_config,
                      callbacks=Reporter(ProgressBar(), log))
    print(f"{source}: {len(trainer.train)} of {len(train)} training sentences, {len(dev)} dev, "
          f"{len(test)} test; {args.system}, oracle {trainer.oracle_name}, regime {trainer.config.regime}, "
          f"on {trainer.device_name}", file=sys.stderr)
    log.write({"event": "start", "data": source, "system": args.system, "device": trainer.device_name,
               "train": trainer.config.to_dict(), "model": model_config.to_dict()})
    result = trainer.run()
    info: dict[str, Any] = {"data": source, "best_epoch": result.best_epoch, "oracle": trainer.oracle_name}
    if test:
        info.update(evaluate_test(trainer, test, args.predictions, log))
    if args.out:
        path = save_checkpoint(Path(args.out), trainer.parser, trainer.config, info)
        print(f"saved {path}", file=sys.stderr)


def evaluate_test(trainer: Trainer, test: list[Sentence], predictions: str | None, log: JsonLog
                  ) -> dict[str, float]:
    """Parse the test set once: scores to stderr and the log, predictions to a file."""
    parsed = trainer.parser.parse(test)
    scores = {f"test_{k}": v for k, v in attachment_scores(parsed, test).items()}
    log.write({"event": "test", **scores})
    print("test  " + "  ".join(f"{k[5:].upper()} {100 * v:.2f}" for k, v in scores.items()), file=sys.stderr)
    if predictions:
        write_conllu(parsed, predictions)
    return scores


def arguments() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m parsing_core.train", description=__doc__.split("\n\n")[0])
    data = p.add_argument_group("data (default: a synthetic treebank)")
    data.add_argument("--treebank", help="a treebank name in the data directory, e.g. en_lines")
    data.add_argument("--data-dir", help="where --treebank looks (default: PARSING_DATA_DIR)")
    data.add_argument("--train", help="a CoNLL-U training file")
    data.add_argument("--dev", help="a CoNLL-U development file")
    data.add_argument("--test", help="a CoNLL-U test file")
    data.add_argument("--synthetic", type=int, default=2000, help="sentences of synthetic training data")
    data.add_argument("--nonprojective", type=float, default=0.3, help="synthetic non-projectivity rate")
    how = p.add_argument_group("training")
    how.add_argument("--system", choices=list_systems(), default="arc-hybrid")
    how.add_argument("--oracle", help="an oracle of the system (default: its first dynamic one)")
    how.add_argument("--regime", choices=REGIMES, default=TrainConfig.regime)
    how.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
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
