"""The glossary page: every entry shown under its own anchor, and every link to it lands on one."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from parsing_core.references import REFERENCES, cite
from ui.views.glossary import PAGE, READING_LIST, anchors, load, term, term_html

REPO = Path(__file__).resolve().parents[1]


def test_every_entry_has_a_unique_anchor_and_a_text() -> None:
    entries = load()
    assert len({e.anchor for e in entries}) == len(entries) >= 15
    assert all(e.text and re.fullmatch(r"[a-z-]+", e.anchor) for e in entries)
    for needed in ("configuration", "projective", "spurious ambiguity", "cost", "reachable", "dead end",
                   "static oracle", "dynamic oracle", "exploration"):
        assert needed in anchors()


def test_the_basic_terms_have_entries_of_their_own() -> None:
    own = {e.term.lower(): e.anchor for e in load()}
    for needed in ("head", "dependent", "arc", "root", "las", "swap", "arc-decomposable", "exact oracle",
                   "approximate oracle"):
        assert needed in own, needed
    assert anchors()["las"] != anchors()["uas"]


def test_a_term_link_in_html_reuses_one_glossary_tab() -> None:
    assert term_html("heads", "head") == '<a href="/glossary#head" target="glossary" rel="opener">heads</a>'
    assert "&lt;b&gt;" in term_html("<b>", "head")  # the shown text is escaped


def test_a_term_the_glossary_lacks_cannot_be_linked() -> None:
    with pytest.raises(KeyError):
        term("flux capacitor")


def test_every_link_to_the_glossary_in_the_code_lands_on_an_entry() -> None:
    written = [m for f in [*REPO.glob("pages/*.py"), *REPO.glob("ui/**/*.py")]
               for m in re.findall(rf"{PAGE}#([a-z-]+)", f.read_text())]
    assert set(written) <= {*anchors().values(), READING_LIST}  # an entry, or the reading list


def test_the_page_shows_every_entry_under_its_anchor() -> None:
    at = AppTest.from_file(str(REPO / "pages" / "glossary.py"), default_timeout=30).run()
    assert not at.exception
    assert [h.value for h in at.subheader] == [e.term for e in load()] + ["Reading list"]
    assert [h.proto.anchor for h in at.subheader] == [e.anchor for e in load()] + ["reading-list"]


def test_each_entry_points_to_a_reading_list_on_the_page() -> None:
    at = AppTest.from_file(str(REPO / "pages" / "glossary.py"), default_timeout=30).run()
    captions = [c.value for c in at.caption]
    assert not any("From the reading list" in c for c in captions)  # named, linked nowhere
    assert any("Further reading:" in c and "](#reading-list)" in c for c in captions)
    listed = next(m.value for m in at.markdown if "de Lhoneux" in m.value)
    assert all(r.citation in listed for r in REFERENCES.values())


def test_every_entry_names_a_text_of_the_reading_list() -> None:
    assert all(cite(entry.reference) for entry in load())  # an unknown key raises


def test_the_stepper_links_its_terms() -> None:
    """The board's legend links its terms to their Glossary entries (the component makes each word
    of ``terms`` a link, in one reused tab)."""
    at = AppTest.from_file(str(REPO / "pages" / "stepper.py"), default_timeout=30).run()
    (component,) = at.get("bidi_component")
    data = json.loads(component.proto.bytes)  # the board's data travels as JSON bytes
    assert data["legend"].startswith("Cost = ") and "optimal" in data["legend"]
    linked = dict(data["terms"])
    assert linked["Cost"] == "/glossary#cost" and linked["optimal"] == "/glossary#optimal"
    known = set(anchors().values())
    assert all(href.removeprefix(f"{PAGE}#") in known for href in linked.values())
    js = (REPO / "ui" / "stepper" / "board.js").read_text()
    assert 'linkTerms(root.querySelector(".legend"), data.legend, data.terms' in js
    assert 'a.target = "glossary"' in js
