"""Settings: what the environment may change, read in one place.

Every ``PARSING_*`` environment variable is one field of a frozen dataclass, and the field says
its variable, its default and what it is for.  Nothing else in the project reads these variables.

The library reads its own few here (:class:`LibrarySettings`: where the treebanks are, where
downloads are kept, a mirror, the folders a server may read, a learned model), so that
``parsing_core`` works alone -- from a notebook, a script or a job's process -- with nothing set
and nothing else imported.  The app's server extends the same class with its own fields
(``server.settings.Settings``: the database, the jobs, the caps); the table of every setting in
the documentation is generated from those fields.

>>> s = LibrarySettings.from_environ({"PARSING_UD_URL": "https://mirror.example/ud", "PARSING_CACHE_DIR": ""})
>>> s.ud_url, s.cache_dir.name   # an empty variable counts as unset
('https://mirror.example/ud', 'ud')
>>> current() is current()       # built once, while the process's variables stay the same
True
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

from .errors import ParsingCoreError

#: The one application name: the per-user folders (data, cache) are named after it.
APP_NAME = "parsing-lab"
PREFIX = "PARSING_"
#: Variables outside ``PARSING_*`` that the defaults depend on (the per-platform folders).
PLATFORM_VARIABLES = ("HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "LOCALAPPDATA", "TMPDIR")
CHECKOUT_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "ud"
UD_URL = "https://raw.githubusercontent.com/UniversalDependencies"

S = TypeVar("S", bound="LibrarySettings")


class SettingError(ParsingCoreError):
    """A variable holds text its setting cannot read; the message names the variable."""


def setting(variable: str, default: object, about: str, read: Callable[[str], object] = str,
            shown: str | None = None) -> Any:
    """A settings field: read from ``variable`` by ``read``, else ``default`` (a value, or a
    function of nothing for defaults that depend on the platform); ``shown`` is the default as the
    documentation writes it."""
    return field(metadata={"variable": variable, "default": default, "about": about, "read": read,
                           "shown": shown if shown is not None else f"`{default}`"})


# -- readers: the text of a variable -> the setting's value ---------------------------------


def path(raw: str) -> Path:
    return Path(raw).expanduser()


def paths(raw: str) -> tuple[Path, ...]:
    """Folders separated by ``os.pathsep`` (``:`` on Unix)."""
    return tuple(Path(p).expanduser() for p in raw.split(os.pathsep) if p.strip())


def flag(raw: str) -> bool:
    """``1``/``true``/``yes``/``on`` or ``0``/``false``/``no``/``off``, in any case."""
    word = raw.strip().lower()
    if word in ("1", "true", "yes", "on"):
        return True
    if word in ("0", "false", "no", "off"):
        return False
    raise ValueError("write 1 or 0")


# -- defaults that depend on the machine ------------------------------------------------------


def data_folder() -> Path:
    """The user's folder for application data, by platform (``~/.local/share/parsing-lab`` on Linux)."""
    return platformdirs.user_data_path(APP_NAME, appauthor=False)


def cache_folder() -> Path:
    """The user's cache folder, by platform (``~/.cache/parsing-lab`` on Linux)."""
    return platformdirs.user_cache_path(APP_NAME, appauthor=False)


def checkout_data() -> Path | None:
    """``shared/data/ud`` beside the repository checkout, if it exists."""
    return CHECKOUT_DATA if CHECKOUT_DATA.is_dir() else None


def temp_jobs() -> Path:
    return Path(tempfile.gettempdir()) / "parsing_jobs"


@dataclass(frozen=True)
class LibrarySettings:
    """What the library reads from the environment."""

    data_dir: Path | None = setting(
        "PARSING_DATA_DIR", checkout_data, "The folder of UD `*.conllu` files the treebank lists read.",
        path, "`shared/data/ud` beside the checkout, if it exists")
    cache_dir: Path = setting(
        "PARSING_CACHE_DIR", lambda: cache_folder() / "ud", "Where downloaded treebanks are kept.",
        path, "`ud` in the user's cache folder (`~/.cache/parsing-lab/ud` on Linux)")
    ud_url: str = setting(
        "PARSING_UD_URL", UD_URL, "Where treebanks are downloaded from (a mirror of the UD repositories).")
    allowed_dirs: tuple[Path, ...] = setting(
        "PARSING_ALLOWED_DIRS", (), "The folders (separated by `:`) a server reads treebanks from "
        "when a user names one.", paths, "the data folder and the download cache")
    dqn_model: Path | None = setting(
        "PARSING_DQN_MODEL", None, "A trained DQN (`model.pt`) offered as the `dqn` oracle.", path, "none")
    jobs_dir: Path = setting(
        "PARSING_JOBS_DIR", temp_jobs, "The folder of the app's background runs (train, rl, lab); the "
        "library finds trained DQN runs in its `rl` folder.", path, "`parsing_jobs` in the temp folder")

    @classmethod
    def from_environ(cls: type[S], environ: Mapping[str, str]) -> S:
        """The settings ``environ`` gives (unset or empty variables take their defaults)."""
        values: dict[str, Any] = {f.name: value_of(f.metadata, environ) for f in fields(cls)}
        return cls(**values)

    @classmethod
    def variable(cls, name: str) -> str:
        """The environment variable of the field ``name``: ``PARSING_JOBS_DIR`` for ``jobs_dir``."""
        return str(next(f.metadata["variable"] for f in fields(cls) if f.name == name))


def value_of(meta: Mapping[str, Any], environ: Mapping[str, str]) -> object:
    raw = environ.get(meta["variable"], "").strip()
    if not raw:
        default = meta["default"]
        return default() if callable(default) else default
    try:
        return meta["read"](raw)
    except ValueError as error:
        raise SettingError(f"{meta['variable']}={raw[:200]!r}: {error}") from None


def snapshot(environ: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """The variables settings depend on, as a key: settings are built again only when it changes."""
    return tuple(sorted((k, v) for k, v in environ.items()
                        if k.startswith(PREFIX) or k in PLATFORM_VARIABLES))


@lru_cache(maxsize=8)
def built(cls: type[LibrarySettings], key: tuple[tuple[str, str], ...]) -> LibrarySettings:
    return cls.from_environ(dict(key))


def current() -> LibrarySettings:
    """The library's settings from this process's environment, built once (and again only if a
    variable changes, as tests do)."""
    return built(LibrarySettings, snapshot(os.environ))
