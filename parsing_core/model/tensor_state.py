"""The configurations of a batch as torch tensors on the model's device: a step never leaves it.

:class:`.state.BatchState` holds a batch's configurations as numpy arrays, and every step of
a training walk or of greedy parsing copies the network's scores to the host and the chosen
moves back.  On a GPU that round trip, and Python stepping the rows that take each move,
cost more than the network.  :class:`TensorState` is the same state (the same arrays, the
same reading ``s(k)``, ``b(k)``, ``has_head``, the same legal moves) as tensors on any
device, and :meth:`TensorState.apply` moves **every** row at once: each move kind is stated
as a few flags (:class:`Effect`), and a row's new stack, buffer and arcs are picked with
``torch.where`` and written with one ``scatter`` per array, whatever kind each row takes.

The legal moves and the arcs are :mod:`.rules`' own functions: they are written with array
operators only, so they read a :class:`TensorState` as they read a :class:`.state.BatchState`.
Systems whose moves fit the flags: arc-standard (single-root too), arc-eager and arc-hybrid
(ROOT first or last).  The others (swap systems, the corrected arc-eager) stay on the
numpy state.  ``tests/test_tensor_state.py`` holds every row to the numpy state's.

>>> import parsing_core as pc
>>> st = TensorState(pc.get_system("arc-hybrid"), [3, 1])
>>> st.apply(torch.tensor([0, 0]))               # both shift
>>> st.configuration(0)
Configuration(stack=(0, 1), buffer=(2, 3), heads=(None, None, None), labels=(None, None, None))
>>> st.legal_mask()[1].tolist()                  # one word, empty buffer: only RA (ROOT → 1)
[False, False, True]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
from torch import Tensor

from ..configuration import Configuration
from ..errors import ParsingCoreError
from ..systems import TransitionSystem
from .features import MISSING
from .rules import NONE, is_terminal, rules_of


@dataclass(frozen=True)
class Effect:
    """What one move kind does to the stack and the buffer (its arc comes from :mod:`.rules`)."""

    push: bool = False  # b leaves the buffer for the stack
    under: bool = False  # s0 is written in s1's place (arc-standard LA: s1 goes, s0 stays)
    pop: bool = False  # the stack loses its top


SHIFT, POP = Effect(push=True), Effect(pop=True)
EFFECTS: dict[str, dict[str, Effect]] = {
    "arc-standard": {"SH": SHIFT, "LA": Effect(under=True, pop=True), "RA": POP},
    "arc-eager": {"SH": SHIFT, "LA": POP, "RA": SHIFT, "RE": POP},
    "arc-hybrid": {"SH": SHIFT, "LA": POP, "RA": POP},
}


Flags = tuple[Tensor, Tensor, Tensor]  # (K,) bool each: push, under, pop
Arrays = tuple[Tensor, ...]  # what a move changes: TensorState.arrays


def effect_flags(system: TransitionSystem, device: torch.device | str) -> Flags:
    """The :class:`Effect` of each of ``system``'s kinds as three (K,) boolean tensors."""
    effects = [EFFECTS[system.name][k] for k in system.kinds]
    return (torch.tensor([e.push for e in effects], device=device),
            torch.tensor([e.under for e in effects], device=device),
            torch.tensor([e.pop for e in effects], device=device))


def supports(system: TransitionSystem) -> bool:
    """Can the tensor state walk ``system``?"""
    return system.name in EFFECTS


