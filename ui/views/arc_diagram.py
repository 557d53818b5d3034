"""The words and their arcs as an arc diagram, in SVG: the picture the field draws a parse with.

The words stand in a row, each in a box shaded by where it is (stack, buffer, done), its token
number under it and, under the stack's top and the buffer's front, a yellow mark.  Every arc is
drawn above the row from head to dependent, an arrowhead on the dependent, its height set by
its level (:mod:`ui.views.arc_layout`: an arc that contains another stands higher, no two arcs
run along each other), so each arc can be followed end to end even across 25 words.  An arc's
kind is told by line style *and* colour, the Okabe–Ito colours of :mod:`ui.views.drawing`
(solid blue correct, bold dashed vermillion wrong, dotted green reachable, thin dashed grey
lost, solid black built); a built arc carries its label on a white halo and a crossing gold arc
the mark ✕.

:func:`arc_svg` is a pure function of the words and the arcs; every piece of user text goes
through :func:`html.escape` (no script, no event attribute, only drawing elements), so a token
such as ``<script>`` is drawn as the characters it is.  Sizes are pixels at ``scale`` 1:
words 18.7 px (14 pt, as the Graphviz pieces), token numbers and marks 12 px, labels 14.7 px;
presenter mode draws everything 1.5 times as large.

>>> words = [Word(0, "ROOT", "stack", "top"), Word(1, "Hello", "buffer", "front")]
>>> svg = arc_svg(words, [DrawnArc(0, 1, "reachable")])
>>> svg.startswith("<svg") and svg.count('class="arc"') == 1 and "stroke-dasharray" in svg
True
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import parsing_core as pc
from ui.views import arc_layout as lay
from ui.views.drawing import (
    CROSSING,
    FILLS,
    MARK,
    MEANING,
    PLACES,
    STYLES,
    Pieces,
    add_legend,
    add_stack_and_buffer,
    legend_kinds,
    new_graph,
    text,
    token_order,
    where,
)
from ui.views.names import SUBSCRIPTS

WORD_PX = 14 * 4 / 3  # 14 pt, as the Graphviz pieces set words
SMALL_PX = 12.0  # token numbers and the top / front marks
LABEL_PX = 11 * 4 / 3  # arc labels
PAD, GAP, MARGIN = 9.0, 10.0, 8.0  # inside a word box, between boxes, around the picture
FOOT_STEP = 9.0  # between the feet of arcs that meet one word
LEG, LEVEL_STEP = 26.0, 24.0  # the lowest arc's height, and each level above it
CORNER, ARROW = 6.0, 5.0  # an arc's corner radius; an arrowhead's half width
LABEL_AIR = 8.0  # at least this much line shows on either side of a label between neighbours
FONT = "Helvetica, Arial, 'Liberation Sans', sans-serif"
MARKS = {"top": "▲ top", "front": "▲ front"}
DASHES = {"correct": "", "wrong": "8 5", "reachable": "1 5", "lost": "6 4", "built": ""}


@dataclass(frozen=True)
class Word:
    """One token in the row: its number, its text, where it is, and its mark (``top``, ``front`` or "")."""

    token: int
    text: str
    place: str = "buffer"
    mark: str = ""


@dataclass(frozen=True)
class DrawnArc:
    """An arc to draw, head → dependent (token numbers), of a kind of :data:`ui.views.drawing.STYLES`."""

    head: int
    dep: int
    kind: str
    label: str = ""
    crossing: bool = False

    @property
    def caption(self) -> str:
        return " ".join(filter(None, [CROSSING if self.crossing else "", self.label]))


@dataclass(frozen=True)
class ArcShape:
    """Where one arc is drawn: its feet's x at the head and at the dependent, its level, its top's y."""

    arc: DrawnArc
    head_x: float
    dep_x: float
    level: int
    top: float

    @property
    def left(self) -> float:
        return min(self.head_x, self.dep_x)

    @property
    def right(self) -> float:
        return max(self.head_x, self.dep_x)


@dataclass(frozen=True)
class Layout:
    """The whole picture's geometry: the columns, the arcs, the words' top edge, the size."""

    columns: lay.Columns
    arcs: tuple[ArcShape, ...]
    base: float  # the y where arcs end: the top of the word boxes
    width: float
    height: float


def configuration_svg(system: pc.TransitionSystem, sentence: pc.Sentence, c: pc.Configuration,
                      kinds: dict[pc.Arc, str], crossing: set[pc.Arc] | frozenset[pc.Arc] = frozenset(),
                      scale: float = 1.0) -> str:
    """Configuration ``c`` as an arc diagram: its words (ROOT where the system puts it), shaded
    by place, and the arcs of ``kinds``; a built arc shows its label, a crossing gold arc ✕."""
    marks = {c.s0: "top", c.b0: "front"} if c.s0 != c.b0 else {c.b0: "front"}
    order = token_order(system, sentence.n)
    words = [Word(t, sentence.word(t), where(c, t), marks.get(t, "")) for t in order]
    arcs = [DrawnArc(h, d, kind, (c.label_of(d) or "") if kind in ("correct", "wrong", "built") else "",
                     (h, d) in crossing) for (h, d), kind in sorted(kinds.items())]
    return arc_svg(words, arcs, scale)


def layout(words: Sequence[Word], arcs: Sequence[DrawnArc], scale: float = 1.0) -> Layout:
    """Columns wide enough for each word and its feet; arcs on levels; the picture's size."""
    column_of = {w.token: i for i, w in enumerate(words)}
    ends = [(column_of[a.head], column_of[a.dep]) for a in arcs]
    arc_levels = dict(zip(ends, lay.levels([lay.span(e) for e in ends])))
    feet = Counter(column for e in ends for column in e)
    widths = [column_width(w, feet[i], scale) for i, w in enumerate(words)]
    shifts = lay.foot_shifts(arc_levels, FOOT_STEP * scale)
    cols = lay.columns(widths, MARGIN * scale, gaps(arcs, ends, widths, shifts, scale))
    top_level = max(arc_levels.values(), default=0)
    base = MARGIN * scale + LABEL_PX * scale + height_of(top_level, scale)

    def x(e: lay.Ends, column: int) -> float:
        return cols.centre(column) + shifts[(e, column)]

    shapes = tuple(ArcShape(a, x(e, e[0]), x(e, e[1]), arc_levels[e], base - height_of(arc_levels[e], scale))
                   for a, e in zip(arcs, ends))
    height = base + (WORD_PX * 1.5 + SMALL_PX * 2.6) * scale + MARGIN * scale
    return Layout(cols, shapes, base, cols.right + MARGIN * scale, height)


