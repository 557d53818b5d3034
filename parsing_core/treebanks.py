"""Treebanks: the Universal Dependencies files on disk, and downloading more by name.

A UD treebank is named by a language code and a corpus, ``en_lines`` (English, the LinES
corpus), and comes in splits ``train``, ``dev`` and ``test``, one CoNLL-U file each:
``en_lines-ud-train.conllu``.  Its home is the GitHub repository ``UD_English-LinES``.

Where files are looked for
--------------------------
Four settings (:mod:`parsing_core.settings`, each an environment variable) say where:

``PARSING_DATA_DIR``
    The directory of ``*.conllu`` files that :func:`list_treebanks`
    and :func:`load_treebank` use.  Unset, it defaults to ``shared/data/ud`` beside the
    repository checkout, if that exists.
``PARSING_CACHE_DIR``
    Where :func:`download_treebank` keeps what it downloads (default ``ud`` in the user's
    cache folder, ``~/.cache/parsing-lab/ud`` on Linux).
``PARSING_UD_URL``
    Where downloads come from (default the UD repositories on
    GitHub, ``https://raw.githubusercontent.com/UniversalDependencies``), for a mirror.
``PARSING_ALLOWED_DIRS``
    The folders (separated by ``os.pathsep``) a *server* may read
    treebanks from when a user names a folder (:func:`check_folder`); default: the data
    directory and the download cache.  The library's own functions read any folder you give
    them; the app checks every folder a user or a link names first.

>>> ud_repository("en_lines"), ud_repository("grc_perseus"), ud_repository("UD_German-GSD")
('UD_English-LinES', 'UD_Ancient_Greek-Perseus', 'UD_German-GSD')
>>> treebank_code("UD_Ancient_Greek-PROIEL")
'grc_proiel'
"""

from __future__ import annotations

import http.client
import os
import re
import tempfile
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import IO

from .conllu_io import read_conllu_file
from .errors import ConlluError, TreebankError
from .sentence import Sentence
from .settings import current

SPLITS = ("train", "dev", "test")
_FILE_NAME = re.compile(r"(?P<name>[a-z]+_[a-z0-9]+)-ud-(?P<split>[a-z]+)")

Progress = Callable[[int, "int | None"], None]  # (bytes done, bytes in all or None)

# Language codes used in UD file names, and the language as UD spells it in repository names.
UD_LANGUAGES = {
    "ar": "Arabic", "ca": "Catalan", "cs": "Czech", "da": "Danish", "de": "German",
    "el": "Greek", "en": "English", "es": "Spanish", "et": "Estonian", "fa": "Persian",
    "fi": "Finnish", "fr": "French", "ga": "Irish", "grc": "Ancient_Greek", "he": "Hebrew",
    "hi": "Hindi", "hu": "Hungarian", "id": "Indonesian", "it": "Italian", "ja": "Japanese",
    "ko": "Korean", "la": "Latin", "lt": "Lithuanian", "lv": "Latvian", "nl": "Dutch",
    "no": "Norwegian", "pl": "Polish", "pt": "Portuguese", "ro": "Romanian", "ru": "Russian",
    "sv": "Swedish", "tr": "Turkish", "uk": "Ukrainian", "zh": "Chinese",
}
# Corpus names whose spelling is not simply upper case (en_lines -> UD_English-LinES).
CORPUS_SPELLINGS = {
    "lines": "LinES", "perseus": "Perseus", "szeged": "Szeged", "partut": "ParTUT",
    "talbanken": "Talbanken", "ancora": "AnCora", "bosque": "Bosque", "alpino": "Alpino",
    "lassysmall": "LassySmall", "syntagrus": "SynTagRus", "taiga": "Taiga", "sequoia": "Sequoia",
    "fictree": "FicTree", "kaist": "Kaist", "gsdsimp": "GSDSimp", "udante": "UDante",
    "postwita": "PoSTWITA", "bokmaal": "Bokmaal", "nynorsk": "Nynorsk", "seraji": "Seraji",
    "atis": "Atis", "treegal": "TreeGal",
}


@dataclass(frozen=True)
class TreebankFile:
    """One CoNLL-U file: ``name`` like ``en_lines``, ``split`` like ``train`` (None if unnamed)."""

    name: str
    split: str | None
    path: Path
    size: int

    @classmethod
    def from_path(cls, path: Path) -> TreebankFile:
        match = _FILE_NAME.fullmatch(path.stem)
        name, split = (match["name"], match["split"]) if match else (path.stem, None)
        return cls(name, split, path, path.stat().st_size)


