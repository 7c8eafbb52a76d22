"""What each phone's page knows (its link, cookies, version, schedules and forms as drawn), what
a table is (its links and phones) and a tournament spectator's phone."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from bench.loadtest.page import LIVE_SECTION, STREAM, Form, parse_schedule


@dataclass
class Phone:
    """What one phone's page knows: its link, its cookies, the version it shows, the CSRF token
    htmx sends (the page's hx-headers) and, on the scorer's, the hand form as drawn."""

    role: str  # "m": the scorer's (edit link), "v": a viewer's, "k": a joined player's
    token: str
    cookies: dict[str, str] = field(default_factory=dict)
    csrf: str = ""
    url: str = ""  # the page it shows
    known: int = 0
    changed_at: float = 0.0  # when the match last changed, as far as its sheet says
    schedule: list[tuple[float, float]] = field(default_factory=list)
    form: Form | None = None
    hands: list[int] = field(default_factory=list)  # hand numbers its sheet links to
    away: bool = False  # on another page (correcting a hand): the sheet is not polled
    # The open hand's rows (cetele.seats), on the scorer's page and a joined phone's: their
    # poll's URL as the page gives it and how often (0: asked at once, the scorer's page's
    # hx-trigger="load"); while they are asked, the sheet asks only when they say it changed.
    rows_url: str = ""
    rows_every: float = 0.0
    rows_seen: str = ""  # the rows the scorer's page shows, which its save names
    sheet_polls: bool = True
    row_form: Form | None = None  # a joined phone's own row
    indicator_form: Form | None = None  # a joined phone's gösterge
    seat: str = ""  # the seat a joined phone takes
    stream: str = ""  # its page's stream (data-stream), when the app pushes
    lost_at: float = 0.0  # when its stream failed, until it opens again (0: open, or never held)
    behind: bool = False  # an ask it was told to make failed with its stream: owed on reopening
    told: tuple[float, bytes] = (0.0, b"")  # its stream's last message: when, and what it said
    # When, in this step, it first asked (polling) or held its stream (push): a change saved
    # before that reached a phone still arriving, not one following the match (figures.delays).
    arrived_at: float = 0.0
    # On push: it held its stream at the end of the last step. As a café's phone keeps its page
    # open, the next step neither waits for it to arrive nor has it ask: its stream is opened
    # again before the step's clock starts (each step runs an event loop of its own, which a
    # socket cannot outlive) and kept here, (reader, writer), for it to go on reading.
    following: bool = False
    kept_stream: tuple | None = field(default=None, repr=False)
    # When its page was last loaded (monotonic), and whether its stream has opened since: the
    # first opening of a page drawn moments ago asks nothing (app.js, drawnMomentsAgo).
    drawn_at: float = float("-inf")
    stream_opened: bool = False

    @property
    def cookie(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    def interval(self, quiet: float, fixed: float = 0, schedule=None) -> float:
        """Seconds to the next poll, as app.js's pollEvery gives them (or a fixed interval);
        `schedule`: another than the sheet's, by the sheet's quiet (the rows' pace)."""
        if fixed:
            return fixed
        for until, every in schedule or self.schedule:
            if until == 0 or quiet < until:
                return every
        return 4.0  # no schedule: every htmx tick


@dataclass
class Table:
    edit_token: str
    view_token: str
    version: int  # the match's version when it was seeded
    join_token: str = ""  # its phones join through "Masaya katıl" (--joined), not the view link
    phones: list[Phone] = field(default_factory=list)  # the scorer's first
    changed_at: float = 0.0  # monotonic time of its last change
    saves: list[tuple[int, float]] = field(default_factory=list)  # (version, acknowledged at)
    # What its watching phones were shown: (version before, version after, when, when that
    # phone arrived), from which each save's delay to each phone is found once the step ends
    # (figures.delays).
    shown: list[tuple[int, int, float, float]] = field(default_factory=list)
    teams: bool = False  # eşli (a tournament's game): the finisher's partner writes 0


def watchers(table: Table, count: int) -> list[Phone]:
    """The phones beside the scorer's: the players', each taking its own seat (the scorer is the
    first), when the table joins through "Masaya katıl"; else viewers of the view link."""
    if table.join_token:
        return [Phone("k", table.join_token, seat=str(n + 1)) for n in range(count)]
    return [Phone("v", table.view_token) for _ in range(count)]


@dataclass
class Spectator:
    """A phone on a tournament's view page (--tournament): what its live part shows."""

    phone: Phone
    poll: str = ""  # the live part's hx-get: its poll, with the version it shows
    quiet_at_start: float = 0.0  # data-quiet when drawn: how long nothing had changed
    changed_at: float = 0.0  # monotonic time of the last change it knows of

    def show(self, body: bytes) -> bool:
        """Take what a page or a poll's news draws; False when it has no live part."""
        found = LIVE_SECTION.search(body)
        if found is None:
            return False
        self.poll = html.unescape(found[1].decode())
        self.phone.schedule = parse_schedule(found[2])
        self.quiet_at_start = float(found[3])
        if stream := STREAM.search(body):
            self.phone.stream = stream[1].decode()
        return True


def keep_cookies(phone: Phone, head: bytes) -> None:
    """The cookies an answer sets or deletes, kept as the browser keeps them."""
    for line in re.findall(rb"(?i)\r\nset-cookie:[ \t]*([^\r\n]*)", head):
        pair, _, options = line.decode("latin-1").partition(";")
        name, _, value = pair.strip().partition("=")
        value = value.strip('"')
        if not value or re.search(r"(?i)max-age=0\b", options):
            phone.cookies.pop(name, None)
        else:
            phone.cookies[name] = value
