"""Secrets of a class server: where they may come from, and how they never show.

A server has two: the database URL's password and Ray's token.  A command line is no place for
either, since every local user reads it in ``ps`` (``/proc/<pid>/cmdline``).  They come from
the environment (``PARSING_DATABASE_URL``) or from a file only its owner may read
(``--database-url-file``, mode 600); the replicas get them in their environment, which only
their owner (and root) can read.  Whatever the launcher prints goes through :class:`Masker`
first, which writes ``***`` for each secret it knows.

>>> masked_url("postgresql+psycopg://lab:s3cret@127.0.0.1:5432/lab")
'postgresql+psycopg://lab:***@127.0.0.1:5432/lab'
>>> password_of("postgresql+psycopg://lab@/lab") is None
True
>>> Masker(["s3cret"])("could not connect as lab:s3cret (s3cret)")
'could not connect as lab:*** (***)'
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

MASK = "***"


class SecretError(ValueError):
    """A secret given where others can read it (the command line, a file open to others)."""


def password_of(url: str) -> str | None:
    """The password in a URL's ``user:password@`` part (decoded), None when it has none."""
    secret = urlsplit(url).password
    return unquote(secret) if secret else None


def masked_url(url: str) -> str:
    """``url`` with its password written ``***`` (the rest left as it is, to say where it goes)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = f"{parts.username}:{MASK}" if parts.username else f":{MASK}"
    host = parts.netloc.rpartition("@")[2]
    return parts._replace(netloc=f"{user}@{host}").geturl()


def refuse_in_argv(url: str | None, option: str) -> None:
    """SecretError if a URL typed on the command line holds a password."""
    if url and password_of(url) is not None:
        raise SecretError(f"{option} holds a password, which every user of this machine could read in "
                          f"`ps`: put the URL in PARSING_DATABASE_URL or in a file only you can read "
                          f"(chmod 600) named by --database-url-file")


def read_private(path: Path) -> str:
    """The text of a secret file (stripped), once sure that no one but its owner may read it.

    A file that the group or others may read or write, or that belongs to someone else, is
    refused: a secret in it is no secret."""
    info = path.stat()
    if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise SecretError(f"{path} may be read by others (mode {stat.filemode(info.st_mode)}); "
                          f"run `chmod 600 {path}`")
    if info.st_uid != os.geteuid():
        raise SecretError(f"{path} belongs to another user; a secret file must be the server user's own")
    return path.read_text(encoding="utf-8").strip()


def write_private(path: Path, text: str) -> Path:
    """Write ``text`` into a new file that only its owner may read (mode 600 from the start)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(descriptor, 0o600)  # an existing file keeps its mode through O_CREAT
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        out.write(text)
    return path


class Masker:
    """Writes ``***`` for every secret it knows (as written, and as a URL would quote it)."""

    def __init__(self, secrets: Iterable[str | None] = ()) -> None:
        self.secrets: set[str] = set()
        for secret in secrets:
            self.add(secret)

    def add(self, secret: str | None) -> None:
        if secret:
            self.secrets |= {secret, quote(secret, safe="")}

    def __call__(self, text: str) -> str:
        for secret in sorted(self.secrets, key=len, reverse=True):  # a longer form before its parts
            text = text.replace(secret, MASK)
        return text
