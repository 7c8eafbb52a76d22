"""`manage.py prepare_database`: migrate and create the cache table, once, however many app
servers start at the same moment (the container runs it before gunicorn: docs/self-hosting.md).

Django's `migrate` has no lock of its own: two started together both find a migration unapplied
and the second fails on a table the first just made. Here every starter waits for one lock, and
whoever gets it second finds nothing left to do. PostgreSQL: a session advisory lock (released
when the connection closes, even if this process dies); SQLite: an exclusive lock on a file
beside the database (the one machine holding the file).

--wait SECONDS: first wait that long for the database to answer (a database container started
beside the app takes a few seconds to accept connections).
"""

import fcntl
import time
from contextlib import contextmanager
from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import OperationalError, connection

LOCK_KEY = 0x63E7E1E  # any fixed number: "Çetele's migrations" among the server's advisory locks


@contextmanager
def migration_lock():
    if connection.vendor == "postgresql":
        # No ORM for an advisory lock: the one statement PostgreSQL has for it.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s)", [LOCK_KEY])
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [LOCK_KEY])
    elif connection.vendor == "sqlite" and not connection.is_in_memory_db():
        database = Path(connection.settings_dict["NAME"])
        with open(database.with_name(database.name + ".migrate-lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            yield
    else:
        yield


def wait_for_database(seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            connection.ensure_connection()
            return
        except OperationalError as error:
            if time.monotonic() >= deadline:
                message = f"The database did not answer in {seconds:g} s: {error}"
                raise CommandError(message) from error
            time.sleep(0.5)


class Command(BaseCommand):
    help = "Migrate and create the cache table, once even when several servers start together."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--wait", type=float, default=0, help="seconds to wait for the database to answer"
        )

    def handle(self, *args, wait: float, **options) -> None:
        verbosity = options["verbosity"]
        wait_for_database(wait)
        with migration_lock():
            call_command("migrate", interactive=False, verbosity=verbosity)
            call_command("createcachetable", verbosity=verbosity)
