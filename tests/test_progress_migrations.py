"""The Alembic migrations make the schema the models declare, on a fresh database, and run at every start:
on a SQLite file and on PostgreSQL alike (``database_url``).

Also: where the store lives by default (``PARSING_DATABASE_URL``, else the user's data folder), and
that a database of an unknown (newer) schema is refused with the store's one error type.
"""

from __future__ import annotations

import shutil
import sqlite3

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text

from server.progress import StoreUnavailable, default_url, open_store
from server.progress.database import MIGRATIONS, alembic_config
from server.progress.schema import Base


def test_migrations_create_the_schema_of_the_models_on_a_fresh_database(database_url):
    open_store(database_url).close()
    engine = create_engine(database_url)
    with engine.connect() as connection:
        assert set(inspect(connection).get_table_names()) == {"alembic_version", *Base.metadata.tables}
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
        head = ScriptDirectory.from_config(alembic_config()).get_current_head()
        assert MigrationContext.configure(connection).get_current_revision() == head
    engine.dispose()


def test_a_fresh_sqlite_file_is_made_in_a_new_folder_and_keeps_a_write_ahead_log(tmp_path):
    path = tmp_path / "fresh" / "progress.sqlite3"  # the folder does not exist yet either
    open_store(f"sqlite:///{path}").close()
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_the_migrations_are_one_line_of_revisions_and_go_down_and_up_again(database_url):
    url = database_url
    open_store(url).close()
    script = ScriptDirectory.from_config(alembic_config())
    assert len(script.get_heads()) == 1
    config = alembic_config(url)
    command.downgrade(config, "base")
    engine = create_engine(url)
    assert inspect(engine).get_table_names() == ["alembic_version"]
    engine.dispose()
    store = open_store(url)  # the next start migrates again
    store.register("ana")
    store.close()


def test_opening_an_up_to_date_store_keeps_its_data(database_url):
    url = database_url
    store = open_store(url)
    store.register("ana")
    store.close()
    for _ in range(2):
        again = open_store(url)
        assert again.continue_as("ana").nickname == "ana"
        again.close()


def test_a_database_of_a_newer_schema_is_refused(database_url):
    open_store(database_url).close()
    engine = create_engine(database_url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = 'from-the-future'"))
    engine.dispose()
    with pytest.raises(StoreUnavailable, match="schema is not one this version of the lab knows"):
        open_store(database_url)


def test_the_default_store_is_a_file_in_the_users_data_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("PARSING_DATABASE_URL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr("sys.platform", "linux")
    expected = tmp_path / "data" / "parsing-lab" / "progress.sqlite3"
    assert default_url() == f"sqlite:///{expected}"
    store = open_store()
    store.register("ana")
    store.close()
    assert expected.is_file()


def test_parsing_database_url_names_the_database(database_url, monkeypatch):
    monkeypatch.setenv("PARSING_DATABASE_URL", database_url)
    store = open_store()
    assert store.url == database_url
    ana = store.register("ana")
    store.close()
    assert open_store(database_url).continue_as("ana") == ana


def test_a_drafted_revision_finds_nothing_to_change_while_models_and_migrations_agree(tmp_path):
    from server.progress.migrations.__main__ import draft

    location = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS, location, ignore=shutil.ignore_patterns("__pycache__"))
    head = ScriptDirectory.from_config(alembic_config(location=location)).get_current_head()
    following = f"{int(head) + 1:04d}"
    path = draft("nothing yet", location)
    assert path.name == f"v{following}_nothing_yet.py"
    text = path.read_text()
    assert f"down_revision: str | None = '{head}'" in text
    upgrade = text.split("def upgrade() -> None:")[1].split("def downgrade")[0]
    assert "pass" in upgrade and "op." not in upgrade
    assert ScriptDirectory.from_config(alembic_config(location=location)).get_current_head() == following
