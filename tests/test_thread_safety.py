"""The oracles the app caches for all sessions are shared by the server's threads: hammered from 8
threads on the same and on different sentences, they give exactly the costs a fresh oracle gives.

The app keeps one oracle object per system and name (``ui.views.oracle_view.oracle_for``) and each
oracle keeps tables for its last few gold trees (``GoldCache``); with more sentences in play than
the cache holds, threads evict each other's trees while reading them.
"""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import pytest

import parsing_core as pc
from parsing_core.experiments.audit import random_heads
from ui.views.oracle_view import oracle_for

THREADS, TREES, ROUNDS = 8, 24, 6  # 24 trees: three times what an oracle's GoldCache keeps
# Nederhof's cubic oracle once took 43 CPU-s of its 8 threads' six rounds: each call is a whole
# chart, so its threads meet in the shared tables far less often than the others'.  With the
# GoldCache's lock taken out, the exact arc-standard case failed in its first round, while this
# one passed all six: its further rounds found nothing more.  It keeps one.
ROUNDS_OF = {"nederhof": 1}


def walks(system: pc.TransitionSystem, seed: int) -> list[tuple[pc.Sentence, pc.Configuration]]:
    """Configurations along random walks over random trees (a few per tree)."""
    rng = random.Random(seed)
    found = []
    for _ in range(TREES):
        n = rng.randint(4, 9)
        heads = random_heads(rng, n, projective=True)
        gold = pc.Sentence.from_heads([f"w{i}" for i in range(1, n + 1)], heads)
        c = system.initial(gold)
        while not system.is_terminal(c) and system.legal(c):
            found.append((gold, c))
            c = system.apply(c, rng.choice(system.legal(c)))
    return found


@pytest.mark.parametrize(("system_name", "oracle"), [
    ("arc-standard", "exact"), ("arc-eager-corrected", "nederhof"), ("arc-hybrid", "search"),
    ("arc-eager", "goldberg-nivre"), ("arc-eager-corrected", "nederhof-linear")])
def test_shared_oracles_answer_eight_threads_as_a_fresh_one_does(system_name: str, oracle: str) -> None:
    system = pc.get_system(system_name)
    cases = walks(system, seed=len(oracle))
    expected = [pc.get_oracle(system, oracle).costs(c, gold) for gold, c in cases]
    shared = oracle_for(system, oracle)

    def hammer(worker: int) -> list[int]:
        order = list(range(len(cases)))
        random.Random(worker).shuffle(order)  # every thread visits the trees in its own order
        wrong = []
        for _ in range(ROUNDS_OF.get(oracle, ROUNDS)):
            for i in order:
                gold, c = cases[i]
                if shared.costs(c, gold) != expected[i]:
                    wrong.append(i)
        return wrong

    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(hammer, range(THREADS)))
    assert all(not wrong for wrong in results), f"{sum(map(len, results))} wrong answers"
