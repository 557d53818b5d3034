"""What a tutor says: moves and arcs in words, why a move costs, why it is illegal.

Every sentence here is read off an oracle's answer (:class:`~parsing_core.oracles.Answer`) or
a system's own reason (:meth:`TransitionSystem.why_illegal`); nothing is typed per sentence.

>>> import parsing_core as pc
>>> s = pc.Sentence.from_heads("He sent her a letter .".split(), [2, 0, 2, 5, 2, 2])
>>> arc_words(s, (2, 3)), arc_words(s, (0, 2))
('sent → her', 'ROOT → sent')
>>> system = pc.get_system("arc-eager")
>>> c = pc.replay(system, s, ["SH", "LA", "RA"]).final
>>> answer = pc.get_oracle(system, "goldberg-nivre").answer(c, s)
>>> why_costs(s, pc.Transition("SH"), answer)
'SHIFT costs 1: it makes sent → her unreachable.'
>>> why_illegal(system, pc.replay(system, s, []).final, pc.Transition("RE"))
'REDUCE is not possible here: ROOT cannot be reduced.'
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

from ..configuration import Configuration
from ..oracles import Answer
from ..sentence import Sentence
from ..systems import TransitionSystem
from ..transition import Transition
from ..trees import Arc


def token_words(sentence: Sentence, token: int) -> str:
    """The word, with its number when the word occurs twice in the sentence (``the (3)``)."""
    word = sentence.word(token)
    if token and Counter(sentence.words)[word] > 1:
        return f"{word} ({token})"
    return word


def arc_words(sentence: Sentence, arc: Arc) -> str:
    """``head → dependent`` in words."""
    return f"{token_words(sentence, arc[0])} → {token_words(sentence, arc[1])}"


def arcs_words(sentence: Sentence, arcs: Iterable[Arc]) -> str:
    """Arcs in words, in sentence order of the dependents, joined by commas."""
    return ", ".join(arc_words(sentence, a) for a in sorted(arcs, key=lambda a: (a[1], a[0])))


def cost_words(cost: float) -> str:
    return "∞" if math.isinf(cost) else f"{cost:g}"


def moves_words(moves: Iterable[Transition]) -> str:
    return " or ".join(t.name for t in moves) or "none"


def why_costs(sentence: Sentence, t: Transition, answer: Answer) -> str:
    """Why one legal move costs what it costs, naming the gold arcs it loses (and gains)."""
    cost = answer.costs[t.bare]
    if math.isinf(cost):
        return f"{t.name} leads to a dead end: no final configuration can be reached after it."
    if cost == min(answer.costs.values()):
        return (f"{t.name} is optimal (cost {cost_words(cost)}): "
                "the best tree still reachable stays reachable.")
    why = answer.explanations.get(t.bare)
    if why is None or not why.lost:
        return f"{t.name} costs {cost_words(cost)}."
    if not why.example:
        return f"{t.name} costs {cost_words(cost)}: it makes {arcs_words(sentence, why.lost)} unreachable."
    gained = f", and builds {arcs_words(sentence, why.gained)} instead" if why.gained else ""
    return (f"{t.name} costs {cost_words(cost)}: for example, a best parse from here builds "
            f"{arcs_words(sentence, why.lost)}, which the best parse after {t.name} gives up{gained}.")


def why_illegal(system: TransitionSystem, c: Configuration, t: Transition) -> str:
    """The system's own reason, as a sentence."""
    return f"{t.name} is not possible here: {system.why_illegal(c, t)}."


def judge_move(system: TransitionSystem, sentence: Sentence, c: Configuration, answer: Answer,
               t: Transition) -> str:
    """What a tutor says of one move at ``c``: illegal (why), or its cost (why)."""
    if t.bare not in answer.costs:
        return why_illegal(system, c, t)
    return why_costs(sentence, t, answer)


def lost_arcs(answer: Answer, t: Transition) -> frozenset[Arc]:
    """The gold arcs the oracle's explanation says ``t`` gives up (none for an illegal move)."""
    why = answer.explanations.get(t.bare)
    return why.lost if why is not None else frozenset()


def configuration_words(sentence: Sentence, c: Configuration) -> str:
    """``stack [ROOT sent her] buffer [a letter .]``."""
    def words(tokens: tuple[int, ...]) -> str:
        return " ".join(token_words(sentence, t) for t in tokens)
    return f"stack [{words(c.stack)}] buffer [{words(c.buffer)}]"


def share(right: int, total: int) -> float:
    """Partial credit: ``right`` of ``total`` parts (full marks when there is nothing to get)."""
    return 1.0 if total == 0 else max(0.0, min(1.0, right / total))
