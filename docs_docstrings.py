"""The library's docstrings, shown in the documentation site as the reader of the code sees them.

``parsing_core``'s docstrings are written for ``help()`` and doctest: reStructuredText habits
(``:class:`Sentence``` roles, definition lists of a term and its indented meaning, ``>>>``
examples), while mkdocstrings renders a docstring as Markdown.  This griffe extension, named in
``mkdocs.yml``, rewrites each docstring on its way to the page, never the code:

* a Sphinx role becomes code: ``:func:`run``` → ```run```, and a paragraph's closing ``::``
  (a literal block follows, indented: Markdown's code block) a colon;
* a term followed by its indented meaning becomes a Markdown definition (``term`` then
  ``:   meaning``; the ``def_list`` extension draws it);
* a run of ``>>>`` lines and their output becomes a ``pycon`` block, instead of Markdown's
  nested quotes;
* a simple table (``=====  =====`` borders around a header and the rows, the systems' worked
  derivations) becomes a Markdown table.

>>> markdown(":func:`run` produces a trace\\n\\ntoken\\n    A word, numbered 1..n.")
'`run` produces a trace\\n\\ntoken\\n:   A word, numbered 1..n.\\n'

tests/test_docs.py checks the three on the library's own docstrings.
"""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension, Object

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|attr|data|exc|obj|const):`~?([^`]+)`")
EXAMPLE = (">>> ", "... ")
LITERAL = re.compile(r"(\S)::$", flags=re.M)
BORDER = re.compile(r"^=+(?: +=+)+\s*$")


def roles_as_code(text: str) -> str:
    """``:mod:`parsing_core.oracles``` → ```parsing_core.oracles```; ``columns::`` → ``columns:``."""
    return LITERAL.sub(r"\1:", ROLE.sub(r"`\1`", text))


def is_term(lines: list[str], i: int, in_definitions: bool) -> bool:
    """A definition's term: an unindented line whose next line is indented by four spaces, after a
    blank line, a heading's underline, or (in a run of definitions) the meaning before it."""
    line, before = lines[i], lines[i - 1] if i else ""
    following = lines[i + 1] if i + 1 < len(lines) else ""
    if not line.strip() or line.startswith((" ", ">>>", "*", "-", ":")):
        return False
    if not (following.startswith("    ") and following.strip()):
        return False
    underline = bool(before.strip()) and set(before.strip()) <= set("-=~")
    return not before.strip() or underline or (in_definitions and before.startswith("    "))


def definitions(lines: list[str]) -> list[str]:
    """Each term with its indented meaning, in Markdown's definition-list form."""
    out: list[str] = []
    i, in_definitions = 0, False
    while i < len(lines):
        in_definitions = is_term(lines, i, in_definitions)
        if not in_definitions:
            out.append(lines[i])
            i += 1
            continue
        if out and out[-1].strip():
            out.append("")
        meaning = []
        term = lines[i]
        i += 1
        while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip() and
                                  i + 1 < len(lines) and lines[i + 1].startswith("    ")):
            meaning.append(lines[i][4:])
            i += 1
        out += [term, ":   " + "\n    ".join(meaning), ""]
        in_definitions = True
    return out


def examples(lines: list[str]) -> list[str]:
    """Runs of ``>>>`` lines, with the output under them, fenced as ``pycon``."""
    out: list[str] = []
    inside = False
    for line in lines:
        if line.startswith(EXAMPLE[0]) and not inside:
            out += ["```pycon"] if not out or not out[-1].strip() else ["", "```pycon"]
            inside = True
        elif inside and not line.strip():
            out.append("```")
            inside = False
        out.append(line)
    return out + (["```"] if inside else [])


def cells(line: str, starts: list[int]) -> list[str]:
    """A table row cut at the columns' starts (moved left to a space where a word runs over)."""
    cuts = []
    for start in starts[1:]:
        while 0 < start < len(line) and line[start - 1] != " " and line[start] != " ":
            start -= 1
        cuts.append(start)
    bounds = zip([0, *cuts], [*cuts, len(line)])
    return [line[a:b].strip().replace("|", "\\|") for a, b in bounds]


def markdown_row(values: list[str]) -> str:
    return "| " + " | ".join(values) + " |"


def simple_tables(lines: list[str]) -> list[str]:
    """reStructuredText's simple tables (border, header, border, rows, border) as Markdown tables."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        borders = [k for k in range(i, len(lines)) if BORDER.match(lines[k])][:3]
        if not borders or borders[0] != i or len(borders) < 3:
            out.append(lines[i])
            i += 1
            continue
        starts = [m.start() for m in re.finditer(r"=+", lines[i])]
        header = [cells(line, starts) for line in lines[i + 1:borders[1]] if line.strip()]
        rows = [cells(line, starts) for line in lines[borders[1] + 1:borders[2]] if line.strip()]
        out += [markdown_row(header[0] if header else [""] * len(starts)), "|" + "---|" * len(starts)]
        out += [markdown_row(row) for row in rows]
        i = borders[2] + 1
    return out


def markdown(text: str) -> str:
    """A docstring as Markdown: roles as code, tables, definitions, fenced examples."""
    return "\n".join(examples(definitions(simple_tables(roles_as_code(text).split("\n")))))


class RstToMarkdown(Extension):
    """Rewrite every docstring the site documents with :func:`markdown`."""

    def on_instance(self, *, obj: Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
