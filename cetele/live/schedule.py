"""How often a live sheet asks for news: often while the table plays, less once it has gone quiet.

A hand of 101 takes minutes, so a save is rarely followed by another within a couple of minutes
and a match untouched for a quarter of an hour is on a break or over. The sheet carries how long
ago the match last changed (`touched_at`, bumped by every change) and this schedule; app.js
waits the interval the schedule gives for the time since then. While a table plays (a hand
every few minutes) a viewer asks every 8 s, so a save shows within 4 s on the median; right after
a save, and on a quiet match, much less often. bench/loadtest/ uses the same schedule.
"""

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.utils import timezone

# (quiet for less than this many seconds, ask every this many seconds); None: from then on.
# Each interval is a multiple of htmx's 4-s tick (match.html#sheet), which app.js lets through.
POLL_SCHEDULE: tuple[tuple[int | None, int], ...] = (
    (120, 16),  # a hand was just saved: the next one is minutes away (corrections can wait 16 s)
    (900, 8),  # the table is playing: the next save is due any moment
    (3600, 32),  # a break
    (None, 120),  # gone home: the page still catches up within two minutes
)


# How often a page asks for the open hand's rows, the joined phones' (cetele.seats). Those polls
# also bring the sheet's news (a new version: "cetele:poll-now"), so a page that has them asks for
# its sheet only when they say so (sheet_context's `sheet_polls`). A row should show on the
# scorer's form and on every other joined phone about 2 s after it is written (the median of a
# 4-s poll), the hand's first row too, whenever it comes (a player who finished fast writes right
# after the save): so once a phone has joined, every page of the table that asks for rows asks
# every 4 s while a hand is open. The scorer's page no phone has joined waits at a viewer's pace,
# by how long the match has been quiet (seats.js reads the page's sheet through app.js): its
# only news is a seat taken or another editor's save.
ROWS_EVERY = 4  # a phone has joined: the table writes its rows from the phones
ROWS_SCHEDULE_WAITING = POLL_SCHEDULE  # the scorer's page, no phone joined
ROWS_TICK = 4  # htmx's tick while no phone has joined: each schedule's step divides it


@dataclass(frozen=True)
class RowsPace:
    """How the rows' section asks: htmx's `every` (s), and the schedule seats.js lets its ticks
    through by (data-rows-schedule, read as data-poll-schedule; "": every tick)."""

    every: int
    schedule: str


def rows_pace(table: list) -> RowsPace:
    """How often a page asks for the open hand's rows, from what every seat shows now
    (cetele.seats.drafts.table_rows): the same on the scorer's page and a joined phone's."""
    # 1 but in the tests (settings.CETELE_ROWS_POLL_SPEEDUP): the same schedule, sooner.
    speedup = settings.CETELE_ROWS_POLL_SPEEDUP
    if any(state.joined or state.row for state in table):
        return RowsPace(max(1, ROWS_EVERY // speedup), "")
    sooner = tuple((until, max(1, every // speedup)) for until, every in ROWS_SCHEDULE_WAITING)
    return RowsPace(max(1, ROWS_TICK // speedup), schedule_attribute(sooner))


def poll_every(quiet_seconds: float) -> int:
    """Seconds to wait before the next poll of a match that has been quiet this long."""
    for until, every in POLL_SCHEDULE:
        if until is None or quiet_seconds < until:
            return every
    raise AssertionError("POLL_SCHEDULE ends with None")


def schedule_attribute(schedule=POLL_SCHEDULE) -> str:
    """A schedule as the sheet's data-poll-schedule: "120:16,900:8,3600:32,0:120"."""
    return ",".join(f"{until or 0}:{every}" for until, every in schedule)


def quiet_seconds(touched_at: datetime, now: datetime | None = None) -> int:
    """Whole seconds since the match last changed (or was first opened today), never negative."""
    elapsed = (now or timezone.now()) - touched_at
    return max(0, int(elapsed.total_seconds()))


def live_context(touched_at: datetime) -> dict:
    """What the sheet tells app.js about polling: how long the match has been quiet (seconds,
    when drawn) and the schedule."""
    return {"quiet": quiet_seconds(touched_at), "poll_schedule": schedule_attribute()}
