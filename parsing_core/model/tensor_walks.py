"""Training walks that stay on the model's device: state, oracle, choice and move as tensor operations.

:class:`.walks.BatchedWalker` keeps the batch's configurations in numpy: every step copies
the network's scores to the host, and Python picks each row's move.  :class:`TensorWalker`
walks the same batch on a :class:`.tensor_state.TensorState` with the oracle of
:mod:`.tensor_oracles`, so a step is a fixed list of tensor operations over **all** B rows:
rows that are final (or dropped) take no move and teach nothing, which is cheaper on a GPU
than finding out which rows are still walking.  A walk of sentences of at most n words
takes 2n steps in every supported system (arc-eager may finish sooner), so the step count
is known before the walk starts, and nothing is read back until the walk ends.

Each step records, for every row, what it would teach (feature rows, legal mask,
minimum-cost set, gold labels) and whether it teaches; one boolean selection at the end
keeps the rows that teach, in the order :class:`.walks.BatchedWalker` appends them (step by
step, row by row), so :func:`tensor_loss` computes the numbers :func:`.explore.supervision_loss`
computes on the numpy path's :class:`.explore.Supervision`.

Exploration draws one uniform number per row that may explore.  ``draws="host"`` takes them
from the epoch's ``random.Random`` in row order, as the numpy path does (one small copy to the
host in exploring steps): same seed, same walk, same losses — the CPU default.  ``draws="device"``
takes them from torch's generator on the device, with no copy: the GPU default, the same
distribution with other numbers.

A step is a function of tensors (:meth:`TensorWalker.step`: the state's arrays in, the next
arrays out), so that ``compiled=True`` can fuse it with :func:`torch.compile` (:mod:`.compiled`):
a few dozen kernels a step instead of a few hundred; such a walk draws on the device.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import torch
from torch import Tensor
from torch.nn import functional as F

from ..errors import ParsingCoreError
from ..sentence import Sentence
from ..systems import TransitionSystem
from .compiled import Compiled
from .explore import Exploration, Supervision
from .features import ARC_KINDS, MoveSpace
from .network import ParserNetwork
from .tensor_oracles import tensor_costs
from .tensor_state import Arrays, Flags, TensorState, at, supports
from .vocab import Vocab
from .walks import GoldArrays

DRAWS = ("host", "device")
NO_DRAWS = random.Random(0)  # the host's draws of a walk that draws on the device: never drawn from
Record = tuple[Tensor, ...]  # what a step teaches: feature rows, legal, best, choice, gold labels, taught


@dataclass(frozen=True)
class TensorSupervision:
    """What a batch's walk teaches, as tensors: S rows that teach, in the numpy path's order."""

    rows: Tensor  # (S, F) feature rows
    legal: Tensor  # (S, K)
    best: Tensor  # (S, K) the minimum-cost set (none where nothing was chosen)
    choice: Tensor  # (S,) a move was chosen: it is taught
    labels: Tensor  # (S, 2) the gold label each arc kind (LA, RA) would build, −1 for none
    steps: int = 0
    errors: int = 0
    explored: int = 0
    dropped: int = 0

    def lists(self) -> Supervision:
        """The same as an :class:`.explore.Supervision` (lists), to compare with the numpy path."""
        row, slot = (self.labels >= 0).nonzero(as_tuple=True)
        label_at = list(zip(row.tolist(), slot.tolist(), self.labels[row, slot].tolist()))
        return Supervision(self.rows.tolist(), self.legal.tolist(), self.best.tolist(), self.choice.tolist(),
                           label_at, self.steps, self.errors, self.explored, self.dropped)


class WalkInputs(NamedTuple):
    """What a batch's walk reads besides the table: lengths (B,), gold heads and labels (B, T)."""

    lengths: Tensor
    heads: Tensor
    labels: Tensor


class Choices(NamedTuple):
    """:func:`.walks.choose_all` for all B rows: (B,) kinds and flags, (B, K) MIN(c)."""

    move: Tensor  # the kind each walk takes next (−1: no move has a finite cost)
    best: Tensor  # (B, K)
    mistaken: Tensor  # the model's favourite legal move is not in MIN(c)
    explored: Tensor  # ... and the walk follows it anyway


