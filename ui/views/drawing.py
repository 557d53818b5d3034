"""Draw a configuration as DOT text: the words with their arcs, then the stack and the buffer.

Pure functions: a configuration and the kind of each arc in, DOT source out; the page shows
it with ``st.graphviz_chart`` and tests read its structure.  The words stand in a row in
sentence order (ROOT first, or last when the system puts it there) and arcs arch over them
from head to dependent.  Arcs are told apart by line style *and* colour (Okabe–Ito, safe for
colour-blind readers), never by colour alone:

==============  ==============  ==========  =====================================
kind            line            colour      meaning
==============  ==============  ==========  =====================================
correct         solid           blue        built, and in the gold tree
wrong           bold dashed     vermillion  built, but not in the gold tree
reachable       dotted          green       gold, not built yet, still possible
lost            thin dashed     grey        gold, can no longer be built
built           solid           black       built (the sentence has no gold tree)
==============  ==============  ==========  =====================================

A gold arc that crosses another gold arc (non-projective) carries the mark ✕.  Every piece
of user text goes into HTML-like labels through :func:`html.escape`, so a token such as
``<script>`` or ``"`` is drawn as the characters it is.

The page shows the drawing in three :class:`Pieces`, each at its natural size: the words
with their arcs as an arc diagram (SVG from :mod:`ui.views.arc_diagram`, which reads the styles
above: Graphviz flattens long arcs into a band over the words, an arc diagram stacks them by
what they contain), the stack and buffer, the legend (DOT).  So a long sentence makes the row
of words longer (the page scrolls it sideways) and never makes the type smaller: words are set
in ``WORD_POINTS`` = 14 pt, which a browser draws as 18.7 px type (1 pt = 4/3 px; a word's text
box is 21 px high in Chromium), 1.5 times that in presenter mode (28 px type), for any sentence
length and window.  The promise is at least 12 px, at 1440 px wide and on a phone
(tests/browser/test_drawing_browser.py measures it on a 25-token sentence).
:func:`configuration_dot` draws the whole configuration as one Graphviz picture, for the
downloads (DOT, SVG, PNG).
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import graphviz

import parsing_core as pc
from ui.views.safe_text import visible

Arc = pc.Arc
STYLES: dict[str, dict[str, str]] = {
    "correct": {"style": "solid", "color": "#0072B2", "penwidth": "2.2"},
    "wrong": {"style": "dashed,bold", "color": "#D55E00", "penwidth": "2.4"},
    "reachable": {"style": "dotted", "color": "#009E73", "penwidth": "1.8"},
    "lost": {"style": "dashed", "color": "#999999", "penwidth": "1.2"},
    "built": {"style": "solid", "color": "#000000", "penwidth": "1.8"},
}
MEANING = {
    "correct": "built, correct", "wrong": "built, wrong",
    "reachable": "gold, still reachable", "lost": "gold, lost", "built": "built",
}
SAMPLES = {  # the lines in the legend, drawn with characters in the arc's colour
    "correct": "━━━━", "wrong": "▬ ▬ ▬", "reachable": "• • • • •", "lost": "- - - - -", "built": "━━━━",
}
FILLS = {"stack": "#CFE3F3", "buffer": "#FFFFFF", "done": "#EEEEEE"}  # where a token is
MARK = "#F0E442"  # the stack top and the buffer front (also marked in words)
PLACES = {"stack": "word on the stack", "buffer": "word in the buffer", "done": "word done with"}
CROSSING = "✕"


WORD_POINTS = 14  # the words' type size, in points, at scale 1
SMALL_POINTS = 9  # token numbers and the ▲ marks
ARC_POINTS = 11  # arc labels


@dataclass(frozen=True)
class Pieces:
    """The drawing as the page shows it: three DOT graphs, each drawn at its own natural size."""

    arcs: str  # the words in a row, with the arcs over them: SVG text (:mod:`ui.views.arc_diagram`)
    memory: str  # the stack σ and the buffer β
    legend: str  # a key to the arcs in use and to the word boxes


def configuration_dot(system: pc.TransitionSystem, sentence: pc.Sentence, c: pc.Configuration,
                      kinds: dict[Arc, str], crossing: set[Arc] | frozenset[Arc] = frozenset(),
                      scale: float = 1.0) -> str:
    """DOT source of configuration ``c`` in one picture: words and arcs (each drawn as its kind),
    then the stack and buffer with the legend beside them."""
    dot = new_graph("configuration", scale)
    add_words_and_arcs(dot, system, sentence, c, kinds, crossing, scale)
    add_stack_and_buffer(dot, sentence, c, scale)
    dot.edge("w1" if sentence.n else "w0", "memory", style="invis", constraint="true")  # below the words
    with dot.subgraph(name="legend_beside_memory") as row:
        row.attr(rank="same")
        add_legend(row, legend_kinds(kinds), bool(crossing & kinds.keys()))
        row.edge("memory", "legend", style="invis", minlen="3")
    return dot.source


def new_graph(name: str, scale: float) -> graphviz.Digraph:
    """An empty graph with the drawing's fonts; a word box keeps its margin in proportion to its type."""
    dot = graphviz.Digraph(name)
    dot.attr(nodesep="0.3", ranksep="0.45")
    dot.attr("node", fontname="Helvetica", fontsize=f"{WORD_POINTS * scale:g}", shape="box",
             style="rounded,filled", margin=f"{0.11 * scale:g},{0.055 * scale:g}")
    dot.attr("edge", fontname="Helvetica", fontsize=f"{ARC_POINTS * scale:g}", constraint="false")
    return dot


