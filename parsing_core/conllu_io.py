r"""Reading and writing CoNLL-U, the file format of the Universal Dependencies treebanks.

A CoNLL-U document is a list of sentences separated by blank lines.  A sentence is a few
comment lines (``# sent_id = en-12``, ``# text = ...``) and then one line per token with ten
tab-separated columns::

    ID  FORM  LEMMA  UPOS  XPOS  FEATS  HEAD  DEPREL  DEPS  MISC

Words are numbered 1, 2, 3, ...; HEAD is the number of the word's head (0 = ROOT) and DEPREL
the label of the arc, so the HEAD column *is* the head list of :class:`Sentence`.  Two other
kinds of token line are kept for writing back but are invisible to the parser: **multiword
tokens** (``3-4  zum``: one written token, the two words ``zu dem``) and **empty nodes**
(``11.1``: a word the enhanced graph adds).  A HEAD column of ``_`` everywhere means the
sentence has no gold tree.

:func:`read_conllu` reads a document given as text (a str is always the text itself, never
taken for a file name) and :func:`read_conllu_file` one in a file.  The ``conllu`` library
parses every sentence.  This module only splits the document into sentences first, so that
each error can name its sentence and line:

>>> rows = ["1 He he PRON _ _ 2 nsubj _ _", "2 slept sleep VERB _ _ 0 root _ SpaceAfter=No",
...         "3 . . PUNCT _ _ 2 punct _ _"]
>>> text = "# sent_id = s1\n" + "\n".join("\t".join(row.split()) for row in rows) + "\n\n"
>>> [s] = read_conllu(text)
>>> s.words, s.heads, s.labels
(('He', 'slept', '.'), (2, 0, 2), ('nsubj', 'root', 'punct'))
>>> read_conllu(text.replace("2\tpunct", "9\tpunct"))
Traceback (most recent call last):
...
parsing_core.errors.ConlluError: sentence 1 (sent_id s1), line 4: token 3: head 9 is out of range 0..3

Writing is lossless: a sentence read from a file keeps its token list (``Sentence.source``)
and the exact lines it came from, and only the HEAD and DEPREL columns of words whose arc
changed are rewritten.  (The conllu serializer alone would drop comments without ``=``,
repeated comment keys, and turn a MISC item ``Key=`` into ``Key=_``.)

>>> write_conllu([s]) == text
True
>>> write_conllu([s.with_tree([0, 1, 2], ["root", "dep", "punct"])]).splitlines()[1].split("\t")[6:8]
['0', 'root']
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import Any

import conllu
from conllu.exceptions import ParseException
from conllu.models import Metadata, Token, TokenList
from conllu.parser import DEFAULT_FIELDS, parse_id_value, parse_int_value, parse_pair_value
from conllu.serializer import serialize_field

from .errors import ConlluError, ParsingCoreError, TreeError
from .sentence import Sentence
from .trees import find_cycle

COLUMNS: tuple[str, ...] = tuple(DEFAULT_FIELDS)  # id, form, lemma, upos, ..., misc
ID, HEAD, DEPREL = COLUMNS.index("id"), COLUMNS.index("head"), COLUMNS.index("deprel")
# What the conllu library (or our own indexing) may raise on malformed input.
_READ_ERRORS = (ParseException, ValueError, KeyError, TypeError, IndexError)

StrPath = str | os.PathLike[str]


class SourceTokenList(TokenList):
    """A conllu ``TokenList`` that also keeps the exact lines it was parsed from (read-only)."""

    def __init__(self, tokens: TokenList, lines: tuple[str, ...]) -> None:
        super().__init__(list(tokens), tokens.metadata, tokens.default_fields)
        self.lines = lines


@dataclass(frozen=True)
class Block:
    """One sentence's lines as they stand in the document."""

    index: int  # 1-based position among the document's sentences
    first_line: int  # 1-based line number of its first line
    lines: tuple[str, ...]

    @property
    def sent_id(self) -> str | None:
        comments = (parse_pair_value(line.strip()[1:]) for line in self.lines if is_comment(line))
        return next((value for key, value in comments if key == "sent_id"), None)

    def error(self, message: str, offset: int = 0) -> ConlluError:
        """An error naming this sentence and the line ``offset`` lines below its first."""
        sent_id = self.sent_id
        named = f" (sent_id {sent_id})" if sent_id else ""
        return ConlluError(f"sentence {self.index}{named}, line {self.first_line + offset}: {message}")