class TensorState:
    """B configurations of ``system`` (sentences of ``lengths`` tokens) as tensors; see the module."""

    def __init__(self, system: TransitionSystem, lengths: Sequence[int] | Tensor,
                 device: torch.device | str = "cpu", label_names: Sequence[str] = (), cap: int | None = None,
                 flags: Flags | None = None) -> None:
        """``lengths`` may be a tensor on ``device`` already, and ``flags`` (:func:`effect_flags`)
        made beforehand: then nothing is copied from the host (a CUDA graph can capture it)."""
        if not supports(system):
            raise ParsingCoreError(f"the tensor state has no moves for the system {system.name!r}")
        if isinstance(lengths, Tensor):
            n = lengths
        else:
            n = torch.tensor(list(lengths), dtype=torch.long, device=device)
            cap = max(max(lengths, default=0) + 2, cap or 0)
        assert cap is not None, "a tensor of lengths comes with its cap"
        b = len(n)
        cols = torch.arange(cap, device=device)[None, :]
        stack = torch.zeros((b, cap), dtype=torch.long, device=device)
        queue = torch.where(cols < n[:, None], n[:, None] - cols, 0)  # β reversed: n … 1
        heads = torch.full((b, cap), NONE, dtype=torch.long, device=device)
        sl, ql = torch.ones(b, dtype=torch.long, device=device), n.clone()  # ROOT on the stack
        if system.root_last:  # ROOT at the buffer's far end instead
            queue = torch.cat([torch.zeros_like(queue[:, :1]), queue[:, :-1]], dim=1)
            ql, sl = ql + 1, sl - 1
        arrays = (stack, queue, heads, torch.full_like(heads, NONE), torch.full_like(heads, cap),
                  torch.full_like(heads, NONE), sl, ql)
        self.adopt(system, n, arrays, flags or effect_flags(system, device), label_names)

    @classmethod
    def of(cls, system: TransitionSystem, lengths: Tensor, arrays: Arrays, flags: Flags,
           label_names: Sequence[str] = ()) -> TensorState:
        """The sentences of ``lengths`` tokens in the configurations ``arrays`` (another state's
        :attr:`arrays`, which it shares): how a compiled step (:mod:`.tensor_walks`) takes a state
        in as tensors alone."""
        state = cls.__new__(cls)
        state.adopt(system, lengths, arrays, flags, label_names)
        return state

    def adopt(self, system: TransitionSystem, lengths: Tensor, arrays: Arrays, flags: Flags,
              label_names: Sequence[str]) -> None:
        """Become the sentences of ``lengths`` tokens in the configurations ``arrays``."""
        self.system, self.rules, self.label_names = system, rules_of(system), tuple(label_names)
        self.pushes, self.unders, self.pops = flags  # (K,) each
        self.n, self.size = lengths, len(lengths)
        self.rows = torch.arange(self.size, device=lengths.device)
        (self.stack, self.queue, self.heads, self.labels, self.leftmost, self.rightmost, self.sl,
         self.ql) = arrays
        self.seen: dict[tuple[str, int], Tensor] = {}  # this step's s(k), b(k), terminal()

    @property
    def arrays(self) -> Arrays:
        """The tensors a move changes: stack, queue (β reversed), heads, labels, leftmost and
        rightmost children, stack and queue lengths.  The state is these and its lengths."""
        return (self.stack, self.queue, self.heads, self.labels, self.leftmost, self.rightmost, self.sl,
                self.ql)

    @property
    def flags(self) -> Flags:
        """What each kind does (:func:`effect_flags`)."""
        return self.pushes, self.unders, self.pops

    # -- reading (as BatchState's) -----------------------------------------------------------------
    def s(self, k: int) -> Tensor:
        """(B,) the k-th stack token from the top, −1 where the stack is shorter."""
        if ("s", k) not in self.seen:
            self.seen["s", k] = self.read(self.stack, self.sl, k)
        return self.seen["s", k]

    def b(self, k: int) -> Tensor:
        """(B,) the k-th buffer token from the front, −1 where the buffer is shorter."""
        if ("b", k) not in self.seen:
            self.seen["b", k] = self.read(self.queue, self.ql, k)
        return self.seen["b", k]

    @staticmethod
    def read(table: Tensor, length: Tensor, k: int) -> Tensor:
        found = table.gather(1, (length - 1 - k).clamp(min=0)[:, None])[:, 0]
        return torch.where(length > k, found, MISSING)

    def has_head(self, tokens: Tensor, rows: Tensor | None = None) -> Tensor:
        """Does each row's token have a head?  ROOT and −1: no (``rows``: all, as the rules ask)."""
        return (tokens > 0) & (at(self.heads, tokens) >= 0)

    def terminal(self) -> Tensor:
        """(B,) bool: the final configurations."""
        if ("t", 0) not in self.seen:
            self.seen["t", 0] = is_terminal(self.system, self)
        return self.seen["t", 0]

    def legal_mask(self) -> Tensor:
        """(B, K) bool: the legal moves, in the system's display order; none in a final configuration."""
        mask = torch.stack([rule.legal(self) for rule in self.rules], dim=1)
        return mask & ~self.terminal()[:, None]

    def arcs(self) -> tuple[Tensor, Tensor]:
        """(B, K) heads and (B, K) dependents of the arc each move would build, −1 for none."""
        none = torch.full_like(self.sl, NONE)
        pairs = [rule.arc(self) if rule.arc else (none, none) for rule in self.rules]
        return torch.stack([h for h, _ in pairs], dim=1), torch.stack([d for _, d in pairs], dim=1)

    def tokens(self, children: bool = False) -> Tensor:
        """(B, F) the tokens at the key positions (s0 s1 s2 b0 b1 b2, children), −1 for none."""
        cols = [self.s(0), self.s(1), self.s(2), self.b(0), self.b(1), self.b(2)]
        if children:
            for head in cols[:2]:
                right = torch.where(head >= 0, at(self.rightmost, head), MISSING)
                cols += [torch.where(right >= 0, at(self.leftmost, head), MISSING), right]
        return torch.stack(cols, dim=1)

    def feature_rows(self, width: int, empty_row: int, children: bool = False) -> Tensor:
        """(B, F) rows of the batch's table: row i·width + token, ``empty_row`` for none."""
        tokens = self.tokens(children)
        return torch.where(tokens >= 0, tokens + (self.rows * width)[:, None], empty_row)

    def configuration(self, i: int) -> Configuration:
        """Row i as the configuration the one-sentence path reaches (copied to the host)."""
        return self.configurations([i])[0]

    def configurations(self, which: Sequence[int] | None = None) -> list[Configuration]:
        """The rows ``which`` (all by default) as configurations, in one copy to the host."""
        stack, queue, heads, labels, sl, ql, n = (t.tolist() for t in (
            self.stack, self.queue, self.heads, self.labels, self.sl, self.ql, self.n))
        names = self.label_names
        return [Configuration(tuple(stack[i][:sl[i]]), tuple(queue[i][:ql[i]][::-1]),
                              tuple(None if h < 0 else h for h in heads[i][1:n[i] + 1]),
                              tuple(None if lab < 0 else names[lab] for lab in labels[i][1:n[i] + 1]))
                for i in (range(self.size) if which is None else which)]

    def trees(self, rows: int) -> tuple[np.ndarray, np.ndarray]:
        """The first ``rows`` rows' heads and labels (rows, T), in one copy to the host (see
        :mod:`.read_back`)."""
        heads, labels = torch.stack([self.heads[:rows], self.labels[:rows]]).cpu().numpy()
        return heads, labels

    # -- changing ----------------------------------------------------------------------------------
    def apply(self, kinds: Tensor, labels: Tensor | None = None) -> None:
        """Row i takes move ``kinds[i]`` (−1: none) labelled ``labels[i]`` (−1: none), all rows at once.
        The moves must be legal."""
        moving = kinds >= 0
        k = kinds.clamp(min=0)[:, None]
        arc_heads, arc_deps = self.arcs()
        head, dep = arc_heads.gather(1, k)[:, 0], arc_deps.gather(1, k)[:, 0]
        labels = torch.full_like(kinds, NONE) if labels is None else labels
        self.attach(moving & (dep >= 0), head, dep, labels)
        push, under = moving & self.pushes[k[:, 0]], moving & self.unders[k[:, 0]]
        pop = moving & self.pops[k[:, 0]]
        put(self.stack, push | under, torch.where(push, self.sl, self.sl - 2),
            torch.where(push, self.b(0), self.s(0)))
        self.sl = self.sl + push.long() - pop.long()
        self.ql = self.ql - push.long()
        self.seen.clear()

    def attach(self, adding: Tensor, heads: Tensor, deps: Tensor, labels: Tensor) -> None:
        """Add the arcs heads[i] → deps[i] in the rows where ``adding``."""
        put(self.heads, adding, deps, heads)
        put(self.labels, adding, deps, labels)
        put(self.leftmost, adding, heads, torch.minimum(at(self.leftmost, heads), deps))
        put(self.rightmost, adding, heads, torch.maximum(at(self.rightmost, heads), deps))


def at(table: Tensor, columns: Tensor) -> Tensor:
    """(B,) table[i, columns[i]] (column 0 where ``columns`` is −1)."""
    return table.gather(1, columns.clamp(min=0)[:, None])[:, 0]


def put(table: Tensor, where: Tensor, columns: Tensor, values: Tensor) -> None:
    """table[i, columns[i]] = values[i] in the rows ``where``; the other rows write back what they hold."""
    cols = torch.where(where, columns, 0)[:, None]
    table.scatter_(1, cols, torch.where(where, values, table.gather(1, cols)[:, 0])[:, None])
