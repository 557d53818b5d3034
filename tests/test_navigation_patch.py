"""The Streamlit internal that ``ui/navigation.py`` patches is still there and still means the same.

``ui.navigation.run_through_app`` flips ``PagesManager.uses_pages_directory`` (Streamlit 1.67.0)
so that a deep link on a fresh server runs through ``app.py``.  If an upgrade removes, renames
or re-purposes that flag, these tests fail with a message saying which part changed; then read
``ui/navigation.py``'s docstring and check the deep link again with
``CI=true python -m pytest tests/browser/test_deep_link_browser.py``.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
import streamlit.commands.navigation as st_navigation
import streamlit.runtime.scriptrunner.script_runner as script_runner
from streamlit.runtime import pages_manager

import ui.navigation

FLAG = "streamlit.runtime.pages_manager.PagesManager.uses_pages_directory"
PATCHED_ON = "1.67.0"
WHY = (f"ui/navigation.py patches {FLAG}, written against Streamlit {PATCHED_ON}; "
       f"the installed Streamlit {st.__version__} changed it")


@pytest.fixture
def saved_flag() -> Iterator[None]:
    """The flag is process-wide: put it back after each test."""
    before = pages_manager.PagesManager.uses_pages_directory
    yield
    pages_manager.PagesManager.uses_pages_directory = before


def test_the_flag_is_a_class_attribute_typed_bool_or_none() -> None:
    manager = getattr(pages_manager, "PagesManager", None)
    assert manager is not None, f"{WHY}: streamlit.runtime.pages_manager.PagesManager is gone"
    assert "uses_pages_directory" in vars(manager), f"{WHY}: the class attribute is gone or renamed"
    assert inspect.get_annotations(manager).get("uses_pages_directory") == "bool | None", (
        f"{WHY}: its type is no longer `bool | None`")


@pytest.mark.usefixtures("saved_flag")
def test_a_pages_folder_beside_the_main_script_turns_the_old_mode_on(tmp_path: Path) -> None:
    (tmp_path / "pages").mkdir()
    (tmp_path / "app.py").write_text("")
    pages_manager.PagesManager.uses_pages_directory = None
    pages_manager.PagesManager(str(tmp_path / "app.py"))
    assert pages_manager.PagesManager.uses_pages_directory is True, (
        f"{WHY}: PagesManager(main script) no longer sets it from a pages/ folder beside the script")


def test_the_script_runner_reads_the_flag_to_run_the_old_multipage_mode() -> None:
    source = inspect.getsource(script_runner.ScriptRunner._run_script)
    assert "PagesManager.uses_pages_directory" in source and "_mpa_v1(" in source, (
        f"{WHY}: ScriptRunner._run_script no longer chooses _mpa_v1 (the old pages/ mode) by the flag; "
        "a deep link may now run app.py without the patch")
    assert callable(getattr(script_runner, "_mpa_v1", None)), f"{WHY}: script_runner._mpa_v1 is gone"


def test_st_navigation_is_what_turns_the_old_mode_off() -> None:
    source = inspect.getsource(st_navigation.navigation)
    assert "PagesManager.uses_pages_directory = False" in source, (
        f"{WHY}: st.navigation no longer sets the flag to False, so the patch no longer does what it does")


@pytest.mark.usefixtures("saved_flag")
def test_run_through_app_leaves_the_old_mode_and_reruns(monkeypatch: pytest.MonkeyPatch) -> None:
    reruns: list[bool] = []
    monkeypatch.setattr(ui.navigation.st, "rerun", lambda: reruns.append(True))
    pages_manager.PagesManager.uses_pages_directory = True
    ui.navigation.run_through_app()
    assert pages_manager.PagesManager.uses_pages_directory is False and reruns == [True]
    ui.navigation.run_through_app()  # through app.py: nothing to do
    assert reruns == [True]