def is_comment(line: str) -> bool:
    return line.lstrip().startswith("#")


def split_blocks(text: str) -> Iterator[Block]:
    """The document's sentences: runs of non-blank lines, numbered from 1."""
    numbered = enumerate(text.split("\n"), start=1)
    runs = (list(run) for blank, run in groupby(numbered, key=lambda p: not p[1].strip()) if not blank)
    for index, run in enumerate(runs, start=1):
        yield Block(index, run[0][0], tuple(line for _, line in run))


# -- reading ---------------------------------------------------------------------------------


def read_conllu(text: str) -> list[Sentence]:
    """The sentences of a CoNLL-U text.  A str is always the document itself, never a file name:
    read files with :func:`read_conllu_file`.

    Every problem raises :class:`ConlluError` naming the sentence and line.
    """
    if isinstance(text, os.PathLike):
        raise ParsingCoreError(f"read_conllu reads CoNLL-U text, not a path ({text}): use read_conllu_file")
    if not isinstance(text, str):
        raise ParsingCoreError(f"read_conllu reads CoNLL-U text (a str), not {type(text).__name__}")
    return _read_text(text)


def read_conllu_file(path: StrPath) -> list[Sentence]:
    """The sentences of a CoNLL-U file; errors start with the file's name.

    >>> from parsing_core.teaching import TEACHING_PATH
    >>> read_conllu_file(TEACHING_PATH) == read_conllu(TEACHING_PATH.read_text(encoding="utf-8"))
    True
    """
    if not isinstance(path, str | os.PathLike):
        raise ParsingCoreError(f"read_conllu_file reads a file path, not {type(path).__name__}")
    if "\n" in str(path):  # refused, not guessed at: a path never holds a newline here
        raise ParsingCoreError("read_conllu_file reads a file path, and this one has a newline: "
                               "to read CoNLL-U text, use read_conllu")
    text = _read_file(path)  # its errors name the whole path already
    try:
        return _read_text(text)
    except ConlluError as err:
        raise ConlluError(f"{Path(path).name}: {err}") from None


def _read_text(text: str) -> list[Sentence]:
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    sentences = [read_block(block) for block in split_blocks(text)]
    if not sentences:
        raise ConlluError("line 1: the document contains no sentences")
    return sentences


def _read_file(path: StrPath) -> str:
    try:
        with open(path, encoding="utf-8", newline="") as file:  # newline="": a lone CR stays in its line
            return file.read()
    except FileNotFoundError:
        raise ConlluError(f"no such file: {path}") from None
    except UnicodeDecodeError as err:
        raise ConlluError(f"{path} is not UTF-8 text ({err.reason} at byte {err.start})") from None
    except ValueError as err:  # e.g. a NUL character in the name
        raise ConlluError(f"could not read {path!r}: {err}") from None
    except OSError as err:
        raise ConlluError(f"could not read {path}: {err.strerror or err}") from None


def read_block(block: Block) -> Sentence:
    """One sentence; any failure becomes a :class:`ConlluError` naming the block."""
    try:
        return _sentence(block)
    except ConlluError:
        raise
    except TreeError as err:
        raise block.error(str(err)) from None
    except _READ_ERRORS as err:
        raise block.error(f"could not read the sentence: {err}") from err


