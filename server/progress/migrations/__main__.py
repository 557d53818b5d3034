"""Draft the next revision: ``python -m server.progress.migrations "what changed"``.

Alembic compares the models (:mod:`server.progress.schema`) with a scratch SQLite database
migrated to the current head and writes ``versions/vNNNN_what_changed.py`` with the operations it
finds.  Read the draft before keeping it: autogenerate sees tables, columns, types, indexes and
constraints, not renames or data to move.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from alembic import command
from alembic.script import ScriptDirectory

from server.progress.database import MIGRATIONS, alembic_config, connect, migrate


def next_revision(location: Path) -> str:
    """``0002`` after ``0001``: revisions are numbered in order."""
    head = ScriptDirectory.from_config(alembic_config(location=location)).get_current_head()
    return f"{int(head or 0) + 1:04d}"


def draft(message: str, location: Path = MIGRATIONS) -> Path:
    """Write a draft revision into ``location``/versions and return its path."""
    with tempfile.TemporaryDirectory() as scratch:
        url = f"sqlite:///{Path(scratch) / 'head.sqlite3'}"
        engine = connect(url)
        migrate(engine, location)
        engine.dispose()
        config = alembic_config(url, location)
        config.set_main_option("file_template", "v%%(rev)s_%%(slug)s")
        script = command.revision(config, message=message, autogenerate=True, rev_id=next_revision(location))
    if script is None or isinstance(script, list):
        raise SystemExit("Alembic wrote no single revision")
    return Path(script.path)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    print(draft(sys.argv[1]))
