"""Train the DQN oracle from the command line: ``python -m parsing_core.rl``.

    python -m parsing_core.rl                                   # synthetic treebank, no internet
    python -m parsing_core.rl --treebank en_lines --updates 20000 --out dqn.pt --log dqn.jsonl
    python -m parsing_core.rl --reward thesis --history 5       # the thesis's reward and features
    python -m parsing_core.rl --spec spec.json --log log.jsonl --out dqn.pt

The flags build an :class:`~parsing_core.rl.config.RLSpec` (data and :class:`RLConfig`; each
setting's flag is its name, ``--eval-every`` for ``eval_every``); ``--spec FILE`` reads one
from JSON instead (what an RL job of :mod:`server.jobs` writes), and the data and
training flags are then ignored.  A progress bar (tqdm) goes to stderr; ``--log`` writes one
JSON line per progress report and per evaluation (:mod:`parsing_core.rl.events`); ``--out``
saves the network for ``get_oracle(system, "dqn", model=FILE)``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import fields
from typing import IO, Any

from tqdm import tqdm

from ..cli_common import JsonLog, add_data_arguments, clock, exit_status, load_data
from ..model.config import DataSpec
from .checkpoint import save_dqn
from .config import RLConfig, RLSpec
from .events import RLEvalEvent, RLEvent, RLProgressEvent, RLStartEvent
from .trainer import Callbacks, DQNTrainer


class ProgressBar:
    """One tqdm bar over the updates (drawn only on a terminal), and a line per evaluation."""

    def __init__(self, total: int, stream: IO[str] = sys.stderr) -> None:
        self.stream = stream
        live = stream.isatty()
        self.bar: Any = tqdm(total=total, unit="update", file=stream, dynamic_ncols=True) if live else None
        self.done = 0

    def progress(self, r: RLProgressEvent) -> None:
        if self.bar is None:
            return
        shown = {"loss": f"{r.td_loss:.3f}", "ε": f"{r.epsilon:.2f}"}
        if r.mean_return is not None:
            shown["return"] = f"{r.mean_return:.2f}"
        if r.agreement is not None:
            shown["optimal"] = f"{100 * r.agreement:.1f}%"
        self.bar.set_postfix(shown, refresh=False)
        self.bar.update(r.update - self.done)
        self.done = r.update

    def evaluation(self, r: RLEvalEvent, seconds: float) -> None:
        text = (f"update {r.update}: greedy move optimal {100 * r.agreement:.1f}% of {r.configurations} "
                f"configurations, mean |Q + cost| {r.q_error:.3f}, UAS {100 * r.uas:.2f} "
                f"({r.sentences} sentences)  {clock(seconds)}")
        if self.bar is not None:
            self.bar.write(text, file=self.stream)
        else:
            self.stream.write(text + "\n")
            self.stream.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class Reporter(Callbacks):
    """The CLI's callbacks: each record goes to the progress bar and to the log."""

    def __init__(self, bar: ProgressBar, log: JsonLog) -> None:
        super().__init__(on_event=self.event)
        self.bar, self.log, self.seconds = bar, log, 0.0

    def event(self, record: RLEvent) -> None:
        if isinstance(record, RLProgressEvent):
            self.bar.progress(record)
            self.seconds = record.seconds
        elif isinstance(record, RLEvalEvent):
            self.bar.evaluation(record, self.seconds)
        self.log.write(record.to_json())


def run(spec: RLSpec, out: str | None, log: JsonLog) -> None:
    """Train as ``spec`` says; save the network to ``out``."""
    train, dev, _, source = load_data(spec.data, spec.config.seed)
    bar = ProgressBar(spec.config.updates)
    trainer = DQNTrainer(train, dev, spec.config, Reporter(bar, log))
    print(f"{source}: {len(trainer.train)} of {len(train)} training sentences, {len(trainer.dev)} for "
          f"evaluation; reward {spec.config.reward}, {spec.config.features.size} features, on "
          f"{trainer.device_name}", file=sys.stderr)
    log.write(RLStartEvent(source, len(trainer.train), trainer.device_name, spec.config).to_json())
    try:
        result = trainer.run()
    finally:
        bar.close()
    if out and not result.stopped:
        final = result.history[-1].to_json() if result.history else {}
        path = save_dqn(out, result.network, spec.config, {"data": source, "final": final})
        print(f"saved {path}", file=sys.stderr)


def spec_of(args: argparse.Namespace) -> RLSpec:
    """``--spec FILE`` when given, else the flags."""
    if args.spec:
        return RLSpec.load(args.spec)
    options = vars(args)
    data = DataSpec(**{f.name: options[f.name] for f in fields(DataSpec) if f.name in options})
    return RLSpec(data, RLConfig(**{f.name: options[f.name] for f in fields(RLConfig)}))


def main(argv: Sequence[str] | None = None) -> int:
    args = arguments().parse_args(argv)
    return exit_status(args.log, lambda log: run(spec_of(args), args.out, log))


def arguments() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m parsing_core.rl", description=__doc__.split("\n\n")[0])
    p.add_argument("--spec", help="a JSON RL spec (data and settings), as an RL job writes it; the data "
                   "and training flags are then ignored")
    add_data_arguments(p, test=False)
    how = p.add_argument_group("training (RLConfig)")
    for f in fields(RLConfig):
        default = getattr(RLConfig, f.name)
        flag = f"--{f.name.replace('_', '-')}"
        if isinstance(default, bool):
            how.add_argument(flag, action=argparse.BooleanOptionalAction, default=default)
        else:
            how.add_argument(flag, type=type(default), default=default)
    out = p.add_argument_group("output")
    out.add_argument("--out", help="where to save the trained network (.pt)")
    out.add_argument("--log", help="a JSON-lines log")
    return p
