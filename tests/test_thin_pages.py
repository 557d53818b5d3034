"""Every page script reads like a table of contents: at most 150 lines, its panels living in
``ui/<page>/`` (``pages/lab.py`` is the model).  A page that grows past that has a panel to move out.
"""

from __future__ import annotations

from pathlib import Path

import pytest

PAGES = sorted((Path(__file__).resolve().parent.parent / "pages").glob("*.py"))
MOST_LINES = 150


def test_the_pages_are_found():
    assert len(PAGES) >= 7 and any(p.name == "lab.py" for p in PAGES)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_a_page_is_a_short_script(page):
    lines = len(page.read_text(encoding="utf-8").splitlines())
    assert lines <= MOST_LINES, (f"pages/{page.name} has {lines} lines (at most {MOST_LINES}): move its "
                                 f"panels into ui/{page.stem}/")
