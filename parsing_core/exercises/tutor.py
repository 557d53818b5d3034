"""What a tutor says: moves and arcs in words, why a move costs, why it is illegal.

Every sentence here is read off an oracle's answer (:class:`~parsing_core.oracles.Answer`) or
a system's own reason (:meth:`TransitionSystem.why_illegal`); nothing is typed per sentence.

>>> import parsing_core as pc
>>> s = pc.Sentence.from_heads("He sent her a letter .".split(), [2, 0, 2, 5, 2, 2])
>>> arc_words(s, (2, 3)), arc_words(s, (0, 2)), arc_words(s, (2, 6))
('sent → her', 'ROOT → sent', "sent → '.'")
>>> system = pc.get_system("arc-eager")
>>> c = pc.replay(system, s, ["SH", "LA", "RA"]).final
>>> answer = pc.get_oracle(system, "goldberg-nivre").answer(c, s)
>>> why_costs(s, pc.Transition("SH"), answer)
'SHIFT costs 1: it makes sent → her unreachable.'
>>> judge_move(system, s, c, answer, pc.Transition("RA"))
'RIGHT-ARC is optimal (cost 0): it builds the gold arc sent → her.'
>>> effect_words(system, s, c, pc.Transition("SH"))
'SHIFT puts her on the stack'
>>> why_illegal(system, pc.replay(system, s, []).final, pc.Transition("RE"))
'REDUCE is not possible here: ROOT cannot be reduced.'
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable, Set

from ..configuration import Configuration
from ..oracles import Answer
from ..sentence import Sentence
from ..systems import TransitionSystem
from ..transition import Transition
from ..trees import Arc


def bare_token(sentence: Sentence, token: int) -> str:
    """The word, with its number when the word occurs twice in the sentence (``the (3)``)."""
    word = sentence.word(token)
    if token and Counter(sentence.words)[word] > 1:
        return f"{word} ({token})"
    return word


def token_words(sentence: Sentence, token: int) -> str:
    """The word as prose names it: :func:`bare_token`, quoted when it is punctuation (``'.'``),
    which bare in a sentence would read as a typo."""
    word = bare_token(sentence, token)
    return word if any(ch.isalnum() for ch in sentence.word(token)) else f"'{word}'"


def arc_words(sentence: Sentence, arc: Arc) -> str:
    """``head → dependent`` in words."""
    return f"{token_words(sentence, arc[0])} → {token_words(sentence, arc[1])}"


def arcs_words(sentence: Sentence, arcs: Iterable[Arc]) -> str:
    """Arcs in words, in sentence order of the dependents, joined by commas."""
    return ", ".join(arc_words(sentence, a) for a in sorted(arcs, key=lambda a: (a[1], a[0])))


def cost_words(cost: float) -> str:
    return "∞" if math.isinf(cost) else f"{cost:g}"


def moves_count(count: int) -> str:
    """``1 move``, ``3 moves``."""
    return f"{count} move{'s' * (count != 1)}"


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


def words_of(sentence: Sentence, tokens: Iterable[int]) -> str:
    return " and ".join(token_words(sentence, t) for t in tokens)


def effect_words(system: TransitionSystem, sentence: Sentence, c: Configuration, t: Transition) -> str:
    """What a legal move does to this configuration: the arc it adds, the words it moves."""
    after = system.apply(c, t)
    said = []
    if built := after.unlabelled_arcs - c.unlabelled_arcs:
        said.append(f"adds {arcs_words(sentence, built)}")
    if on := [x for x in after.stack if x not in c.stack]:
        said.append(f"puts {words_of(sentence, on)} on the stack")
    if off := [x for x in c.stack if x not in after.stack]:
        said.append(f"takes {words_of(sentence, off)} off the stack")
    if back := [x for x in after.buffer if x not in c.buffer]:
        said.append(f"puts {words_of(sentence, back)} back in the buffer")
    return f"{t.name} " + (" and ".join(said) or "changes nothing")


def principle_rung(system: TransitionSystem, sentence: Sentence, c: Configuration) -> str:
    """The second rung of a move question, about this configuration: what each legal move would do
    here, and the question that decides its cost."""
    effects = "; ".join(effect_words(system, sentence, c, t) for t in system.legal(c))
    return (f"Here {effects}. For each, ask which gold arcs could no longer be built after it: that "
            "is what it costs, and the optimal moves lose the fewest.")


def why_optimal(system: TransitionSystem, sentence: Sentence, c: Configuration, answer: Answer,
                t: Transition) -> str:
    """Why an optimal move is optimal: the gold arc it builds, or those it keeps within reach that
    another move would lose (named only where the oracle names *the* arcs a move loses)."""
    lead = f"{t.name} is optimal (cost {cost_words(answer.costs[t.bare])}): "
    gold = set(sentence.gold_arcs)
    if built := (system.apply(c, t).unlabelled_arcs - c.unlabelled_arcs) & gold:
        return lead + f"it builds the gold arc {arcs_words(sentence, built)}."
    mine = answer.explanations.get(t.bare)
    others = {m: why for m, why in answer.explanations.items() if m not in answer.optimal and not why.example}
    kept = frozenset().union(*(why.lost for why in others.values())) - (mine.lost if mine else frozenset())
    if kept and (mine is None or not mine.example):
        losers = moves_words(m for m, why in others.items() if why.lost & kept)
        return lead + f"it keeps {arcs_words(sentence, kept)} within reach, which {losers} would lose."
    return lead + "a best tree still reachable stays reachable after it."


def why_illegal(system: TransitionSystem, c: Configuration, t: Transition) -> str:
    """The system's own reason, as a sentence."""
    return f"{t.name} is not possible here: {system.why_illegal(c, t)}."


def judge_move(system: TransitionSystem, sentence: Sentence, c: Configuration, answer: Answer,
               t: Transition) -> str:
    """What a tutor says of one move at ``c``: illegal (why), or its cost (why)."""
    if t.bare not in answer.costs:
        return why_illegal(system, c, t)
    if t.bare in answer.optimal and not math.isinf(answer.costs[t.bare]):
        return why_optimal(system, sentence, c, answer, t)
    return why_costs(sentence, t, answer)


def lost_arcs(answer: Answer, t: Transition) -> frozenset[Arc]:
    """The gold arcs the oracle's explanation says ``t`` gives up (none for an illegal move)."""
    why = answer.explanations.get(t.bare)
    return why.lost if why is not None else frozenset()


def configuration_words(sentence: Sentence, c: Configuration) -> str:
    """``stack [ROOT sent her] buffer [a letter .]`` (between brackets, punctuation needs no quotes)."""
    def words(tokens: tuple[int, ...]) -> str:
        return " ".join(bare_token(sentence, t) for t in tokens)
    return f"stack [{words(c.stack)}] buffer [{words(c.buffer)}]"


def overlap(picked: Set[Hashable], key: Set[Hashable]) -> float:
    """Partial credit for a set of ticks: the ticks that are right over the ticks and the key
    together.  A box left empty is not an answer, so ticking nothing earns nothing and ticking
    everything earns the key's share of the boxes, not most of them.

    >>> overlap(set(), {"RA"}), overlap({"SH", "LA", "RA", "RE"}, {"RA"}), overlap({"RA"}, {"RA", "SH"})
    (0.0, 0.25, 0.5)
    """
    union = len(set(picked) | set(key))
    return 1.0 if union == 0 else len(set(picked) & set(key)) / union


def share(right: int, total: int) -> float:
    """Partial credit: ``right`` of ``total`` parts (full marks when there is nothing to get)."""
    return 1.0 if total == 0 else max(0.0, min(1.0, right / total))
