"""Neural parser: accuracy by training regime, seconds per epoch, parsing speed (markdown tables).

0. **gpu** (not by default): the exploring epoch (arc-hybrid, Goldberg–Nivre, batch 32) on two
   CPU threads of the same machine, then on ``--device`` on the numpy ("batched") path, on the
   tensor path (recorded as CUDA graphs on a GPU) and on the same with compiled steps, with their
   ratios to the CPU; **gpu_parsing**: greedy parsing speed on every path, with an untrained
   network; **gpu_eager**: the exploring epoch on the tensor path walked eagerly; **seeds** (not by
   default): test UAS / LAS of that run after ``--epochs`` epochs, for ``--seeds`` seeds, on
   ``--path`` and ``--device`` (``benchmarks/gpu.sh`` runs them on a GPU; ``--write`` keeps the tables).
1. **Speed** on en_lines: seconds per training epoch (default model, train split) for each
   regime and oracle, and greedy parsing speed on the test split (``parsing``: that alone).
2. **en_lines** (train → test, dev for choosing the epoch): UAS / LAS of static,
   non-deterministic and dynamic training (approximate and exact oracles) on arc-standard,
   and dynamic training on arc-eager and arc-hybrid; words (+ characters) and with UPOS, beside the
   thesis's Table 6.5 (words only, arc-standard; its data split is not stated).
3. **la_perseus** (41 % non-projective; train → test, 10 % of train held out as dev):
   static vs dynamic approximate vs dynamic exact on arc-standard, mean ± sd over seeds.
4. **Synthetic**: static vs dynamic on synthetic treebanks of growing non-projectivity,
   the thesis's "~60 % threshold" as an experiment.
5. **profile** (not by default): the top entries of cProfile on a dynamic epoch and on greedy
   parsing; **first_point** (not by default): seconds from starting the Train page's default
   run (``python -m parsing_core.train``, as a job starts it) to its first loss in the log.

    python -m benchmarks.train [--quick] [--sections speed,parsing,en_lines,la_perseus,synthetic]
                               [--epochs 15] [--seeds 3] [--limit N] [--upos-dim 25]
                               [--char-dim 32] [--synthetic-size 2000] [--threads 1]
                               [--repeat 3] [--path batched|legacy] [--device cpu|cuda]
                               [--precision float32|bfloat16] [--batch-sizes 32,128]
                               [--oracles exact,...] [--systems arc-hybrid,...]

``--path legacy`` walks batches one configuration at a time and reads packed sequences (the
code before the batched state), to compare on the same machine.  The CPU timings depend on the
machine's load (printed with each table); ``--repeat`` times each setting several times and
prints the best and the median.  ``--batch-sizes`` trains the speed and en_lines runs with each
of these batch sizes (32, the default, is what the accuracy figures were measured with; a GPU
needs larger batches to pay off); ``--oracles`` and ``--systems`` keep only some of their runs.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import torch

import parsing_core as pc
from benchmarks.common import row_line, table
from parsing_core.model import (
    DataSpec,
    ModelConfig,
    Parser,
    TrainConfig,
    Trainer,
    TrainSpec,
    Vocab,
    attachment_scores,
)
from parsing_core.synthetic import synthetic_treebank
from server.jobs.local import ROOT
from server.jobs.standby import STANDBY_ENV, Standby
from server.jobs.status import JobProcess


@dataclass(frozen=True)
class Setup:
    """How every run of this benchmark trains and parses (the command line's choices)."""

    path: str = "batched"  # or "legacy": one configuration at a time, packed sequences
    device: str = "cpu"
    threads: int = 1  # torch threads while training
    repeat: int = 3  # timings of each parsing setting and training run (best or median printed)
    oracles: tuple[str, ...] = ()  # the speed and en_lines sections run only these oracles (all when empty)
    precision: str = "float32"  # or "bfloat16": the encoder in mixed precision (TrainConfig.precision)
    batch_sizes: tuple[int, ...] = (32,)  # training batch sizes of the speed and en_lines sections
    systems: tuple[str, ...] = ()  # the speed and en_lines sections run only these systems (all when empty)
    cuda_lstm: str = "packed"  # or "padded": how the BiLSTMs read a batch on a GPU (ParserNetwork.encode)
    lr: float | None = None  # Adam's learning rate (None: TrainConfig's)
    write: str = ""  # the gpu and seeds sections also append their tables to this markdown file
    compile_steps: bool = False  # the tensor walk's steps fused by torch.compile (TrainConfig.compile_steps)

    def trainer(self, train: Sequence[pc.Sentence], dev: Sequence[pc.Sentence], system: str, oracle: str,
                regime: str, config: TrainConfig, model: ModelConfig) -> Trainer:
        """A Trainer on this setup's path, its network reading batches on a GPU as ``cuda_lstm`` says."""
        trainer = Trainer(train, dev, system, oracle, regime, config, model, path=self.path)
        trainer.parser.network.packed_on_cuda = self.cuda_lstm == "packed"
        return trainer

    def chosen(self, run: Run) -> bool:
        return ((not self.oracles or run.oracle in self.oracles)
                and (not self.systems or run.system in self.systems))

    def config(self, **settings: object) -> TrainConfig:
        learning = {"lr": self.lr} if self.lr is not None else {}
        return TrainConfig(device=self.device, threads=self.threads, precision=self.precision,
                           compile_steps=self.compile_steps, **learning, **settings)  # type: ignore[arg-type]


SETUP = Setup()
STANDBY_AGE = 15.0  # seconds a standby has been ready when the first-point run is handed to it


@dataclass(frozen=True)
class Run:
    name: str
    system: str
    oracle: str
    regime: str
    thesis: str = ""  # the thesis's UAS for this setting (Table 6.5, en_lines)


EN_LINES = [
    Run("static", "arc-standard", "static", "static", "74.6"),
    Run("non-deterministic, approximate", "arc-standard", "thesis-approx", "nondeterministic", "73.4"),
    Run("dynamic, approximate", "arc-standard", "thesis-approx", "dynamic", "73.8"),
    Run("dynamic, exact", "arc-standard", "exact", "dynamic", "not trained"),
    Run("dynamic, Goldberg & Nivre", "arc-eager", "goldberg-nivre", "dynamic"),
    Run("dynamic, Goldberg & Nivre", "arc-hybrid", "goldberg-nivre", "dynamic"),
]
PERSEUS = EN_LINES[:1] + EN_LINES[2:4]
SPEED_ONLY = [  # timed, not in the accuracy tables: Nederhof's oracles teach their canonical moves
    Run("dynamic, Nederhof", "arc-eager-corrected", "nederhof", "dynamic"),
    Run("dynamic, Nederhof linear", "arc-eager-corrected", "nederhof-linear", "dynamic"),
]


@dataclass(frozen=True)
class Outcome:
    scores: dict[str, float]  # test UAS/LAS (fractions)
    epoch_seconds: float  # mean seconds of a training epoch (dev evaluation not included)
    sentences_per_s: float


def available(run: Run) -> bool:
    return run.oracle in pc.list_oracles(pc.get_system(run.system))


def train_and_test(run: Run, train: Sequence[pc.Sentence], dev: Sequence[pc.Sentence],
                   test: Sequence[pc.Sentence], epochs: int, seed: int, model: ModelConfig,
                   batch_size: int = 32) -> Outcome:
    config = SETUP.config(epochs=epochs, seed=seed, batch_size=batch_size)
    trainer = SETUP.trainer(train, dev, run.system, run.oracle, run.regime, config, model)
    history = trainer.run().history
    scores = attachment_scores(trainer.parser.parse(test, path=SETUP.path), test) if test else {}
    seconds = statistics.mean(h["seconds"] for h in history)
    return Outcome(scores, seconds, statistics.mean(h["sentences_per_s"] for h in history))


def pct(x: float) -> str:
    return f"{100 * x:.1f}"


def mean_sd(values: Sequence[float]) -> str:
    if len(values) == 1:
        return pct(values[0])
    return f"{100 * statistics.mean(values):.1f} ± {100 * statistics.stdev(values):.1f}"


def machine() -> str:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lr = f", lr {SETUP.lr}" if SETUP.lr is not None else ""
    cuda = SETUP.device == "cuda"
    device = f"{torch.cuda.get_device_name()} (BiLSTMs {SETUP.cuda_lstm})" if cuda else "CPU"
    return (f"{os.cpu_count()} CPUs, {device}, torch {torch.__version__}, {SETUP.threads} training "
            f"thread(s), path {SETUP.path}, {SETUP.precision}{lr}, load {load}")


def limited(sentences: list[pc.Sentence], limit: int | None) -> list[pc.Sentence]:
    return sentences if limit is None else sentences[:limit]


# -- sections ---------------------------------------------------------------------------------------
def speed(limit: int | None, model: ModelConfig) -> None:
    """Seconds per epoch of every timed run at every batch size, trained ``--repeat`` times afresh:
    the median and every run of the exploring epoch.  This machine's speed drifts by a tenth or
    more from one minute to the next, so the repeats go round robin (every run once, then every
    run again) and the exact oracle's cost is also given round by round, against the approximate
    run of the same round."""
    train, test = limited(pc.load_treebank("en_lines", "train"), limit), pc.load_treebank("en_lines", "test")
    chosen = [r for r in EN_LINES + SPEED_ONLY if available(r) and SETUP.chosen(r)]
    runs = [(r, b) for r in chosen for b in SETUP.batch_sizes]
    second: dict[tuple[Run, int], list[float]] = {key: [] for key in runs}
    first: dict[tuple[Run, int], list[float]] = {key: [] for key in runs}
    parser, sentences = None, 0
    for round_ in range(SETUP.repeat):
        for run, batch in runs:
            config = SETUP.config(epochs=2, explore_after=0, batch_size=batch)
            trainer = SETUP.trainer(train, [], run.system, run.oracle, run.regime, config, model)
            history = trainer.run().history
            second[run, batch].append(history[-1]["seconds"])  # epoch 2: exploring in the dynamic regime
            first[run, batch].append(history[0]["seconds"])
            parser, sentences = trainer.parser, len(trainer.train)
            print(f"  round {round_ + 1}: timed {run.system} / {run.name}, batch {batch}", flush=True)
    rows = []
    for run, batch in runs:
        middle = statistics.median(second[run, batch])
        rows.append([run.system, run.name, run.oracle, batch, sentences, f"{middle:.1f}",
                     " / ".join(f"{s:.1f}" for s in second[run, batch]), f"{sentences / middle:.0f}",
                     f"{statistics.median(first[run, batch]):.1f}"])
    print(f"\n### Seconds per training epoch, en_lines train ({machine()})\n")
    print(table(["system", "regime", "oracle", "batch", "sentences", "s / epoch (exploring, median)",
                 "every run", "sentences / s", "s / epoch 1 (no exploring, median)"], rows))
    for batch in SETUP.batch_sizes:
        exact_vs_approximate(second, [r for r, b in runs if b == batch], batch)
    assert parser is not None
    parsing_speed(parser, test)


def exact_vs_approximate(second: dict[tuple[Run, int], list[float]], runs: list[Run], batch: int) -> None:
    """The exact arc-standard oracle's exploring epoch over the approximate one's, at one batch size."""
    exact, approximate = (next((r for r in runs if r.oracle == name and r.regime == "dynamic"), None)
                          for name in ("exact", "thesis-approx"))
    if exact is None or approximate is None:
        return
    ratios = [e / a for e, a in zip(second[exact, batch], second[approximate, batch])]
    print(f"\nExact / approximate (arc-standard, exploring epoch, batch {batch}): "
          f"{statistics.median(second[exact, batch]) / statistics.median(second[approximate, batch]):.2f} "
          f"from the medians; round by round {' / '.join(f'{x:.2f}' for x in ratios)} "
          f"(median {statistics.median(ratios):.2f})")


def timed_parse(parser: Parser, test: list[pc.Sentence], batch_size: int, workers: int
                ) -> tuple[float, float]:
    """(seconds, CPU seconds) of one greedy parse of ``test``."""
    start, cpu = time.perf_counter(), time.process_time()
    parser.parse(test, batch_size, SETUP.path, workers=workers)
    if SETUP.device == "cuda":
        torch.cuda.synchronize()
    return time.perf_counter() - start, time.process_time() - cpu


def parsing_speed(parser: Parser, test: list[pc.Sentence]) -> None:
    """Greedy parsing of the test set, by batch size, torch CPU threads and worker threads (batches
    parsed at once, one torch thread each), after one warm-up; each setting timed ``--repeat``
    times: the best and the median run."""
    parser.parse(test[:64], path=SETUP.path)
    cores = os.cpu_count() or 1
    settings = [(1, 1)] + [(cores, 1), (1, cores)] * (cores > 1 and SETUP.device == "cpu")
    out = []
    for threads, workers in settings:
        torch.set_num_threads(threads)
        for batch_size in (32, 128, 512, 2048):
            runs = sorted(timed_parse(parser, test, batch_size, workers) for _ in range(SETUP.repeat))
            best, median = runs[0][0], statistics.median(s for s, _ in runs)
            out.append([parser.system_name, threads, workers, batch_size, len(test), f"{best:.2f}",
                        f"{median:.2f}", f"{len(test) / best:.0f}", f"{len(test) / median:.0f}",
                        " / ".join(f"{len(test) / s:.0f}" for s, _ in runs),
                        f"{sum(s.n for s in test) / best:.0f}", f"{len(test) / runs[0][1]:.0f}"])
    torch.set_num_threads(SETUP.threads)
    print(f"\n### Parsing speed, en_lines test, {parser.config.inputs} ({machine()})\n")
    print(table(["system", "torch threads", "workers", "batch", "sentences", "best s", "median s",
                 "sentences / s (best)", "sentences / s (median)", "every run", "tokens / s (best)",
                 "sentences / CPU-second"], out))


def parse_parts(parser: Parser, test: list[pc.Sentence], batch_size: int = 128) -> None:
    """Where one greedy parse's CPU goes, one torch thread, batches of ``batch_size``: the batch's
    tensors, the encoder (embeddings, the BiLSTMs, the table), and the steps (the rest of the parse:
    the batched state, the scoring of every step, the moves).  Best of ``--repeat`` for each part.
    The last column is the most two cores could parse if both were busy all the time with no cost
    of sharing: twice the sentences one CPU-second parses."""
    order = sorted(test, key=lambda s: s.n)
    chunks = [order[start:start + batch_size] for start in range(0, len(order), batch_size)]
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    parser.network.eval()
    tensors, encoder, whole = [], [], []
    for _ in range(SETUP.repeat):
        with torch.inference_mode():
            cpu = time.process_time()
            batches = [parser.encode(chunk) for chunk in chunks]
            tensors.append(time.process_time() - cpu)
            cpu = time.process_time()
            for batch in batches:
                parser.network.encode(batch)
            encoder.append(time.process_time() - cpu)
        whole.append(timed_parse(parser, test, batch_size, workers=1)[1])
    torch.set_num_threads(threads)
    made, encoded, parsed = min(tensors), min(encoder), min(whole)
    print(f"\n### Where a parse's CPU goes, en_lines test, one torch thread, batch {batch_size} "
          f"({machine()})\n")
    print(table(["system", "batch tensors, CPU s", "encoder, CPU s", "steps, CPU s", "whole parse, CPU s",
                 "two cores at best, sentences / s"],
                [[parser.system_name, f"{made:.3f}", f"{encoded:.3f}", f"{parsed - made - encoded:.3f}",
                  f"{parsed:.3f}", f"{2 * len(test) / parsed:.0f}"]]))


def parsing(limit: int | None, model: ModelConfig) -> None:
    """Parsing speed alone, with an arc-hybrid parser trained for two epochs (quicker than ``speed``)."""
    train, test = limited(pc.load_treebank("en_lines", "train"), limit), pc.load_treebank("en_lines", "test")
    config = SETUP.config(epochs=2)
    trainer = SETUP.trainer(train, [], "arc-hybrid", "goldberg-nivre", "dynamic", config, model)
    trainer.run()
    parsing_speed(trainer.parser, test)
    parse_parts(trainer.parser, test)


def en_lines(epochs: int, seed: int, limit: int | None, words: ModelConfig, upos_dim: int) -> None:
    """UAS / LAS on en_lines test of every chosen run, words (and characters) alone and, unless
    ``upos_dim`` is 0, with UPOS, at every batch size of ``--batch-sizes``."""
    train = limited(pc.load_treebank("en_lines", "train"), limit)
    dev, test = pc.load_treebank("en_lines", "dev"), pc.load_treebank("en_lines", "test")
    models = [words] + [replace(words, upos_dim=upos_dim)] * (upos_dim > 0)
    rows = []
    for run in [r for r in EN_LINES if SETUP.chosen(r)]:
        for batch in SETUP.batch_sizes:
            cells: list[str] = []
            for model in models:
                if not available(run):
                    cells += ["n/a", "n/a"]
                    continue
                outcome = train_and_test(run, train, dev, test, epochs, seed, model, batch)
                scores = outcome.scores
                cells += [f"{pct(scores['uas'])} / {pct(scores['las'])}", f"{outcome.epoch_seconds:.1f}"]
                print(f"  trained {run.system} / {run.name}, batch {batch} (upos {model.upos_dim})",
                      flush=True)
            rows.append([run.system, run.name, run.oracle, batch, *cells, run.thesis])
    upos = [f"+ UPOS ({upos_dim}): UAS / LAS", "s / epoch"] * (upos_dim > 0)
    print(f"\n### en_lines, train → test, {epochs} epochs, {len(train)} training sentences, "
          f"{words.inputs} ({machine()})\n")
    print(table(["system", "regime", "oracle", "batch", f"{words.inputs}: UAS / LAS", "s / epoch", *upos,
                 "thesis UAS (Table 6.5)"], rows))


def emit(text: str) -> None:
    """Print a table (and append it to ``--write``'s file)."""
    print(text, flush=True)
    if SETUP.write:
        with open(SETUP.write, "a", encoding="utf-8") as out:
            out.write(text + "\n")


GPU_RUN = ("arc-hybrid", "goldberg-nivre", "dynamic")  # the setting of the gpu section: batch 32, exploring


def exploring_epoch(setting: tuple[str, str, int, bool], train: list[pc.Sentence], model: ModelConfig
                    ) -> tuple[float, float]:
    """Seconds of two exploring epochs on one (device, path, CPU threads, compiled steps): the first
    also warms the device up, records the graphs and compiles the steps."""
    device, path, threads, compiled = setting
    setup = replace(SETUP, device=device, path=path, threads=threads, compile_steps=compiled)
    config = setup.config(epochs=2, explore_after=0, batch_size=32)
    first, second = (h["seconds"] for h in setup.trainer(train, [], *GPU_RUN, config, model).run().history)
    torch.set_num_threads(SETUP.threads)
    print(f"  timed {device} / {path_name(path, compiled)} / {threads} thread(s): {second:.2f} s", flush=True)
    return first, second


def gpu(limit: int | None, model: ModelConfig) -> None:
    """The exploring epoch on two CPU threads of the same machine (the ratios' divisor, so measured
    first), then on ``--device`` on the numpy path, on the fast path (recorded as CUDA graphs on a
    GPU, the tensor walk on a CPU) and on the fast path with compiled steps.  The table is printed
    row by row, each as soon as it is measured: a run stopped by a time limit keeps its rows.
    Greedy parsing is **gpu_parsing**, the eager tensor walk on a GPU **gpu_eager**."""
    train = limited(pc.load_treebank("en_lines", "train"), limit)
    fast = "graphs" if SETUP.device == "cuda" else "tensor"
    settings = [("cpu", "batched", 2, False), (SETUP.device, "batched", SETUP.threads, False),
                (SETUP.device, fast, SETUP.threads, False), (SETUP.device, fast, SETUP.threads, True)]
    emit(epoch_heading(train))
    emit(table(EPOCH_COLUMNS, []))
    cpu = None
    for setting in settings:
        first, second = exploring_epoch(setting, train, model)
        cpu = cpu or second  # the first setting's: two CPU threads
        emit(row_line(epoch_row(setting, first, second, len(train), cpu)))


def gpu_eager(limit: int | None, model: ModelConfig) -> None:
    """The exploring epoch on ``--device`` on the tensor path walked eagerly from Python (a step's
    few hundred operations launched one by one): slow on a GPU, which is why the gpu section
    replays graphs; a section of its own, so that ``benchmarks/gpu.sh`` need not wait for it."""
    train = limited(pc.load_treebank("en_lines", "train"), limit)
    setting = (SETUP.device, "tensor", SETUP.threads, False)
    first, second = exploring_epoch(setting, train, model)
    emit(epoch_heading(train) + "\nThe tensor path walked eagerly:\n")
    emit(table(EPOCH_COLUMNS, [epoch_row(setting, first, second, len(train), None)]))


def epoch_heading(train: list[pc.Sentence]) -> str:
    """The heading of an exploring-epoch table: the data, the run, the machine and the day."""
    return (f"\n### Exploring epoch, en_lines train ({len(train)} sentences), arc-hybrid, Goldberg–Nivre, "
            f"batch 32 ({machine()}, {time.strftime('%Y-%m-%d')})\n")


EPOCH_COLUMNS = ["device", "path", "CPU threads", "s / epoch", "first epoch s", "sentences / s",
                 "2-thread CPU epoch ÷ this"]


def path_name(path: str, compiled: bool) -> str:
    """How a table names a path: "graphs", or "graphs, compiled steps"."""
    return f"{path}, compiled steps" if compiled else path


def epoch_row(setting: tuple[str, str, int, bool], first: float, second: float, sentences: int,
              cpu: float | None) -> list[object]:
    """The row of :data:`EPOCH_COLUMNS` of one (device, path, threads, compiled steps) timed
    ``first`` and ``second`` epoch; ``cpu``: the 2-thread CPU epoch the ratio divides (None: none
    measured)."""
    device, path, threads, compiled = setting
    return [device, path_name(path, compiled), threads, f"{second:.2f}", f"{first:.2f}",
            f"{sentences / second:.0f}", "—" if cpu is None else f"{cpu / second:.1f}"]


def paths_parsing(parser: Parser, test: list[pc.Sentence]) -> None:
    """Greedy parsing of en_lines test on every path, by batch size: the best of ``--repeat`` runs.
    The graphed path's first parse at each batch size records its graphs: timed apart."""
    paths = ("batched", "tensor", "graphs") if parser.device.type == "cuda" else ("batched", "tensor")
    rows = []
    for path, compiled in [(p, c) for p in paths for c in (False, True) if p != "batched" or not c]:
        parser.compile_steps = compiled
        parser.parse(test[:256], 256, path)  # warm-up (compiled: the compiling)
        for batch_size in (128, 512, 2048):
            first = timed_path_parse(parser, test, batch_size, path) if path == "graphs" else None
            best = min(timed_path_parse(parser, test, batch_size, path) for _ in range(SETUP.repeat))
            rows.append([path_name(path, compiled), batch_size, f"{best:.3f}",
                         f"{len(test) / best:.0f}", "—" if first is None else f"{first:.3f}"])
    parser.compile_steps = False
    emit(f"\n### Greedy parsing, en_lines test ({len(test)} sentences) on {parser.device} ({machine()})\n")
    emit(table(["path", "batch", "best s", "sentences / s", "first run s (graphs: recording)"], rows))


def gpu_parsing(limit: int | None, model: ModelConfig) -> None:
    """Greedy parsing speed alone, on every path, with an untrained network of the gpu section's
    shape (its vocabulary from en_lines train): an untrained arc-hybrid parser takes the same 2n
    steps a sentence as a trained one."""
    train, test = limited(pc.load_treebank("en_lines", "train"), limit), pc.load_treebank("en_lines", "test")
    torch.manual_seed(1)
    vocab = Vocab.build(train, min_count=model.min_count)
    parser = Parser(GPU_RUN[0], vocab, model).to(SETUP.device)
    paths_parsing(parser, test)


def timed_path_parse(parser: Parser, test: list[pc.Sentence], batch_size: int, path: str) -> float:
    start = time.perf_counter()
    parser.parse(test, batch_size, path)
    if parser.device.type == "cuda":
        torch.cuda.synchronize()
    return time.perf_counter() - start


def seeds_section(epochs: int, seeds: Sequence[int], limit: int | None, model: ModelConfig) -> None:
    """Test UAS / LAS of the gpu section's run after ``epochs`` epochs (best dev epoch), seed by seed."""
    train = limited(pc.load_treebank("en_lines", "train"), limit)
    dev, test = pc.load_treebank("en_lines", "dev"), pc.load_treebank("en_lines", "test")
    run = Run("dynamic, Goldberg & Nivre", *GPU_RUN)
    outcomes = []
    for seed in seeds:
        outcomes.append(train_and_test(run, train, dev, test, epochs, seed, model))
        print(f"  seed {seed}: UAS {pct(outcomes[-1].scores['uas'])}", flush=True)
    rows: list[list[object]] = [[i, pct(o.scores["uas"]), pct(o.scores["las"]), f"{o.epoch_seconds:.2f}"]
                                for i, o in zip(seeds, outcomes)]
    rows.append(["mean ± sd", mean_sd([o.scores["uas"] for o in outcomes]),
                 mean_sd([o.scores["las"] for o in outcomes]),
                 f"{statistics.mean(o.epoch_seconds for o in outcomes):.2f}"])
    emit(f"\n### en_lines test after {epochs} epochs, arc-hybrid, Goldberg–Nivre, batch 32, {model.inputs} "
         f"({machine()}, {time.strftime('%Y-%m-%d')})\n")
    emit(table(["seed", "UAS", "LAS", "s / epoch"], rows))


def la_perseus(epochs: int, seeds: int, limit: int | None, model: ModelConfig) -> None:
    sentences = pc.load_treebank("la_perseus", "train")
    random.Random(0).shuffle(sentences)
    cut = len(sentences) // 10
    train, dev = limited(sentences[cut:], limit), sentences[:cut]
    test = pc.load_treebank("la_perseus", "test")
    rows = []
    for run in [r for r in PERSEUS if available(r)]:
        outcomes = [train_and_test(run, train, dev, test, epochs, seed, model)
                    for seed in range(1, seeds + 1)]
        rows.append([run.name, run.oracle, mean_sd([o.scores["uas"] for o in outcomes]),
                     mean_sd([o.scores["las"] for o in outcomes]),
                     mean_sd([o.scores["uas_nopunct"] for o in outcomes]),
                     f"{statistics.mean(o.epoch_seconds for o in outcomes):.0f}"])
        print(f"  trained {run.name}", flush=True)
    nonprojective = sum(not s.is_projective for s in train) / len(train)
    print(f"\n### la_perseus ({nonprojective:.0%} non-projective), arc-standard, {model.inputs}, "
          f"{epochs} epochs, {seeds} seeds, {len(train)} training sentences ({machine()})\n")
    print(table(["regime", "oracle", "UAS", "LAS", "UAS without punctuation", "s / epoch"], rows))


def synthetic(epochs: int, n: int, rates: Sequence[float], model: ModelConfig) -> None:
    rows = []
    for rate in rates:
        sizes = [n, n // 5, n // 5]
        train, dev, test = (synthetic_treebank(size, rate, seed=i) for i, size in enumerate(sizes))
        cells = [pct(train_and_test(run, train, dev, test, epochs, 1, model).scores["uas"]) for run in PERSEUS
                 if available(run)]
        rows.append([f"{rate:.0%}", *cells])
        print(f"  trained rate {rate:.0%}", flush=True)
    print(f"\n### Synthetic treebanks, arc-standard, {n} training sentences, {epochs} epochs, test UAS\n")
    print(table(["non-projective", *(f"{r.name} ({r.oracle})" for r in PERSEUS if available(r))], rows))


def profile_table(profile: cProfile.Profile, top: int) -> str:
    """The ``top`` entries by own time, as a markdown table."""
    stats = pstats.Stats(profile, stream=io.StringIO()).sort_stats("tottime")
    rows = []
    for (file, line, name), (_, calls, own, total, _) in list(stats.stats.items()):  # type: ignore[attr-defined]
        short = os.path.relpath(file) if file.startswith(os.getcwd()) else os.path.basename(file)
        where = name if file == "~" else f"{short}:{line}({name})"
        rows.append((own, [where, calls, f"{own:.2f}", f"{total:.2f}"]))
    rows.sort(key=lambda r: -r[0])
    return table(["function", "calls", "own s", "cumulative s"], [r for _, r in rows[:top]])


def profile(limit: int | None, model: ModelConfig) -> None:
    """cProfile's top entries on an exploring epoch of arc-hybrid (goldberg-nivre) and on greedy parsing."""
    train, test = limited(pc.load_treebank("en_lines", "train"), limit), pc.load_treebank("en_lines", "test")
    config = SETUP.config(epochs=1)
    trainer = SETUP.trainer(train, [], "arc-hybrid", "goldberg-nivre", "dynamic", config, model)
    trainer.train_epoch(1)  # the first epoch follows the oracle; the profiled one explores
    epoch, parse = cProfile.Profile(), cProfile.Profile()
    epoch.runcall(trainer.train_epoch, 2)
    parse.runcall(trainer.parser.parse, test, 128, SETUP.path)
    print(f"\n### Profile of an exploring epoch, {len(train)} en_lines sentences ({machine()})\n")
    print(profile_table(epoch, 15))
    print(f"\n### Profile of greedy parsing, en_lines test ({machine()})\n")
    print(profile_table(parse, 12))


def first_point(runs: int) -> None:
    """Seconds from starting the Train page's default run (1,000 synthetic sentences, 30 epochs, the
    small network) as a job starts it, ``python -m parsing_core.train --spec``, to its first batch
    loss in the log; the page draws that point when it next reads the log.  Each run is timed in a
    new process and forked by a standby (``server.jobs.standby``) that has been ready for
    ``STANDBY_AGE`` seconds before the click, as on a server started a while ago."""
    small = ModelConfig.preset("small")
    spec = TrainSpec(DataSpec(synthetic=1000), "arc-hybrid", TrainConfig(epochs=30), small)
    rows = []
    for run in range(1, runs + 1):
        for how in ("a new process", "a standby"):
            with tempfile.TemporaryDirectory() as folder:
                spec_file = spec.save(os.path.join(folder, "spec.json"))
                log = os.path.join(folder, "log.jsonl")
                command = [sys.executable, "-m", "parsing_core.train", "--spec", str(spec_file), "--log", log]
                waiting = Standby(ROOT) if how == "a standby" else None
                if waiting is not None:
                    if not waiting.ready(120):
                        raise SystemExit(f"the standby did not get ready ({STANDBY_ENV}=0?)")
                    time.sleep(STANDBY_AGE)
                start = time.perf_counter()
                job = waiting.take(Path(folder), command) if waiting else subprocess.Popen(
                    command, stderr=subprocess.DEVNULL)
                if job is None:
                    raise SystemExit(f"no standby took the job ({STANDBY_ENV}=0?)")
                first = wait_for_batch(log, job)
                job.terminate()
                job.wait()
                if waiting is not None:
                    waiting.close()
                rows.append([run, how, f"{first - start:.2f}"])
    print(f"\n### First loss of the Train page's default run ({machine()})\n")
    print(table(["run", "started in", "seconds from start to the first batch loss"], rows))


def wait_for_batch(log: str, job: JobProcess) -> float:
    """The moment the first batch event shows in ``log``."""
    while job.poll() is None:
        if os.path.exists(log):
            with open(log, encoding="utf-8") as lines:
                if any(json.loads(line).get("event") == "batch" for line in lines if line.strip()):
                    return time.perf_counter()
        time.sleep(0.02)
    raise SystemExit("the training run ended before its first batch")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="2 epochs, 600 sentences, 2 seeds (a smoke run)")
    ap.add_argument("--sections", default="speed,en_lines,la_perseus,synthetic")
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--limit", type=int, default=None, help="training sentences at most")
    ap.add_argument("--upos-dim", type=int, default=25)
    ap.add_argument("--char-dim", type=int, default=32, help="character embeddings (0 = none)")
    ap.add_argument("--synthetic-size", type=int, default=2000, help="synthetic training sentences")
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads while training")
    ap.add_argument("--repeat", type=int, default=3, help="timings of each parsing setting and training run")
    ap.add_argument("--path", choices=["auto", "graphs", "tensor", "batched", "legacy"], default="batched",
                    help="tensor: the walks on the device; legacy: one configuration at a time and packed "
                         "sequences (the code before); auto: tensor on a GPU, batched on a CPU")
    ap.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    ap.add_argument("--compile-steps", action="store_true",
                    help="the tensor walk's steps fused by torch.compile (the gpu section times both)")
    only = "the speed and en_lines sections run only these (comma-separated)"
    ap.add_argument("--oracles", default="", help=only)
    ap.add_argument("--systems", default="", help=only)
    ap.add_argument("--batch-sizes", default="32", help="training batch sizes (speed and en_lines sections)")
    ap.add_argument("--cuda-lstm", choices=["packed", "padded"], default="packed",
                    help="how the BiLSTMs read a batch on a GPU (packed: cuDNN's own layout)")
    ap.add_argument("--lr", type=float, default=None, help="Adam's learning rate (default: TrainConfig's)")
    ap.add_argument("--precision", choices=["float32", "bfloat16"], default="float32",
                    help="bfloat16: the encoder in mixed precision (where the processor has bfloat16)")
    ap.add_argument("--first-seed", type=int, default=1, help="the seeds section's first seed")
    ap.add_argument("--write", default="", help="the gpu and seeds sections append their tables here")
    args = ap.parse_args()
    epochs, seeds, limit = (2, 2, args.limit or 600) if args.quick else (args.epochs, args.seeds, args.limit)
    global SETUP
    oracles, systems = (tuple(filter(None, text.split(","))) for text in (args.oracles, args.systems))
    batch_sizes = tuple(int(size) for size in args.batch_sizes.split(","))
    SETUP = Setup(args.path, args.device, args.threads, args.repeat, oracles, args.precision, batch_sizes,
                  systems, args.cuda_lstm, args.lr, args.write, args.compile_steps)
    torch.set_num_threads(args.threads)
    sections = args.sections.split(",")
    if "profile" in sections:
        profile(limit, ModelConfig(char_dim=args.char_dim))
    if "first_point" in sections:
        first_point(args.repeat)
    words = ModelConfig(char_dim=args.char_dim)  # words (and their characters), no UPOS
    if "speed" in sections:
        speed(limit, words)
    if "parsing" in sections:
        parsing(limit, words)
    if "en_lines" in sections:
        en_lines(epochs, 1, limit, words, args.upos_dim)
    if "gpu" in sections:
        gpu(limit, words)
    if "gpu_parsing" in sections:
        gpu_parsing(limit, words)
    if "gpu_eager" in sections:
        gpu_eager(limit, words)
    if "seeds" in sections:
        seeds_section(epochs, range(args.first_seed, args.first_seed + seeds), limit, words)
    if "la_perseus" in sections:
        la_perseus(epochs, seeds, limit, words)
    if "synthetic" in sections:
        synthetic(epochs, 300 if args.quick else args.synthetic_size, [0.0, 0.2, 0.4, 0.6, 0.8], words)


if __name__ == "__main__":
    main()
