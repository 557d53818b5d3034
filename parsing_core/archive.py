"""A saved model's file: a ``torch.save`` archive of a plain dict, tagged with its format and version.

Both the parser (:mod:`parsing_core.checkpoint`) and the DQN oracle (:mod:`parsing_core.rl.checkpoint`)
save their weights this way::

    {"format": "<what the file is>", "version": <int>, "config": "<JSON>", "weights": <state_dict>}

Writing goes to a temporary file beside the target, renamed into place, so a reader never sees half
a file.  Reading uses ``torch.load(..., weights_only=True)``: the dict may hold only tensors,
strings and numbers, and a file that holds anything else (pickled code) is refused, never run.
Each caller names its file in an :class:`ArchiveKind`, and every problem raises the caller's error:

>>> import tempfile
>>> from parsing_core.errors import ParsingCoreError
>>> NOTES = ArchiveKind("notes", 1, "notes file", "notes file", ParsingCoreError)
>>> with tempfile.TemporaryDirectory() as folder:
...     path = write_archive(Path(folder, "n.pt"), {"format": "notes", "version": 1, "config": "{}"}, NOTES)
...     print(path.name, read_archive(path, NOTES)["config"])
n.pt {}
>>> read_archive(Path("no", "such.pt"), NOTES)
Traceback (most recent call last):
...
parsing_core.errors.ParsingCoreError: no notes file at no/such.pt
"""

from __future__ import annotations

import os
import pickle
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from .errors import ParsingCoreError


@dataclass(frozen=True)
class ArchiveKind:
    """One kind of saved file: the tag and version inside it, how messages call it, what it raises.

    ``name`` is what the file is called where it is missing ("no checkpoint at …"); ``title`` what
    a file of another kind is not ("… is not a parser checkpoint"); ``elsewhere`` is added to that
    message to say where files of the other kind are read.
    """

    format: str
    version: int
    name: str
    title: str
    error: type[ParsingCoreError]
    elsewhere: str = ""


def write_archive(path: str | os.PathLike[str], payload: dict[str, Any], kind: ArchiveKind) -> Path:
    """Write ``payload`` to ``path`` atomically (temporary file, then rename); returns the path."""
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as err:
        raise kind.error(f"could not write {target}: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "wb") as file:
            torch.save(payload, file)
        os.replace(tmp, target)
    except OSError as err:
        raise kind.error(f"could not write {target}: {err.strerror or err}") from None
    finally:
        Path(tmp).unlink(missing_ok=True)
    return target


def read_archive(path: Path, kind: ArchiveKind) -> dict[str, Any]:
    """The archive's dict, after checking the file is one of ``kind``, of its version."""
    if not path.exists():
        raise kind.error(f"no {kind.name} at {path}")
    if not path.is_file():
        raise kind.error(f"{path} is not a file (a {kind.name} is one .pt file)")
    if not zipfile.is_zipfile(path):
        raise kind.error(f"{path.name} is not a {kind.title} (not a torch archive)")
    try:
        payload = torch.load(path, map_location="cpu", weights_only=True)
    except (RuntimeError, pickle.UnpicklingError, EOFError, zipfile.BadZipFile, ValueError, OSError):
        raise kind.error(f"{path.name} is damaged, or holds more than weights and settings "
                         "(it is refused rather than run)") from None
    if not isinstance(payload, dict) or payload.get("format") != kind.format:
        raise kind.error(f"{path.name} is a torch file, but not a parsing_core {kind.title}{kind.elsewhere}")
    if payload.get("version") != kind.version:
        raise kind.error(f"{path.name} is a version {payload.get('version')} {kind.name}; this "
                         f"parsing_core reads version {kind.version}: retrain, or use the matching version")
    return payload
