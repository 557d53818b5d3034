"""Table 8.1 of the thesis: parsers that imitate the DQN oracle against the classic oracles (markdown).

For every treebank and seed, one DQN oracle is trained by :class:`parsing_core.rl.DQNTrainer`
(the exact reward, as ``python -m parsing_core.rl`` trains it), then four arc-standard parsers
that differ only in how they are taught (:class:`parsing_core.model.Trainer`):

* **imitation** — the DQN's greedy move, on every training sentence (the thesis's "DQN (also
  non-projective)");
* **dynamic, exact** — the exact cost oracle with exploration (never trained in the thesis);
* **dynamic, approximate** — the thesis's linear cost oracle with exploration (its "Dynamic oracle");
* **static** — the static oracle's one gold move, projective sentences only (its "Static oracle").

Every parser has the same network (the default :class:`ModelConfig`: words only, as the
thesis's), the same number of epochs and the same seed as its DQN; it keeps the weights of its
best dev epoch and is scored once on test (UAS and LAS, punctuation counted, as the thesis
counts it).  A treebank without a dev split (la_perseus) holds out a shuffled 10 % of train as
dev, the same slice as ``benchmarks.train``.  Runs go to ``--workers`` processes, one torch
thread each.

    python -m benchmarks.rl_parsers [--treebanks en_lines,la_perseus] [--seeds 3] [--first-seed 1]
                                    [--epochs 4] [--updates 8000] [--limit N] [--workers 2] [--out table.md]
                                    [--write]

The thesis's figures beside the table are its Table 8.1 (its section 8.2); it had no la_perseus
(Latin) row, so that treebank is set beside grc_perseus (Ancient Greek, also from Perseus).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import torch

import parsing_core as pc
from benchmarks.common import add_write_flag, table, write_page
from benchmarks.train import mean_sd, pct
from parsing_core.cli_common import optional
from parsing_core.model import ModelConfig, TrainConfig, Trainer, attachment_scores
from parsing_core.rl import DQNTrainer, RLConfig, RLEvalEvent, save_dqn

SYSTEM = "arc-standard"
DEV_SHARE = 0.1  # of train, held out as dev where a treebank has no dev split


@dataclass(frozen=True)
class Regime:
    name: str
    regime: str  # TrainConfig.regime
    oracle: str
    weight: float = 1.0  # time per training word, roughly, relative to static (for ordering the runs)


REGIMES = (
    Regime("imitation of the DQN", "imitation", "dqn", 3.0),  # its DQN is trained first
    Regime("dynamic, exact", "dynamic", "exact", 1.5),
    Regime("dynamic, approximate", "dynamic", "thesis-approx"),
    Regime("static", "static", "static"),
)

#: The thesis's Table 8.1 (UAS, words only, its split not stated), by treebank and regime.
THESIS = {
    "en_lines": {"dqn": "75.0 (DQN, also non-projective; 74.2 only projective)",
                 "exact": "not trained",
                 "thesis-approx": "73.8 (dynamic; non-deterministic 73.4)",
                 "static": "74.6 (static, only projective)"},
    "la_perseus": {"dqn": "grc_perseus: 49.3 (DQN, also non-projective; 48.2 only projective)",
                   "exact": "not trained",
                   "thesis-approx": "grc_perseus: 47.1 (dynamic; non-deterministic 44.4)",
                   "static": "grc_perseus: 41.7 (static, only projective)"},
}


@dataclass(frozen=True)
class Corpus:
    name: str
    train: list[pc.Sentence]
    dev: list[pc.Sentence]
    test: list[pc.Sentence]
    dev_note: str = ""  # where dev comes from, when not the treebank's own dev split


@dataclass(frozen=True)
class Protocol:
    """What every run shares: epochs and network of the parsers, the DQN's settings, where DQNs go."""

    epochs: int
    model: ModelConfig
    rl: RLConfig  # its seed is replaced by each run's seed
    models: str  # folder for the trained DQNs


@dataclass(frozen=True)
class Task:
    corpus: str
    regime: Regime
    seed: int


@dataclass(frozen=True)
class Outcome:
    task: Task
    uas: float  # test, fractions
    las: float
    best_epoch: int | None
    steps: int  # configurations taught over all epochs (0 would mean nothing was learnt)
    minutes: float  # wall time of the run, DQN included
    dqn: RLEvalEvent | None = None  # the DQN's final evaluation on dev (imitation only)


