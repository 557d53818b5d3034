"""Settings: every ``PARSING_*`` variable is a field of one object, read in one place.

* the fields say their variable, default and purpose, and the documentation's table is theirs;
* values are read from the environment's text (paths, flags, caps), and bad text is refused by name;
* the object is built once per environment: the same object while nothing changes;
* no other module of the project names a ``PARSING_*`` variable (read from the AST, docstrings aside).
"""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from parsing_core import settings as library
from parsing_core.settings import LibrarySettings, SettingError
from server.limits import Caps
from server.settings import Settings, markdown_table, settings

ROOT = Path(__file__).resolve().parent.parent
SETTINGS_MODULES = {ROOT / "parsing_core" / "settings.py", ROOT / "server" / "settings.py"}
FOLDERS = ("parsing_core", "server", "ui", "pages", "deploy", "benchmarks")
PROJECT = [ROOT / "app.py", *(p for folder in FOLDERS for p in sorted((ROOT / folder).rglob("*.py")))]
VARIABLE = re.compile(r"PARSING_[A-Z_]*")


def test_every_field_says_its_variable_default_and_purpose():
    names = [f.metadata["variable"] for f in dataclasses.fields(Settings)]
    assert len(names) == len(set(names)) >= 16
    assert all(VARIABLE.fullmatch(name) for name in names)
    assert all(f.metadata["about"].endswith(".") and f.metadata["shown"]
               for f in dataclasses.fields(Settings))
    library_fields = {f.name for f in dataclasses.fields(LibrarySettings)}
    assert library_fields < {f.name for f in dataclasses.fields(Settings)}


def test_the_documented_table_is_the_generated_one():
    page = ROOT / "docs" / "operations" / "settings.md"
    assert page.read_text(encoding="utf-8") == markdown_table(), \
        "docs/operations/settings.md is stale: python -m server.settings > docs/operations/settings.md"
    assert markdown_table().count("| `PARSING_") == len(dataclasses.fields(Settings))


def test_unset_and_empty_variables_take_the_defaults():
    unset = Settings.from_environ({})
    assert unset == Settings.from_environ({"PARSING_JOBS_DIR": " ", "PARSING_STANDBY": ""})
    assert unset.standby and not unset.shared_server and unset.folder_field
    assert unset.jobs_backend == "local" and unset.database_url is None and unset.dqn_model is None
    assert unset.caps("exercises") == Caps(120, 2_000) and unset.allowed_dirs == ()
    assert unset.cache_dir.name == "ud" and unset.cache_dir.parent.name == library.APP_NAME


def test_values_are_read_from_the_variables_text(tmp_path):
    s = Settings.from_environ({
        "PARSING_JOBS_DIR": str(tmp_path), "PARSING_STANDBY": "off", "PARSING_SHARED_SERVER": "Yes",
        "PARSING_LIMIT_UPLOAD": "1e6/2e6", "PARSING_ALLOWED_DIRS": f"{tmp_path}/a:{tmp_path}/b",
        "PARSING_DQN_MODEL": "~/dqn.pt", "PARSING_DATABASE_URL": "sqlite:///x.db"})
    assert s.jobs_dir == tmp_path and not s.standby and s.shared_server
    assert s.caps("upload") == Caps(1e6, 2e6)
    assert s.allowed_dirs == (tmp_path / "a", tmp_path / "b")
    assert s.dqn_model == Path.home() / "dqn.pt" and s.database_url == "sqlite:///x.db"


@pytest.mark.parametrize("variable, text", [("PARSING_STANDBY", "maybe"), ("PARSING_LIMIT_JOBS", "3"),
                                            ("PARSING_LIMIT_EXERCISES", "many/more")])
def test_bad_text_is_refused_with_the_variables_name(variable, text):
    with pytest.raises(SettingError, match=variable):
        Settings.from_environ({variable: text})


def test_settings_are_built_once_per_environment(monkeypatch, tmp_path):
    first = settings()
    assert settings() is first and library.current() is library.current()
    monkeypatch.setenv("PARSING_JOBS_DIR", str(tmp_path))
    assert settings() is not first and settings().jobs_dir == tmp_path
    assert library.current().jobs_dir == tmp_path


def test_a_test_may_build_its_own_settings(tmp_path):
    mine = dataclasses.replace(settings(), jobs_dir=tmp_path, shared_server=True)
    assert mine.jobs_dir == tmp_path and mine.shared_server and mine.database_url == settings().database_url


def named_variables(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every string constant in ``path`` that is a ``PARSING_*`` name, docstrings aside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
            and VARIABLE.fullmatch(node.value)]


def test_no_module_but_the_settings_names_a_parsing_variable():
    bad = [f"{path.relative_to(ROOT)}:{line}: {text}" for path in PROJECT if path not in SETTINGS_MODULES
           for line, text in named_variables(path)]
    assert not bad, "read it from server.settings (or parsing_core.settings) instead:\n" + "\n".join(bad)


def test_the_variable_finder_sees_a_name_and_skips_a_docstring(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text('"""Reads ``PARSING_X``."""\nimport os\nos.environ.get("PARSING_X")\n', encoding="utf-8")
    assert named_variables(probe) == [(3, "PARSING_X")]
