"""The thesis's exact arc-standard oracle as printed (§5.1, Algorithms 1–2): the speed baseline.

A direct transcription, in gain form (spec §4.4): ``T[i][j]`` maps each possible head h of a
tree reducing γ[i..j] to the most gold arcs such a tree can hold, γ = σβ.  Columns j < b − 1
(spans below the stack top) are never filled, exactly as in Algorithm 1; each cell tries every
split point and every pair of sub-span heads (Algorithm 2), O(|γ|⁵).  Like the thesis's Code
A.5, the costs of one configuration take four runs: the configuration and each successor.

For ``ArcStandard(single_root=True)`` ROOT takes a single dependent, last, so the answer there
is max over h of T[1][N−1][h] + [h's gold head is ROOT] (the thesis's table lets ROOT take
several; it only differs for gold trees with several roots).

:func:`whole_sentence_speedup` times it against the library's exact oracle over every step of
one parse (checking that both give the same costs): the Oracle lab's "Algorithm 1" rows.

>>> import parsing_core as pc
>>> s = pc.Sentence.from_heads("He sent her a letter .".split(), [2, 0, 2, 5, 2, 2])
>>> system = pc.get_system("arc-standard")
>>> c = system.initial(s)
>>> thesis_costs(system, c, s) == pc.get_oracle(system, "exact").costs(c, s)
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

from ..configuration import Configuration
from ..oracles import Costs, get_oracle
from ..sentence import Sentence
from ..systems import TransitionSystem, get_system
from .walks import walk

Cell = dict[int, int]
Table = list[list[Cell | None]]


def fill_table_entry(table: Table, i: int, j: int, gamma: list[int], gold: list[int]) -> None:
    """Algorithm 2: combine T[i][k] and T[k+1][j] by LEFT-ARC (h_r heads h_l) or RIGHT-ARC."""
    cell: Cell = {}
    for k in range(i, j):
        left, right = table[i][k], table[k + 1][j]
        if left is None or right is None:
            continue
        for hl, vl in left.items():
            for hr, vr in right.items():
                la = vl + vr + (gold[gamma[hl]] == gamma[hr])
                if la > cell.get(hr, -1):
                    cell[hr] = la
                ra = vl + vr + (gold[gamma[hr]] == gamma[hl])
                if ra > cell.get(hl, -1):
                    cell[hl] = ra
    table[i][j] = cell


def thesis_future(c: Configuration, gold: Sentence, single_root: bool = False) -> float:
    """Algorithm 1: the most gold arcs the moves from ``c`` on can still add."""
    gamma = [*c.stack, *c.buffer]
    heads = [-1, *gold.gold_heads]
    b, size = len(c.stack), len(gamma)
    table: Table = [[None] * size for _ in range(size)]
    for i in range(size):
        table[i][i] = {i: 0}
    for j in range(b - 1, size):
        for i in range(j - 1, -1, -1):
            fill_table_entry(table, i, j, gamma, heads)
    if not single_root:
        return table[0][size - 1].get(0, -math.inf)  # type: ignore[union-attr]
    if size == 1:
        return 0
    top = table[1][size - 1] or {}
    return max((v + (heads[gamma[h]] == 0) for h, v in top.items()), default=-math.inf)


def thesis_best(system: TransitionSystem, c: Configuration, gold: Sentence) -> float:
    built = sum(1 for arc in c.unlabelled_arcs if arc in gold.gold_arcs)
    return built + thesis_future(c, gold, getattr(system, "single_root", False))


def thesis_costs(system: TransitionSystem, c: Configuration, gold: Sentence) -> Costs:
    """cost(t) = best(c) − best(t(c)), by one table for ``c`` and one for each successor (Code A.5)."""
    now = thesis_best(system, c, gold)
    return {t: now - thesis_best(system, after, gold) for t, _, after in system.successors(c)}


def parse_configurations(system: TransitionSystem, s: Sentence) -> list[Configuration]:
    """The configurations of one parse that follows the exact oracle's first optimal move."""
    oracle = get_oracle(system, "exact")
    return walk(system, s, lambda c: oracle.optimal(c, s)[0])


def timed(fn: Callable[[Configuration, Sentence], Costs], configurations: Sequence[Configuration],
          s: Sentence) -> tuple[float, list[Costs]]:
    """(seconds, costs) of ``fn`` at every configuration, in order."""
    start = time.perf_counter()
    out = [fn(c, s) for c in configurations]
    return time.perf_counter() - start, out


def whole_sentence_speedup(s: Sentence, repeat: int = 1) -> tuple[int, float, float]:
    """(steps, exact seconds, Algorithm 1 seconds) for the costs at every step of one parse.

    The exact oracle's time is the best of ``repeat`` runs, each with a fresh oracle (a run of a
    few milliseconds is easily slowed by whatever else the machine is doing); Algorithm 1, which
    takes seconds, runs once.  Raises AssertionError if the two disagree anywhere (they are the
    same function of c).
    """
    system = get_system("arc-standard")
    configurations = parse_configurations(system, s)
    runs = [timed(get_oracle(system, "exact").costs, configurations, s) for _ in range(repeat)]
    fast, ours = min(runs, key=lambda run: run[0])
    slow, theirs = timed(lambda c, s: thesis_costs(system, c, s), configurations, s)
    assert ours == theirs, "the exact oracle and the transcription disagree"
    return len(configurations), fast, slow