def load_corpus(name: str, limit: int | None = None, folder: str | None = None) -> Corpus:
    """A treebank's splits (from ``folder``, default the data directory); without a dev split, a
    shuffled ``DEV_SHARE`` of train is held out."""
    train, dev, note = pc.load_treebank(name, "train", folder), optional(name, "dev", folder), ""
    if not dev:
        random.Random(0).shuffle(train)
        cut = int(len(train) * DEV_SHARE)
        train, dev = train[cut:], train[:cut]
        note = f"dev = {len(dev)} sentences held out of train ({DEV_SHARE:.0%}, shuffled with seed 0)"
    return Corpus(name, train[:limit] if limit else train, dev, pc.load_treebank(name, "test", folder), note)


# -- one run, in a worker -------------------------------------------------------------------------
_CORPORA: dict[str, Corpus] = {}
_PROTOCOL: list[Protocol] = []


def _install(corpora: dict[str, Corpus], protocol: Protocol) -> None:
    """A worker's data and settings, received once (not with every task)."""
    torch.set_num_threads(1)
    _CORPORA.update(corpora)
    _PROTOCOL[:] = [protocol]


def train_dqn(corpus: Corpus, protocol: Protocol, seed: int) -> tuple[str, RLEvalEvent | None]:
    """Train and save this treebank and seed's DQN; (its file, its final evaluation)."""
    config = replace(protocol.rl, seed=seed)
    result = DQNTrainer(corpus.train, corpus.dev, config).run()
    path = Path(protocol.models) / f"dqn-{corpus.name}-{seed}.pt"
    save_dqn(path, result.network, config, {"data": corpus.name})
    evals = [e for e in result.history if isinstance(e, RLEvalEvent)]
    return str(path), evals[-1] if evals else None


def perform(task: Task) -> Outcome:
    """Train one parser as the task says (after its DQN, for imitation) and test it."""
    corpus, protocol, start = _CORPORA[task.corpus], _PROTOCOL[0], time.perf_counter()
    imitating = task.regime.regime == "imitation"
    model_file, dqn = train_dqn(corpus, protocol, task.seed) if imitating else (None, None)
    config = TrainConfig(epochs=protocol.epochs, seed=task.seed, oracle_model=model_file)
    trainer = Trainer(corpus.train, corpus.dev, SYSTEM, task.regime.oracle, task.regime.regime, config,
                      protocol.model)
    result = trainer.run()
    scores = attachment_scores(trainer.parser.parse(corpus.test), corpus.test)
    steps, minutes = sum(h["steps"] for h in result.history), (time.perf_counter() - start) / 60
    return Outcome(task, scores["uas"], scores["las"], result.best_epoch, steps, minutes, dqn)


# -- the whole protocol ---------------------------------------------------------------------------
def tasks(corpora: dict[str, Corpus], seeds: Sequence[int]) -> list[Task]:
    """Every (treebank, regime, seed): seed by seed (a run cut short still has whole seeds), and
    within a seed the longest first, so that the workers end together."""
    def order(t: Task) -> tuple[int, float]:
        return t.seed, -t.regime.weight * sum(s.n for s in corpora[t.corpus].train)

    return sorted((Task(name, r, seed) for name in corpora for r in REGIMES for seed in seeds), key=order)


