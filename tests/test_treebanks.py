"""Treebanks on disk and downloaded by name, against a local HTTP server laid out like GitHub's."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from parsing_core import treebanks
from parsing_core.conllu_io import read_conllu_file
from parsing_core.errors import TreebankError
from parsing_core.treebanks import (
    data_dir,
    download_treebank,
    list_treebanks,
    load_treebank,
    treebank_code,
    treebank_url,
    ud_repository,
)
from tests.conftest import Server

CHECKOUT_UD = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "ud"
UD_DIR = Path(os.environ.get("PARSING_DATA_DIR") or CHECKOUT_UD)
LINES_DEV = UD_DIR / "en_lines-ud-dev.conllu"
needs_ud = pytest.mark.skipif(not LINES_DEV.is_file(), reason=f"no UD treebanks in {UD_DIR}")

SMALL = "# sent_id = s1\n1\tHi\thi\tINTJ\t_\t_\t0\troot\t_\t_\n\n"


# -- downloads, from a local stand-in for raw.githubusercontent.com (conftest.server) ----------


# -- names -----------------------------------------------------------------------------------

NAMES = [
    # code          repository
    ("en_lines", "UD_English-LinES"),
    ("en_ewt", "UD_English-EWT"),
    ("de_gsd", "UD_German-GSD"),
    ("la_perseus", "UD_Latin-Perseus"),
    ("grc_perseus", "UD_Ancient_Greek-Perseus"),
    ("hu_szeged", "UD_Hungarian-Szeged"),
    ("la_ittb", "UD_Latin-ITTB"),
    ("it_partut", "UD_Italian-ParTUT"),
    ("grc_proiel", "UD_Ancient_Greek-PROIEL"),
    ("sv_talbanken", "UD_Swedish-Talbanken"),
]


@pytest.mark.parametrize(("code", "repository"), NAMES)
def test_treebank_names(code: str, repository: str) -> None:
    assert ud_repository(code) == ud_repository(repository) == repository
    assert treebank_code(repository) == treebank_code(code) == code
    assert treebank_url(code, "dev") == treebank_url(repository, "dev") == (
        f"https://raw.githubusercontent.com/UniversalDependencies/{repository}/master/{code}-ud-dev.conllu"
    )


def test_the_url_of_en_lines() -> None:
    assert treebank_url("en_lines") == (
        "https://raw.githubusercontent.com/UniversalDependencies/UD_English-LinES/master/en_lines-ud-train.conllu"
    )
    assert treebank_url("en_lines", "test", base_url="http://localhost:8000/") == (
        "http://localhost:8000/UD_English-LinES/master/en_lines-ud-test.conllu"
    )


@pytest.mark.parametrize(("name", "message"), [
    ("xx_lines", "unknown language code 'xx'"),
    ("English", "not a treebank name like en_lines"),
    ("UD_Klingon-Qo", "unknown language 'Klingon'"),
    ("UD_English", "not a repository name like UD_English-LinES"),
])
def test_bad_names_are_explained(name: str, message: str, tmp_path: Path) -> None:
    with pytest.raises(TreebankError, match=message):
        download_treebank(name, cache_dir=tmp_path, base_url="http://127.0.0.1:9")


def test_an_unknown_split_is_refused(tmp_path: Path) -> None:
    with pytest.raises(TreebankError, match="unknown split 'validation'; choose one of train, dev, test"):
        download_treebank("en_lines", "validation", cache_dir=tmp_path)


# -- downloading -----------------------------------------------------------------------------


@needs_ud
def test_download_caches_a_file_that_reads_like_the_original(server: Server, tmp_path: Path) -> None:
    url_path = "/UD_English-LinES/master/en_lines-ud-dev.conllu"
    server.files[url_path] = LINES_DEV.read_bytes()
    calls: list[tuple[int, int | None]] = []
    path = download_treebank("en_lines", "dev", cache_dir=tmp_path, base_url=server.base_url,
                             progress=lambda done, total: calls.append((done, total)))
    assert path == tmp_path / "en_lines-ud-dev.conllu" and path.is_file()
    assert [p.name for p in tmp_path.iterdir()] == [path.name], "no temporary file left behind"
    assert read_conllu_file(path) == read_conllu_file(LINES_DEV)
    size = LINES_DEV.stat().st_size
    assert calls[0] == (0, size) and calls[-1] == (size, size) and len(calls) > 2
    assert server.requests == [url_path]

    again = download_treebank("UD_English-LinES", "dev", cache_dir=tmp_path, base_url=server.base_url)
    assert again == path and server.requests == [url_path], "the second call uses the cache"


def test_http_errors_become_treebank_errors(server: Server, tmp_path: Path) -> None:
    url = f"{server.base_url}/UD_English-LinES/master/en_lines-ud-test.conllu"
    with pytest.raises(TreebankError, match=f"^could not download en_lines test from {url}: HTTP 404"):
        download_treebank("en_lines", "test", cache_dir=tmp_path, base_url=server.base_url)
    assert list(tmp_path.iterdir()) == []


def test_a_download_that_is_not_conllu_is_not_kept(server: Server, tmp_path: Path) -> None:
    server.files["/UD_English-LinES/master/en_lines-ud-train.conllu"] = b"<html>rate limited</html>\n"
    with pytest.raises(TreebankError, match="but it is not valid CoNLL-U: .*line 1: expected 10 tab-sep"):
        download_treebank("en_lines", cache_dir=tmp_path, base_url=server.base_url)
    assert list(tmp_path.iterdir()) == []


def test_an_unreachable_host_is_a_treebank_error(tmp_path: Path) -> None:
    with pytest.raises(TreebankError, match="^could not download en_lines train from http://127.0.0.1:9/"):
        download_treebank("en_lines", cache_dir=tmp_path, base_url="http://127.0.0.1:9", timeout=5)


def test_the_cache_directory_comes_from_the_environment(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server.files["/UD_German-GSD/master/de_gsd-ud-test.conllu"] = SMALL.encode()
    monkeypatch.setenv("PARSING_CACHE_DIR", str(tmp_path / "cache"))
    assert treebanks.default_cache_dir() == tmp_path / "cache"
    path = download_treebank("de_gsd", "test", base_url=server.base_url)
    assert path == tmp_path / "cache" / "de_gsd-ud-test.conllu"
    assert path.read_text(encoding="utf-8") == SMALL


# -- files on disk ---------------------------------------------------------------------------


def test_data_dir_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARSING_DATA_DIR", str(tmp_path))
    assert data_dir() == tmp_path
    monkeypatch.setenv("PARSING_DATA_DIR", str(tmp_path / "missing"))
    assert data_dir() is None
    with pytest.raises(TreebankError, match="set PARSING_DATA_DIR to a folder of .conllu files"):
        load_treebank("en_lines", "train")


@needs_ud
def test_list_treebanks_finds_the_ud_files(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARSING_DATA_DIR", str(UD_DIR))
    found = {(f.name, f.split): f for f in list_treebanks()}
    assert {("en_lines", "train"), ("en_lines", "dev"), ("en_lines", "test"), ("de_gsd", "dev")} <= set(found)
    assert found["en_lines", "dev"].path == LINES_DEV
    assert found["en_lines", "dev"].size == LINES_DEV.stat().st_size
    splits = [f.split for f in list_treebanks() if f.name == "en_lines"]
    assert splits == ["train", "dev", "test"]


@needs_ud
def test_load_treebank_explains_what_is_available(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARSING_DATA_DIR", str(UD_DIR))
    with pytest.raises(TreebankError) as caught:
        load_treebank("fr_gsd", "train")
    message = str(caught.value)
    assert message.startswith(f"no treebank fr_gsd train in {UD_DIR}; available: ")
    assert "en_lines (train, dev, test)" in message and "de_gsd (dev)" in message


def test_load_treebank_reads_once_until_the_file_changes(tmp_path: Path) -> None:
    path = tmp_path / "xx_tiny-ud-dev.conllu"
    path.write_text(SMALL, encoding="utf-8")
    first = load_treebank("xx_tiny", "dev", directory=tmp_path)
    assert [s.words for s in first] == [("Hi",)]
    assert load_treebank("xx_tiny", "dev", directory=tmp_path)[0] is first[0], "cached"
    path.write_text(SMALL.replace("Hi", "Ho"), encoding="utf-8")
    os.utime(path, ns=(1, 1))
    assert [s.words for s in load_treebank("xx_tiny", "dev", directory=tmp_path)] == [("Ho",)]


def test_files_outside_the_ud_naming_are_listed_by_stem(tmp_path: Path) -> None:
    (tmp_path / "my sentences.conllu").write_text(SMALL, encoding="utf-8")
    (tmp_path / "LICENSE.txt").write_text("", encoding="utf-8")
    [found] = list_treebanks(tmp_path)
    assert (found.name, found.split, found.size) == ("my sentences", None, len(SMALL))
