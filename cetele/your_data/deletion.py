"""Deleting what people made: a match, a table, a house preset, at their request (edit link or
the operator's admin) or when nobody has used it for a long time (`forget_unused`, which also
drops the admin login's expired counts of wrong passwords, keyed by client address, from the
database).

Player names are personal data. A deletion removes the rows for good (a match with its players,
hands and history) and is recorded nowhere that keeps a name: not in a log, not in the history
(it goes too), not in what `forget_unused` prints (numbers and dates only).
"""

from dataclasses import dataclass, field
from datetime import datetime

from django.db import connection, transaction
from django.db.models import Count, Exists, OuterRef, QuerySet

from cetele.live import push
from cetele.models import Game, HousePreset, Match, MissCount, Table, Tournament
from cetele.shell.wrong_passwords import current_window
from cetele.tables.live import changed as table_changed

# `forget_unused` deletes this many at a time, each batch in its own short transaction: on
# SQLite every transaction holds the one write lock, and live tables must not wait long.
BATCH = 100


def delete_match(match: Match) -> None:
    """Delete a match with its players, hands and history; its links then answer like any
    unknown link. A rematch of it stays (it forgets what it was a rematch of)."""
    with transaction.atomic():
        # Lock the row first (PostgreSQL): a save in flight finishes before, or finds it gone.
        delete_matches(Match.objects.select_for_update().filter(pk=match.pk))


def delete_house_preset(house: HousePreset) -> None:
    """Delete a house preset. Matches started with it keep their own frozen copy of the rules."""
    HousePreset.objects.filter(pk=house.pk).delete()


def not_games(matches: QuerySet) -> QuerySet:
    """Those of `matches` that are no tournament's game: a game's result is its tournament's
    (its standings, its bracket), so its match goes only with the tournament. Asked with
    EXISTS, not through the reverse relation: its outer join cannot be locked FOR UPDATE on
    PostgreSQL (forget_unused locks its batch)."""
    return matches.exclude(Exists(Game.objects.filter(match_id=OuterRef("pk"))))


def delete_table(table: Table, *, with_matches: bool) -> int:
    """Delete a table and its list of players; its matches too when `with_matches` (but a
    tournament's games: not_games), else they stay as standalone matches, reachable by their
    own links. Returns how many matches went."""
    with transaction.atomic():
        deleted = 0
        if with_matches:
            deleted = delete_matches(not_games(Match.objects.filter(table_id=table.pk)))
        push.close_streams([table.edit_token, table.view_token])
        Table.objects.filter(pk=table.pk).delete()
    return deleted


def delete_matches(matches: QuerySet) -> int:
    """Delete these matches with everything in them (players, hands, the whole history, in one
    statement each: Change's links to other changes do nothing on delete); returns how many."""
    with transaction.atomic():
        # Their phones' streams close once the deletion commits (their pages then say so).
        push.close_streams(
            token
            for tokens in matches.values_list("edit_token", "view_token", "join_token")
            for token in tokens
        )
        tables = set(matches.exclude(table=None).values_list("table_id", flat=True))
        counts = matches.delete()[1]
        table_changed(tables)  # their tables' pages list them no more
    return counts.get(Match._meta.label, 0)


# --- Forgetting what nobody uses ---------------------------------------------------------------


@dataclass
class Forgotten:
    """What `forget_unused` removed (or, on a dry run, would remove): numbers and dates only."""

    matches: int = 0
    hands: int = 0
    tables: int = 0
    presets: int = 0
    tournaments: int = 0
    lines: list[str] = field(default_factory=list)

    @property
    def anything(self) -> bool:
        return bool(self.matches or self.tables or self.presets or self.tournaments)


def stale_matches(cutoff: datetime) -> QuerySet:
    """Matches untouched since `cutoff`, but not a game of a tournament still kept (forgotten
    once the tournament is, which goes first)."""
    return not_games(Match.objects.filter(touched_at__lt=cutoff))


def stale_tables(cutoff: datetime) -> QuerySet:
    """Tables untouched since `cutoff` none of whose matches is still in use: a table people
    reach only through its matches' links is kept while those matches are."""
    used = Match.objects.filter(table_id=OuterRef("pk"), touched_at__gte=cutoff)
    return Table.objects.filter(touched_at__lt=cutoff).exclude(Exists(used))