def run_protocol(corpora: dict[str, Corpus], protocol: Protocol, seeds: Sequence[int], workers: int = 1,
                 on_outcome: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Every run of the protocol, in ``workers`` processes (1: here); ``on_outcome`` as each ends."""
    todo, done = tasks(corpora, seeds), []
    if workers <= 1:
        _install(corpora, protocol)
        for outcome in map(perform, todo):
            done.append(outcome)
            if on_outcome:
                on_outcome(outcome)
        return done
    context = multiprocessing.get_context("spawn")  # a fresh interpreter: one torch thread, no forked locks
    with context.Pool(workers, _install, (corpora, protocol)) as pool:
        for outcome in pool.imap_unordered(perform, todo):
            done.append(outcome)
            if on_outcome:
                on_outcome(outcome)
    return done


INTRO = """For each treebank and seed, one DQN oracle (exact reward), then four arc-standard parsers that
differ only in how they are taught: by imitating the DQN, by the exact and the thesis's approximate
dynamic oracles, and by the static oracle, beside the thesis's Table 8.1."""


# -- the tables -----------------------------------------------------------------------------------
def results_table(outcomes: Sequence[Outcome], corpora: Sequence[str]) -> str:
    """Test UAS / LAS mean ± sd over seeds, per treebank and regime, beside the thesis's UAS."""
    rows = []
    for name in corpora:
        for regime in REGIMES:
            runs = sorted((o for o in outcomes if o.task.corpus == name and o.task.regime == regime),
                          key=lambda o: o.task.seed)
            if not runs:
                continue
            thesis = THESIS.get(name, {}).get(regime.oracle, "")
            rows.append([name, regime.name, regime.oracle, mean_sd([o.uas for o in runs]),
                         mean_sd([o.las for o in runs]), ", ".join(pct(o.uas) for o in runs),
                         ", ".join(str(o.best_epoch) for o in runs), thesis])
    header = ["treebank", "regime", "oracle", "test UAS", "test LAS", "UAS by seed", "best dev epoch by seed",
              "thesis UAS (Table 8.1)"]
    return table(header, rows)


def dqn_table(outcomes: Sequence[Outcome]) -> str:
    """Each DQN's final greedy evaluation on dev: is its move in the exact optimal set?"""
    rows = [[o.task.corpus, o.task.seed, o.dqn.update, f"{100 * o.dqn.agreement:.1f} %",
             f"{o.dqn.q_error:.3f}", o.dqn.configurations]
            for o in sorted(outcomes, key=lambda o: (o.task.corpus, o.task.seed)) if o.dqn is not None]
    header = ["treebank", "seed", "updates", "greedy move optimal (dev)", "mean abs(Q + cost)",
              "configurations"]
    return table(header, rows)


def report(outcomes: Sequence[Outcome], corpora: dict[str, Corpus], protocol: Protocol, seeds: Sequence[int],
           minutes: float) -> str:
    """The whole markdown report: protocol, results, DQNs, time."""
    notes = [f"{c.name}: {len(c.train)} training sentences, {len(c.dev)} dev, {len(c.test)} test"
             + (f"; {c.dev_note}" if c.dev_note else "") for c in corpora.values()]
    lines = [f"## Table 8.1 protocol: {SYSTEM}, {protocol.model.inputs}, {protocol.epochs} epochs, "
             f"seeds {', '.join(map(str, seeds))}, DQN {protocol.rl.updates} updates "
             f"({protocol.rl.reward} reward)", "",
             *(f"- {n}" for n in notes), "", results_table(outcomes, list(corpora)), "",
             "### The DQN oracles (final greedy evaluation on dev, judged by the exact oracle)", "",
             dqn_table(outcomes), "",
             f"{len(outcomes)} runs in {minutes:.1f} wall minutes; {os.cpu_count()} CPUs, one torch thread "
             f"per run, load {', '.join(f'{x:.1f}' for x in os.getloadavg())}"]
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--treebanks", default="en_lines,la_perseus")
    p.add_argument("--seeds", type=int, default=3, help="how many seeds")
    p.add_argument("--first-seed", type=int, default=1, help="seeds first-seed, first-seed + 1, ...")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--updates", type=int, default=8000, help="DQN updates per treebank and seed")
    p.add_argument("--limit", type=int, default=None, help="training sentences at most (a smoke run)")
    p.add_argument("--workers", type=int, default=2, help="runs at a time (each one torch thread)")
    p.add_argument("--models", default=None, help="where the DQNs are saved (default: a temporary folder)")
    p.add_argument("--out", default=None, help="also write the report to this markdown file (rewritten "
                   "as each run ends)")
    add_write_flag(p, "rl_parsers")
    args = p.parse_args()
    torch.set_num_threads(1)
    corpora = {name: load_corpus(name, args.limit) for name in args.treebanks.split(",")}
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    with tempfile.TemporaryDirectory() as scratch:
        models = args.models or scratch
        Path(models).mkdir(parents=True, exist_ok=True)
        rl = RLConfig(updates=args.updates, eval_every=0, track_agreement=False)  # judged once, at the end
        protocol = Protocol(args.epochs, ModelConfig(), rl, models)
        start, done = time.perf_counter(), list[Outcome]()

        def tell(o: Outcome) -> None:
            print(f"  {o.task.corpus} / {o.task.regime.name} / seed {o.task.seed}: UAS {pct(o.uas)} "
                  f"LAS {pct(o.las)} (epoch {o.best_epoch}, {o.minutes:.1f} min)", flush=True)
            done.append(o)
            if args.out:  # what has ended so far, should the run be cut short
                minutes = (time.perf_counter() - start) / 60
                write(args.out, report(done, corpora, protocol, seeds, minutes))

        outcomes = run_protocol(corpora, protocol, seeds, args.workers, tell)
        text = report(outcomes, corpora, protocol, seeds, (time.perf_counter() - start) / 60)
    print("\n" + text)
    if args.out:
        write(args.out, text)
    if args.write:
        heading, body = text.split("\n", 1)
        write_page("rl_parsers", "Parsers taught by the DQN (the thesis's Table 8.1)",
                   [(heading.removeprefix("## "), body)], intro=INTRO)


def write(path: str, text: str) -> None:
    Path(path).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
