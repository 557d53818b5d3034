"""The documentation site: it builds strictly, names only files that exist, and its benchmark
pages are written by the benchmarks with their date and machine.

The ``>>>`` examples of the docs' pages are run by pytest itself (``--doctest-glob=*.md`` over
``docs/`` in pyproject.toml), like the README's.
"""

from __future__ import annotations

import datetime
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from benchmarks.common import page, write_page

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
#: The benchmark scripts that write their own page with ``--write`` (script -> page).
WRITERS = {"app": "app", "audit": "audit", "exercises": "exercises", "oracles": "oracles",
           "ray_jobs": "ray_jobs", "rl": "rl", "rl_parsers": "rl_parsers", "search": "search",
           "train_page": "train_page"}
#: A file or folder of the repository named in a page: `pages/lab.py`, `ui/stepper/`, `assets/lessons/`.
REPO_PATH = re.compile(r"`((?:pages|ui|parsing_core|server|deploy|assets|tests|benchmarks|docs)/[\w./-]*)`")


def markdown_pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def test_mkdocs_builds_the_site_strictly(tmp_path):
    """A broken link, a page missing from the nav or a reference that does not resolve fails here."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path),
                           "--config-file", str(ROOT / "mkdocs.yml")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    reference = (tmp_path / "library" / "reference" / "index.html").read_text()
    assert "get_oracle" in reference and "Glossary" in reference
    assert (tmp_path / "pages" / "stepper" / "index.html").exists()


def test_every_page_of_the_nav_exists_and_every_page_is_in_the_nav():
    config = (ROOT / "mkdocs.yml").read_text()
    listed = set(re.findall(r":\s+([\w/.-]+\.md)\s*$", config, flags=re.M))
    assert all((DOCS / name).is_file() for name in listed)
    assert {str(p.relative_to(DOCS)) for p in markdown_pages()} == listed


@pytest.mark.parametrize("path", markdown_pages(), ids=lambda p: str(p.relative_to(DOCS)))
def test_every_repository_path_a_page_names_exists(path):
    named = set(REPO_PATH.findall(path.read_text()))
    missing = sorted(name for name in named if not (ROOT / name).exists())
    assert missing == [], f"{path.relative_to(ROOT)} names files that do not exist"


def test_the_app_pages_each_have_a_docs_page():
    for name in ("stepper", "lessons", "writing-a-lesson", "practice", "train", "rl", "lab"):
        assert (DOCS / "pages" / f"{name}.md").is_file()


def test_the_references_page_cites_every_text_a_lesson_may_name():
    from parsing_core.references import REFERENCES

    page = (DOCS / "references.md").read_text()
    for ref in REFERENCES.values():
        assert f"| `{ref.key}` | {ref.short} | {ref.number} | {ref.citation} |" in page, ref.key


PAGES_WRITTEN_ELSEWHERE = {"train", "load", "click_floor", "board", "gpu"}


@pytest.mark.parametrize("name", sorted(set(WRITERS.values()) | PAGES_WRITTEN_ELSEWHERE))
def test_a_benchmark_page_names_its_date_and_machine_once_at_the_top(name):
    text = (DOCS / "benchmarks" / f"{name}.md").read_text()
    top = text.split("\n## ")[0]
    assert re.search(r"\b20\d\d-\d\d-\d\d\b", top), "the date it was measured"
    assert re.search(r"\bcores?\b", top), "the machine it was measured on"
    assert text.count("Measured on") + text.count("Measured 20") >= 1


@pytest.mark.parametrize("script", sorted(WRITERS))
def test_a_benchmark_script_can_write_its_page(script):
    source = (ROOT / "benchmarks" / f"{script}.py").read_text()
    assert re.search(rf'add_write_flag\(\w+, "{WRITERS[script]}"\)', source)
    assert "write_page(" in source


def test_write_page_names_date_and_machine_once_then_the_sections(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["benchmarks/search.py", "--trees", "2", "--write"])
    path = write_page("search", "Search limits", [("Worst times", "| n | ms |\n|---|---|\n| 5 | 1 |"),
                                                  ("Notes", "Nothing else ran.")],
                      intro="What the search costs.", directory=tmp_path)
    text = path.read_text()
    assert path == tmp_path / "search.md"
    assert text.startswith("# Search limits\n")
    assert text.count("Measured on") == 1 and "cores" in text and "GiB of memory" in text
    assert "`python -m benchmarks.search --trees 2 --write`" in text
    assert text.index("What the search costs.") < text.index("## Worst times") < text.index("## Notes")


def test_a_page_names_the_gpu_when_one_was_used():
    text = page("train", "Training", [("Epochs", "| a |\n|---|\n| 1 |")], gpu="NVIDIA H100",
                today=datetime.date(2026, 11, 27))
    assert "Measured on 2026-11-27" in text and "GPU: NVIDIA H100" in text


def test_the_docs_site_is_configured_for_the_library_reference():
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    assert config["docs_dir"] == "docs" and config["theme"]["name"] == "material"
    assert "::: parsing_core" in (DOCS / "library" / "reference.md").read_text()


def test_the_glossary_reaches_the_site_as_definitions_roles_as_code_and_examples_fenced():
    import parsing_core
    from docs_docstrings import markdown

    text = markdown(parsing_core.__doc__ or "")
    assert "\ntoken\n:   A word or punctuation mark" in text
    assert "\ntrace\n:   The configurations of one parse" in text
    assert ":class:" not in text and "`Configuration`" in text
    fenced = text.split("```pycon\n")[1].split("\n```")[0]
    assert fenced.startswith(">>> import parsing_core as pc") and "((0, 2, 3), (4, 5, 6))" in fenced


def test_an_indented_example_or_a_literal_block_is_not_taken_for_a_definition():
    from docs_docstrings import markdown

    literal = "Run it so::\n\n    python -m parsing_core.train\n"
    assert markdown(literal) == "Run it so:\n\n    python -m parsing_core.train\n"
    bullets = "* a move\n    that wraps\n"
    assert markdown(bullets) == bullets


def test_the_docstring_rewriter_s_own_example_runs():
    import doctest

    import docs_docstrings

    assert doctest.testmod(docs_docstrings).failed == 0


def test_a_systems_worked_derivation_reaches_the_site_as_a_markdown_table():
    import parsing_core.systems.arc_eager as arc_eager
    from docs_docstrings import markdown

    text = markdown(arc_eager.__doc__ or "")
    assert "| move | effect | precondition |" in text
    assert "| RA | (σ\\|s0, b\\|β) ⇒ (σ\\|s0\\|b, β); s0 → b | stack and buffer not empty |" in text
    assert "| LA | ROOT | sent her a letter . | He ← sent |" in text
    assert "=====" not in text


def test_a_literal_block_s_double_colon_becomes_a_colon():
    from docs_docstrings import markdown

    literal = "ten tab-separated columns::\n\n    ID  FORM"
    assert markdown(literal) == "ten tab-separated columns:\n\n    ID  FORM"
