"""How often a live sheet asks for news: often while the table plays, less once it has gone quiet.

A hand of 101 takes minutes, so a save is rarely followed by another within a couple of minutes
and a match untouched for a quarter of an hour is on a break or over. The sheet carries how long
ago the match last changed (`touched_at`, bumped by every change) and this schedule; app.js
waits the interval the schedule gives for the time since then. While a table plays (a hand
every few minutes) a viewer asks every 8 s, so a save shows within 4 s on the median; right after
a save, and on a quiet match, much less often. bench/loadtest/ uses the same schedule.
"""

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
# after the save). The scorer's page asks at that pace before any phone has joined too: its first
# news is often a phone joining and writing at once, which at a viewer's pace (16 s right after a
# save) reached the form up to 16 s late, and a save in that time had not seen it. Its "nothing
# changed" costs one indexed query (cetele.live.fastpoll), and a hidden page does not ask
# (seats.js).
ROWS_EVERY = 4


def rows_every() -> int:
    """Seconds between two asks for the open hand's rows, on the scorer's page and a joined
    phone's alike; 1 but in the tests (settings.CETELE_ROWS_POLL_SPEEDUP): the same, sooner."""
    return max(1, ROWS_EVERY // settings.CETELE_ROWS_POLL_SPEEDUP)


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