def gaps(arcs: Sequence[DrawnArc], ends: Sequence[lay.Ends], widths: Sequence[float],
         shifts: dict[tuple[lay.Ends, int], float], scale: float) -> list[float]:
    """The space after each column: :data:`GAP`, or more where the label of an arc between two
    neighbours would not fit between its feet (``shifts``: each foot's place from its column's centre)."""
    out = [GAP * scale] * max(len(widths) - 1, 0)
    for a, e in zip(arcs, ends):
        k = min(e)
        if a.caption and abs(e[0] - e[1]) == 1:
            feet_apart = (widths[k] + widths[k + 1]) / 2 + shifts[(e, k + 1)] - shifts[(e, k)]
            need = (lay.text_width(a.caption, LABEL_PX) + 2 * LABEL_AIR) * scale
            out[k] = max(out[k], need - feet_apart)
    return out


def height_of(level: int, scale: float) -> float:
    """How high an arc of ``level`` rises above the words (0 for no arc)."""
    return 0.0 if level == 0 else (LEG + (level - 1) * LEVEL_STEP) * scale


def column_width(word: Word, feet: int, scale: float) -> float:
    """Wide enough for the word, its number and its mark, and for ``feet`` arcs standing on it."""
    shown = text_of(word.text)
    need = max(lay.text_width(shown, WORD_PX), lay.text_width(MARKS.get(word.mark, ""), SMALL_PX))
    return max(need + 2 * PAD, (feet + 1) * FOOT_STEP) * scale


def text_of(s: str) -> str:
    """The characters drawn for a token (control characters as pictures, a very long token cut)."""
    return html.unescape(text(s))


