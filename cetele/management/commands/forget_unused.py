"""`manage.py forget_unused [--days 365]`: delete the matches, tables, house presets and
tournaments that nobody has used for that long, and print what went.

Player names are personal data; a score sheet nobody has opened for a year is not kept "just in
case" (docs/privacy.md). "Used" is `touched_at`: created, changed, or opened through one of its
links (see cetele.models.Forgettable). A table is kept while one of its matches is in use.

Safe from cron: it asks nothing, deletes in small batches (each its own short transaction, every
row re-checked inside it, so something opened a moment ago stays), and running it twice or
twice at once does no harm. It also deletes the link-guessing counts of past windows, which hold
client addresses (the link-guessing limit). On SQLite it then gives the space back (VACUUM)
whenever the file has free pages, so that it shrinks and deleted names do not linger in them;
writers wait meanwhile, so run it at a quiet hour. What it prints names nothing: numbers and
dates only.
"""

from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError
from django.utils import timezone

from cetele.your_data.deletion import forget_expired_miss_counts, forget_unused, give_space_back

DEFAULT_DAYS = 365


def megabytes(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB"


class Command(BaseCommand):
    help = (
        "Delete matches, tables and house presets nobody has used for --days days "
        f"(default {DEFAULT_DAYS}), then give the space back on SQLite."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--days",
            type=int,
            default=DEFAULT_DAYS,
            help=f"forget what has been untouched for this many days (default {DEFAULT_DAYS})",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="list what would go, delete nothing"
        )
        parser.add_argument(
            "--no-vacuum", action="store_true", help="skip VACUUM on SQLite afterwards"
        )

    def handle(self, *args, days: int, dry_run: bool, no_vacuum: bool, **options) -> None:
        if days < 1:
            raise CommandError("--days must be at least 1.")
        cutoff = timezone.now() - timedelta(days=days)
        try:
            report = forget_unused(cutoff, dry_run=dry_run)
        except DatabaseError as error:
            raise CommandError(
                f"The database refused: {error}. Nothing more was deleted."
            ) from error
        verb = "would remove" if dry_run else "removed"
        for line in report.lines:
            self.stdout.write(f"{verb} {line}")
        self.stdout.write(
            f"{verb} {report.matches} matches ({report.hands} hands), {report.tables} tables, "
            f"{report.presets} house presets untouched since {cutoff:%Y-%m-%d}."
        )
        if report.tournaments:
            self.stdout.write(f"{verb} {report.tournaments} tournaments as well.")
        if dry_run:
            return
        expired = forget_expired_miss_counts()
        if expired:
            self.stdout.write(f"removed {expired} expired link-guessing counts.")
        if no_vacuum:
            return
        sizes = give_space_back()
        if sizes:
            before, after = sizes
            self.stdout.write(f"SQLite database: {megabytes(before)} -> {megabytes(after)}.")
