"""A parsed batch read back as sentences: every row's tree checked at once, then each sentence built.

Greedy parsing ends with a batch state whose ``heads`` and ``labels`` arrays (B, T) hold every
row's tree: column d is token d, −1 where it has no head or label.  Read as :func:`finished`
reads one configuration, a token with no head goes to ROOT, labelled "root", and an arc with no
label is labelled "_".

Reading row by row (a :class:`.Configuration` each, then :meth:`.Sentence.with_tree`, which
checks the tree token by token in Python) cost about 25 µs a sentence: on a GPU, more than the
parse.  Here numpy checks every row at once: heads in range, and every token reaching ROOT (by
pointer doubling: after k rounds each token points to its 2^k-th ancestor, so ⌈log₂ T⌉ rounds
reach ROOT from anywhere, unless there is a cycle; a token that is its own head is one).  Each
sentence is then built from its checked tuples.  A row that is not a tree (a parser bug) is read
the slow way, whose :class:`.TreeError` says what is wrong.

>>> import parsing_core as pc
>>> s = pc.Sentence.from_heads(["a", "b", "c"], [0, 1, 2])
>>> heads = np.array([[-1, -1, 3, 1]])        # ROOT's column, then: 1 has none, 2 ← 3, 3 ← 1
>>> labels = np.array([[-1, -1, 0, -1]])
>>> [(t.heads, t.labels) for t in parsed_sentences([s], heads, labels, ("det",))]
[((0, 3, 1), ('root', 'det', '_'))]
>>> trees(np.array([[-1, 2, 1], [-1, 0, 1]]), np.array([2, 2])).tolist()   # 1 ⇄ 2 is a cycle
[False, True]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..configuration import Configuration
from ..sentence import Sentence

NONE = -1


def trees(heads: np.ndarray, n: np.ndarray) -> np.ndarray:
    """(B,) is each row a tree over its ``n`` tokens?  ``heads`` (B, T): column d is token d's
    head (0 = ROOT, column 0 ROOT's own and ignored), −1 for none (it goes to ROOT); columns
    past n are ignored."""
    t = heads.shape[1]
    token = np.arange(t)
    real = (token >= 1) & (token <= n[:, None])
    up = np.where(real, np.maximum(heads, 0), 0)  # ROOT and padding point to ROOT
    in_range = (up <= n[:, None]).all(axis=1)  # a token that is its own head is a cycle: found below
    for _ in range(int(np.ceil(np.log2(t)))):  # 2^rounds ≥ T > n: every chain reaches its end
        up = np.take_along_axis(up, up, axis=1)
    reached: np.ndarray = in_range & (up == 0).all(axis=1)
    return reached


def parsed_sentences(sentences: Sequence[Sentence], heads: np.ndarray, labels: np.ndarray | None,
                     label_names: Sequence[str]) -> list[Sentence]:
    """``sentences`` with the trees of the batch's rows (``labels`` None: an unlabelled parser)."""
    n = np.fromiter((s.n for s in sentences), dtype=np.int64, count=len(sentences))
    width = int(n.max(initial=0)) + 1
    heads = heads[:len(sentences), :width]
    labels = None if labels is None else labels[:len(sentences), :width]
    ok = trees(heads, n).tolist()
    head_rows = np.maximum(heads[:, 1:], 0).tolist()
    label_rows = None if labels is None else label_strings(heads, labels, label_names)
    out = []
    for i, s in enumerate(sentences):
        if not ok[i]:  # read the slow way, which says what is wrong
            c = row_configuration(heads[i], None if labels is None else labels[i], s.n, label_names)
            out.append(finished(s, c, labels is not None))
            continue
        tree = tuple(head_rows[i][:s.n])
        named = None if label_rows is None else tuple(label_rows[i][:s.n])
        out.append(Sentence(s.words, tree, named, upos=s.upos, sent_id=s.sent_id, source=s.source))
    return out


def label_strings(heads: np.ndarray, labels: np.ndarray, label_names: Sequence[str]) -> list[list[str]]:
    """Each row's tokens' labels as :func:`finished` names them: "root" without a head, "_" for an
    arc without a label."""
    names = np.array([*label_names, "_", "root"], dtype=object)
    unlabelled, root = len(label_names), len(label_names) + 1
    index = np.where(heads[:, 1:] < 0, root, np.where(labels[:, 1:] < 0, unlabelled, labels[:, 1:]))
    return names[index].tolist()  # type: ignore[no-any-return]  # an object array's rows: lists of str


def row_configuration(heads: np.ndarray, labels: np.ndarray | None, n: int, label_names: Sequence[str]
                      ) -> Configuration:
    """One row's arcs (its heads and labels, (T,)) as a configuration with an empty stack and
    buffer: what :func:`finished` reads."""
    label_row = [NONE] * (n + 1) if labels is None else labels.tolist()
    return Configuration((), (), tuple(None if h < 0 else h for h in heads[1:n + 1].tolist()),
                         tuple(None if lab < 0 else label_names[lab] for lab in label_row[1:n + 1]))


def finished(sentence: Sentence, c: Configuration, labelled: bool = True) -> Sentence:
    """The sentence with the tree of a final configuration (headless tokens go to ROOT)."""
    heads = [0 if h is None else h for h in c.heads]
    if not labelled:
        return sentence.with_tree(heads)
    labels = ["root" if h is None else (lab or "_") for h, lab in zip(c.heads, c.labels)]
    return sentence.with_tree(heads, labels)
