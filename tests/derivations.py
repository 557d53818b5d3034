"""Read derivation tables written like the seeds' (move · stack · buffer · arc) and check them."""

from __future__ import annotations

import parsing_core as pc


def words_of(sentence: pc.Sentence, tokens: tuple[int, ...]) -> str:
    return " ".join(sentence.word(t) for t in tokens)


def arc_text(sentence: pc.Sentence, arc: tuple[int, int] | None) -> str:
    return "" if arc is None else f"{sentence.word(arc[0])} -> {sentence.word(arc[1])}"


def check_table(system: pc.TransitionSystem, sentence: pc.Sentence, table: str) -> pc.Trace:
    """Replay the moves of ``table`` and compare every row; rows are ``move | stack | buffer | arc``.

    The first row has no move.  Arcs are written ``head -> dependent`` with words.
    """
    rows = [[cell.strip() for cell in line.split("|")] for line in table.strip().splitlines()]
    moves = [r[0] for r in rows[1:]]
    trace = pc.replay(system, sentence, moves)
    got = [
        [str(step.transition or ""), words_of(sentence, step.configuration.stack),
         words_of(sentence, step.configuration.buffer), arc_text(sentence, step.arc)]
        for step in trace.steps()
    ]
    assert got == rows
    return trace