def arc_svg(words: Sequence[Word], arcs: Sequence[DrawnArc], scale: float = 1.0) -> str:
    """The row of ``words`` (left to right as given) with ``arcs`` over it, as SVG text."""
    shape = layout(words, arcs, scale)
    drawn = sorted(shape.arcs, key=lambda s: -s.level)  # the lowest last: its label on top
    names = tooltip_names(words)
    return "".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" class="arc-diagram" width="{shape.width:.0f}" '
        f'height="{shape.height:.0f}" viewBox="0 0 {shape.width:.1f} {shape.height:.1f}" role="img" '
        f'aria-label="The words and their arcs" font-family="{FONT}">',
        '<g class="words">', *(word_svg(w, shape, i, scale) for i, w in enumerate(words)), "</g>",
        '<g class="arcs">', *(arc_path_svg(s, shape.base, names, scale) for s in drawn), "</g>",
        "</svg>"])


def tooltip_names(words: Sequence[Word]) -> dict[int, str]:
    """Each token's word for an arc's tooltip, numbered where the word repeats (``Hop₄``)."""
    counts = Counter(w.text for w in words)
    return {w.token: w.text + (str(w.token).translate(SUBSCRIPTS) if counts[w.text] > 1 else "")
            for w in words}


def word_svg(word: Word, shape: Layout, i: int, scale: float) -> str:
    """A word's box, its text, its number and, for the stack top or buffer front, its mark."""
    cols, y = shape.columns, shape.base
    x, h = cols.centre(i), WORD_PX * 1.5 * scale
    colour = "#666666" if word.place == "done" else "#000000"
    number_y = y + h + SMALL_PX * 1.05 * scale
    parts = [f'<g class="word" data-token="{word.token}" data-place="{word.place}">',
             f'<title>{PLACES[word.place]}</title>',
             f'<rect x="{cols.lefts[i]:.1f}" y="{y:.1f}" width="{cols.widths[i]:.1f}" height="{h:.1f}" '
             f'rx="{5 * scale:g}" fill="{FILLS[word.place]}" stroke="#000000" stroke-width="{scale:g}"/>',
             f'<text class="word-text" x="{x:.1f}" y="{y + h / 2:.1f}" font-size="{WORD_PX * scale:.1f}" '
             f'fill="{colour}" text-anchor="middle" dominant-baseline="central">{text(word.text)}</text>',
             f'<text class="token-number" x="{x:.1f}" y="{number_y:.1f}" font-size="{SMALL_PX * scale:.1f}" '
             f'fill="#444444" text-anchor="middle">{word.token}</text>' if word.token else ""]
    if word.mark:
        parts.append(mark_svg(MARKS[word.mark], x, number_y + SMALL_PX * 0.4 * scale, scale))
    return "".join([*parts, "</g>"])


def mark_svg(caption: str, x: float, y: float, scale: float) -> str:
    """The yellow mark under the stack's top or the buffer's front."""
    w, h = lay.text_width(caption, SMALL_PX) * scale + 6 * scale, SMALL_PX * 1.3 * scale
    return (f'<g class="place-mark"><rect x="{x - w / 2:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
            f'rx="{3 * scale:g}" fill="{MARK}"/><text x="{x:.1f}" y="{y + h / 2:.1f}" '
            f'font-size="{SMALL_PX * scale:.1f}" text-anchor="middle" dominant-baseline="central">'
            f"{caption}</text></g>")


def arc_path(s: ArcShape, base: float, scale: float) -> str:
    """The arc's line: up from the head's foot, along its level, down to the dependent's arrowhead."""
    r = min(CORNER * scale, (s.right - s.left) / 2)
    end = base - ARROW * 1.6 * scale  # the line stops where the arrowhead starts
    y_head, y_dep = base, end
    y_left, y_right = (y_head, y_dep) if s.head_x < s.dep_x else (y_dep, y_head)
    return (f"M{s.left:.1f},{y_left:.1f} V{s.top + r:.1f} "
            f"Q{s.left:.1f},{s.top:.1f} {s.left + r:.1f},{s.top:.1f} H{s.right - r:.1f} "
            f"Q{s.right:.1f},{s.top:.1f} {s.right:.1f},{s.top + r:.1f} V{y_right:.1f}")


