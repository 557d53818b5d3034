"""The app's settings: one frozen object, read once from the environment.

:class:`Settings` is the library's :class:`~parsing_core.settings.LibrarySettings` (treebanks,
downloads, a learned model, the jobs folder) and the server's own fields: the database, where
jobs run, the caps per minute and the switches of a shared deployment.  Every module of the app
asks :func:`settings` and reads no ``PARSING_*`` variable itself.

A test that needs other values builds its own object -- ``Settings.from_environ({...})`` or
``dataclasses.replace(settings(), jobs_dir=...)`` -- or sets the variable: :func:`settings` is
built again when a ``PARSING_*`` variable changes.

>>> s = Settings.from_environ({"PARSING_LIMIT_JOBS": "5/50", "PARSING_SHARED_SERVER": "1"})
>>> s.caps("jobs"), s.shared_server, s.caps("exercises").per_session
(Caps(per_session=5.0, in_all=50.0, window_s=60.0), True, 120)
>>> Settings.variable("database_url")
'PARSING_DATABASE_URL'

``python -m server.settings`` prints the table of every setting (docs/operations/settings.md).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from parsing_core.lessons import LESSONS_DIR
from parsing_core.settings import LibrarySettings, built, flag, path, setting, snapshot

from .limits import Caps

#: The progress store's SQLite file, in the user's data folder, when no database is named.
PROGRESS_FILE = "progress.sqlite3"


def nice_value(raw: str) -> int:
    """``PARSING_JOB_NICE``: 0 (a run weighs as much as the app) to 19 (it takes only what is idle).

    >>> nice_value("10"), nice_value("0")
    (10, 0)
    >>> nice_value("25")
    Traceback (most recent call last):
    ...
    ValueError: write a number from 0 (no change) to 19 (the lowest priority)
    """
    value = int(raw) if raw.strip().isdigit() else -1
    if not 0 <= value <= 19:
        raise ValueError("write a number from 0 (no change) to 19 (the lowest priority)")
    return value


def caps_setting(name: str, default: Caps, what: str, shown: str | None = None) -> Any:
    return setting(f"PARSING_LIMIT_{name.upper()}", default, f"The most {what} per minute: "
                   "`<per session>/<in all>`.", Caps.parse,
                   shown or f"`{default.per_session:g}/{default.in_all:g}`")


@dataclass(frozen=True)
class Settings(LibrarySettings):
    """What the app reads from the environment: the library's settings and the server's."""

    database_url: str | None = setting(
        "PARSING_DATABASE_URL", None, "The progress database (any SQLAlchemy URL; PostgreSQL "
        "for a class).", str, f"`{PROGRESS_FILE}` in the user's data folder (`~/.local/share/parsing-lab`)")
    jobs_backend: str = setting(
        "PARSING_JOBS_BACKEND", "local", "Where new runs go: `local` processes or a `ray` cluster "
        "(with `RAY_ADDRESS`).")
    standby: bool = setting(
        "PARSING_STANDBY", True, "Keep one process standing by, torch imported, that forks each local run.",
        flag, "`1`")
    job_nice: int = setting(
        "PARSING_JOB_NICE", 10, "How far local runs give way to the app's pages on a busy machine: "
        "their CPU priority as a nice value, 0 (none) to 19.", nice_value)
    shared_server: bool = setting(
        "PARSING_SHARED_SERVER", False, "The app serves several people: a tab may stop only its own runs.",
        flag, "`0`")
    folder_field: bool = setting(
        "PARSING_FOLDER_FIELD", True, "Visitors may type a data folder (`0`: the field is locked).",
        flag, "`1`")
    lessons_dir: Path = setting(
        "PARSING_LESSONS_DIR", LESSONS_DIR, "The folder of lesson files.", path, "`assets/lessons`")
    memory_log: Path | None = setting(
        "PARSING_MEMORY_LOG", None, "A file the app appends its memory use to, every second (benchmarks).",
        path, "none")
    limit_exercises: Caps = caps_setting("exercises", Caps(120, 2_000), "Practice items drawn")
    limit_jobs: Caps = caps_setting("jobs", Caps(3, 20), "lab and RL runs started")
    limit_upload: Caps = caps_setting("upload", Caps(50e6, 500e6), "bytes uploaded", "`50e6/500e6`")
    limit_board: Caps = caps_setting("board", Caps(600, 30_000), "quick clicks on the Stepper's board")

    def caps(self, name: str) -> Caps:
        """The caps of the limit ``name`` (``exercises``, ``jobs``, ``upload``, ``board``)."""
        value = getattr(self, f"limit_{name}")
        assert isinstance(value, Caps)
        return value


def settings() -> Settings:
    """The app's settings from this process's environment, built once (and again only when a
    ``PARSING_*`` variable changes, as tests do)."""
    value = built(Settings, snapshot(os.environ))
    assert isinstance(value, Settings)
    return value


def markdown_table() -> str:
    """The documentation's page of every setting (docs/operations/settings.md), from the fields."""
    rows = [f"| `{f.metadata['variable']}` | {f.metadata['shown']} | {f.metadata['about']} |"
            for f in fields(Settings)]
    return "\n".join([
        "# Settings", "",
        "Every setting is an environment variable, read once when the app starts (`server/settings.py`;",
        "the library's own in `parsing_core/settings.py`).  This page is generated from their fields:",
        "`python -m server.settings > docs/operations/settings.md`.", "",
        "| Variable | Default | What it is for |", "|---|---|---|", *rows, ""])


if __name__ == "__main__":
    print(markdown_table(), end="")