def choose_tensor(costs: Tensor, scores: Tensor, legal: Tensor, choosing: Tensor, explore: Exploration,
                  draws: str) -> Choices:
    """The next moves of B walks, as :func:`.walks.choose_all` takes them (ties to the first kind)."""
    low = costs.min(dim=1).values
    best = legal & (costs == low[:, None])
    t_p = scores.masked_fill(~legal, -math.inf).argmax(dim=1)
    t_o = scores.masked_fill(~best, -math.inf).argmax(dim=1)
    mistaken = ~best.gather(1, t_p[:, None])[:, 0]
    explored = torch.zeros_like(mistaken)
    if explore.on:
        candidates = choosing & mistaken & torch.isfinite(costs.gather(1, t_p[:, None])[:, 0])
        explored = exploring(candidates, explore, draws)
    move = torch.where(torch.isinf(low), -1, torch.where(~mistaken | explored, t_p, t_o))
    return Choices(move, best, mistaken, explored)


def exploring(candidates: Tensor, explore: Exploration, draws: str) -> Tensor:
    """Which candidate rows follow the model's mistake (probability p each; see the module)."""
    if draws == "device":
        return candidates & (torch.rand(candidates.shape, device=candidates.device) < explore.p)
    out = torch.zeros_like(candidates)
    for j in candidates.nonzero()[:, 0].tolist():
        out[j] = explore.rng.random() < explore.p
    return out


def gold_labels(state: TensorState, mask: Tensor, heads: Tensor, labels: Tensor, space: MoveSpace) -> Tensor:
    """(B, 2) the gold label of the arc each arc kind (LA, RA) would build, if legal and gold; −1 else."""
    arc_heads, arc_deps = state.arcs()
    out = []
    for kind in ARC_KINDS:
        k = space.index.get(kind)
        if k is None:
            out.append(torch.full_like(state.sl, -1))
            continue
        dep = arc_deps[:, k]
        label = at(labels, dep)
        hit = mask[:, k] & (dep > 0) & (at(heads, dep) == arc_heads[:, k]) & (label >= 0)
        out.append(torch.where(hit, label, -1))
    return torch.stack(out, dim=1)


