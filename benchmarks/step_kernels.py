"""How many kernels a step of the tensor walks launches, eagerly and compiled, and what a walk costs.

    python -m benchmarks.step_kernels [--device cpu|cuda] [--repeat 3] [--systems arc-hybrid,...]

One batch of 32 en_lines training sentences, the gpu section's network (words and characters),
walked on the tensor path (:mod:`parsing_core.model.tensor_walks`, exploring with p = 0.9, draws on
the device) for every system and oracle it supports, and parsed greedily
(:mod:`parsing_core.model.tensor_parse`).  For each:

* **operations a step (eager)**: the ATen calls of one step, views and Python numbers wrapped as
  tensors left out: on a GPU, each is a kernel launch (counted with a ``TorchDispatchMode`` over a
  whole walk, less the walk of no step, divided by the steps);
* **kernels a step (compiled)**: the kernels TorchInductor generated for the step's one graph (C++
  loops on a CPU, Triton on a GPU), plus the matrix products it leaves to the BLAS library;
* **ms a walk**: the batch's whole walk (2n steps), best of ``--repeat``, eagerly and compiled
  (after its first walk, which compiles: **compile s**); for training, the numpy path's walk of the
  same batch too (:mod:`parsing_core.model.walks`);
* **same as eager**: the compiled walk teaches what the eager one teaches (the same draws), or
  parses to the same configurations.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import torch
from torch._inductor import metrics
from torch.utils._python_dispatch import TorchDispatchMode

import parsing_core as pc
from benchmarks.common import table
from parsing_core.model import ModelConfig, Parser, TrainConfig, Trainer, Vocab
from parsing_core.model.explore import Exploration
from parsing_core.model.tensor_oracles import COSTS
from parsing_core.model.tensor_parse import GreedyStep, parse_walk
from parsing_core.model.tensor_state import TensorState
from parsing_core.model.tensor_walks import Record, TensorWalker

#: every (system, oracle) the tensor walks support, with its regime
CASES = [(system, oracle, "static" if oracle == "static" else "dynamic") for system, oracle in COSTS]
MATMULS = {"mm", "addmm", "bmm", "baddbmm"}
NOT_KERNELS = {"scalar_tensor", "lift_fresh", "_local_scalar_dense"}  # Python numbers, host reads


class Count(TorchDispatchMode):
    """The ATen calls made under it, by name (views and wrapped numbers apart)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: Counter[str] = Counter()

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        if not func.is_view and func.overloadpacket.__name__ not in NOT_KERNELS:
            self.calls[func.overloadpacket.__name__] += 1
        return func(*args, **(kwargs or {}))


def per_step(walk: Callable[[int], object], steps: int) -> tuple[float, float]:
    """(operations, matrix products) a step: the walk of ``steps`` steps less the walk of none."""
    counted = []
    for count in (steps, 0):
        with Count() as seen:
            walk(count)
        counted.append(seen.calls)
    ops = sum(counted[0].values()) - sum(counted[1].values())
    products = sum(counted[0][m] - counted[1][m] for m in MATMULS)
    return ops / steps, products / steps


def best_ms(walk: Callable[[], object], repeat: int, device: torch.device) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        walk()
        if device.type == "cuda":
            torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
    return 1000 * min(times)


def compiled_kernels(first_walk: Callable[[], object], device: torch.device) -> tuple[int, float]:
    """(kernels Inductor generated, seconds) of the first compiled walk (which compiles its step)."""
    metrics.reset()
    start = time.perf_counter()
    first_walk()
    if device.type == "cuda":
        torch.cuda.synchronize()
    return metrics.generated_kernel_count, time.perf_counter() - start


def seeded(run: Callable[[], object]) -> object:
    """``run()`` with torch's generator seeded (a compiled walk draws the eager walk's numbers)."""
    torch.manual_seed(7)
    return run()


def yes(same: bool) -> str:
    return "yes" if same else "**no**"


