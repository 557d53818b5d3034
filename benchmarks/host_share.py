"""The host's share of a batch: sentences turned into the network's input, and trees read back.

    python -m benchmarks.host_share [--repeat 5] [--char-dim 32] [--write]

Whatever the device, the host (Python, one core) turns each batch of sentences into id tensors
(:func:`parsing_core.model.batch.encode`: word ids, word dropout when training, the distinct
spellings' characters) and, after greedy parsing, turns the final configurations back into
sentences (:meth:`.TensorState.trees`, :mod:`parsing_core.model.read_back`).
A GPU does none of this.  In training the backward pass runs while the next batch is encoded;
in parsing one batch of 2,048 holds the whole en_lines test set, so nothing overlaps it:

* **training**: en_lines train in batches of 32 with word dropout (the gpu section's setting),
  seconds of encoding a whole epoch;
* **parsing**: en_lines test in batches of 512 and 2,048 (sorted by length, as
  :meth:`.Parser.parse` batches them), encoding, and reading the trees back;
* **ceiling**: the sentences a second that greedy parsing could not exceed on this host with
  this work alone (sentences ÷ the host's seconds), beside the 20,000 a second the GPU target asks.

Best of ``--repeat`` timings of each, on the gpu section's network (words, characters if
``--char-dim`` > 0).  The trees come from an untrained network: reading back costs the same.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Sequence

import torch

import parsing_core as pc
from benchmarks.common import add_write_flag, show, table, timings, write_page
from parsing_core.model import ModelConfig, Parser, Vocab
from parsing_core.model.tensor_parse import parse_walk
from parsing_core.model.tensor_state import TensorState
from parsing_core.model.trainer import length_batches

COLUMNS = ["work", "batch", "sentences", "best ms", "µs / sentence", "ceiling, sentences / s"]
INTRO = """
Whatever the device, the host (Python, one core) turns each batch of sentences into the network's
id tensors (word ids, word dropout when training, each distinct spelling's characters), and after
greedy parsing it reads the final arcs back as sentences.  A GPU does none of it: this is a floor
under a GPU's epoch, and a ceiling over its parsing speed.  The rows time this work alone, on
this machine's CPU, with one torch thread, best of the runs, the vocabulary's remembered spellings
warm (as from the second batch on):

* **training**: encoding en_lines train in batches of 32 with word dropout, a whole epoch's worth
  (on a GPU the previous batch's backward pass runs meanwhile);
* **parsing**: en_lines test in batches of 512 and 2,048, sorted by length as `Parser.parse` does;
  encoding, reading the trees back (every row checked to be a tree), and both;
* **ceiling**: sentences ÷ the host's seconds, the most greedy parsing could do on this host if
  the device took no time at all (the GPU target is 20,000 a second).
"""


def best_seconds(work: Callable[[], object], repeat: int) -> float:
    """The fastest of ``repeat`` timings of ``work``."""
    return min(timings(work, repeat))


def row(work: str, batch: int, sentences: int, seconds: float) -> list[object]:
    return [work, batch, sentences, f"{seconds * 1000:.1f}", f"{seconds / sentences * 1e6:.1f}",
            f"{sentences / seconds:,.0f}"]


def training_rows(parser: Parser, train: list[pc.Sentence], repeat: int) -> list[list[object]]:
    """Encoding one epoch of batches of 32, with word dropout, as the trainer does."""
    batches = [[train[i] for i in b] for b in length_batches([s.n for s in train], 32, random.Random(1))]
    generator = torch.Generator().manual_seed(1)
    seconds = best_seconds(lambda: [parser.encode(b, 0.25, generator) for b in batches], repeat)
    return [row("training: encode (word dropout 0.25)", 32, len(train), seconds)]


def parsing_rows(parser: Parser, test: list[pc.Sentence], size: int, repeat: int) -> list[list[object]]:
    """Encoding the test set in batches of ``size``, reading trees back, and both."""
    ordered = sorted(test, key=lambda s: s.n)
    batches = [ordered[start:start + size] for start in range(0, len(ordered), size)]
    encode = best_seconds(lambda: [parser.encode(b) for b in batches], repeat)
    finals = [final_state(parser, b) for b in batches]

    def read_back() -> None:
        for batch, state in zip(batches, finals):
            parser.read_back(batch, *state.trees(len(batch)))

    back = best_seconds(read_back, repeat)
    return [row("parsing: encode", size, len(test), encode),
            row("parsing: read trees back", size, len(test), back),
            row("parsing: both", size, len(test), encode + back)]


@torch.inference_mode()
def final_state(parser: Parser, batch: Sequence[pc.Sentence]) -> TensorState:
    """The final state of greedily parsing ``batch`` (on the CPU, the tensor path)."""
    encoded = parser.encode(batch)
    table_ = parser.network.encode(encoded)
    lengths = [s.n for s in batch]
    state = TensorState(parser.system, lengths, "cpu", parser.vocab.labels)
    layout = (encoded.width, len(batch) * encoded.width, parser.config.children)
    return parse_walk(parser.greedy_step(), state, table_, layout, 2 * max(lengths))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--char-dim", type=int, default=32, help="character embeddings (0 = none)")
    add_write_flag(ap, "host_share")
    args = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(1)
    train, test = pc.load_treebank("en_lines", "train"), pc.load_treebank("en_lines", "test")
    model = ModelConfig(char_dim=args.char_dim)
    parser = Parser("arc-hybrid", Vocab.build(train, min_count=model.min_count), model)
    parser.network.eval()
    rows = training_rows(parser, train, args.repeat)
    for size in (512, 2048):
        rows += parsing_rows(parser, test, size, args.repeat)
    sections: list[tuple[str, str]] = []
    show(sections, f"The host's work, en_lines, {model.inputs}", table(COLUMNS, rows))
    if args.write:
        write_page("host_share", "The host's share of a batch", sections, INTRO)


if __name__ == "__main__":
    main()
