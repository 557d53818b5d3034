"""The prose is checked like the claims: every arc a step's text names must be true of its board.

**The convention.**  Prose names an arc ``head → dependent`` or ``dependent ← head`` (Markdown
emphasis around the words is fine, and arrows chain: ``ROOT → *w1* → *w2*`` names two arcs).
Each end is ROOT, a word of the sentence that occurs once, or ``wN`` for token N; an arrow in
`code` (```head → dependent```) is notation, not an arc of the sentence.  The arcs a step
may name are those of its configuration c and of the moves it is about (its *focus*: the
highlighted move, the moves of its cost claims, the move a cost question asks about):

* an arc of the gold tree (the lesson's subject: built, still reachable or already lost);
* an arc built in c, or the arc a focus move would build;
* a wrong arc that some *best completion* builds: from c, or after a focus move (the exact
  search decides: a completion with the arc that keeps as many gold arcs as the best).

Any other arc is a problem, and the message says what a best completion builds instead.

>>> import parsing_core as pc
>>> arcs_named("build *w4 → w3* and give up only *w5 → w4*; ROOT → *w1* → *w2*; *He ← sent*")
[('w4', 'w3'), ('w5', 'w4'), ('ROOT', 'w1'), ('w1', 'w2'), ('sent', 'He')]
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable

from ..configuration import Configuration
from ..errors import ParsingCoreError
from ..oracles import completion
from ..oracles.search import SearchOracle
from ..sentence import Sentence
from ..systems import TransitionSystem
from ..transition import Transition
from ..trees import Arc
from .board import Reached, arc_text, token_of
from .format import Step

WORD = r"\*?(ROOT|[\w'.-]*\w|\.)\*?"
ARROW = re.compile(rf"{WORD}\s*(→|←)\s*(?={WORD})")


def arcs_named(text: str) -> list[tuple[str, str]]:
    """The arcs a text names, as (head word, dependent word), in the order written."""
    found = []
    text = re.sub(r"`[^`]*`", "", text)
    for match in ARROW.finditer(text):
        left = match.group(1)
        right = re.match(WORD, text[match.end():])
        assert right is not None
        head, dependent = (left, right.group(1)) if match.group(2) == "→" else (right.group(1), left)
        found.append((head, dependent))
    return found


def token_named(sentence: Sentence, word: str) -> int:
    """ROOT, a word occurring once, or ``wN`` (token N)."""
    n = re.fullmatch(r"w(\d+)", word)
    if n and int(n.group(1)) <= sentence.n and word not in sentence.words:
        return int(n.group(1))
    return token_of(sentence, word)


def focus(step: Step) -> list[Transition]:
    """The moves a step is about: its highlight, its cost claims' moves, its cost question's move."""
    named = [step.highlight] + [str(c.get("move")) for c in step.claims if c.kind == "cost"]
    if step.question is not None and step.question.move:
        named.append(step.question.move)
    moves = []
    for text in named:
        if text and Transition.parse(text).bare not in moves:
            moves.append(Transition.parse(text).bare)
    return moves


def check_prose_arcs(step: Step, reached: Reached) -> list[str]:
    """What is wrong with the arcs a step's prose names (its text, explanation and look line)."""
    prose = " ".join([step.text, step.after, step.look.text if step.look else ""])
    problems = []
    for head, dependent in arcs_named(prose):
        try:
            arc = (token_named(reached.sentence, head), token_named(reached.sentence, dependent))
        except ParsingCoreError as error:
            problems.append(f"the text names {head} → {dependent}, but {error}")
            continue
        wrong = check_arc(arc, step, reached)
        if wrong is not None:
            problems.append(wrong)
    return problems


def check_arc(arc: Arc, step: Step, reached: Reached) -> str | None:
    """None when the convention allows the arc; otherwise what is true instead."""
    system, c, gold = reached.system, reached.configuration, reached.sentence
    if arc in gold.gold_arcs or arc in c.unlabelled_arcs:
        return None
    starts = [("here", c)]
    for t in focus(step):
        if system.why_illegal(c, t) is None:
            if system.arc_of(c, t) == arc:
                return None
            starts.append((f"after {t}", system.apply(c, t)))
    if not SearchOracle.answers(system, gold):
        return f"the text names {arc_text(gold, arc)}, a wrong arc: the sentence is too long to search"
    if any(in_a_best_completion(system, start, gold, arc) for _, start in starts):
        return None
    return f"the text names {arc_text(gold, arc)}: not a gold arc, not built, and " + \
        "; ".join(best_instead(system, where, start, gold) for where, start in starts)


def in_a_best_completion(system: TransitionSystem, c: Configuration, gold: Sentence, arc: Arc) -> bool:
    """Does some completion of ``c`` build ``arc`` and keep as many gold arcs as the best one?

    Counted with ``arc`` as one more wanted arc: the most reachable is one more than the best
    exactly when a best completion builds it (a completion holds it at most once)."""
    wanted = gold.gold_arcs | {arc}
    return most(system, c, wanted) == most(system, c, gold.gold_arcs) + 1


def most(system: TransitionSystem, c: Configuration, wanted: frozenset[Arc]) -> float:
    """The most ``wanted`` arcs a final configuration reachable from ``c`` holds (the search's
    recursion, with any set of arcs)."""
    memo: dict[Hashable, float] = {}

    def future(c: Configuration) -> float:
        key = c.search_key()
        if key not in memo:
            gains = ((arc in wanted) + future(after) for _, arc, after in system.successors(c))
            memo[key] = 0 if system.is_terminal(c) else max(gains, default=-math.inf)
        return memo[key]

    return sum(arc in wanted for arc in c.unlabelled_arcs) + future(c)


def best_instead(system: TransitionSystem, where: str, c: Configuration, gold: Sentence) -> str:
    """``in no best completion here (one builds the wrong arcs w3 → w4)``."""
    final = completion(SearchOracle(system), c, gold)
    wrong = sorted(arc_text(gold, a) for a in final.unlabelled_arcs - gold.gold_arcs)
    built = f"one builds the wrong arc{'s' * (len(wrong) != 1)} {', '.join(wrong)}" if wrong else \
        "one builds no wrong arc"
    return f"in no best completion {where} ({built})"
