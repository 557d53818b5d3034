"""The reference greedy parse: one configuration at a time, the batch's sentences in lockstep.

Before the batched state (:class:`parsing_core.model.state.BatchState`) and the tensor walks,
:meth:`Parser.parse` walked a batch like this: the network encodes the batch once (packed
sequences), then every step scores each active configuration alone and applies its best legal
move.  It is slow and plain, which makes it the judge: the library's paths must parse exactly as
it does (tests/test_batched_training.py, and on a GPU tests/test_cuda.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from parsing_core.driver import max_steps
from parsing_core.errors import ParsingCoreError
from parsing_core.model.batch import Lockstep, index_tensor
from parsing_core.model.parser import Parser
from parsing_core.model.read_back import finished
from parsing_core.model.scoring import best_label, best_move
from parsing_core.sentence import Sentence


def lockstep_parse(parser: Parser, sentences: Sequence[Sentence], batch_size: int = 128) -> list[Sentence]:
    """The sentences parsed ``batch_size`` at a time, shortest first (as :meth:`Parser.parse` groups them)."""
    parser.network.eval()
    order = sorted(range(len(sentences)), key=lambda i: sentences[i].n)
    out: dict[int, Sentence] = {}
    for start in range(0, len(order), batch_size):
        chunk = order[start:start + batch_size]
        out.update(zip(chunk, parse_batch(parser, [sentences[i] for i in chunk])))
    return [out[i] for i in range(len(sentences))]


@torch.inference_mode()
def parse_batch(parser: Parser, sentences: Sequence[Sentence]) -> list[Sentence]:
    """One batch in lockstep: every active configuration scored alone, its best legal move applied."""
    if not sentences:
        return []
    batch = parser.encode(sentences)
    table = parser.network.encode(batch, packed=True)  # (B·T + 1, F, heads·M)
    walk = Lockstep(parser.system, sentences, batch.width, parser.config.children)
    limit = max_steps(parser.system, max(s.n for s in sentences))
    while walk.active:
        if walk.steps > limit:
            raise ParsingCoreError(f"the parser did not finish after {limit} steps")
        step(parser, walk, table)
        walk.advance()
    return [finished(s, c, parser.labelled) for s, c in zip(sentences, walk.configs)]


def step(parser: Parser, walk: Lockstep, table: torch.Tensor) -> None:
    """Score every active configuration once and apply its best legal move (the choice a
    :class:`parsing_core.model.scoring.Scorer` shows for one configuration)."""
    rows = index_tensor(walk.rows(walk.active), parser.device)
    moves, labels = parser.network.score(table, rows)  # (N, K), (N, 2, L)
    raw: list[list[float]] = moves.tolist()
    best_labels: list[list[int]] | None = labels.argmax(dim=2).tolist() if labels is not None else None
    for n, i in enumerate(walk.active):
        c = walk.configs[i]  # not final, so some move is legal
        move = parser.moves[best_move(parser.moves, raw[n], c)]
        label = best_label(parser.vocab, move.kind, best_labels[n] if best_labels is not None else None)
        walk.move(i, move.effect(c, label))
