"""Where the stepper's sentence comes from, named by one short string that fits in a URL.

* ``he-sent-her-a-letter`` — the ``sent_id`` of a sentence in the bundled teaching set;
* ``treebank:en_lines:dev:12`` — sentence 12 (counting from 0) of a treebank file in the data
  directory; ``treebank:en_lines:dev:12:/some/folder`` — the same in another folder;
* ``custom:eJyr…`` — a sentence the user pasted, uploaded or typed: its words, heads and labels
  as compact JSON, zlib-compressed, in URL-safe base64.  Heads may be missing (no gold tree).

:func:`sentence_from_key` turns a key back into a :class:`parsing_core.Sentence`; anything
malformed raises a ``ParsingCoreError`` whose message is written for the user.

>>> import parsing_core as pc
>>> s = pc.Sentence.from_heads(['<script>', '"hi"'], [0, 1], ['root', 'dep'])
>>> sentence_from_key(custom_key(s)) == s
True
>>> sentence_from_key("treebank:en_lines")
Traceback (most recent call last):
...
parsing_core.errors.ParsingCoreError: cannot read the treebank sentence 'treebank:en_lines'
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from dataclasses import dataclass
from functools import lru_cache

import parsing_core as pc
from parsing_core.treebanks import check_folder

DEFAULT_KEY = "he-sent-her-a-letter"
TREEBANK, CUSTOM = "treebank:", "custom:"
MAX_KEY_LENGTH = 2000  # characters of a custom key; a longer sentence cannot be shared in a URL
MAX_TOKENS = 150
_MAX_JSON_BYTES = 200_000  # a decompressed key larger than this is not a sentence (zip bomb)


def treebank_key(name: str, split: str, index: int, folder: str | None = None) -> str:
    """The key of a treebank sentence; ``folder`` only when it is not the data directory."""
    return f"{TREEBANK}{name}:{split}:{index}" + (f":{folder}" if folder else "")


def custom_key(sentence: pc.Sentence) -> str:
    """Encode the words (and the gold tree, if any) of a sentence into a key; a sentence the key
    could not carry back (over :data:`MAX_TOKENS` words, or too many bytes) raises
    ``ParsingCoreError`` here, where the user gave it, not later where it is read."""
    if not 0 < sentence.n <= MAX_TOKENS:
        raise pc.ParsingCoreError(f"a sentence needs 1 to {MAX_TOKENS} words; this one has {sentence.n}")
    data: dict[str, object] = {"w": list(sentence.words)}
    if sentence.heads is not None:
        data["h"] = list(sentence.heads)
    if sentence.labels is not None:
        data["l"] = list(sentence.labels)
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    if len(raw) > _MAX_JSON_BYTES:
        raise pc.ParsingCoreError(f"this sentence is too large ({len(raw):,} bytes of words and labels; "
                                  f"at most {_MAX_JSON_BYTES:,})")
    return CUSTOM + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def is_shareable(key: str) -> bool:
    """Can the key go into a link? (Long pasted sentences make URLs browsers refuse.)"""
    return len(key) <= MAX_KEY_LENGTH


@lru_cache(maxsize=64)
def sentence_from_key(key: str) -> pc.Sentence:
    """The sentence a key names (see the module docstring)."""
    if key.startswith(TREEBANK):
        return _treebank(key)
    if key.startswith(CUSTOM):
        return _custom(key.removeprefix(CUSTOM))
    return _teaching(key)


def _teaching(sent_id: str) -> pc.Sentence:
    for s in pc.teaching_sentences():
        if s.sent_id == sent_id:
            return s
    raise pc.ParsingCoreError(f"there is no teaching sentence called {sent_id[:60]!r}")


@dataclass(frozen=True)
class TreebankRef:
    """Which file and which sentence of it a treebank key names."""

    name: str
    split: str
    index: int
    folder: str | None = None  # None: the data directory

    @classmethod
    def parse(cls, key: str) -> TreebankRef:
        try:
            name, split, index, *folder = key.removeprefix(TREEBANK).split(":", 3)
            return cls(name, split, int(index), folder[0] if folder else None)
        except ValueError:
            raise pc.ParsingCoreError(f"cannot read the treebank sentence {key[:60]!r}") from None


def _treebank(key: str) -> pc.Sentence:
    ref = TreebankRef.parse(key)
    folder = check_folder(ref.folder) if ref.folder else None  # no link reads outside the allowed folders
    sentences = pc.load_treebank(ref.name, ref.split, folder)
    if not 0 <= ref.index < len(sentences):
        raise pc.ParsingCoreError(
            f"{ref.name} {ref.split} has {len(sentences)} sentences, no number {ref.index}")
    return sentences[ref.index]


def _custom(data: str) -> pc.Sentence:
    try:
        packed = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
        inflate = zlib.decompressobj()
        raw = inflate.decompress(packed, _MAX_JSON_BYTES)
        if inflate.unconsumed_tail:
            raise ValueError("too large")
        fields = json.loads(raw.decode())
        words, heads, labels = fields["w"], fields.get("h"), fields.get("l")
    except (binascii.Error, zlib.error, ValueError, UnicodeDecodeError, KeyError, TypeError, AttributeError):
        raise pc.ParsingCoreError("the sentence in this link is damaged") from None
    if not isinstance(words, list) or not 0 < len(words) <= MAX_TOKENS:
        raise pc.ParsingCoreError(f"a sentence needs 1 to {MAX_TOKENS} words")
    return pc.Sentence.from_heads(words, heads, labels)
