"""The DQN oracle on en_lines: what it learns, and how long it takes (markdown tables).

Two runs on the en_lines train split, the same in everything but the reward: the exact reward
(r = −cost by the exact arc-standard oracle, so Q* = −cost) and the thesis's reward (Code
B.7, read before the move).  Every ``--eval-every`` updates the greedy policy parses dev
sentences and the exact oracle judges every configuration on the way.

1. **Learning**: by updates, the share of configurations where the greedy move is optimal,
   the mean |Q(c, t) + cost(t; c)| over the legal moves (0 when Q = −cost, the right answer
   under the exact reward only), and the greedy parses' UAS; the first two also on parses that
   take a random move 20 % of the time, so that configurations after mistakes are judged too
   (where a dynamic oracle earns its name).
2. **Wall time** of each run's training (evaluations left out), and its speed; the CPU time
   beside it, since the two runs may meet different loads on a shared machine.  Neither run
   consults the exact oracle for anything but its reward while it trains (``track_agreement``
   off): the exact reward judges one configuration per move, best(t(c)), keeping best(c) from
   the move before.

    python -m benchmarks.rl [--updates 8000] [--slots 32] [--eval-every 1000] [--eval-sentences 300] [--write]

The features see 10 stack and 10 buffer tokens: beyond that a configuration is only partly
seen, so on long sentences no network can reach 100 %.  CPU timings depend on the machine's
load (printed with the tables).  ``--write`` also writes them to ``docs/benchmarks/rl.md``.
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import dataclass, field

import torch

import parsing_core as pc
from benchmarks.common import Section, add_write_flag, show, table, write_page
from parsing_core.rl import (
    Callbacks,
    DQNTrainer,
    Evaluation,
    RLConfig,
    RLEvalEvent,
    RLProgressEvent,
    evaluate,
)
from parsing_core.rl.network import DuelingQNetwork

EXPLORE = 0.2  # the share of random moves in the wandering parses


@dataclass
class Run:
    reward: str
    evals: list[RLEvalEvent] = field(default_factory=list)  # greedy parses
    wandering: list[Evaluation] = field(default_factory=list)  # with EXPLORE random moves
    last: RLProgressEvent | None = None
    judging: float = 0.0  # seconds spent in evaluations
    seconds: float = 0.0  # training only, wall clock
    cpu_seconds: float = 0.0  # training only, CPU time of this process (less sensitive to the load)


def train_once(reward: str, config: RLConfig, train: list[pc.Sentence], dev: list[pc.Sentence]) -> Run:
    run, callbacks = Run(reward), Callbacks()
    trainer = DQNTrainer(train, dev, RLConfig.from_dict({**config.to_dict(), "reward": reward}), callbacks)

    def keep(record: object) -> None:
        if isinstance(record, RLEvalEvent):
            start = time.perf_counter()
            run.evals.append(record)
            run.wandering.append(evaluate(trainer.network, trainer.system, trainer.dev, config.features,
                                          trainer.device, explore=EXPLORE, seed=record.update))
            run.judging += record.seconds + time.perf_counter() - start
        elif isinstance(record, RLProgressEvent):
            run.last = record

    callbacks.on_event = keep
    wall, cpu = time.perf_counter(), time.process_time()
    trainer.run()
    run.seconds = time.perf_counter() - wall - run.judging
    run.cpu_seconds = time.process_time() - cpu - run.judging  # evaluations: single-threaded, CPU ≈ wall
    return run


def untrained(config: RLConfig, dev: list[pc.Sentence]) -> tuple[Evaluation, Evaluation]:
    torch.manual_seed(config.seed)
    net = DuelingQNetwork(config.features.size, config.hidden)
    system, cpu = pc.get_system("arc-standard"), torch.device("cpu")
    return (evaluate(net, system, dev, config.features, cpu),
            evaluate(net, system, dev, config.features, cpu, explore=EXPLORE, seed=0))


def learning_table(run: Run, start: tuple[Evaluation, Evaluation]) -> str:
    def cells(greedy: Evaluation | RLEvalEvent, wandering: Evaluation) -> list[str]:
        return [f"{100 * greedy.agreement:.1f} %", f"{100 * wandering.agreement:.1f} %",
                f"{greedy.q_error:.3f}", f"{wandering.q_error:.3f}", f"{100 * greedy.uas:.1f}"]

    rows = [[0, *cells(*start)]]
    rows += [[e.update, *cells(e, w)] for e, w in zip(run.evals, run.wandering)]
    wander = f"… with {EXPLORE:.0%} random moves"
    header = ["updates", "greedy move optimal: greedy parses", wander, "mean abs(Q + cost): greedy parses",
              wander, "UAS of greedy parses"]
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
    add_write_flag(p, "rl")
    args = p.parse_args()
    train = pc.load_treebank(args.treebank, "train")
    dev = pc.load_treebank(args.treebank, "dev")[:args.eval_sentences]
    config = RLConfig(updates=args.updates, slots=args.slots, eval_every=args.eval_every,
                      eval_sentences=args.eval_sentences, report_every=args.eval_every, seed=args.seed,
                      track_agreement=False)  # measured on dev instead: not part of the training's time
    runs = [train_once(reward, config, train, dev) for reward in ("exact", "thesis")]
    intro = (f"{args.treebank}: {len(train)} training sentences, {len(dev)} dev sentences judged; "
             f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}.  Target: the exact reward within 1.5× "
             "the thesis's reward's time.")
    print(intro)
    start = untrained(config, dev)
    out: list[Section] = []
    for run, part in zip(runs, "ab"):
        show(out, f"1{part}. The greedy move against the exact oracle, by updates: {run.reward} reward",
             learning_table(run, start))
    show(out, "2. Wall time of training (evaluations left out)", timing_table(runs))
    if args.write:
        write_page("rl", "DQN oracle", out, intro=intro)


if __name__ == "__main__":
    main()
