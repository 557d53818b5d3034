"""Greedy parsing on the model's device: the walk as tensor operations, and replayed as CUDA graphs.

:meth:`.parser.Parser.parse_batch` keeps a batch's configurations in numpy and copies the
scores to the host at every step.  :func:`parse_walk` takes the same choices on a
:class:`.tensor_state.TensorState`: every step scores all B rows, takes each row's legal move of
highest score (final rows take none) with the best label of its arc kind, and applies them all
at once.  Nothing is read back to the host until the walk ends.

A step is some 130 small kernels (16–18 when :class:`GreedyStep` is compiled: :mod:`.compiled`).
As for training walks (:mod:`.tensor_graphs`),
the walk's shape depends only on the batch size and the longest sentence, so
:class:`GraphedParse` pads the sentences to a *bucket* of lengths and the batch to a fixed
number of rows (empty sentences, final from the start), records the walk of each shape once as
a CUDA graph and replays it for every later batch of that shape: the first batch of a bucket
pays for one eager walk and the recording, the others replay it.  The padded walk parses what
the unpadded one parses (the extra steps move no row; ``tests/test_tensor_walks.py`` compares
them on the CPU, where the padded walk runs eagerly).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch
from torch import Tensor

from ..errors import ParsingCoreError
from ..systems import TransitionSystem
from .compiled import Compiled
from .network import ParserNetwork
from .tensor_graphs import pad_table, recorded_graph
from .tensor_state import Arrays, Flags, TensorState, effect_flags


class GreedyStep:
    """One greedy step of every row, as a function of tensors: the network scores all B rows, each
    takes its legal move of highest score (final rows take none) with the best label of its arc
    kind.  ``compiled``: fused by :func:`torch.compile` (:mod:`.compiled`).

    ``arc_slot`` (K,): each kind's row of the label scorer (LA → 0, RA → 1, −1 for no arc)."""

    def __init__(self, network: ParserNetwork, system: TransitionSystem, arc_slot: Tensor,
                 compiled: bool = False) -> None:
        self.network, self.system, self.arc_slot = network, system, arc_slot
        self.next: Callable[[Arrays, Flags, Tensor, Tensor, tuple[int, int, bool]], Arrays] = (
            Compiled(self.step, "greedy parsing's step") if compiled else self.step)

    def step(self, arrays: Arrays, flags: Flags, lengths: Tensor, table: Tensor,
             layout: tuple[int, int, bool]) -> Arrays:
        """The configurations ``arrays`` one greedy move on (the network scoring from ``table``)."""
        state = TensorState.of(self.system, lengths, arrays, flags)
        moves, labels = self.network.score(table, state.feature_rows(*layout))  # (B, K), (B, 2, L)
        chosen = moves.masked_fill(~state.legal_mask(), -math.inf).argmax(dim=1)  # (B,)
        kinds = torch.where(state.terminal(), -1, chosen)
        label_ids = None
        if labels is not None:
            slot = self.arc_slot[chosen]
            best = labels.argmax(dim=2).gather(1, slot.clamp(min=0)[:, None])[:, 0]
            label_ids = torch.where(slot >= 0, best, -1)
        state.apply(kinds, label_ids)
        return state.arrays


def parse_walk(step: GreedyStep, state: TensorState, table: Tensor, layout: tuple[int, int, bool],
               steps: int) -> TensorState:
    """``steps`` greedy steps of every row of ``state``: the state they reach."""
    arrays, flags = state.arrays, state.flags
    for _ in range(steps):
        arrays = step.next(arrays, flags, state.n, table, layout)
    return TensorState.of(state.system, state.n, arrays, flags, state.label_names)


@dataclass
class Recorded:
    """One parse walk recorded as a graph: its inputs (filled before each replay) and its state."""

    graph: torch.cuda.CUDAGraph
    lengths: Tensor
    table: Tensor
    state: TensorState


class GraphedParse:
    """Greedy parsing of batches padded to ``size`` rows and a bucket of lengths (see the module):
    recorded as CUDA graphs on a GPU, walked eagerly (the same padded walk) on a CPU."""

    def __init__(self, step: GreedyStep, label_names: Sequence[str], size: int, bucket: int = 8) -> None:
        self.step, self.system, self.label_names = step, step.system, tuple(label_names)
        self.size, self.bucket = size, bucket
        self.recorded: dict[tuple[int, bool], Recorded] = {}
        self.flags: Flags | None = None
        self.broken = False  # a recording failed: walk eagerly

    def final(self, table: Tensor, lengths: Sequence[int], width: int, children: bool) -> TensorState:
        """The final state of the batch of sentences of ``lengths`` tokens whose encoded table has
        ``width`` rows a sentence (and the empty row last); its first ``len(lengths)`` rows are theirs."""
        padded_width = -(-width // self.bucket) * self.bucket
        padded = pad_table(table, len(lengths), width, self.size, padded_width)
        device = table.device
        self.flags = self.flags or effect_flags(self.system, device)
        n = torch.zeros(self.size, dtype=torch.long)
        n[:len(lengths)] = torch.tensor(list(lengths))
        n = n.to(device)
        key = (padded_width, children)
        if not table.is_cuda or self.broken:
            state = self.walk(n, padded, padded_width, children)
        else:
            state = self.replay(key, n, padded, padded_width, children)
        if not bool(state.terminal()[:len(lengths)].all()):
            raise ParsingCoreError(f"the parser did not finish after {2 * (padded_width - 1)} steps")
        return state

    def walk(self, n: Tensor, table: Tensor, width: int, children: bool) -> TensorState:
        """The padded walk, eagerly: 2(width − 1) steps, enough for the longest sentence."""
        state = TensorState(self.system, n, n.device, self.label_names, cap=width + 1, flags=self.flags)
        return parse_walk(self.step, state, table, (width, self.size * width, children), 2 * (width - 1))

    def replay(self, key: tuple[int, bool], n: Tensor, table: Tensor, width: int, children: bool
               ) -> TensorState:
        if key not in self.recorded:
            try:
                self.recorded[key] = self.record(n, table, width, children)
            except RuntimeError as err:  # e.g. an operation a graph cannot hold
                warnings.warn(f"greedy parsing is not recorded as CUDA graphs ({err}); walking eagerly",
                              stacklevel=3)
                self.broken = True
                return self.walk(n, table, width, children)
        recorded = self.recorded[key]
        recorded.lengths.copy_(n)
        recorded.table.copy_(table)
        recorded.graph.replay()
        recorded.state.seen.clear()  # what the state read while recording is not this batch's
        return recorded.state

    def record(self, n: Tensor, table: Tensor, width: int, children: bool) -> Recorded:
        """Warm up once on a side stream, then record the walk of this shape."""
        n, table = n.clone(), table.clone()
        graph, state = recorded_graph(lambda: self.walk(n, table, width, children))
        return Recorded(graph, n, table, state)