def training_row(system: str, oracle: str, regime: str, batch: list[pc.Sentence], device: torch.device,
                 repeat: int) -> list[object]:
    torch.manual_seed(1)
    trainer = Trainer(batch, [], system, oracle, regime, TrainConfig(epochs=1, seed=1, device=device.type),
                      ModelConfig(char_dim=32), path="batched")
    parser = trainer.parser
    table_ = parser.network.encode(parser.encode(batch)).detach()
    width = max(s.n for s in batch) + 1
    eager, fused = (TensorWalker(trainer.system, oracle, parser.space, parser.vocab, parser.network, "device",
                                 compiled=c) for c in (False, True))
    inputs = eager.inputs(batch, width + 1, len(batch), device)
    explore, steps = Exploration(True, 0.9, random.Random(0)), 2 * (width - 1)

    def walk(walker: TensorWalker, count: int) -> tuple[list[Record], torch.Tensor, torch.Tensor]:
        return walker.walk(inputs, width, False, table_, explore, count)

    def taught(walker: TensorWalker) -> Callable[[], object]:
        return lambda: walker.collect(*walk(walker, steps)).lists()

    ops, products = per_step(lambda count: walk(eager, count), steps)
    kernels, first = compiled_kernels(lambda: walk(fused, steps), device)
    same = seeded(taught(eager)) == seeded(taught(fused))
    eager_ms = best_ms(lambda: walk(eager, steps), repeat, device)
    fused_ms = best_ms(lambda: walk(fused, steps), repeat, device)
    numpy_walk = trainer.walker.walk_batch
    numpy_ms = best_ms(lambda: numpy_walk(batch, width, False, table_, explore), repeat, device)
    return [system, oracle, steps, f"{ops:.0f}", f"{kernels + products:.0f}", f"{eager_ms:.1f}",
            f"{fused_ms:.1f}", f"{numpy_ms:.1f}", f"{first - fused_ms / 1000:.1f}", yes(same)]


def parsing_row(system: str, batch: list[pc.Sentence], device: torch.device, repeat: int) -> list[object]:
    torch.manual_seed(1)
    parser = Parser(system, Vocab.build(batch), ModelConfig(char_dim=32)).to(device)
    table_ = parser.network.encode(parser.encode(batch)).detach()
    width = max(s.n for s in batch) + 1
    steps, layout = 2 * (width - 1), (width, len(batch) * width, False)
    lengths = [s.n for s in batch]
    arc_slot = parser.arc_slot.to(device)
    eager, fused = (GreedyStep(parser.network, parser.system, arc_slot, c) for c in (False, True))

    def walk(step: GreedyStep, count: int) -> TensorState:
        with torch.inference_mode():
            state = TensorState(parser.system, lengths, device, parser.vocab.labels)
            return parse_walk(step, state, table_, layout, count)

    ops, products = per_step(lambda count: walk(eager, count), steps)
    kernels, first = compiled_kernels(lambda: walk(fused, steps), device)
    parsed = [walk(step, steps).configurations() for step in (eager, fused)]
    eager_ms = best_ms(lambda: walk(eager, steps), repeat, device)
    fused_ms = best_ms(lambda: walk(fused, steps), repeat, device)
    return [system, "greedy parsing", steps, f"{ops:.0f}", f"{kernels + products:.0f}", f"{eager_ms:.1f}",
            f"{fused_ms:.1f}", "—", f"{first - fused_ms / 1000:.1f}", yes(parsed[0] == parsed[1])]


COLUMNS = ["system", "oracle", "steps", "operations a step (eager)", "kernels a step (compiled)",
           "eager ms a walk", "compiled ms a walk", "numpy ms a walk", "compile s", "same as eager"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--systems", default="arc-standard,arc-eager,arc-hybrid",
                    help="only these systems (comma-separated); each row is printed once measured")
    args = ap.parse_args()
    torch._inductor.config.force_disable_caches = True  # every step compiled afresh: its kernels counted
    torch.set_num_threads(1)
    device, systems = torch.device(args.device), args.systems.split(",")
    batch = pc.load_treebank("en_lines", "train")[:32]
    name = torch.cuda.get_device_name() if device.type == "cuda" else "CPU, one thread"
    print(f"\n### A step of the tensor walks, eager and compiled: 32 en_lines sentences ({name})\n")
    print(table(COLUMNS, []), flush=True)
    for case in [c for c in CASES if c[0] in systems]:
        print(table(COLUMNS, [training_row(*case, batch, device, args.repeat)]).splitlines()[-1], flush=True)
    for system in [s for s in ("arc-standard", "arc-eager", "arc-hybrid") if s in systems]:
        print(table(COLUMNS, [parsing_row(system, batch, device, args.repeat)]).splitlines()[-1], flush=True)


if __name__ == "__main__":
    main()
