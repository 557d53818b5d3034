"""The map in ``ui/__init__.py`` stays true: it names every folder of ``ui`` and every module of the
shared folders (``views/``, ``widgets/``), and names no folder that is not there.

A newcomer reads the map to find where a thing lives; a folder or a shared module added without
a line there fails here, and so does a line left behind by a move.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

UI = Path(__file__).resolve().parent.parent / "ui"
MAP = ast.get_docstring(ast.parse((UI / "__init__.py").read_text(encoding="utf-8"))) or ""
FOLDERS = sorted(p.name for p in UI.iterdir() if (p / "__init__.py").exists())
SHARED = {folder: sorted(p.stem for p in (UI / folder).glob("*.py") if p.stem != "__init__")
          for folder in ("views", "widgets")}


def test_the_map_is_read():
    assert "views/" in MAP and len(FOLDERS) >= 6 and len(SHARED["views"]) >= 10


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_folder_is_on_the_map(folder):
    assert f"``{folder}/``" in MAP, f"ui/{folder}/ is missing from the map in ui/__init__.py"


def test_every_folder_on_the_map_exists():
    named = set(re.findall(r"``(\w+)/``", MAP))
    assert named <= set(FOLDERS), f"the map names folders that are not there: {sorted(named - set(FOLDERS))}"


@pytest.mark.parametrize("folder, module", [(f, m) for f, names in SHARED.items() for m in names])
def test_every_shared_module_is_on_the_map(folder, module):
    assert f"``{module}``" in MAP, f"ui/{folder}/{module}.py is missing from the map in ui/__init__.py"
