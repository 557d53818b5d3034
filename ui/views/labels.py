"""Dependency labels to offer when a learner builds a labelled arc.

The 37 universal relations of Universal Dependencies v2 (https://universaldependencies.org/u/dep/);
the label picker lists the gold labels of the sentence first (subtypes such as ``nmod:poss``
included), then these.
"""

from __future__ import annotations

import parsing_core as pc

UD_RELATIONS: tuple[str, ...] = (
    "acl", "advcl", "advmod", "amod", "appos", "aux", "case", "cc", "ccomp", "clf", "compound",
    "conj", "cop", "csubj", "dep", "det", "discourse", "dislocated", "expl", "fixed", "flat",
    "goeswith", "iobj", "list", "mark", "nmod", "nsubj", "nummod", "obj", "obl", "orphan",
    "parataxis", "punct", "reparandum", "root", "vocative", "xcomp",
)


def label_choices(sentence: pc.Sentence) -> list[str]:
    """The sentence's gold labels (sorted), then the UD relations it does not use."""
    gold = sorted(set(sentence.labels or ()))
    return [*gold, *(r for r in UD_RELATIONS if r not in gold)]
