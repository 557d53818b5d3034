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
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PATH = Path(__file__).resolve().parents[2] / "assets" / "glossary.toml"
PAGE = "/glossary"


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


def term(shown: str, name: str | None = None) -> str:
    """Markdown linking ``shown`` to the entry of ``name`` (``shown`` itself by default);
    raises KeyError for a term the glossary does not have, so a typo cannot ship."""
    return f"[{shown}]({PAGE}#{anchors()[(name or shown).lower()]})"
