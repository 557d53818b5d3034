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
>>> reading("may-2017")
"[May's lecture](/glossary#reading-list)"

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

from parsing_core.references import cite

PATH = Path(__file__).resolve().parents[2] / "assets" / "glossary.toml"
PAGE = "/glossary"
TAB = "glossary"  # the one browser tab every HTML term link opens (and reuses)
READING_LIST = "reading-list"  # the Glossary's section with the sources of its entries

@dataclass(frozen=True)
class Entry:
    term: str
    anchor: str
    text: str  # Markdown
    reference: str  # where the idea comes from: a key of parsing_core.references.REFERENCES
    also: tuple[str, ...] = ()


@cache
def load(path: Path = PATH) -> tuple[Entry, ...]:
    """The entries, in the file's order (the order a newcomer meets them)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return tuple(Entry(t["term"], t["anchor"], t["text"].strip(), t.get("reference", ""),
                       tuple(t.get("also", ()))) for t in data["term"])


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
    if not entry.reference:
        return ""
    return f"Further reading: {cite(entry.reference).short} ([reading list](#{READING_LIST}))."


def reading(key: str) -> str:
    """Markdown naming the text ``key`` by its short name, linked to the Glossary's reading list
    (its full citation), e.g. "the arc-standard oracle thesis"."""
    return f"[{cite(key).short}]({PAGE}#{READING_LIST})"


def term(shown: str, name: str | None = None) -> str:
    """Markdown linking ``shown`` to the entry of ``name`` (``shown`` itself by default);
    raises KeyError for a term the glossary does not have, so a typo cannot ship."""
    return f"[{shown}]({PAGE}#{anchor_of(name or shown)})"
