"""Whole training walks replayed as CUDA graphs: one launch a batch instead of hundreds a step.

A step of :class:`.tensor_walks.TensorWalker` is a few hundred small tensor operations; on a
GPU each costs Python and a kernel launch (several microseconds) while the kernel itself runs
for one or two, so the walk waits on the host (compiled, :mod:`.compiled`, a step is a few dozen
kernels, which the graph then holds).  The walk's shape depends only on the batch size,
the longest sentence and whether the epoch explores, and nothing in it reads the device from
the host: so it can be recorded once as a CUDA graph and replayed for every batch of that shape.

To share graphs between batches, sentences are padded to a *bucket* of lengths (the longest
sentence + 1 rounded up to a multiple of ``bucket``) and the batch to ``size`` rows (empty
sentences, final from the start).  The padded walk takes the bucket's 2n steps; the extra steps
of finished rows change nothing, so it teaches what the unpadded walk teaches (the table is
padded the same way, and the loss reads the padded table).  Exploration draws from torch's
generator on the GPU, which graphs replay with fresh numbers.  The first batch of a bucket pays
for one eager walk (warming up) and the recording; the others replay.  Where a recording fails,
the walker says so once and walks eagerly from then on.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import torch
from torch import Tensor
from torch.nn import functional as F

from ..sentence import Sentence
from .explore import Exploration
from .tensor_state import Flags, effect_flags
from .tensor_walks import TensorSupervision, TensorWalker, WalkInputs

T = TypeVar("T")


def recorded_graph(run: Callable[[], T]) -> tuple[torch.cuda.CUDAGraph, T]:
    """``run`` once on a side stream (warming up), then recorded as a CUDA graph: the graph and what
    the recorded run returned (tensors its replays write again)."""
    side = torch.cuda.Stream()  # type: ignore[no-untyped-call]  # torch leaves it unannotated
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        run()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = run()
    return graph, out


@dataclass
class Recorded:
    """One walk recorded as a graph: its input tensors (filled before each replay) and outputs."""

    graph: torch.cuda.CUDAGraph
    inputs: WalkInputs
    table: Tensor
    steps: list[tuple[Tensor, ...]]
    counts: Tensor
    unfinished: Tensor


def pad_table(table: Tensor, sentences: int, width: int, size: int, padded_width: int) -> Tensor:
    """The table of ``sentences`` sentences of ``width`` rows each (and the empty row last) laid
    out for ``size`` sentences of ``padded_width`` rows (zeros between); differentiable (the loss
    reads it)."""
    cells = table[:-1].view(sentences, width, *table.shape[1:])  # (B, T, F, X)
    grid = F.pad(cells, (0, 0, 0, 0, 0, padded_width - width, 0, size - sentences))  # (size, T', F, X)
    return torch.cat([grid.reshape(size * padded_width, *table.shape[1:]), table[-1:]])


class GraphedWalker:
    """:class:`.tensor_walks.TensorWalker`'s walks, recorded once per shape and replayed (CUDA only)."""

    def __init__(self, walker: TensorWalker, size: int, bucket: int = 8) -> None:
        self.walker, self.size, self.bucket = walker, size, bucket
        self.recorded: dict[tuple[int, bool, bool], Recorded] = {}
        self.flags: Flags | None = None
        self.broken = False  # a recording failed: walk eagerly

    def walk_batch(self, golds: Sequence[Sentence], width: int, children: bool, table: Tensor,
                   explore: Exploration) -> tuple[TensorSupervision, Tensor]:
        """What the walk of ``golds`` teaches, and the table its feature rows index (padded)."""
        if self.broken or len(golds) > self.size:
            return self.walker.walk_batch(golds, width, children, table.detach(), explore), table
        padded_width = -(-width // self.bucket) * self.bucket
        padded = pad_table(table, len(golds), width, self.size, padded_width)
        inputs = self.walker.inputs(golds, padded_width + 1, self.size, table.device)
        key = (padded_width, explore.on, children)
        if not table.is_cuda:  # the same padded walk, eagerly (how the tests see it on a CPU)
            walked = self.walker.walk(inputs, padded_width, children, padded.detach(), explore,
                                      2 * (padded_width - 1))
            return self.walker.collect(*walked), padded
        if key not in self.recorded:
            try:
                self.recorded[key] = self.record(inputs, padded.detach(), padded_width, children, explore)
            except RuntimeError as err:  # e.g. an operation a graph cannot hold
                warnings.warn(f"walks are not recorded as CUDA graphs ({err}); walking eagerly", stacklevel=2)
                self.broken = True
                return self.walker.walk_batch(golds, width, children, table.detach(), explore), table
        return self.replay(self.recorded[key], inputs, padded.detach()), padded

    def record(self, inputs: WalkInputs, table: Tensor, width: int, children: bool, explore: Exploration
               ) -> Recorded:
        """Warm up once on a side stream, then record the walk of this shape."""
        self.flags = self.flags or effect_flags(self.walker.system, table.device)
        inputs, table = WalkInputs(*(t.clone() for t in inputs)), table.clone()

        def walk() -> tuple[list[tuple[Tensor, ...]], Tensor, Tensor]:
            return self.walker.walk(inputs, width, children, table, explore, 2 * (width - 1), self.flags)

        graph, (steps, counts, unfinished) = recorded_graph(walk)
        return Recorded(graph, inputs, table, steps, counts, unfinished)

    def replay(self, recorded: Recorded, inputs: WalkInputs, table: Tensor) -> TensorSupervision:
        for mine, new in zip(recorded.inputs, inputs):
            mine.copy_(new)
        recorded.table.copy_(table)
        recorded.graph.replay()
        return self.walker.collect(recorded.steps, recorded.counts, recorded.unfinished)
