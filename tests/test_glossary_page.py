"""The glossary page: every entry shown under its own anchor, and every link to it lands on one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ui.views.glossary import PAGE, anchors, load, term

REPO = Path(__file__).resolve().parents[1]


def test_every_entry_has_a_unique_anchor_and_a_text() -> None:
    entries = load()
    assert len({e.anchor for e in entries}) == len(entries) >= 15
    assert all(e.text and re.fullmatch(r"[a-z-]+", e.anchor) for e in entries)
    for needed in ("configuration", "projective", "spurious ambiguity", "cost", "reachable", "dead end",
                   "static oracle", "dynamic oracle", "exploration"):
        assert needed in anchors()


def test_a_term_the_glossary_lacks_cannot_be_linked() -> None:
    with pytest.raises(KeyError):
        term("flux capacitor")


def test_every_link_to_the_glossary_in_the_code_lands_on_an_entry() -> None:
    written = [m for f in [*REPO.glob("pages/*.py"), *REPO.glob("ui/**/*.py")]
               for m in re.findall(rf"{PAGE}#([a-z-]+)", f.read_text())]
    assert set(written) <= set(anchors().values())


def test_the_page_shows_every_entry_under_its_anchor() -> None:
    at = AppTest.from_file(str(REPO / "pages" / "glossary.py"), default_timeout=30).run()
    assert not at.exception
    assert [h.value for h in at.subheader] == [e.term for e in load()]
    assert [h.proto.anchor for h in at.subheader] == [e.anchor for e in load()]


def test_the_stepper_links_its_terms() -> None:
    at = AppTest.from_file(str(REPO / "pages" / "stepper.py"), default_timeout=30).run()
    captions = " ".join(c.value for c in at.caption)
    assert "[Cost](/glossary#cost)" in captions and "[optimal](/glossary#optimal)" in captions
