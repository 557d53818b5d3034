"""Files a user can take away: the derivation as CSV or LaTeX, the drawing as DOT, SVG or PNG.

Pure functions from values to text or bytes; the page hands them to ``st.download_button``
as callables, so nothing is produced until someone clicks.  SVG and PNG are laid out by
Graphviz's own library, which the ``pygraphviz`` wheel ships (no ``dot`` program needed):
:func:`render` runs it in this process, one drawing at a time (the library is not
thread-safe, and Streamlit serves each session from its own thread).  PNG is drawn at
``PNG_DPI`` = 192 dots per inch, twice a screen's, sharp on a slide.

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
import threading

import pandas as pd

# Symbols of the derivation tables, as LaTeX math (applied after escaping the text).
LATEX_SYMBOLS = {"←": r"$\leftarrow$", "→": r"$\rightarrow$", "∅": r"$\emptyset$"}
PNG_DPI = 192
_GRAPHVIZ = threading.Lock()  # one layout at a time in this process


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


def render(dot: str, fmt: str) -> bytes:
    """The drawing as ``svg`` or ``png`` bytes, laid out by Graphviz's ``dot`` engine in-process."""
    import pygraphviz  # imported here: DOT text and the tables need no Graphviz

    with _GRAPHVIZ:
        graph = pygraphviz.AGraph(string=dot)
        if fmt == "png":
            graph.graph_attr["dpi"] = str(PNG_DPI)
        return bytes(graph.draw(format=fmt, prog="dot"))
