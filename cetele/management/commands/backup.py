"""`manage.py backup FILE`: a consistent copy of the SQLite database, taken while it is in use.

SQLite's online backup API copies every page inside one read transaction: in WAL mode that is a
snapshot of one instant, and the server's writers go on beside it (readers never block writers).
The copy is written beside FILE and renamed into place, checked with `PRAGMA integrity_check`,
and switched to a rollback journal so that it is one self-contained file.

Restore with `manage.py restore FILE` (docs/deployment.md, "Backups on SQLite"; in a container:
docs/self-hosting.md). PostgreSQL: use pg_dump.
"""

import contextlib
import os
import sqlite3
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connections


def sqlite_path(alias: str = "default") -> Path:
    connection = connections[alias]
    if connection.vendor != "sqlite":
        raise CommandError(
            f"The {alias!r} database is {connection.vendor}, not SQLite: back it up with pg_dump."
        )
    return Path(connection.settings_dict["NAME"])


def check_integrity(connection: sqlite3.Connection, what: str) -> None:
    result = connection.execute("PRAGMA integrity_check").fetchall()
    if result != [("ok",)]:
        raise CommandError(f"{what} failed the integrity check: {result[:5]}")


def summary(connection: sqlite3.Connection) -> str:
    matches = connection.execute("SELECT count(*) FROM cetele_match").fetchone()[0]
    hands = connection.execute("SELECT count(*) FROM cetele_hand").fetchone()[0]
    return f"{matches} matches, {hands} hands"


class Command(BaseCommand):
    help = "Copy the SQLite database to FILE, consistently, while the server runs."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="where to write the copy")
        parser.add_argument("--force", action="store_true", help="replace FILE if it exists")

    def handle(self, *args, file: str, force: bool, **options) -> None:
        source_path = sqlite_path()
        target = Path(file).resolve()
        if target == source_path.resolve():
            raise CommandError("FILE is the database itself.")
        if target.exists() and not force:
            raise CommandError(f"{target} exists (use --force to replace it).")
        partial = target.with_name(f".{target.name}.partial")
        partial.unlink(missing_ok=True)
        source = sqlite3.connect(source_path, timeout=30)  # it only reads
        try:
            with contextlib.closing(sqlite3.connect(partial)) as copy:
                source.backup(copy)  # all pages in one step: one snapshot
                copy.execute("PRAGMA journal_mode=DELETE")
                check_integrity(copy, "The copy")
                described = summary(copy)
            os.replace(partial, target)
        finally:
            source.close()
            partial.unlink(missing_ok=True)
        self.stdout.write(f"Backed up {source_path} to {target}: {described}, integrity ok.")
