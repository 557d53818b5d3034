"""The README is the front door: short, two commands that CI runs as written, links that lead somewhere.

Its library example is run by pytest itself (``--doctest-glob=*.md`` in pyproject.toml).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
MAX_LINES = 250


def bash_blocks() -> list[str]:
    return re.findall(r"```bash\n(.*?)```", README, flags=re.S)


def test_readme_stays_a_front_door():
    assert len(README.splitlines()) <= MAX_LINES, "move the detail into docs/ and link it"


def test_readme_has_exactly_two_single_line_commands():
    blocks = bash_blocks()
    assert len(blocks) == 2
    assert all(len(block.strip().splitlines()) == 1 for block in blocks)
    assert "streamlit run serve.py" in blocks[0] and "pytest" in blocks[1]


def test_the_test_command_installs_everything_and_builds_the_docs_strictly():
    command = bash_blocks()[1].strip()
    assert "apt-get install -y chromium chromium-headless-shell" in command  # the tests run the shell
    assert "pip install -r requirements.txt" in command
    assert "mkdocs build --strict" in command
    assert command.index("mkdocs build") < command.index("python -m pytest")


def test_ci_runs_the_readme_test_command_and_nothing_else():
    command = bash_blocks()[1].strip()
    lines = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    assert lines[-1] == command
    assert "pytest" not in "\n".join(lines[:-1])


def test_the_readme_has_one_screenshot_and_it_exists():
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", README)
    assert len(images) == 1
    assert (ROOT / images[0]).is_file()


def test_every_local_link_of_the_readme_leads_to_a_file():
    links = [target for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
             if not target.startswith(("http://", "https://"))]
    assert links, "the README links into the docs"
    missing = [target for target in links if not (ROOT / target).exists()]
    assert missing == []


def test_the_readme_points_at_every_page_of_the_app():
    for page in ("stepper", "lessons", "writing-a-lesson", "practice", "train", "rl", "lab"):
        assert f"docs/pages/{page}.md" in README


def test_requirements_pin_the_cpu_torch_wheel():
    requirements = (ROOT / "requirements.txt").read_text().splitlines()
    assert "torch==2.13.0" in requirements
    assert all("==" in line for line in requirements if line and not line.startswith("#"))
