"""What a lesson may show, and when: the rules of teaching the checker enforces beside the claims.

* **Ask before telling.**  A question step's ``text`` (and its own prompt) is read before the
  answer, so it must not hold the key: the move that is the answer (its name, ``RIGHT-ARC``,
  ``shifts``, or its abbreviation ``RA``), the cost asked (``cost 3``, ``loses two``, ``costs
  nothing``), the crossing pair asked, that the tree is not projective, or which systems can
  build it.  Its explanation goes to
  ``after``; its look line, claims and highlight are shown with it, once the question is answered.
* **Look only at what is there.**  A look names a target of :data:`~.format.LOOK_TARGETS`, and
  the target is on the page at that step: a button of the system, a table only before the parse is
  over, a second oracle's column only when the board compares one, no board part on a step
  without a board.
* **Provenance is a footnote**: "seed 003" and "§5.2" go to ``sources``, not into the prose.
* **A lesson ends with a recap**: one line.

Each rule returns the problems it finds, as sentences.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import ParsingCoreError
from ..exercises import CostAnswer, CrossingAnswer, Item
from ..transition import Transition
from .board import Reached, arc_text
from .claims import answer_of
from .format import LOOK_TARGETS, Lesson, Step
from .prose import arcs_named, token_named

NUMBER_WORDS = ("nothing", "one", "two", "three", "four", "five", "six")
PROVENANCE = re.compile(r"\bseeds? \d{3}\b|§\s*\d|\bTable \d|\bFig\. \d")


# -- ask before telling ------------------------------------------------------------------------------
def check_no_key_before_answer(step: Step, reached: Reached, item: Item[Any]) -> list[str]:
    """The key of the step's question, if its text or prompt gives it away."""
    assert step.question is not None
    before = f"{step.text}\n{step.question.prompt}"
    kind = step.question.kind
    if kind in ("next-move", "all-optimal"):
        said = [t for t in answer_of(reached).optimal if names_move(before, t)]
        return [f"the text before the {kind} question names the move that answers it: {t.name}" for t in said]
    if kind == "cost-of-move" and isinstance(item.key, CostAnswer) and states_cost(before, item.key.cost):
        return [f"the text before the cost-of-move question gives the cost asked: {item.key.cost:g}"]
    if kind == "crossing-arcs" and isinstance(item.key, CrossingAnswer):
        return crossing_told(before, reached, item.key)
    if kind == "which-systems":
        return [f"the text before the which-systems question says whether {name} can build the tree"
                for name in systems_told(before)]
    return []


def names_move(text: str, t: Transition) -> bool:
    """Does ``text`` name the move: ``RA`` as a word, or RIGHT-ARC (right-arc, right-arcs) in any case?"""
    stem = re.escape(t.name.lower().rstrip("e"))
    return re.search(rf"\b{t.kind}\b", text) is not None or re.search(rf"\b{stem}", text, re.I) is not None


def states_cost(text: str, cost: float) -> bool:
    """Does ``text`` state the cost: ``cost 3``, ``costs only 1``, ``loses three``, ``costs nothing``?"""
    words = [f"{cost:g}"] + ([NUMBER_WORDS[int(cost)]] if cost < len(NUMBER_WORDS) else [])
    if cost == 0:
        words.append("zero")
    number = "|".join(re.escape(w) for w in words)
    return re.search(rf"\b(cost\w*|los[et]\w*)\W+(\w+\W+){{0,2}}({number})\b", text, re.I) is not None


def crossing_told(text: str, reached: Reached, key: CrossingAnswer) -> list[str]:
    """A crossing pair whose two arcs the text names, or the verdict on projectivity."""
    named = set()
    for head, dependent in arcs_named(text):
        try:
            named.add((token_named(reached.sentence, head), token_named(reached.sentence, dependent)))
        except ParsingCoreError:
            continue
    found = [f"the text before the crossing-arcs question names a crossing pair: "
             f"{' and '.join(sorted(arc_text(reached.sentence, a) for a in pair))}"
             for pair in key.pairs if set(pair) <= named]
    if not key.projective and re.search(r"non-projective|not projective", text, re.I):
        found.append("the text before the crossing-arcs question says the tree is not projective")
    return found


def systems_told(text: str) -> list[str]:
    """The systems a sentence of ``text`` says can (or cannot) build a tree: "arc-eager cannot build it"."""
    told: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        if re.search(r"\b(can|cannot|can't|could|able)\b[^.]*\bbuil", sentence, re.I):
            named = re.findall(r"\barc-(?:standard|eager|hybrid)(?:-swap|-corrected)?\b", sentence, re.I)
            told += [n.lower() for n in named if n.lower() not in told]
    return told


# -- look only at what is there ------------------------------------------------------------------------
def check_look(lesson: Lesson, step: Step, reached: Reached) -> list[str]:
    """Is the step's look target a part of the page, there at that moment?"""
    look = step.look
    if look is None:
        return []
    targets = ", ".join(LOOK_TARGETS)
    if not look.target:
        return [f"look {look.text!r} names no target: write look = {{target = ..., text = ...}} "
                f"with a target of: {targets}"]
    if look.target not in LOOK_TARGETS:
        return [f"unknown look target {look.target!r}; choose one of {targets}"]
    if not step.shows_board and look.target != "demo":
        return [f"the look points at the {look.target}, but the step shows no board"]
    return absent(lesson, step, reached)


def absent(lesson: Lesson, step: Step, reached: Reached) -> list[str]:
    """The look's target, when the page does not show it at the step."""
    assert step.look is not None
    target, move, system = step.look.target, step.look.move, reached.system
    if move and move not in system.kinds:
        return [f"the look names the move {move!r}, not a move of {system.name} ({', '.join(system.kinds)})"]
    if target == "move" and not move:
        return ["a look at a move names it: look = {target = \"move\", move = \"RA\", ...}"]
    if target == "cost-table" and system.is_terminal(reached.configuration):
        return ["the look points at the table of moves, but the parse is over: the page shows none"]
    if target == "compare" and not (step.board.compare and lesson.costs):
        return ["the look points at a second oracle's column, but the board compares no oracle"]
    if target == "demo" and not step.demo:
        return ["the look points at a demonstration, but the step runs none"]
    return []


# -- provenance, the end, a step without a board -------------------------------------------------------
def check_provenance(step: Step) -> list[str]:
    """Sources in the prose ("seed 003", "§5.2"): they belong in the step's ``sources``."""
    found = PROVENANCE.findall(f"{step.text}\n{step.after}")
    return [f"the text cites {found[0]!r}: provenance goes in sources (a footnote)"] if found else []


def check_without_board(step: Step) -> list[str]:
    if step.shows_board:
        return []
    asks = step.question is not None and step.question.kind in ("next-move", "all-optimal", "cost-of-move")
    return (["the step shows no board, yet highlights a move on it"] if step.highlight else []) + (
        ["the step shows no board, yet asks about a move on it"] if asks else [])


def check_recap(lesson: Lesson) -> list[str]:
    recap = lesson.recap.strip()
    if not recap:
        return ["the lesson has no recap: a one-line recap = \"...\" closes it"]
    return ["the recap is one line"] if "\n" in recap else []