def _sentence(block: Block) -> Sentence:
    offsets = [i for i, line in enumerate(block.lines) if not is_comment(line)]
    for offset in offsets:
        problem = token_line_problem(block.lines[offset])
        if problem:
            raise block.error(problem, offset)
    try:
        [tokens] = conllu.parse("\n".join(block.lines))
    except ParseException as err:
        raise _explain(block, offsets, err) from err
    source = SourceTokenList(tokens, block.lines)
    words = [(offset, t) for offset, t in zip(offsets, source, strict=True) if isinstance(t["id"], int)]
    _check_ids(block, words)
    heads = _heads(block, words)
    labels = _column(words, "deprel")
    return Sentence.from_heads(
        [t["form"] for _, t in words], heads, labels,
        upos=_column(words, "upos"), sent_id=source.metadata.get("sent_id"), source=source,
    )


def _column(words: list[tuple[int, Token]], name: str) -> tuple[str, ...] | None:
    """A column of the words, or None where it is ``_`` throughout."""
    values = tuple(t[name] for _, t in words)
    return None if all(v == "_" for v in values) else values


def token_line_problem(line: str) -> str | None:
    """What is wrong with the layout of a token line (None if nothing is).

    Checks what the lenient conllu parser lets through: the column count, empty columns,
    double spaces (which it reads as a column break) and an ID of ``_``.
    """
    fields = line.split("\t")
    if len(fields) != len(COLUMNS):
        return f"expected {len(COLUMNS)} tab-separated columns, found {len(fields)}"
    empty = [COLUMNS[i].upper() for i, field in enumerate(fields) if not field.strip()]
    if empty:
        return f"column {empty[0]} is empty (write _ for an unknown value)"
    if "  " in line:
        return "two spaces in a row inside a column (they would be read as a column break)"
    if fields[ID] == "_":
        return "token id '_' is not a number"
    return None


def _explain(block: Block, offsets: list[int], err: ParseException) -> ConlluError:
    """Turn the conllu parser's complaint into an error naming the token line at fault."""
    for offset in offsets:
        fields = block.lines[offset].split("\t")
        if not _parses(parse_id_value, fields[ID]):
            message = f"token id {fields[ID]!r} is not a number, a range like 1-2 or an empty node like 8.1"
            return block.error(message, offset)
        if not _parses(parse_int_value, fields[HEAD]):
            return block.error(f"token {fields[ID]}: head {fields[HEAD]!r} is not an integer", offset)
    return block.error(f"could not read the sentence: {err}")


def _parses(parse: Any, value: str) -> bool:
    try:
        parse(value)
    except ParseException:
        return False
    return True


def _check_ids(block: Block, words: list[tuple[int, Token]]) -> None:
    """Word ids must run 1, 2, 3, ... (multiword ranges and empty nodes are not words)."""
    if not words:
        raise block.error("the sentence has no words (only comments, ranges or empty nodes)")
    for expected, (offset, token) in enumerate(words, start=1):
        if token["id"] == 0:
            raise block.error("token id 0: words are numbered from 1 (0 is ROOT)", offset)
        if token["id"] < expected:
            raise block.error(f"token id {token['id']} appears twice", offset)
        if token["id"] > expected:
            raise block.error(f"token id {token['id']} where {expected} was expected", offset)


def _heads(block: Block, words: list[tuple[int, Token]]) -> list[int] | None:
    """The HEAD column as a head list, or None where it is ``_`` for every word."""
    heads = [t["head"] for _, t in words]
    if all(h is None for h in heads):
        return None
    n = len(words)
    for (offset, token), head in zip(words, heads, strict=True):
        if head is None:
            raise block.error(f"token {token['id']}: head is _ but other words have heads", offset)
        if not 0 <= head <= n:
            raise block.error(f"token {token['id']}: head {head} is out of range 0..{n}", offset)
        if head == token["id"]:
            raise block.error(f"token {head} is its own head", offset)
    cycle = find_cycle(heads)
    if cycle:  # named at the line of the cycle's first token, where an editor should look
        first = min(cycle)
        shown = " → ".join(str(t) for t in [first, *_rotate(cycle, first)[1:], first])
        raise block.error(f"token {first}: cycle {shown}: every token must reach ROOT", words[first - 1][0])
    return heads


def _rotate(cycle: list[int], first: int) -> list[int]:
    i = cycle.index(first)
    return cycle[i:] + cycle[:i]


# -- writing ---------------------------------------------------------------------------------


