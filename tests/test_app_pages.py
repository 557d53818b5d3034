"""Every page runs without an exception, and the welcome page's live demo shows a full derivation.

These use Streamlit's headless ``AppTest``: the script runs in-process, no server or browser.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import parsing_core as pc
from ui.views.tables import derivation_table

REPO = Path(__file__).resolve().parent.parent
PAGES = sorted((REPO / "pages").glob("*.py"))
TIMEOUT = 30


def run_script(path: Path) -> AppTest:
    at = AppTest.from_file(str(path), default_timeout=TIMEOUT)
    return at.run()


@pytest.mark.parametrize("page", PAGES, ids=[p.stem for p in PAGES])
def test_page_loads(page: Path) -> None:
    at = run_script(page)
    assert not at.exception, at.exception


def test_app_loads() -> None:
    at = run_script(REPO / "app.py")
    assert not at.exception, at.exception
    assert at.title[0].value == "Transition parsing lab"


def test_welcome_says_where_to_start_in_one_click() -> None:
    """Lesson 1, the Stepper and Practice first, each one click; then the pages for teachers."""
    at = run_script(REPO / "app.py")
    links = [(link.proto.label, link.proto.page, link.proto.query_string) for link in at.get("page_link")]
    assert links[:3] == [("Start Lesson 1", "lessons", "lesson=01-transition-parsing&step=1"),
                         ("Open the Stepper", "stepper", ""), ("Start practising", "practice", "")]
    assert [label for label, _, _ in links[3:6]] == ["Train", "Oracle lab", "RL oracle"]
    assert all(link.proto.page_script_hash for link in at.get("page_link"))  # a page of the app, this tab


def test_welcome_links_its_terms_to_one_glossary_tab_and_hides_server_paths(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARSING_DATA_DIR", str(tmp_path))
    at = run_script(REPO / "app.py")
    intro = next(m for m in at.markdown if "transition-based parser" in m.value)
    assert intro.proto.allow_html
    for name, anchor in (("head", "head"), ("configuration", "configuration"), ("ROOT", "root")):
        assert f'<a href="/glossary#{anchor}" target="glossary" rel="opener">{name}</a>' in intro.value
    shown = [m.value for m in at.main.children.values() if getattr(m, "type", "") != "expandable"
             and hasattr(m, "value") and isinstance(m.value, str)]
    assert not any(str(tmp_path) in text for text in shown)  # the path only in the expander for admins
    (admin,) = [e for e in at.expander if "runs the server" in e.label]
    assert any(str(tmp_path) in m.value for m in admin.markdown)


@pytest.mark.parametrize("system", pc.list_systems())
def test_welcome_derivation_ends_with_empty_buffer(system: str) -> None:
    at = run_script(REPO / "pages" / "welcome.py")
    at.selectbox(key="welcome.system").set_value(system).run()
    assert not at.exception, at.exception
    table = derivation_on(at)
    assert list(table.columns) == ["ROW", "TRANSITION", "STACK", "BUFFER", "ARCS"]
    assert table.iloc[-1]["BUFFER"] == "[]"


def derivation_on(at: AppTest) -> pd.DataFrame:
    """The one table on the page with a TRANSITION column."""
    tables = [t.value for t in at.table if "TRANSITION" in t.value.columns]
    assert len(tables) == 1, f"expected one derivation table, found {len(tables)}"
    return tables[0]


# The arc-eager derivation as the first seed text prints it ("static oracle (Eq. 1) is then:").
ARC_EAGER_SEED = """
ROW  TRANSITION  STACK               BUFFER                    ARCS
1    -           [ROOT]              [He sent her a letter .]  ∅
2    SH          [ROOT He]           [sent her a letter .]     -
3    LA          [ROOT]              [sent her a letter .]     +(He ← sent)
4    RA          [ROOT sent]         [her a letter .]          +(ROOT → sent)
5    RA          [ROOT sent her]     [a letter .]              +(sent → her)
6    SH          [ROOT sent her a]   [letter .]                -
7    LA          [ROOT sent her]     [letter .]                +(a ← letter)
8    RE          [ROOT sent]         [letter .]                -
9    RA          [ROOT sent letter]  [.]                       +(sent → letter)
10   RE          [ROOT sent]         [.]                       -
11   RA          [ROOT sent .]       []                        +(sent → .)
"""


def parse_seed_table(text: str) -> list[list[object]]:
    """Rows of a table written with two-or-more-space gaps; ``-`` marks an empty cell."""
    lines = text.strip().splitlines()[1:]
    rows = [re.split(r"\s{2,}", line.strip()) for line in lines]
    return [[int(r[0]), *("" if cell == "-" else cell for cell in r[1:])] for r in rows]


def test_derivation_table_matches_the_seed() -> None:
    system, sentence = pc.get_system("arc-eager"), pc.default_sentence()
    trace = pc.replay(system, sentence, pc.gold_sequence(system, sentence))
    assert derivation_table(trace).values.tolist() == parse_seed_table(ARC_EAGER_SEED)


def test_root_last_arcs_point_left() -> None:
    system, sentence = pc.get_system("arc-hybrid", root_last=True), pc.default_sentence()
    trace = pc.replay(system, sentence, pc.gold_sequence(system, sentence))
    assert "+(sent ← ROOT)" in derivation_table(trace)["ARCS"].tolist()


def test_library_errors_show_as_messages_not_tracebacks() -> None:
    def script() -> None:
        import parsing_core as pc
        from ui.widgets.errors import show_errors

        with show_errors():
            pc.Sentence.from_heads(["a", "b"], [2, 1])

    at = AppTest.from_function(script, default_timeout=TIMEOUT).run()
    assert not at.exception
    assert at.error[0].value == "cycle 1 → 2 → 1: every token must reach ROOT"
