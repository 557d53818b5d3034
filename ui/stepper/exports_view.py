"""Files a user can take away: the derivation as CSV or LaTeX, the drawing as DOT, SVG or PNG.

Pure functions from values to text or bytes; the page hands them to ``st.download_button``
as callables, so nothing is produced until someone clicks.  SVG and PNG are laid out by
Graphviz's own library, which the ``pygraphviz`` wheel ships (no ``dot`` program needed).
:func:`render` runs it in a child Python process: the library is not thread-safe (Streamlit
serves each session from its own thread), and on some drawings it aborts the process it runs
in (Graphviz 14.1's crossing minimisation fails an assertion on many crossing labelled arcs in
one row), which must not take the page down.  Such a drawing is drawn again with its arcs'
labels placed after the layout (``xlabel``), which that step never sees.  PNG is drawn at
``PNG_DPI`` = 192 dots per inch, twice a screen's, sharp on a slide, unless that would make it
more than ``MAX_PNG_PX`` = 16,000 pixels long (roughly 75 words, as long as they are); then at
fewer.

>>> import pandas as pd
>>> print(latex_text(pd.DataFrame({"ARCS": ["+(He ← sent)"], "STACK": ["[ROOT 50% & $]"]})))
\\begin{tabular}{ll}
\\toprule
ARCS & STACK \\\\
\\midrule
+(He $\\leftarrow$ sent) & [ROOT 50\\% \\& \\$] \\\\
\\bottomrule
\\end{tabular}
<BLANKLINE>
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys

import pandas as pd

# Symbols of the derivation tables, as LaTeX math (applied after escaping the text).
LATEX_SYMBOLS = {"←": r"$\leftarrow$", "→": r"$\rightarrow$", "∅": r"$\emptyset$"}
PNG_DPI = 192
MAX_PNG_PX = 16_000
RENDER_TIMEOUT_S = 60
# The child: DOT on stdin, the picture on stdout; argv = format, dots per inch, longest side in px.
LAYOUT = """
import sys
import pygraphviz
fmt, dpi, most = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
graph = pygraphviz.AGraph(string=sys.stdin.read())
graph.layout(prog="dot")
if fmt == "png":
    width, height = (float(x) for x in graph.graph_attr["bb"].split(",")[2:])
    graph.graph_attr["dpi"] = f"{min(dpi, 72 * most / max(width, height, 1.0)):.2f}"
sys.stdout.buffer.write(graph.draw(format=fmt))
"""


def csv_text(frame: pd.DataFrame) -> str:
    return frame.to_csv(index=False)


def latex_text(frame: pd.DataFrame) -> str:
    """A booktabs ``tabular`` with LaTeX's special characters escaped, arrows as math symbols."""
    text = frame.to_latex(index=False, escape=True)
    for symbol, latex in LATEX_SYMBOLS.items():
        text = text.replace(symbol, latex)
    return text


def can_render() -> bool:
    """Is Graphviz's library installed (``pygraphviz``, needed for SVG and PNG, not for DOT)?"""
    return importlib.util.find_spec("pygraphviz") is not None


class RenderError(RuntimeError):
    """Graphviz could not draw the picture."""


def render(dot: str, fmt: str) -> bytes:
    """The drawing as ``svg`` or ``png`` bytes, laid out by Graphviz's ``dot`` engine; if Graphviz
    fails on it, drawn again with the arcs' labels outside the layout."""
    try:
        return run_graphviz(dot, fmt)
    except RenderError:
        return run_graphviz(labels_outside(dot), fmt)


def run_graphviz(dot: str, fmt: str) -> bytes:
    """Lay out and draw ``dot`` in a child Python process (see the module's docstring)."""
    command = [sys.executable, "-c", LAYOUT, fmt, str(PNG_DPI), str(MAX_PNG_PX)]
    try:
        done = subprocess.run(command, input=dot.encode(), capture_output=True, timeout=RENDER_TIMEOUT_S)
    except subprocess.TimeoutExpired as err:
        raise RenderError(f"Graphviz took more than {RENDER_TIMEOUT_S} s") from err
    if done.returncode != 0 or not done.stdout:
        why = done.stderr.decode(errors="replace")[-300:]
        raise RenderError(f"Graphviz failed with exit status {done.returncode}: {why}")
    return done.stdout


def labels_outside(dot: str) -> str:
    """Arc labels as ``xlabel``: placed once the layout is done, so they take no part in it.

    >>> labels_outside('\\tw2 -> w1 [label=<nsubj> color=blue]')
    '\\tw2 -> w1 [xlabel=<nsubj> color=blue]'
    """
    return re.sub(r"^(\s*w\d+ -> w\d+ \[)label=", r"\1xlabel=", dot, flags=re.M)
