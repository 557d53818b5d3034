"""Files a user can take away: the derivation as CSV or LaTeX, the drawing as DOT, SVG or PNG.

Pure functions from values to text or bytes; the page hands them to ``st.download_button``
as callables, so nothing is produced until someone clicks.  SVG and PNG need Graphviz's
``dot`` program (:func:`can_render`); DOT text needs nothing.

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

import shutil

import graphviz
import pandas as pd

# Symbols of the derivation tables, as LaTeX math (applied after escaping the text).
LATEX_SYMBOLS = {"←": r"$\leftarrow$", "→": r"$\rightarrow$", "∅": r"$\emptyset$"}


def csv_text(frame: pd.DataFrame) -> str:
    return frame.to_csv(index=False)


def latex_text(frame: pd.DataFrame) -> str:
    """A booktabs ``tabular`` with LaTeX's special characters escaped, arrows as math symbols."""
    text = frame.to_latex(index=False, escape=True)
    for symbol, latex in LATEX_SYMBOLS.items():
        text = text.replace(symbol, latex)
    return text


def can_render() -> bool:
    """Is Graphviz's ``dot`` program installed (needed for SVG and PNG, not for DOT)?"""
    return shutil.which("dot") is not None


def render(dot: str, fmt: str) -> bytes:
    """The drawing as ``svg`` or ``png`` bytes, rendered by ``dot``."""
    return graphviz.Source(dot).pipe(format=fmt)
