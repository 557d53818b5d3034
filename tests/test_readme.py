"""The README's two commands are the project's contract: CI must run exactly the test command."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def bash_blocks() -> list[str]:
    return re.findall(r"```bash\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S)


def test_readme_has_exactly_two_single_line_commands():
    blocks = bash_blocks()
    assert len(blocks) == 2
    assert all(len(block.strip().splitlines()) == 1 for block in blocks)
    assert "streamlit run app.py" in blocks[0] and "pytest" in blocks[1]


def test_ci_runs_the_readme_test_command_and_nothing_else():
    command = bash_blocks()[1].strip()
    lines = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    assert lines[-1] == command
    assert "pytest" not in "\n".join(lines[:-1])
    assert "apt-get install -y chromium" in command and "pip install -r requirements.txt" in command


def test_requirements_pin_the_cpu_torch_wheel():
    requirements = (ROOT / "requirements.txt").read_text().splitlines()
    assert "torch==2.13.0" in requirements
    assert all("==" in line for line in requirements if line and not line.startswith("#"))
