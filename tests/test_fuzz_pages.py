"""Hostile input through the other pages: Practice, Lessons, the Oracle lab, the RL oracle, Welcome
and Glossary get the same generated strings as the stepper (tests/test_fuzz_inputs.py) in their
links and text fields.  No run ends in an exception or a traceback, no tag is let loose as markup,
and no download starts for a treebank code that is not one.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.test_fuzz_inputs import clean, hostile

PAGES = Path(__file__).resolve().parents[1] / "pages"
LINK_PARAMS = {  # the parameters each page reads (and some it does not), and how many links to try
    "practice": (("items", "title", "set", "view", "kind", "system", "level"), 25),
    "lessons": (("lesson", "step", "present"), 25),
    "lab": (("s", "sys", "moves"), 25),
    "rl": (("run",), 15),
    "welcome": (("s", "page"), 15),
    "glossary": (("term", "q"), 15),
}


def page(name: str) -> AppTest:
    return AppTest.from_file(str(PAGES / f"{name}.py"), default_timeout=60)


@pytest.fixture(scope="module")
def counted() -> Iterator[list[int]]:
    tally: list[int] = []
    yield tally
    assert sum(tally) >= 320, f"only {sum(tally)} hostile inputs were run"


@pytest.fixture(autouse=True)
def own_places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARSING_DATABASE_URL", f"sqlite:///{tmp_path / 'progress.sqlite3'}")
    monkeypatch.setenv("PARSING_JOBS_DIR", str(tmp_path / "jobs"))
    monkeypatch.setenv("PARSING_DOWNLOAD_CACHE", str(tmp_path / "cache"))


@pytest.mark.parametrize("name", list(LINK_PARAMS))
def test_hostile_links(name: str, counted: list[int]) -> None:
    rng = random.Random(name)
    params, tries = LINK_PARAMS[name]
    for _ in range(tries):
        query = {param: hostile(rng) for param in params}
        at = page(name)
        at.query_params.update(query)
        counted.append(clean(at.run(), f"{name} link {str(query)[:200]}"))


def test_hostile_sign_in_and_set_ids(counted: list[int]) -> None:
    rng = random.Random(4)
    at = page("practice").run()
    for _ in range(40):
        nickname, code = hostile(rng), hostile(rng)
        at.text_input(key="practice.nickname").input(nickname[:40])
        at.text_input(key="practice.class_code").input(code[:40])
        counted.append(clean(at.button(key="practice.register").click().run(), f"sign in {nickname!r}"))
        if any(b.key == "practice.sign_out" for b in at.button):
            at.button(key="practice.sign_out").click().run()
    at.segmented_control(key="practice.view").set_value("results").run()
    for _ in range(40):
        set_id = hostile(rng)
        counted.append(clean(at.text_input(key="practice.results_id").input(set_id).run(), f"set {set_id!r}"))


def test_hostile_lab_links_moves_and_treebank_codes(counted: list[int]) -> None:
    rng = random.Random(5)
    at = page("lab")
    at.session_state["lab.view"] = "One sentence, every oracle"  # only the open view is drawn
    at.run()
    for _ in range(40):
        link = rng.choice(["http://h/stepper?", "stepper?s=", ""]) + hostile(rng)
        counted.append(clean(at.text_input(key="lab.one.link").input(link).run(), f"lab link {link!r}"))
    at.text_input(key="lab.one.link").input("").run()
    for _ in range(40):
        moves = ".".join(hostile(rng) for _ in range(rng.randint(1, 5)))
        counted.append(clean(at.text_input(key="lab.one.moves").input(moves).run(), f"lab moves {moves!r}"))
    at.session_state["lab.view"] = "Agreement"
    at.run()
    at.radio(key="lab.source").set_value("ud").run()
    for _ in range(40):
        code = hostile(rng)
        counted.append(clean(at.text_input(key="lab.ud").input(code).run(), f"treebank code {code!r}"))
        assert not any(str(b.label).startswith("Download <") for b in at.button)
