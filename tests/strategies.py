"""Gold trees for tests: every tree of a given size, and a Hypothesis strategy for random ones."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

from hypothesis import strategies as st

import parsing_core as pc
from parsing_core.experiments.audit import random_heads
from parsing_core.trees import find_cycle

# Every system the library offers, with its options: the unit of exhaustive testing.
SYSTEM_VARIANTS: list[tuple[str, dict[str, bool]]] = [
    ("arc-standard", {}),
    ("arc-standard", {"single_root": True}),
    ("arc-eager", {}),
    ("arc-eager-corrected", {}),
    ("arc-hybrid", {}),
    ("arc-hybrid", {"root_last": True}),
    ("arc-hybrid-swap", {}),
    ("arc-hybrid-swap", {"root_last": True}),
    ("arc-standard-swap", {}),
]


def variant_id(variant: tuple[str, dict[str, bool]]) -> str:
    name, options = variant
    return "+".join([name, *sorted(k for k, v in options.items() if v)])


def all_trees(n: int) -> Iterator[tuple[int, ...]]:
    """Every head list over n tokens that is a tree rooted at 0 (several roots allowed)."""
    for heads in itertools.product(range(n + 1), repeat=n):
        if all(h != d for d, h in enumerate(heads, 1)) and find_cycle(heads) is None:
            yield heads


def sentence(heads: tuple[int, ...]) -> pc.Sentence:
    return pc.Sentence.from_heads([f"w{i}" for i in range(1, len(heads) + 1)], heads)


@st.composite
def trees(draw: st.DrawFn, min_n: int = 1, max_n: int = 12, single_root: bool = False) -> tuple[int, ...]:
    """A random tree: tokens are attached in a random order, each to ROOT or an earlier one."""
    n = draw(st.integers(min_n, max_n))
    order = draw(st.permutations(range(1, n + 1)))
    heads = [0] * (n + 1)
    for k, tok in enumerate(order):
        choices = order[:k] if (single_root and k) else [0, *order[:k]]
        heads[tok] = draw(st.sampled_from(choices))
    return tuple(heads[1:])


def random_tree(
    rnd: random.Random, n: int, projective: bool | None = None, root_last: bool = False
) -> tuple[int, ...]:
    """A random tree (several roots allowed), redrawn until its projectivity is as asked."""
    return random_heads(rnd, n, projective, root_last)


def walk_configurations(system: pc.TransitionSystem, s: pc.Sentence, rnd: random.Random,
                        walks: int) -> Iterator[pc.Configuration]:
    """Every non-final configuration met on ``walks`` random legal walks from the initial one."""
    for _ in range(walks):
        c = system.initial(s)
        while not system.is_terminal(c):
            yield c
            c = system.apply(c, rnd.choice(system.legal(c)))
