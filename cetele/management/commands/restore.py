"""`manage.py restore FILE`: put a backup made by `manage.py backup` back in place.

The backup is checked first (integrity, and that it holds Çetele's tables); then SQLite's backup
API copies it over the live database in one write transaction, so that every connection sees
either the old database or the restored one, never a mixture, and the WAL stays consistent.
Stopping the server first is still the calm way to do it (docs/deployment.md, "Backups on SQLite").
"""

import contextlib
import sqlite3
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cetele.management.commands.backup import check_integrity, sqlite_path, summary


class Command(BaseCommand):
    help = "Replace the SQLite database with a backup made by `manage.py backup`."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the backup to restore")
        parser.add_argument("--yes", action="store_true", help="do not ask for confirmation")

    def handle(self, *args, file: str, yes: bool, **options) -> None:
        target_path = sqlite_path()
        backup_path = Path(file)
        if not backup_path.is_file():
            raise CommandError(f"{backup_path} is not a file.")
        with contextlib.closing(sqlite3.connect(f"file:{backup_path}?mode=ro", uri=True)) as backup:
            try:
                check_integrity(backup, str(backup_path))
                described = summary(backup)
            except sqlite3.DatabaseError as error:
                raise CommandError(f"{backup_path} is not a Çetele backup: {error}") from error
            if not yes:
                answer = input(f"Replace {target_path} with {backup_path} ({described})? [y/N] ")
                if answer.strip().lower() not in {"y", "yes", "e", "evet"}:
                    raise CommandError("Nothing restored.")
            with contextlib.closing(sqlite3.connect(target_path, timeout=30)) as target:
                backup.backup(target)
                check_integrity(target, "The restored database")
        self.stdout.write(f"Restored {backup_path} into {target_path}: {described}.")
