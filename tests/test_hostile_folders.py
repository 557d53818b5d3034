"""Nobody reads the server's files through the lab: a folder typed or named in a link must lie
inside the folders the server allows (``PARSING_ALLOWED_DIRS``; default the data directory and
the download cache), ``..`` and symlinks included; a deployment can turn the folder field off."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from test_stepper import messages, stepper

import parsing_core as pc
from parsing_core.treebanks import allowed_roots, check_folder
from ui.views.sources import sentence_from_key, treebank_key

PAGE = Path(__file__).resolve().parents[1] / "pages" / "stepper.py"


@pytest.fixture
def allowed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An allowed root holding a treebank, and a forbidden folder beside it holding another."""
    root, outside = tmp_path / "allowed", tmp_path / "secret"
    for folder in (root, outside):
        folder.mkdir()
        pc.write_conllu(pc.teaching_sentences(), folder / "xx_teach-ud-dev.conllu")
    monkeypatch.setenv("PARSING_ALLOWED_DIRS", str(root))
    return root


def test_the_default_roots_are_the_data_directory_and_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PARSING_ALLOWED_DIRS", raising=False)
    data = pc.data_dir()
    assert data is not None and data.resolve() in allowed_roots()
    check_folder(data)
    with pytest.raises(pc.TreebankError, match="outside the folders"):
        check_folder("/etc")


def test_a_folder_inside_is_read_and_one_outside_is_refused(allowed: Path) -> None:
    assert check_folder(allowed) == allowed.resolve()
    for trick in (allowed.parent / "secret", allowed / ".." / "secret", Path("/"), Path("~")):
        with pytest.raises(pc.TreebankError):
            check_folder(trick)


def test_a_symlink_out_of_an_allowed_root_is_refused(allowed: Path) -> None:
    (allowed / "link").symlink_to(allowed.parent / "secret", target_is_directory=True)
    with pytest.raises(pc.TreebankError):
        check_folder(allowed / "link")


def test_a_link_naming_a_forbidden_folder_reads_nothing(allowed: Path) -> None:
    outside = str(allowed.parent / "secret")
    with pytest.raises(pc.ParsingCoreError, match="outside the folders"):
        sentence_from_key(treebank_key("xx_teach", "dev", 0, outside))
    assert sentence_from_key(treebank_key("xx_teach", "dev", 0, str(allowed))).n > 0
    at = stepper(s=treebank_key("xx_teach", "dev", 0, f"{allowed}/../secret"))
    assert "outside the folders" in messages(at)
    assert at.query_params["s"] != treebank_key("xx_teach", "dev", 0, f"{allowed}/../secret")


def test_the_folder_field_refuses_a_forbidden_folder(allowed: Path) -> None:
    at = stepper()
    at.radio(key="stepper.pick.source").set_value("treebank").run()
    at.text_input(key="stepper.pick.folder").input(str(allowed.parent / "secret")).run()
    assert not at.exception
    assert any("outside the folders" in e.value for e in at.error)
    at.text_input(key="stepper.pick.folder").input(str(allowed)).run()
    assert at.selectbox(key="stepper.pick.treebank").options == ["xx_teach dev"]


def test_a_deployment_can_turn_the_folder_field_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARSING_FOLDER_FIELD", "0")
    at = AppTest.from_file(str(PAGE), default_timeout=30).run()
    at.radio(key="stepper.pick.source").set_value("treebank").run()
    field = at.text_input(key="stepper.pick.folder")
    assert field.disabled and field.value == str(pc.data_dir())
    assert os.environ["PARSING_FOLDER_FIELD"] == "0"