def arrowhead(x: float, base: float, scale: float) -> str:
    """A filled triangle pointing down at the dependent, its tip on the word's box."""
    w, h = ARROW * scale, ARROW * 1.8 * scale
    return f"M{x - w:.1f},{base - h:.1f} L{x + w:.1f},{base - h:.1f} L{x:.1f},{base:.1f} Z"


def arc_path_svg(s: ArcShape, base: float, names: dict[int, str], scale: float) -> str:
    """One arc as a group: a tooltip, the line in its kind's style, the arrowhead, the caption."""
    a, style = s.arc, STYLES[s.arc.kind]
    width = float(style["penwidth"]) * scale
    dash = DASHES[a.kind]
    dashes = f' stroke-dasharray="{" ".join(f"{float(d) * scale:g}" for d in dash.split())}"' if dash else ""
    arrow = f"{names[a.head]} → {names[a.dep]}" if s.head_x < s.dep_x else f"{names[a.dep]} ← {names[a.head]}"
    tip = f"{MEANING[a.kind]}: {arrow}" + (f" ({a.label})" if a.label else "")
    parts = [f'<g class="arc" data-kind="{a.kind}" data-head="{a.head}" data-dep="{a.dep}" '
             f'data-level="{s.level}">',
             f"<title>{text(tip)}</title>",
             f'<path class="arc-line" d="{arc_path(s, base, scale)}" fill="none" stroke="{style["color"]}" '
             f'stroke-width="{width:g}"{dashes} stroke-linecap="round"/>',
             f'<path class="arrowhead" d="{arrowhead(s.dep_x, base, scale)}" fill="{style["color"]}"/>']
    if a.caption:
        parts.append(f'<text class="arc-label" x="{(s.left + s.right) / 2:.1f}" y="{s.top:.1f}" '
                     f'font-size="{LABEL_PX * scale:.1f}" fill="#222222" text-anchor="middle" '
                     f'dominant-baseline="central" stroke="#FFFFFF" stroke-width="{4 * scale:g}" '
                     f'stroke-linejoin="round" paint-order="stroke">{text(a.caption)}</text>')
    return "".join([*parts, "</g>"])


def gold_tree_svg(system: pc.TransitionSystem, sentence: pc.Sentence, scale: float = 1.0) -> str:
    """The gold tree alone, every arc drawn alike with its label (no word on what a system can
    build, no crossing marked): the picture of a question about the tree itself.

    >>> s = pc.Sentence.from_heads(["She", "left"], [2, 0], ["nsubj", "root"])
    >>> svg = gold_tree_svg(pc.get_system("arc-hybrid"), s)
    >>> svg.count('class="arc"'), "<title>gold: She ← left (nsubj)</title>" in svg, "lost" in svg
    (2, True, False)
    """
    words = [Word(t, sentence.word(t), "buffer") for t in token_order(system, sentence.n)]
    gold = sorted(sentence.gold_arcs, key=lambda a: (a[1], a[0]))
    arcs = [DrawnArc(h, d, "built", sentence.label(d) or "") for h, d in gold]
    return arc_svg(words, arcs, scale).replace("<title>built: ", "<title>gold: ")


def configuration_pieces(system: pc.TransitionSystem, sentence: pc.Sentence, c: pc.Configuration,
                         kinds: dict[pc.Arc, str], crossing: set[pc.Arc] | frozenset[pc.Arc] = frozenset(),
                         scale: float = 1.0) -> Pieces:
    """The same drawing as :func:`ui.views.drawing.configuration_dot` in three pieces: the words
    and arcs as an arc diagram (SVG, :func:`configuration_svg`), the stack and buffer and the
    legend as DOT (by :mod:`ui.views.drawing`, whose styles both share)."""
    arcs = configuration_svg(system, sentence, c, kinds, crossing, scale)
    memory = new_graph("memory", scale)
    add_stack_and_buffer(memory, sentence, c, scale)
    legend = new_graph("legend", scale)
    add_legend(legend, legend_kinds(kinds), bool(crossing & kinds.keys()))
    return Pieces(arcs, memory.source, legend.source)
