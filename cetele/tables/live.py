"""A table's page follows its matches live, as a tournament's does: its live part (standings,
matches, statistics) asks with the version it shows, and is told of each change by its stream
where the app has push (cetele.live.push): a hand saved or corrected in any of its matches, a
match started or deleted, its players renamed, a drink at the table. The version is read in one
aggregate query, whatever the number of matches or hands."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, F, Max, QuerySet, Sum

from cetele.live import push
from cetele.tables.models import Table


@dataclass
class TableVersion:
    key: str  # "<table's own version>.<sum of its matches' versions>.<number of matches>"
    touched_at: datetime  # the latest change of one of its matches (the polls' schedule)


def live_version(tables: QuerySet) -> TableVersion | None:
    """The version of the table `tables` finds (a filter on a token); None: no such table. Every
    save bumps one match's version, a match deleted changes the count, and what is the table's
    own (its players, the drinks waiting at it) bumps its version (`changed`)."""
    row = (
        tables.annotate(
            saves=Sum("matches__version"),
            matches_count=Count("matches"),
            latest=Max("matches__touched_at"),
        )
        .values_list("version", "saves", "matches_count", "created_at", "latest")
        .first()
    )
    if row is None:
        return None
    version, saves, count, created_at, latest = row
    return TableVersion(f"{version}.{saves or 0}.{count}", latest or created_at)


def changed(table_ids) -> None:
    """Something the table's page shows that is the table's own changed: a new version, and
    its pages are told once the change commits."""
    tables = Table.objects.filter(pk__in=list(table_ids))
    tables.update(version=F("version") + 1)
    push.announce_tables(tables)
