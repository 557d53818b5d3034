"""A configuration c = (σ, β, A): the parser's whole state, as one immutable value.

* ``stack`` σ: token ids, bottom first, **top last** (s0 = ``stack[-1]``);
* ``buffer`` β: token ids, **front first** (b = ``buffer[0]``);
* ``heads`` / ``labels``: the arc set A as the current head (or None) and label of each
  token 1..n (``heads[d - 1]`` belongs to token d), like a sentence's head list.

Transitions never modify a configuration; they return a new one, so a parse is simply a
tuple of configurations and undo, history and sharing come for free.

>>> c = Configuration.start(3)
>>> c.stack, c.buffer, c.s0, c.b0
((0,), (1, 2, 3), 0, 1)
>>> c2 = c.shift().attach(2, 1, "nsubj")
>>> c2.stack, c2.head_of(1), c2.label_of(1), sorted(c2.arcs)
((0, 1), 2, 'nsubj', [(2, 1, 'nsubj')])
>>> c.heads   # the original is untouched
(None, None, None)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Configuration:
    stack: tuple[int, ...]
    buffer: tuple[int, ...]
    heads: tuple[int | None, ...]
    labels: tuple[str | None, ...]

    @classmethod
    def start(cls, n: int, root_last: bool = False) -> Configuration:
        """ROOT on the stack and the words in the buffer, or (root_last) ROOT behind the words."""
        words = tuple(range(1, n + 1))
        if root_last:
            return cls((), (*words, 0), (None,) * n, (None,) * n)
        return cls((0,), words, (None,) * n, (None,) * n)

    # -- reading ---------------------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.heads)

    @property
    def s0(self) -> int | None:
        """Stack top, or None."""
        return self.stack[-1] if self.stack else None

    @property
    def s1(self) -> int | None:
        """Second stack element, or None."""
        return self.stack[-2] if len(self.stack) > 1 else None

    @property
    def b0(self) -> int | None:
        """Buffer front, or None."""
        return self.buffer[0] if self.buffer else None

    def head_of(self, token: int) -> int | None:
        """Current head of a token (None for ROOT and for tokens not yet attached)."""
        return None if token == 0 else self.heads[token - 1]

    def label_of(self, token: int) -> str | None:
        return None if token == 0 else self.labels[token - 1]

    def has_head(self, token: int) -> bool:
        return token != 0 and self.heads[token - 1] is not None

    @property
    def arcs(self) -> set[tuple[int, int, str | None]]:
        """A as (head, dependent, label) triples."""
        return {(h, d, lab) for d, (h, lab) in enumerate(zip(self.heads, self.labels), 1) if h is not None}

    @property
    def unlabelled_arcs(self) -> set[tuple[int, int]]:
        return {(h, d) for d, h in enumerate(self.heads, 1) if h is not None}

    def search_key(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...]]:
        """What the future of a parse depends on: stack, buffer and which stack tokens have heads.

        Arcs are never removed, so the best reachable score is the gold arcs already built plus
        a gain that depends only on this key; the search oracle memoises on it.
        """
        heads = self.heads
        return self.stack, self.buffer, tuple(t != 0 and heads[t - 1] is not None for t in self.stack)

    # -- building (used by transition systems) ---------------------------------------------
    def shift(self) -> Configuration:
        """Move the buffer front to the stack top."""
        return Configuration((*self.stack, self.buffer[0]), self.buffer[1:], self.heads, self.labels)

    def pop(self) -> Configuration:
        """Remove the stack top."""
        return Configuration(self.stack[:-1], self.buffer, self.heads, self.labels)

    def pop_second(self) -> Configuration:
        """Remove the element under the stack top."""
        return Configuration((*self.stack[:-2], self.stack[-1]), self.buffer, self.heads, self.labels)

    def attach(self, head: int, dep: int, label: str | None = None) -> Configuration:
        """Add the arc head → dep (with an optional label) to A."""
        i = dep - 1
        heads = self.heads[:i] + (head,) + self.heads[i + 1:]
        labels = self.labels
        if labels[i] != label:  # unlabelled moves leave the labels as they are
            labels = labels[:i] + (label,) + labels[i + 1:]
        return Configuration(self.stack, self.buffer, heads, labels)

    def with_stack_buffer(self, stack: tuple[int, ...], buffer: tuple[int, ...]) -> Configuration:
        return Configuration(stack, buffer, self.heads, self.labels)