# -- files on disk ---------------------------------------------------------------------------


def data_dir() -> Path | None:
    """The treebank directory: ``$PARSING_DATA_DIR``, else the checkout's shared data, else None."""
    path = current().data_dir
    return path if path is not None and path.is_dir() else None


def allowed_roots() -> list[Path]:
    """The folders a server reads treebanks from: ``$PARSING_ALLOWED_DIRS``, else the data
    directory and the download cache (symlinks resolved)."""
    roots = list(current().allowed_dirs) or [d for d in (data_dir(), default_cache_dir()) if d is not None]
    return [r.resolve() for r in roots]


def check_folder(folder: str | os.PathLike[str]) -> Path:
    """``folder`` with symlinks and ``..`` resolved, if it lies inside an allowed root (see
    :func:`allowed_roots`); else :class:`TreebankError`.  What a server calls on every folder a
    user types or a link names, so that nobody reads ``/etc`` through a treebank key.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> os.environ["PARSING_ALLOWED_DIRS"] = str(root)
    >>> check_folder(root / "en") == (root / "en").resolve()
    True
    >>> check_folder(root / ".." / "elsewhere")
    Traceback (most recent call last):
    ...
    parsing_core.errors.TreebankError: the folder ... is outside the folders this server reads ...
    >>> del os.environ["PARSING_ALLOWED_DIRS"]
    """
    try:
        real = Path(folder).expanduser().resolve()
    except (ValueError, OSError, RuntimeError) as err:  # a NUL byte, a symlink loop, no home directory
        raise TreebankError(f"the folder {str(folder)[:200]!r} cannot be read: {err}") from None
    if not any(real == root or real.is_relative_to(root) for root in allowed_roots()):
        raise TreebankError(f"the folder {str(folder)[:200]} is outside the folders this server reads "
                            "treebanks from (PARSING_ALLOWED_DIRS)")
    return real


def list_treebanks(directory: str | os.PathLike[str] | None = None) -> list[TreebankFile]:
    """The ``*.conllu`` files in ``directory`` (default :func:`data_dir`), sorted by name and split."""
    root = Path(directory) if directory is not None else data_dir()
    if root is None or not root.is_dir():
        return []
    files = [TreebankFile.from_path(p) for p in root.glob("*.conllu") if p.is_file()]
    order = {split: i for i, split in enumerate(SPLITS)}
    return sorted(files, key=lambda f: (f.name, order.get(f.split or "", len(SPLITS)), f.path.name))


def load_treebank(name: str, split: str = "train", directory: str | os.PathLike[str] | None = None
                  ) -> list[Sentence]:
    """The sentences of one treebank file, parsed once and cached until the file changes.

    Raises :class:`TreebankError` (listing what there is) if the file is not there, and
    :class:`ConlluError` if it cannot be read.
    """
    files = list_treebanks(directory)
    found = [f for f in files if f.name == name and f.split == split]
    if not found:
        raise TreebankError(_not_found(name, split, directory, files))
    stat = found[0].path.stat()
    return list(_read_cached(str(found[0].path), stat.st_mtime_ns, stat.st_size))


def _not_found(name: str, split: str, directory: str | os.PathLike[str] | None,
               files: list[TreebankFile]) -> str:
    where = directory if directory is not None else data_dir()
    if where is None:
        configured = current().data_dir
        why = f" ({str(configured)!r} is not a folder)" if configured else ""
        return f"no treebank {name} {split}: set PARSING_DATA_DIR to a folder of .conllu files{why}"
    if not files:
        return f"no treebank {name} {split}: no .conllu files in {where}"
    available: dict[str, list[str]] = {}
    for f in files:
        available.setdefault(f.name, []).append(f.split or "?")
    listed = "; ".join(f"{n} ({', '.join(splits)})" for n, splits in available.items())
    return f"no treebank {name} {split} in {where}; available: {listed}"


@lru_cache(maxsize=4)  # a large treebank takes ~70 MB in memory (en_lines train: 3.8 MB on disk)
def _read_cached(path: str, mtime_ns: int, size: int) -> tuple[Sentence, ...]:
    """Keyed by modification time and size, so an edited file is read again."""
    return tuple(read_conllu_file(path))


# -- names -----------------------------------------------------------------------------------