class TensorWalker:
    """Training walks on the device for a (system, oracle) pair that has tensor costs."""

    def __init__(self, system: TransitionSystem, oracle: str, space: MoveSpace, vocab: Vocab,
                 network: ParserNetwork, draws: str = "host", compiled: bool = False) -> None:
        """``compiled``: each step fused by :func:`torch.compile` (:mod:`.compiled`); its exploration
        draws on the device (host draws are a Python loop, which a compiled step cannot hold)."""
        costs = tensor_costs(system.name, oracle) if supports(system) else None
        if costs is None or draws not in DRAWS or (compiled and draws != "device"):
            raise ParsingCoreError(f"no tensor walk for {system.name} with the {oracle} oracle "
                                   f"(draws {draws!r}{', compiled' * compiled})")
        self.system, self.costs, self.space, self.vocab, self.network = system, costs, space, vocab, network
        self.draws = draws
        self.next_step: Callable[..., tuple[Arrays, Tensor, Tensor, Record]] = (
            Compiled(self.step, "the training walk's step") if compiled else self.step)

    def walk_batch(self, golds: Sequence[Sentence], width: int, children: bool, table: Tensor,
                   explore: Exploration) -> TensorSupervision:
        """Walk the batch ``golds`` (the table's sentences, ``width`` rows each) to the end."""
        n = max(g.n for g in golds)
        inputs = self.inputs(golds, n + 2, len(golds), table.device)
        return self.collect(*self.walk(inputs, width, children, table, explore, 2 * n))

    def inputs(self, golds: Sequence[Sentence], cap: int, size: int, device: torch.device) -> WalkInputs:
        """The lengths (size,) and gold heads and labels (size, cap) of ``golds``; rows past them
        are empty sentences, final from the start."""
        gold = GoldArrays(golds, cap, self.vocab.label_id)
        lengths = torch.zeros(size, dtype=torch.long)
        lengths[:len(golds)] = torch.tensor([g.n for g in golds])
        heads, labels = (torch.full((size, cap), -1, dtype=torch.long) for _ in range(2))
        heads[:len(golds)], labels[:len(golds)] = torch.from_numpy(gold.heads), torch.from_numpy(gold.labels)
        return WalkInputs(lengths.to(device), heads.to(device), labels.to(device))

    def walk(self, inputs: WalkInputs, width: int, children: bool, table: Tensor, explore: Exploration,
             count: int, flags: Flags | None = None) -> tuple[list[Record], Tensor, Tensor]:
        """``count`` steps of every row: what each step records, the counts, whether any row is
        unfinished.  Nothing here reads the device from the host (:mod:`.tensor_graphs` captures it)."""
        lengths, heads, labels = inputs
        device = table.device
        state = TensorState(self.system, lengths, device, cap=heads.shape[1], flags=flags)
        flags, arrays = state.flags, state.arrays
        alive = torch.ones(len(lengths), dtype=torch.bool, device=device)
        counts = torch.zeros(4, dtype=torch.long, device=device)  # steps, errors, explored, dropped
        steps: list[Record] = []
        layout = (width, len(lengths) * width, children)
        rng = explore.rng if self.draws == "host" else None  # device draws need none
        for _ in range(count):
            arrays, alive, counts, record = self.next_step(arrays, flags, inputs, alive, counts, table,
                                                           layout, explore.on, explore.p, rng)
            steps.append(record)
        final = TensorState.of(self.system, lengths, arrays, flags).terminal()
        return steps, counts, (alive & ~final).any()

    def step(self, arrays: Arrays, flags: Flags, inputs: WalkInputs, alive: Tensor, counts: Tensor,
             table: Tensor, layout: tuple[int, int, bool], explore_on: bool, explore_p: float,
             rng: random.Random | None) -> tuple[Arrays, Tensor, Tensor, Record]:
        """One step of every row from the configurations ``arrays``: their next arrays, the rows
        still walking, the counts, and what the step teaches.  Tensors in, tensors out (the walk's
        constants aside): what :class:`.compiled.Compiled` fuses."""
        lengths, heads, labels = inputs
        state = TensorState.of(self.system, lengths, arrays, flags)
        active = alive & ~state.terminal()
        mask = state.legal_mask() & active[:, None]
        rows = state.feature_rows(*layout)
        gold = gold_labels(state, mask, heads, labels, self.space) if self.network.n_labels else (
            torch.full((state.size, len(ARC_KINDS)), -1, dtype=torch.long, device=mask.device))
        choosing = mask.sum(dim=1) > 1
        with torch.no_grad():
            scores = self.network.score_moves(table, rows)
        explore = Exploration(explore_on, explore_p, rng or NO_DRAWS)
        picked = choose_tensor(self.costs(state, heads, mask), scores, mask, choosing, explore, self.draws)
        kept, dropped = choosing & (picked.move >= 0), choosing & (picked.move < 0)
        kinds = torch.where(choosing, picked.move, torch.where(active, mask.long().argmax(dim=1), -1))
        taught = torch.where(choosing, kept, active & (gold >= 0).any(dim=1))
        record = (rows, mask, picked.best & kept[:, None], kept, gold, taught)
        counts = counts + torch.stack([kept.sum(), (picked.mistaken & kept).sum(),
                                       (picked.explored & kept).sum(), dropped.sum()])
        state.apply(kinds)
        return state.arrays, alive & ~dropped, counts, record

    def collect(self, steps: list[Record], counts: Tensor, unfinished: Tensor
                ) -> TensorSupervision:
        """The rows that teach, step by step and row by row (one copy of the counts to the host)."""
        rows, legal, best, choice, gold, taught = (torch.cat(parts) for parts in zip(*steps))
        *numbers, stuck = torch.cat([counts, unfinished.long()[None]]).tolist()
        if stuck:
            raise ParsingCoreError("a training walk did not finish in 2n steps")
        return TensorSupervision(rows[taught], legal[taught], best[taught], choice[taught], gold[taught],
                                 *numbers)


def tensor_loss(network: ParserNetwork, table: Tensor, sup: TensorSupervision) -> tuple[Tensor, Tensor]:
    """(move loss, label loss) as :func:`.explore.supervision_loss`, from a :class:`TensorSupervision`."""
    zero = table.new_zeros(())
    if not len(sup.rows):
        return zero, zero
    moves, labels = network.score(table, sup.rows)  # (S, K), (S, 2, L)
    move_loss = zero
    if sup.steps:
        legal, best = sup.legal[sup.choice], sup.best[sup.choice]
        logp = moves[sup.choice].masked_fill(~legal, -math.inf).log_softmax(dim=1)
        move_loss = -logp.masked_fill(~best, -math.inf).logsumexp(dim=1).mean()
    label_loss = zero
    row, slot = (sup.labels >= 0).nonzero(as_tuple=True)
    if len(row) and labels is not None:
        label_loss = F.cross_entropy(labels[row, slot], sup.labels[row, slot])
    return move_loss, label_loss
