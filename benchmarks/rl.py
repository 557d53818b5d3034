"""The DQN oracle on en_lines: what it learns, and how long it takes (markdown tables).

Two runs on the en_lines train split, the same in everything but the reward: the exact reward
(r = −cost by the exact arc-standard oracle, so Q* = −cost) and the thesis's reward (Code
B.7, read before the move).  Every ``--eval-every`` updates the greedy policy parses dev
sentences and the exact oracle judges every configuration on the way.

1. **Learning**: by updates, the share of configurations where the greedy move is optimal,
   the mean |Q(c, t) + cost(t; c)| over the legal moves (0 when Q = −cost, the right answer
   under the exact reward only), and the greedy parses' UAS.
2. **Wall time** of each run's training (evaluations left out), and its speed; the CPU time
   beside it, since the two runs may meet different loads on a shared machine.  Neither run
   consults the exact oracle for anything but its reward while it trains (``track_agreement``
   off): the exact reward judges one configuration per move, best(t(c)), keeping best(c) from
   the move before.

    python -m benchmarks.rl [--updates 8000] [--slots 32] [--eval-every 1000] [--eval-sentences 300]

The features see 10 stack and 10 buffer tokens: beyond that a configuration is only partly
seen, so on long sentences no network can reach 100 %.  CPU timings depend on the machine's
load (printed with the tables).
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import dataclass, field

import torch

import parsing_core as pc
from benchmarks.common import table
from parsing_core.rl import Callbacks, DQNTrainer, RLConfig, RLEvalEvent, RLProgressEvent, evaluate
from parsing_core.rl.network import DuelingQNetwork


@dataclass
class Run:
    reward: str
    evals: list[RLEvalEvent] = field(default_factory=list)
    last: RLProgressEvent | None = None
    seconds: float = 0.0  # training only, wall clock
    cpu_seconds: float = 0.0  # training only, CPU time of this process (less sensitive to the load)


def train_once(reward: str, config: RLConfig, train: list[pc.Sentence], dev: list[pc.Sentence]) -> Run:
    run = Run(reward)

    def keep(record: object) -> None:
        if isinstance(record, RLEvalEvent):
            run.evals.append(record)
        elif isinstance(record, RLProgressEvent):
            run.last = record

    trainer = DQNTrainer(train, dev, RLConfig.from_dict({**config.to_dict(), "reward": reward}),
                         Callbacks(on_event=keep))
    wall, cpu = time.perf_counter(), time.process_time()
    trainer.run()
    evaluating = sum(e.seconds for e in run.evals)
    run.seconds = time.perf_counter() - wall - evaluating
    run.cpu_seconds = time.process_time() - cpu - evaluating  # evaluations: single-threaded, so CPU ≈ wall
    return run


def untrained(config: RLConfig, dev: list[pc.Sentence]) -> RLEvalEvent:
    torch.manual_seed(config.seed)
    net = DuelingQNetwork(config.features.size, config.hidden)
    e = evaluate(net, pc.get_system("arc-standard"), dev, config.features, torch.device("cpu"))
    return RLEvalEvent(0, e.agreement, e.q_error, e.uas, e.configurations, e.sentences, 0.0)


def learning_table(runs: list[Run], start: RLEvalEvent) -> str:
    def cells(e: RLEvalEvent) -> list[str]:
        return [f"{100 * e.agreement:.1f} %", f"{e.q_error:.3f}", f"{100 * e.uas:.1f}"]

    rows = [[0, *(cells(start) * len(runs))]]
    for evals in zip(*(r.evals for r in runs)):
        rows.append([evals[0].update, *(c for e in evals for c in cells(e))])
    header = ["updates"] + [f"{r.reward}: {what}" for r in runs
                            for what in ("greedy optimal", "mean abs(Q + cost)", "UAS")]
    return table(header, rows)


def timing_table(runs: list[Run]) -> str:
    rows = []
    for r in runs:
        assert r.last is not None
        rows.append([r.reward, r.last.update, r.last.moves, f"{r.seconds / 60:.1f}",
                     f"{r.cpu_seconds / 60:.1f}", f"{r.last.update / r.seconds:.0f}",
                     f"{r.last.moves / r.seconds:.0f}"])
    wall, cpu = runs[0].seconds / runs[1].seconds, runs[0].cpu_seconds / runs[1].cpu_seconds
    header = ["reward", "updates", "moves stepped", "wall minutes", "CPU minutes", "updates/s", "moves/s"]
    return table(header, rows) + f"\n\nexact / thesis: {wall:.2f}× the wall time, {cpu:.2f}× the CPU time"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--treebank", default="en_lines")
    p.add_argument("--updates", type=int, default=8000)
    p.add_argument("--slots", type=int, default=32)
    p.add_argument("--eval-every", type=int, default=1000)
    p.add_argument("--eval-sentences", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    train = pc.load_treebank(args.treebank, "train")
    dev = pc.load_treebank(args.treebank, "dev")[:args.eval_sentences]
    config = RLConfig(updates=args.updates, slots=args.slots, eval_every=args.eval_every,
                      eval_sentences=args.eval_sentences, report_every=args.eval_every, seed=args.seed,
                      track_agreement=False)  # measured on dev instead: not part of the training's time
    runs = [train_once(reward, config, train, dev) for reward in ("exact", "thesis")]
    print(f"## {args.treebank}: {len(train)} training sentences, {len(dev)} dev sentences judged; "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}\n")
    print("### 1. The greedy move against the exact oracle, by updates\n")
    print(learning_table(runs, untrained(config, dev)) + "\n")
    print("### 2. Wall time of training (evaluations left out)\n")
    print(timing_table(runs))


if __name__ == "__main__":
    main()