def add_words_and_arcs(dot: graphviz.Digraph, system: pc.TransitionSystem, sentence: pc.Sentence,
                       c: pc.Configuration, kinds: dict[Arc, str], crossing: set[Arc] | frozenset[Arc],
                       scale: float) -> None:
    add_words(dot, system, sentence, c, scale)
    for arc, kind in sorted(kinds.items()):
        add_arc(dot, sentence, c, arc, kind, arc in crossing)


def legend_kinds(kinds: dict[Arc, str]) -> list[str]:
    """The kinds of arc in use, in the order of :data:`STYLES`."""
    return sorted(set(kinds.values()), key=list(STYLES).index)


LONGEST = 80  # characters of one token drawn; Graphviz refuses an HTML label over 16,384


def text(s: str) -> str:
    """User text made safe for an HTML-like label (``<``, ``&``, quotes become entities; a
    control character such as NUL, which would end the DOT text, is drawn as its picture ␀;
    a token longer than :data:`LONGEST` characters is cut, ending in …)."""
    shown = s if len(s) <= LONGEST else s[: LONGEST - 1] + "…"
    return html.escape(visible(shown), quote=True)


def token_order(system: pc.TransitionSystem, n: int) -> list[int]:
    """Tokens left to right as drawn: ROOT first, or last when the system puts it there."""
    words = list(range(1, n + 1))
    return [*words, 0] if system.root_last else [0, *words]


def where(c: pc.Configuration, token: int) -> str:
    return "stack" if token in c.stack else "buffer" if token in c.buffer else "done"


def add_words(dot: graphviz.Digraph, system: pc.TransitionSystem, sentence: pc.Sentence,
              c: pc.Configuration, scale: float) -> None:
    """The sentence as a row of boxes, filled by where each token is, numbered below the word."""
    order = token_order(system, sentence.n)
    with dot.subgraph(name="words") as row:
        row.attr(rank="same")
        for t in order:
            number = f"<br/><font point-size='{SMALL_POINTS * scale:g}'>{t}</font>" if t else ""
            place = where(c, t)
            row.node(f"w{t}", label=f"<{text(sentence.word(t))}{number}>", fillcolor=FILLS[place],
                     fontcolor="#666666" if place == "done" else "#000000", tooltip=place)
        for a, b in zip(order, order[1:]):
            row.edge(f"w{a}", f"w{b}", style="invis", weight="100", constraint="true")


def add_arc(dot: graphviz.Digraph, sentence: pc.Sentence, c: pc.Configuration, arc: Arc, kind: str,
            crossing: bool) -> None:
    """One arc, head → dependent; built arcs show their label, a crossing gold arc its ✕."""
    h, d = arc
    label = c.label_of(d) if kind in ("correct", "wrong", "built") else None
    caption = " ".join(filter(None, [CROSSING if crossing else "", label or ""]))
    dot.edge(f"w{h}", f"w{d}", label=f"<{text(caption)}>" if caption else None,
             tooltip=MEANING[kind], **STYLES[kind])


def cells(sentence: pc.Sentence, tokens: tuple[int, ...], marked: int | None, mark: str, scale: float) -> str:
    """Table cells for the tokens, the ``marked`` one highlighted and captioned ``mark``."""
    out = []
    for t in tokens:
        if t == marked:
            out.append(f"<td bgcolor='{MARK}'><b>{text(sentence.word(t))}</b><br/>"
                       f"<font point-size='{SMALL_POINTS * scale:g}'>{mark}</font></td>")
        else:
            out.append(f"<td>{text(sentence.word(t))}</td>")
    return "".join(out) or "<td><i>empty</i></td>"


def add_stack_and_buffer(dot: graphviz.Digraph, sentence: pc.Sentence, c: pc.Configuration,
                         scale: float) -> None:
    """Stack σ (bottom → top, top marked) and buffer β (front → back, front marked) as rows of cells."""
    stack = cells(sentence, c.stack, c.s0, "▲ top", scale)
    buffer = cells(sentence, c.buffer, c.b0, "▲ front", scale)
    table = ("<<table border='0' cellborder='1' cellspacing='0' cellpadding='6'>"
             f"<tr><td bgcolor='{FILLS['stack']}' align='left'><b>stack σ</b></td>{stack}</tr>"
             f"<tr><td align='left'><b>buffer β</b></td>{buffer}</tr></table>>")
    dot.node("memory", label=table, shape="plaintext", style="")


def add_legend(dot: graphviz.Digraph, kinds: list[str], crossing: bool) -> None:
    """A key, in a box: a sample of each kind of arc in use, then the word boxes' colours."""
    rows = "".join(f"<tr><td align='left'><font color='{STYLES[k]['color']}'><b>{SAMPLES[k]}</b></font></td>"
                   f"<td align='left'>{MEANING[k]}</td></tr>" for k in kinds)
    if crossing:
        rows += f"<tr><td>{CROSSING}</td><td align='left'>crossing gold arc (non-projective)</td></tr>"
    rows += "".join(f"<tr><td border='1' style='rounded' color='#000000' bgcolor='{FILLS[place]}'> </td>"
                    f"<td align='left'>{meaning}</td></tr>" for place, meaning in PLACES.items())
    box = "border='1' style='rounded' color='#BBBBBB' cellborder='0' cellpadding='3' cellspacing='2'"
    dot.node("legend", label=f"<<table {box}>{rows}</table>>", shape="plaintext", style="")
