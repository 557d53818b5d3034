"""Where an arc diagram puts things: a column per word, a level per arc, a place for each arc's feet.

The field's arc diagrams (displaCy, brat, TikZ-dependency) set the words in a row and draw each
arc above them; its height shows how far it reaches.  Three rules keep every arc traceable:

1. **Nested arcs stack.**  An arc that strictly contains another (spans it, endpoints included)
   sits on a strictly higher level, so the inner one is drawn inside it, never along it.
   Arcs that do not nest may share a level, side by side, or cross at a point when the tree is
   non-projective; two arcs over the same words (a wrong arc and the gold arc it replaced)
   never share one.
2. **Feet do not collide.**  Where several arcs meet one word, each leaves from its own x:
   arcs reaching left stand on the word's left half, the inner ones further left, and arcs
   reaching right on its right half, the outer ones further left, so that no two legs cross.
3. **Words keep their size.**  A column is as wide as its word (estimated from per-character
   widths of a Helvetica-like face, rounded up) or as wide as its feet need, whichever is more;
   a long sentence makes the picture wider, never the type smaller.

>>> levels([(0, 1), (1, 3), (1, 2), (2, 3), (0, 3)])
[1, 2, 1, 1, 3]
>>> feet({(0, 3): 2, (2, 1): 1, (1, 0): 1, (1, 3): 1}, 1)
[(1, 0), (1, 3), (2, 1)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Span = tuple[int, int]  # the columns an arc covers, left first
Ends = tuple[int, int]  # the columns of an arc's head and of its dependent

# A character's advance in em: Helvetica/Arial widths, rounded up (a word is never cut).
NARROW, NORMAL, UPPER, WIDE, FOREIGN = 0.34, 0.6, 0.74, 0.96, 1.0
NARROW_CHARS = set("ijlIftr.,;:'!|()[]{}/\\- \"`")
WIDE_CHARS = set("mwMW%@…")


def char_em(ch: str) -> float:
    """How wide one character is, in em (a CJK or other wide-script character counts a full em)."""
    if ch in NARROW_CHARS:
        return NARROW
    if ch in WIDE_CHARS:
        return WIDE
    if ord(ch) > 0x2E7F:
        return FOREIGN
    return UPPER if ch.isupper() else NORMAL


def text_width(text: str, px: float) -> float:
    """An upper estimate of how wide ``text`` is set in type of ``px`` pixels."""
    return sum(char_em(ch) for ch in text) * px


def contains(outer: Span, inner: Span) -> bool:
    """Does ``outer`` strictly contain ``inner`` (endpoints may be shared)?"""
    return outer != inner and outer[0] <= inner[0] and inner[1] <= outer[1]


def overlaps(a: Span, b: Span) -> bool:
    """Do two arcs run along the same stretch without nesting (they cross, or are the same span)?"""
    return a == b or a[0] < b[0] < a[1] < b[1] or b[0] < a[0] < b[1] < a[1]


def levels(spans: Sequence[Span]) -> list[int]:
    """A level (1 = lowest) for each span: above every span it contains, apart from every span it overlaps.

    Spans are placed shortest first, so whatever a span contains already has its level.
    """
    placed: dict[int, int] = {}
    for i in sorted(range(len(spans)), key=lambda i: (spans[i][1] - spans[i][0], spans[i])):
        level = 1 + max((placed[j] for j in placed if contains(spans[i], spans[j])), default=0)
        taken = {placed[j] for j in placed if overlaps(spans[i], spans[j])}
        while level in taken:
            level += 1
        placed[i] = level
    return [placed[i] for i in range(len(spans))]


def span(ends: Ends) -> Span:
    """The columns an arc covers, left first, whichever way it points."""
    return (min(ends), max(ends))


def feet(arc_levels: dict[Ends, int], column: int) -> list[Ends]:
    """The arcs standing on ``column``, left to right: those reaching left (inner first), then
    those reaching right (outer first), so that the legs nest as the arcs do."""
    left = [e for e in arc_levels if span(e)[1] == column]
    right = [e for e in arc_levels if span(e)[0] == column]
    return (sorted(left, key=lambda e: (arc_levels[e], -span(e)[0]))
            + sorted(right, key=lambda e: (-arc_levels[e], -span(e)[1])))


@dataclass(frozen=True)
class Columns:
    """The row of words: each column's left edge and width, in px."""

    lefts: tuple[float, ...]
    widths: tuple[float, ...]

    def centre(self, i: int) -> float:
        return self.lefts[i] + self.widths[i] / 2

    @property
    def right(self) -> float:
        return self.lefts[-1] + self.widths[-1] if self.lefts else 0.0


def columns(widths: Sequence[float], margin: float, gaps: Sequence[float]) -> Columns:
    """Columns of the given widths, left to right, after a ``margin``; ``gaps[i]`` after column i."""
    lefts, x = [], margin
    for w, gap in zip(widths, [*gaps, 0.0]):
        lefts.append(x)
        x += w + gap
    return Columns(tuple(lefts), tuple(widths))


def foot_offsets(count: int, step: float) -> list[float]:
    """Where ``count`` feet stand relative to a column's centre, ``step`` apart, centred."""
    return [(i - (count - 1) / 2) * step for i in range(count)]


def foot_shifts(arc_levels: dict[Ends, int], step: float) -> dict[tuple[Ends, int], float]:
    """Where each arc's foot stands on each of its columns, from the column's centre:
    ``{(ends, column): dx}``."""
    at: dict[int, dict[Ends, int]] = {}  # the arcs standing on each column, with their levels
    for ends, level in arc_levels.items():
        for column in ends:
            at.setdefault(column, {})[ends] = level
    shifts: dict[tuple[Ends, int], float] = {}
    for column, here in at.items():
        standing = feet(here, column)
        for ends, dx in zip(standing, foot_offsets(len(standing), step)):
            shifts[(ends, column)] = dx
    return shifts