def stale_presets(cutoff: datetime) -> QuerySet:
    return HousePreset.objects.filter(touched_at__lt=cutoff)


def stale_tournaments(cutoff: datetime) -> QuerySet:
    """Tournaments untouched since `cutoff` none of whose games' matches is still in use (a
    table scoring its game keeps the tournament; the matches are forgotten on their own)."""
    used = Match.objects.filter(tournament_game__tournament=OuterRef("pk"), touched_at__gte=cutoff)
    return Tournament.objects.filter(touched_at__lt=cutoff).exclude(Exists(used))


def forget_unused(cutoff: datetime, *, dry_run: bool = False) -> Forgotten:
    """Delete every match, table, house preset and tournament untouched since `cutoff` (see
    `Forgettable.touched_at`), a batch at a time; a dry run only lists them."""
    report = Forgotten()
    for model, stale in (
        (Tournament, stale_tournaments),  # first: its matches still in use keep it
        (Match, stale_matches),
        (Table, stale_tables),
        (HousePreset, stale_presets),
    ):
        last_pk = 0
        while True:
            with transaction.atomic():
                # Locked and re-checked inside the transaction: something opened or changed a
                # moment ago is no longer stale and stays.
                batch = list(
                    stale(cutoff)
                    .filter(pk__gt=last_pk)
                    .order_by("pk")
                    .select_for_update()
                    .values_list("pk", flat=True)[:BATCH]
                )
                if not batch:
                    break
                last_pk = batch[-1]
                describe(model, batch, report)
                if dry_run:
                    continue
                if model is Match:
                    delete_matches(Match.objects.filter(pk__in=batch))
                else:
                    model.objects.filter(pk__in=batch).delete()
    return report


def describe(model, pks: list[int], report: Forgotten) -> None:
    """Add these rows to the report: what they were, without a single name."""
    if model is Match:
        rows = (
            Match.objects.filter(pk__in=pks)
            .annotate(hand_count=Count("hands", distinct=True))
            .order_by("pk")
            .values_list("pk", "created_at", "touched_at", "hand_count", "planned_hands")
        )
        for pk, created, touched, hands, planned in rows:
            report.matches += 1
            report.hands += hands
            report.lines.append(
                f"match #{pk}: {hands}/{planned} hands, started {created:%Y-%m-%d}, "
                f"last used {touched:%Y-%m-%d}"
            )
        return
    rows = model.objects.filter(pk__in=pks).order_by("pk")
    for pk, created, touched in rows.values_list("pk", "created_at", "touched_at"):
        if model is Table:
            report.tables += 1
            kind = "table"
        elif model is Tournament:
            report.tournaments += 1
            kind = "tournament"
        else:
            report.presets += 1
            kind = "house preset"
        report.lines.append(
            f"{kind} #{pk}: created {created:%Y-%m-%d}, last used {touched:%Y-%m-%d}"
        )


def forget_expired_miss_counts() -> int:
    """The admin's login counts wrong passwords per client address for 10 minutes (in the
    database with DJANGO_CACHE_URL=db). Redis and a process's memory drop a count when it
    expires; a row stays until its address misses again. Delete the rows of windows that have
    passed, so that no address stays in the database past its window. Returns how many went."""
    window, _left = current_window()
    deleted, _ = MissCount.objects.filter(window__lt=window).delete()
    return deleted


# --- Giving the space back -----------------------------------------------------------------


def database_bytes() -> int:
    """The SQLite database's size in pages (what VACUUM can shrink)."""
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA page_count")
        pages = cursor.fetchone()[0]
        cursor.execute("PRAGMA page_size")
        return pages * cursor.fetchone()[0]


def give_space_back() -> tuple[int, int] | None:
    """On SQLite, when the file has free pages (rows deleted by anyone since the last time),
    rebuild it without them (VACUUM) and empty the WAL, so that the file shrinks and deleted
    names do not linger. Returns the size before and after in bytes; None when there was
    nothing to give back or on other databases (PostgreSQL's autovacuum reuses the space).
    Writers wait meanwhile (up to the busy timeout): run it at a quiet hour."""
    if connection.vendor != "sqlite":
        return None
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA freelist_count")
        if not cursor.fetchone()[0]:
            return None
    before = database_bytes()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM")
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return before, database_bytes()
