"""How often a live sheet asks for news: often while the table plays, less once it has gone quiet.

A hand of 101 takes minutes, so a save is rarely followed by another within a couple of minutes
and a match untouched for a quarter of an hour is on a break or over. The sheet carries how long
ago the match last changed (`touched_at`, bumped by every change) and this schedule; app.js
waits the interval the schedule gives for the time since then. While a table plays (a hand
every few minutes) a viewer asks every 8 s, so a save shows within 4 s on the median; right after
a save, and on a quiet match, much less often. bench/loadtest.py uses the same schedule.
"""

from datetime import datetime

from django.utils import timezone

# (quiet for less than this many seconds, ask every this many seconds); None: from then on.
# Each interval is a multiple of htmx's 4-s tick (match.html#sheet), which app.js lets through.
POLL_SCHEDULE: tuple[tuple[int | None, int], ...] = (
    (120, 16),  # a hand was just saved: the next one is minutes away (corrections can wait 16 s)
    (900, 8),  # the table is playing: the next save is due any moment
    (3600, 32),  # a break
    (None, 120),  # gone home: the page still catches up within two minutes
)


def poll_every(quiet_seconds: float) -> int:
    """Seconds to wait before the next poll of a match that has been quiet this long."""
    for until, every in POLL_SCHEDULE:
        if until is None or quiet_seconds < until:
            return every
    raise AssertionError("POLL_SCHEDULE ends with None")


def schedule_attribute() -> str:
    """The schedule as the sheet's data-poll-schedule: "120:15,900:8,3600:30,0:120"."""
    return ",".join(f"{until or 0}:{every}" for until, every in POLL_SCHEDULE)


def quiet_seconds(touched_at: datetime, now: datetime | None = None) -> int:
    """Whole seconds since the match last changed (or was first opened today), never negative."""
    elapsed = (now or timezone.now()) - touched_at
    return max(0, int(elapsed.total_seconds()))


def live_context(touched_at: datetime) -> dict:
    """What the sheet tells app.js about polling: how long the match has been quiet (seconds,
    when drawn) and the schedule."""
    return {"quiet": quiet_seconds(touched_at), "poll_schedule": schedule_attribute()}
