"""Parse CoNLL-U or plain text with a trained parser: ``python -m parsing_core.parse``.

    python -m parsing_core.parse model.pt input.conllu -o parsed.conllu
    echo "the old dog saw a cat ." | python -m parsing_core.parse model.pt -

Plain text is one sentence per line, tokens separated by spaces.  The output is CoNLL-U; a
CoNLL-U input keeps all its columns and comments, and only HEAD and DEPREL are replaced.
When the input has gold trees, UAS and LAS are printed on stderr.

>>> from parsing_core.model import Parser, ModelConfig, Vocab
>>> sents = read_text("the dog barked .\\n\\nit slept")
>>> [s.words for s in sents]
[('the', 'dog', 'barked', '.'), ('it', 'slept')]
>>> config = ModelConfig(word_dim=8, lstm_dim=8, mlp_dim=8)
>>> parser = Parser("arc-hybrid", Vocab.build(sents, min_count=1), config)
>>> [p.heads is not None for p in parse(parser, sents)]        # untrained, but every output is a tree
[True, True]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import torch

from .checkpoint import load_checkpoint
from .conllu_io import read_conllu, write_conllu
from .errors import ParsingCoreError
from .model import PRECISIONS, Parser, attachment_scores
from .model.device import check_precision
from .sentence import Sentence


def parse(parser: Parser, sentences: Sequence[Sentence], batch_size: int = 128, workers: int = 1
          ) -> list[Sentence]:
    """The sentences with the parser's trees (and labels), parsed in lockstep batches, ``workers``
    batches at once (see :meth:`.model.Parser.parse`)."""
    return parser.parse(sentences, batch_size, workers=workers)


def read_text(text: str) -> list[Sentence]:
    """One sentence per non-empty line, whitespace-tokenised, no gold tree."""
    return [Sentence(tuple(line.split()), sent_id=str(i)) for i, line in
            enumerate((ln for ln in text.splitlines() if ln.strip()), start=1)]


def looks_like_conllu(text: str) -> bool:
    """Does some line have the ten tab-separated columns of a CoNLL-U token line?"""
    return any(line.count("\t") == 9 for line in text.splitlines()[:200])


def read_input(source: str, fmt: str = "auto") -> list[Sentence]:
    """Sentences from a file (or ``-`` for stdin) in CoNLL-U or plain text."""
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as err:
        raise ParsingCoreError(f"could not read {source}: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise ParsingCoreError(f"{source} is not UTF-8 text") from None
    conllu = fmt == "conllu" or (fmt == "auto" and looks_like_conllu(text))
    sentences = read_conllu(text) if conllu else read_text(text)
    if not sentences:
        raise ParsingCoreError(f"{source} holds no sentences")
    return sentences


def main(argv: Sequence[str] | None = None) -> int:
    args = arguments().parse_args(argv)
    if args.threads > 0:
        torch.set_num_threads(args.threads)  # what one batch at a time uses (--threads 1, a GPU)
    cores = args.threads if args.threads > 0 else (os.cpu_count() or 1)
    try:
        parser = load_checkpoint(args.model, args.device).parser
        parser.network.precision = check_precision(args.precision, parser.device)
        sentences = read_input(args.input, args.format)
        if parser.config.upos_dim and not all(s.upos for s in sentences):
            print("warning: this parser reads UPOS tags, which the input lacks; expect lower accuracy",
                  file=sys.stderr)
        start = time.perf_counter()
        if parser.device.type != "cpu":
            cores = 1
        parsed = parse(parser, sentences, args.batch_size, workers=cores)
        seconds = time.perf_counter() - start
        text = write_conllu(parsed, args.output)
    except ParsingCoreError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    if args.output is None:
        sys.stdout.write(text)
    print(f"parsed {len(parsed)} sentences in {seconds:.2f} s ({len(parsed) / seconds:.0f} sentences/s, "
          f"{parser.device})", file=sys.stderr)
    if all(s.has_gold for s in sentences):
        scores = attachment_scores(parsed, sentences)
        print("  ".join(f"{k.upper()} {100 * v:.2f}" for k, v in scores.items()), file=sys.stderr)
    return 0


def arguments() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m parsing_core.parse", description=__doc__.split("\n\n")[0])
    p.add_argument("model", help="a checkpoint written by python -m parsing_core.train")
    p.add_argument("input", help="a CoNLL-U or plain-text file, or - for standard input")
    p.add_argument("-o", "--output", help="where to write the CoNLL-U (default: standard output)")
    p.add_argument("--format", choices=["auto", "conllu", "text"], default="auto")
    p.add_argument("--batch-size", type=int, default=128)
    p.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    p.add_argument("--precision", choices=PRECISIONS, default="float32",
                   help="bfloat16: the BiLSTMs in bfloat16 (faster where the processor has it)")
    p.add_argument("--threads", type=int, default=0,
                   help="CPU cores to use: that many batches at once, one torch thread each (0 = all "
                        "cores: fastest on an idle machine; 1 when other jobs share it)")
    return p


if __name__ == "__main__":
    sys.exit(main())
