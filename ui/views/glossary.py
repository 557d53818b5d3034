"""The glossary: the lab's terms in our own words (``assets/glossary.toml``), and links to them.

The Glossary page shows every entry under a heading with its anchor; any page links a term
where it uses it with :func:`term` (Markdown), so a student can look a word up in one click.

>>> entries = load()
>>> entries[0].term, entries[0].anchor
('configuration', 'configuration')
>>> term("cost")
'[cost](/glossary#cost)'
>>> term("costs", "cost")
'[costs](/glossary#cost)'

Markdown links open a new tab on every click (Streamlit's rule for links that leave the page).
Text shown as HTML (``unsafe_allow_html``) links with :func:`term_html` instead: every such link
opens the Glossary in one tab named ``glossary``, so a second term reuses the tab the first opened
(``rel="opener"``: a tab opened without its opener cannot be found by its name again).

>>> term_html("heads", "head")
'<a href="/glossary#head" target="glossary" rel="opener">heads</a>'
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path

PATH = Path(__file__).resolve().parents[2] / "assets" / "glossary.toml"
PAGE = "/glossary"
TAB = "glossary"  # the one browser tab every HTML term link opens (and reuses)
READING_LIST = "reading-list"  # the Glossary's section with the sources of its entries

#: Where the entries' ideas come from (an entry's ``seed``): author, title, what it is.
READING = {
    "000": "Notes on the arc-eager parser: its static oracle (Eq. 1) and its dynamic oracle (§2.2), "
           "course notes (2021)",
    "001": "*Dynamic Oracle for the Arc-Standard Parser: from Approximation to Reinforcement Learning*, "
           "master's thesis, University of Padova",
    "002": "Miryam de Lhoneux, *Advanced Lecture on Dependency Parsing: Dynamic Oracles and Online "
           "Reordering*, Uppsala University (2017)",
    "003": "Jonathan May, *Lecture 9: Dependency Trees and Shift-Reduce Dependency Parsing*, USC CSCI 544 "
           "(2017)",
    "004": "Mark-Jan Nederhof, *Calculating the optimal step of arc-eager parsing for non-projective trees*",
}


@dataclass(frozen=True)
class Entry:
    term: str
    anchor: str
    text: str  # Markdown
    seed: str  # where the idea comes from (a seed's number)
    also: tuple[str, ...] = ()


@cache
def load(path: Path = PATH) -> tuple[Entry, ...]:
    """The entries, in the file's order (the order a newcomer meets them)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return tuple(Entry(t["term"], t["anchor"], t["text"].strip(), t.get("seed", ""), tuple(t.get("also", ())))
                 for t in data["term"])


def anchors() -> dict[str, str]:
    """Every spelling of every term (lower case) → its anchor."""
    table = {}
    for entry in load():
        for name in (entry.term, *entry.also):
            table[name.lower()] = entry.anchor
    return table


def anchor_of(name: str) -> str:
    """The anchor of ``name``'s entry (any spelling, any case); KeyError if there is none."""
    return anchors()[name.lower()]


def term_html(shown: str, name: str | None = None) -> str:
    """An HTML link from ``shown`` (escaped) to the entry of ``name``, opening in the Glossary's tab."""
    return f'<a href="{PAGE}#{anchor_of(name or shown)}" target="{TAB}" rel="opener">{escape(shown)}</a>'


def further_reading(entry: Entry) -> str:
    """Markdown: the source of the entry's idea, linked to the reading list ("" if none)."""
    if entry.seed not in READING:
        return ""
    return f"Further reading: {READING[entry.seed]} ([reading list](#{READING_LIST}))."


def term(shown: str, name: str | None = None) -> str:
    """Markdown linking ``shown`` to the entry of ``name`` (``shown`` itself by default);
    raises KeyError for a term the glossary does not have, so a typo cannot ship."""
    return f"[{shown}]({PAGE}#{anchor_of(name or shown)})"
