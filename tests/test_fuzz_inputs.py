"""Hostile input through the running pages (``AppTest``): no traceback, no markup let loose.

A deterministic generator makes hostile strings — HTML and script tags, Markdown, Graphviz DOT
that tries to close a label or a graph, huge and empty strings, control characters, right-to-left
marks, invalid UTF-8, absurd numbers — and feeds them to every input of every page: the stepper's
link parameters, typed words, pasted CoNLL-U and its data-directory field, the Train page's
folder field.  Each run must end without an exception or an error element that shows a traceback,
and every drawing must still be one well-formed graph whose words are drawn as the text they are.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from pygraphviz import AGraph
from streamlit.testing.v1 import AppTest

REPO = Path(__file__).resolve().parents[1]
STEPPER, TRAIN = REPO / "pages" / "stepper.py", REPO / "pages" / "train.py"
PIECES = [
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "**bold** [link](javascript:alert(1))",
    '"];\nx -> y [label="pwned', "}\ndigraph evil {", "<<b>html label</b>>", "\\N \\G \\E", "&amp; &#x3C;",
    "\x00", "\x1b[31m", "\u202etxet", "\ufeff", "\t", "\r\n", "🙂" * 3, "ROOT", "0", "-1", "9" * 30, "_", "",
    " ", "%00", "%2e%2e/", "../../etc/passwd", "$(touch /tmp/x)", "{{7*7}}", "${jndi:x}", "\\", "'", "|",
]
SYSTEMS = ["arc-eager", "arc-standard", "arc-hybrid-swap", "x", "", "arc-eager\x00"]


def hostile(rng: random.Random, longest: int = 60) -> str:
    """A string of 1 to 6 hostile pieces, sometimes blown up to many kilobytes."""
    text = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 6)))
    if rng.random() < 0.05:
        text *= rng.randint(200, 2000)
    return text[: longest * 400]


def queries(rng: random.Random, n: int) -> Iterator[dict[str, str]]:
    for _ in range(n):
        yield {
            "s": rng.choice([hostile(rng), "he-sent-her-a-letter", "treebank:" + hostile(rng), "custom:" +
                             hostile(rng)]),
            "sys": rng.choice(SYSTEMS), "opt": hostile(rng), "lab": rng.choice(["1", hostile(rng)]),
            "oracle": rng.choice(["static", hostile(rng)]), "vs": hostile(rng),
            "moves": ".".join(rng.choice(["SH", "LA", "RA", "RE", "SW", hostile(rng)]) for _ in
                              range(rng.choice([0, 3, 40, 400]))),
            "step": rng.choice(["-1", "3", "999999999999", hostile(rng)]), "present": hostile(rng),
            "hide": rng.choice(["1", hostile(rng)]),
        }


def conllu(rng: random.Random) -> str:
    """Pasted CoNLL-U: mostly well-formed lines with hostile forms, heads and labels."""
    lines = [f"# text = {hostile(rng)}"]
    for i in range(1, rng.randint(1, 8)):
        form, label = hostile(rng).replace("\t", " ").replace("\n", " "), rng.choice(["root", hostile(rng)])
        head = rng.choice([str(i - 1), "0", hostile(rng)])
        lines.append("\t".join([str(i), form or "_", "_", "_", "_", "_", head, label or "_", "_", "_"]))
    return "\n".join(lines) + "\n"


def clean(at: AppTest, what: str) -> int:
    """Assert the run ended without a traceback and with well-formed drawings; returns 1."""
    what = what[:300]
    assert not at.exception, f"{what}: {str(at.exception)[:1000]}"
    for element in at.error:
        assert "Traceback" not in element.value, f"{what}: {element.value[:300]}"
    shown = [*at.markdown, *at.caption, *at.error, *at.warning, *at.info, *at.success]
    for element in shown:  # user text goes into Markdown made inert: no tag survives as markup
        assert not re.search(r"<(script|img|b)\b", element.value), f"{what}: {element.value[:300]}"
    for chart in at.get("graphviz_chart"):
        graph = AGraph(string=chart.proto.spec)  # one graph, parsed whole: no label or graph closed early
        assert graph.name in {"configuration", "arcs", "memory", "legend"}, f"{what}: {graph.name}"
    return 1


@pytest.fixture(scope="module")
def counted() -> Iterator[list[int]]:
    tally: list[int] = []
    yield tally
    assert sum(tally) >= 800, f"only {sum(tally)} hostile inputs were run"


def test_hostile_links(counted: list[int]) -> None:
    rng = random.Random(1)
    for query in queries(rng, 120):
        at = AppTest.from_file(str(STEPPER), default_timeout=60)
        at.query_params.update(query)
        counted.append(clean(at.run(), f"link {str(query)[:200]}"))


def test_hostile_typed_words_and_pasted_conllu(counted: list[int]) -> None:
    rng = random.Random(2)
    at = AppTest.from_file(str(STEPPER), default_timeout=60).run()
    at.radio(key="stepper.pick.source").set_value("typed").run()
    for _ in range(220):
        words = hostile(rng)
        counted.append(clean(at.text_input(key="stepper.pick.words").input(words).run(), f"words {words!r}"))
    at.radio(key="stepper.pick.source").set_value("conllu").run()
    for _ in range(260):
        text = conllu(rng)
        counted.append(clean(at.text_area(key="stepper.pick.conllu").input(text).run(), f"conllu {text!r}"))


def test_hostile_folders(counted: list[int]) -> None:
    rng = random.Random(3)
    stepper = AppTest.from_file(str(STEPPER), default_timeout=60).run()
    stepper.radio(key="stepper.pick.source").set_value("treebank").run()
    train = AppTest.from_file(str(TRAIN), default_timeout=60).run()
    train.radio(key="train.source").set_value("folder").run()
    for _ in range(100):
        folder = hostile(rng)
        counted.append(clean(stepper.text_input(key="stepper.pick.folder").input(folder).run(),
                             f"folder {folder!r}"))
        counted.append(clean(train.text_input(key="train.folder").input(folder).run(), f"folder {folder!r}"))
