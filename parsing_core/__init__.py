"""parsing_core — transition-based dependency parsing, written to be read.

Glossary (the names used throughout the code)
---------------------------------------------
token
    A word or punctuation mark, numbered 1..n in sentence order.  Token **0 is ROOT**, an
    imaginary token in front of the sentence (or, in some systems, behind it).
arc (h, d)
    ``h`` is the **head** of the **dependent** ``d``; a **label** (nsubj, obj, ...) may name
    the relation.  A **tree** gives every token exactly one head and reaches ROOT from
    every token; we write it as a head list ``heads[d - 1] = h``.
projective
    A tree whose arcs can be drawn above the sentence without crossing.
configuration c = (σ, β, A)
    The parser's state: a **stack** σ (top = s0, then s1, ...), a **buffer** β of tokens not
    yet read (front = b), and the arcs A built so far.  Immutable: :class:`Configuration`.
transition
    A move from one configuration to the next: SH(ift), LA (left-arc), RA (right-arc),
    RE(duce), SW(ap), optionally with a label (``LA:nsubj``).  A value: :class:`Transition`.
transition system
    Which transitions exist, when each is legal, where a parse starts and ends:
    :func:`get_system` (arc-standard, arc-eager, arc-eager-corrected, arc-hybrid, and the
    swap systems that can build non-projective trees).
oracle
    Knows the gold tree and tells which moves are right.  A **static** oracle gives one gold
    move on the gold path; a **dynamic** oracle gives the **cost** of every move in any
    configuration: cost(t; c) = best(c) − best(t(c)), where best(c) is the most gold arcs a
    parse finished from c can hold: how many gold arcs the best tree still reachable loses by
    the move.  Optimal moves have the minimum cost.  In an *arc-decomposable* system with a
    projective gold tree (arc-eager and arc-hybrid, Goldberg & Nivre 2013; arc-eager with
    reduce_correct too) gold arcs that are reachable one by one are reachable together, so
    the cost is the number of gold arcs the move makes unreachable.  Elsewhere (arc-standard,
    the swap systems, any non-projective gold tree) it is not: a SHIFT can cost 1 while every
    gold arc stays reachable on its own (example below), and a move can give up two arcs of
    the best tree and open another.  The **search** oracle computes costs exactly by
    exhaustive search and judges all the others.
trace
    The configurations of one parse and the moves between them: :func:`run` produces it from
    any ``choose(c, legal)`` function (an oracle, a model, a learner's clicks).

Example
-------
>>> import parsing_core as pc
>>> s = pc.Sentence.from_heads("He sent her a letter .".split(), [2, 0, 2, 5, 2, 2])
>>> system = pc.get_system("arc-eager")
>>> c = system.initial(s)
>>> for move in ["SH", "LA", "RA", "SH"]:      # the last SH is a mistake: her ← sent is lost
...     c = system.apply(c, pc.Transition.parse(move))
>>> c.stack, c.buffer
((0, 2, 3), (4, 5, 6))
>>> costs = pc.get_oracle(system, "search").costs(c, s)
>>> {str(t): v for t, v in costs.items()}
{'SH': 0, 'LA': 0, 'RA': 1}

In arc-standard, shifting *a* before *her* is attached loses no gold arc on its own (*her* can
still get its head sent, and *a* its head letter), but not both: the SH costs 1.

>>> arc_standard = pc.get_system("arc-standard")
>>> c = pc.replay(arc_standard, s, ["SH", "SH", "LA", "SH"]).final
>>> c.stack, c.buffer
((0, 2, 3), (4, 5, 6))
>>> {str(t): v for t, v in pc.get_oracle(arc_standard, "search").costs(c, s).items()}
{'SH': 1, 'LA': 4, 'RA': 0}
"""

from __future__ import annotations

from .configuration import Configuration
from .conllu_io import read_conllu, read_conllu_file, write_conllu
from .driver import Step, Trace, replay, run, run_from, start
from .errors import (
    ConlluError,
    IllegalTransition,
    NotBuildable,
    ParsingCoreError,
    TooLongForSearch,
    TreebankError,
    TreeError,
)
from .metrics import las, uas
from .oracles import Explanation, Oracle, get_oracle, list_oracles, oracle_class
from .rl import oracle as _learned  # noqa: F401  (registers the DQN with get_oracle; no torch until used)
from .sentence import ROOT, Sentence
from .systems import TransitionSystem, get_system, list_systems
from .teaching import default_sentence, teaching_sentences
from .transition import Transition, parse_sequence
from .treebanks import data_dir, download_treebank, list_treebanks, load_treebank
from .trees import Arc


def gold_sequence(system: TransitionSystem, sentence: Sentence) -> tuple[Transition, ...]:
    """The static oracle's transition sequence for the sentence's gold tree.

    Raises :class:`NotBuildable` (with the reason) for a tree the system cannot build.
    """
    system.check_buildable(sentence)
    return run(system, sentence, get_oracle(system, "static").chooser(sentence)).transitions


__all__ = [
    "ROOT", "Arc", "Configuration", "ConlluError", "Explanation", "IllegalTransition", "NotBuildable",
    "Oracle", "ParsingCoreError", "Sentence", "Step", "TooLongForSearch", "Trace", "Transition",
    "TransitionSystem", "TreeError", "TreebankError", "get_oracle", "get_system", "gold_sequence",
    "las", "list_oracles", "list_systems", "oracle_class", "parse_sequence", "replay", "run", "run_from",
    "start", "uas",
    "read_conllu", "read_conllu_file", "write_conllu", "default_sentence", "teaching_sentences", "data_dir",
    "download_treebank", "list_treebanks", "load_treebank",
]
