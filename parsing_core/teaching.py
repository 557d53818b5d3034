"""The teaching set: a few dozen hand-annotated sentences, each chosen to show one thing.

A transition system, an oracle or a cost is easiest to understand on a sentence small enough
to follow move by move.  ``assets/teaching.conllu`` collects such sentences with their gold
trees (Universal Dependencies v2 labels), in three groups:

* every worked example of the course material, with exactly the heads the lectures use:
  *He sent her a letter .* (the default sentence, first in the file), *book the flight
  through houston*, *Drive your friend home*, *Send him a flower* (spurious ambiguity),
  *found best example ever* (non-projective, needs SWAP), the thesis's *book me the morning
  flight (to Denver)* and a real-word version of Nederhof's stuck-parser chain;
* pairs with the same words and different trees (*She saw the man with the telescope* in
  both readings), so a learner sees that the words alone do not fix the tree;
* constructions a parser finds hard: relative clauses, a passive, a copula, long
  punctuation, far-away dependents, and non-projective English and Dutch sentences that
  only the swap systems can build.

Each sentence carries ``# sent_id``, ``# text`` (the words joined by single spaces),
``# source`` and ``# note``, one or two sentences telling a student what to look at.

>>> default_sentence().words
('He', 'sent', 'her', 'a', 'letter', '.')
>>> default_sentence().heads
(2, 0, 2, 5, 2, 2)
>>> teaching_notes()["found-best-example-ever"].startswith("Non-projective")
True
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from .sentence import Sentence

TEACHING_PATH = Path(__file__).resolve().parents[1] / "assets" / "teaching.conllu"


@lru_cache(maxsize=1)
def _read() -> tuple[Sentence, ...]:
    from .conllu_io import read_conllu_file  # at call time: the reader lives in its own module

    return tuple(read_conllu_file(TEACHING_PATH))


def teaching_sentences() -> list[Sentence]:
    """The teaching sentences in file order (a fresh list; the sentences are immutable)."""
    return list(_read())


def teaching_notes() -> dict[str, str]:
    """``sent_id`` → the note for a student (the ``# note`` comment)."""
    return {s.sent_id: s.source.metadata["note"] for s in _read() if s.sent_id}


def default_sentence() -> Sentence:
    """The sentence the app opens with: *He sent her a letter .* (the first in the file)."""
    return _read()[0]