def write_conllu(sentences: Iterable[Sentence] | Sentence, path: StrPath | None = None) -> str:
    """The sentences (or one sentence) as CoNLL-U text; also written (atomically) to ``path`` if given."""
    text = "".join(sentence_text(s) for s in ([sentences] if isinstance(sentences, Sentence) else sentences))
    if path is not None:
        _write_atomically(Path(path), text)
    return text


def sentence_text(sentence: Sentence) -> str:
    """One sentence as CoNLL-U lines, ending with the blank line that closes it."""
    _check_writable(sentence)
    if sentence.source is None:
        return fresh_tokenlist(sentence).serialize()
    tokens = with_tree(sentence.source, sentence)
    lines = getattr(sentence.source, "lines", None)
    if lines is None or sum(not is_comment(line) for line in lines) != len(tokens):
        return tokens.serialize()
    return _patch_lines(lines, sentence.source, tokens)


def with_tree(tokens: TokenList, sentence: Sentence) -> TokenList:
    """A copy of ``tokens`` whose words carry the sentence's HEAD and DEPREL (``_`` if None)."""
    words = [i for i, token in enumerate(tokens) if isinstance(token.get("id"), int)]
    if len(words) != sentence.n:
        named = f"sentence {sentence.sent_id}" if sentence.sent_id else "a sentence"
        raise ConlluError(f"{named} has {sentence.n} words but its source token list has {len(words)}")
    copy = TokenList([Token(t) for t in tokens], Metadata(tokens.metadata), tokens.default_fields)
    for d, i in enumerate(words, start=1):
        copy[i]["head"] = sentence.heads[d - 1] if sentence.heads else None
        copy[i]["deprel"] = sentence.label(d)
    return copy


def _patch_lines(lines: tuple[str, ...], old: TokenList, new: TokenList) -> str:
    """The original lines, with HEAD and DEPREL rewritten on the token lines that changed."""
    pairs = zip(old, new, strict=True)
    out = [line if is_comment(line) else _patched(line, *next(pairs)) for line in lines]
    return "\n".join(out) + "\n\n"


def _patched(line: str, old: Token, new: Token) -> str:
    if old == new:
        return line
    fields = line.split("\t")
    fields[HEAD], fields[DEPREL] = serialize_field(new["head"]), serialize_field(new["deprel"])
    return "\t".join(fields)


def _check_writable(sentence: Sentence) -> None:
    """Refuse values that would break the columns: empty, or with a tab, newline or double space."""
    if not sentence.words:
        raise ConlluError("cannot write a sentence without words")
    for value in (*sentence.words, *(sentence.labels or ()), *(sentence.upos or ())):
        if not value.strip() or "  " in value or "\t" in value or "\n" in value:
            raise ConlluError(f"cannot write {value!r} in a CoNLL-U column: it is empty or has a tab, "
                              "a newline or two spaces in a row")
    if sentence.sent_id is not None and ("\n" in sentence.sent_id or "\r" in sentence.sent_id):
        raise ConlluError(f"cannot write the sent_id {sentence.sent_id!r}: a comment line holds no "
                          "line break")


def fresh_tokenlist(sentence: Sentence) -> TokenList:
    """A new token list for a sentence that was not read from CoNLL-U (e.g. typed by a learner)."""
    metadata = Metadata({"sent_id": sentence.sent_id} if sentence.sent_id else {})
    metadata["text"] = " ".join(sentence.words)
    rows = [
        (d, word, "_", sentence.upos[d - 1] if sentence.upos else "_", None, None,
         sentence.heads[d - 1] if sentence.heads else None, sentence.label(d), None, None)
        for d, word in enumerate(sentence.words, start=1)
    ]
    return TokenList([Token(zip(COLUMNS, row, strict=True)) for row in rows], metadata, COLUMNS)


def _write_atomically(path: Path, text: str) -> None:
    """Write to a temporary file beside ``path``, then rename: readers never see half a file."""
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as err:
        raise ConlluError(f"could not write {path}: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise ConlluError(f"could not write {path}: {err.strerror or err}") from None