def ud_repository(name: str) -> str:
    """The GitHub repository of a treebank: ``en_lines`` -> ``UD_English-LinES``."""
    if name.startswith("UD_"):
        treebank_code(name)  # checks the name
        return name
    match = re.fullmatch(r"([a-z]{2,3})_([a-z0-9]+)", name)
    if not match:
        raise TreebankError(f"{name!r} is not a treebank name like en_lines or UD_English-LinES")
    language, corpus = match.groups()
    if language not in UD_LANGUAGES:
        known = ", ".join(sorted(UD_LANGUAGES))
        raise TreebankError(f"unknown language code {language!r} in {name!r}; known: {known}")
    return f"UD_{UD_LANGUAGES[language]}-{CORPUS_SPELLINGS.get(corpus, corpus.upper())}"


def treebank_code(name: str) -> str:
    """The file-name code of a treebank: ``UD_English-LinES`` -> ``en_lines`` (codes pass through)."""
    if not name.startswith("UD_"):
        ud_repository(name)  # checks the code
        return name
    match = re.fullmatch(r"UD_([A-Za-z_]+)-([A-Za-z0-9]+)", name)
    if not match:
        raise TreebankError(f"{name!r} is not a repository name like UD_English-LinES")
    codes = {language: code for code, language in UD_LANGUAGES.items()}
    language, corpus = match.groups()
    if language not in codes:
        raise TreebankError(f"unknown language {language!r} in {name!r}; give a code like en_lines instead")
    return f"{codes[language]}_{corpus.lower()}"


# -- downloading -----------------------------------------------------------------------------


def default_cache_dir() -> Path:
    """Where downloads are kept: ``$PARSING_CACHE_DIR``, else ``ud`` in the user's cache folder."""
    return current().cache_dir


def treebank_url(name: str, split: str = "train", base_url: str | None = None) -> str:
    """``{base}/UD_English-LinES/master/en_lines-ud-train.conllu``."""
    base = (base_url or current().ud_url).rstrip("/")
    return f"{base}/{ud_repository(name)}/master/{treebank_code(name)}-ud-{split}.conllu"


def download_treebank(
    name: str,
    split: str = "train",
    cache_dir: str | os.PathLike[str] | None = None,
    base_url: str | None = None,
    timeout: float = 30,
    progress: Progress | None = None,
) -> Path:
    """Download one split of a UD treebank (once) and return the path of the cached file.

    The file is checked to be readable CoNLL-U before it is kept; any network, HTTP or
    format problem raises :class:`TreebankError`.
    """
    if split not in SPLITS:
        raise TreebankError(f"unknown split {split!r}; choose one of {', '.join(SPLITS)}")
    folder = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    target = folder / f"{treebank_code(name)}-ud-{split}.conllu"
    if target.is_file():
        return target
    url = treebank_url(name, split, base_url)
    what = f"{name} {split} from {url}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = _fetch(url, folder, timeout, progress)
    except urllib.error.HTTPError as err:
        hint = " (is there such a treebank and split in Universal Dependencies?)" if err.code == 404 else ""
        raise TreebankError(f"could not download {what}: HTTP {err.code} {err.reason}{hint}") from None
    except urllib.error.URLError as err:
        raise TreebankError(f"could not download {what}: {err.reason}") from None
    except (OSError, ValueError, http.client.HTTPException) as err:
        raise TreebankError(f"could not download {what}: {err}") from None
    _keep_if_valid(tmp, target, what)
    return target


def _fetch(url: str, folder: Path, timeout: float, progress: Progress | None) -> Path:
    """Stream ``url`` into a temporary file in ``folder``, reporting progress."""
    with urllib.request.urlopen(url, timeout=timeout) as response:
        length = response.headers.get("Content-Length")
        total = int(length) if length and length.isdigit() else None
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".download-", suffix=".part")
        try:
            with os.fdopen(fd, "wb") as file:
                _copy(response, file, total, progress)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    return Path(tmp)


def _copy(response: IO[bytes], file: IO[bytes], total: int | None, progress: Progress | None) -> None:
    done = 0
    if progress:
        progress(0, total)
    while chunk := response.read(1 << 16):
        file.write(chunk)
        done += len(chunk)
        if progress:
            progress(done, total)


def _keep_if_valid(tmp: Path, target: Path, what: str) -> None:
    """Rename the download into place if it reads as CoNLL-U; otherwise delete it."""
    try:
        read_conllu_file(tmp)
        os.replace(tmp, target)
    except ConlluError as err:
        raise TreebankError(f"downloaded {what}, but it is not valid CoNLL-U: {err}") from None
    except OSError as err:
        raise TreebankError(f"could not store {what} in {target.parent}: {err}") from None
    finally:
        tmp.unlink(missing_ok=True)
