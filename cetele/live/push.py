"""Live by push: the server tells the phones that a match changed; the phones stop asking.

Every page that follows a match live holds one server-sent-events stream, held by a kept engine,
nginx's nchan module (docs/decisions.md: why nchan, and the figures): Django never holds a
connection. After every change commits, Django publishes the match's new versions ("12.3": the
sheet's version, the open hand's rows' version) to the match's streams with one HTTP POST to
nchan's publisher (settings.CETELE_PUSH_PUBLISH, reachable only from the app servers), and
each phone then asks for what changed through the poll it already has (cetele.live.fastpoll):
an event carries no score and no name, only that something changed.

A stream's address is not a link's key: it is a keyed hash of the key (stream_id), one per link,
so a phone of one role can neither find another role's link nor its stream, and nothing a log
line of nginx holds opens the match. Rotating a link or deleting a match closes its streams
(nchan answers its phones 410); their page then finds its link gone as its poll always did.

Publishing never fails the change (its callbacks are `robust`: an error, a database that went
away meanwhile, is logged by Django): the change is already saved when it is published. What
nginx did not take (stopped or restarting) is sent again every second until it does (`Unsent`),
a match's versions as the match is then (`Republish`), never an older change an app server kept,
and so is what it took in the seconds before it stopped answering, which it may have lost: a
page whose stream dropped while it stayed in sight asks nothing when its stream opens again
(app.js), since what it missed is a message, sent again here or the newest nginx holds for its
stream (60 s). A page that may be behind (hidden or offline meanwhile, an ask cut with its
stream, its stream down over 45 s) asks for its version. Without a publisher (`make run`, the
tests of one process) pages carry no stream and poll, as before push.
"""

import logging
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db import connections, transaction
from django.db.models import QuerySet
from django.utils.crypto import salted_hmac

logger = logging.getLogger(__name__)

# nchan's publisher takes up to this many channels in one request (nchan_channel_id's limit).
CHANNELS_A_REQUEST = 4
# A publisher that does not answer at once is down or overloaded: the change is saved all the
# same, and the phones catch up when their stream opens again.
PUBLISH_TIMEOUT = 1.0
# The publisher is on the app servers' own network: never through a proxy the environment names.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def enabled() -> bool:
    return bool(settings.CETELE_PUSH_PUBLISH)


def stream_id(token: str) -> str:
    """The stream of the page a link opens: a keyed hash of the link's key, never the key."""
    return salted_hmac("cetele.live.push", token, algorithm="sha256").hexdigest()[:32]


def stream_url(token: str) -> str:
    """Where a page opened through this link listens; "" when the app has no push (it polls)."""
    if not enabled() or not token:
        return ""
    return f"{settings.CETELE_PUSH_STREAMS}{stream_id(token)}"


def announce(matches: QuerySet) -> None:
    """Tell every phone of these matches (and of their tournaments), once the change commits,
    that they changed. The matches are read after the commit: their versions and links then."""
    if enabled():
        transaction.on_commit(lambda: publish_matches(matches), robust=True)


def announce_tournaments(tournaments: QuerySet) -> None:
    if enabled():
        transaction.on_commit(lambda: publish_tournaments(tournaments), robust=True)


def announce_tables(tables: QuerySet) -> None:
    if enabled():
        transaction.on_commit(lambda: publish_tables(tables), robust=True)


def close_streams(tokens: Iterable[str]) -> None:
    """Once the change commits, close the streams of these links (rotated, or their match
    deleted): nchan answers their phones 410 and forgets the channels."""
    if enabled():
        ids = [stream_id(token) for token in tokens if token]
        transaction.on_commit(lambda: send("DELETE", ids, b""), robust=True)


def publish_matches(matches: QuerySet) -> None:
    """Publish each match's versions to its links' streams, and a change to its tournament's
    and its table's (their live parts show their matches)."""
    found = matches.values_list(
        "pk",
        "version",
        "draft_version",
        "edit_token",
        "view_token",
        "join_token",
        "tournament_game__tournament__edit_token",
        "tournament_game__tournament__view_token",
        "table__edit_token",
        "table__view_token",
    )
    followers: set[str] = set()  # a table's or tournament's pages: told once, however many
    for pk, version, draft_version, *links, organiser, cafe, table, table_view in found:
        ids = [stream_id(token) for token in links if token]
        send("POST", ids, f"{version}.{draft_version}", again=Republish(matches.model, pk))
        followers.update(token for token in (organiser, cafe, table, table_view) if token)
    if followers:
        send("POST", sorted(stream_id(token) for token in followers), "changed")


def publish_tables(tables: QuerySet) -> None:
    """A table's own part of its page changed (its players, the drinks waiting at it)."""
    for edit, view in tables.values_list("edit_token", "view_token"):
        send("POST", [stream_id(edit), stream_id(view)], "changed")


def publish_tournaments(tournaments: QuerySet) -> None:
    """A tournament's live part changed: its pages ask for its version, which adds its games'
    (cetele.tournaments.state.live_version)."""
    for organiser, cafe in tournaments.values_list("edit_token", "view_token"):
        send("POST", [stream_id(organiser), stream_id(cafe)], "changed")


@dataclass(frozen=True)
class Republish:
    """A match whose message is sent again as the match is when it is sent, not as it was when
    nginx refused it: two app servers (or two threads) may each keep one change of a match, and
    send them again in any order, or one of them end first. Were the older one the last nginx
    took, a page showing that version whose stream opens would be told nothing newer."""

    model: type
    pk: int


def send(method: str, ids: list[str], body: str | bytes, again: Republish | None = None) -> None:
    """One request to nchan's publisher per CHANNELS_A_REQUEST streams; a failure is logged
    (without the stream's address) and the message kept to be sent again (as the match is then,
    when `again` names it): the change itself is saved. A DELETE not taken is sent again as a
    message, "gone": nginx restarted has no channel left to close, and the page told asks, to
    find its link gone."""
    data = body.encode() if isinstance(body, str) else body
    kept = b"gone" if method == "DELETE" else data
    for start in range(0, len(ids), CHANNELS_A_REQUEST):
        path = "/".join(ids[start : start + CHANNELS_A_REQUEST])
        started = time.monotonic()
        if deliver(method, path, data, log=True):
            UNSENT.took(path, kept, again, started)
        else:
            UNSENT.keep(path, kept, again)


def deliver(method: str, path: str, data: bytes, log: bool = False) -> bool:
    """One request to the publisher: False when nginx did not take it and sending it again may
    help (no answer, or a server error)."""
    request = urllib.request.Request(settings.CETELE_PUSH_PUBLISH + path, data=data, method=method)
    try:
        with OPENER.open(request, timeout=PUBLISH_TIMEOUT):
            return True
    except urllib.error.HTTPError as error:
        if error.code == 404:  # DELETE of a channel nobody listened to: nothing to close
            return True
        if log:
            logger.warning("push: the publisher answered %s to a %s", error.code, method)
        return error.code < 500
    except OSError as error:
        if log:
            logger.warning("push: the publisher could not be reached (%s)", type(error).__name__)
        return False


class Unsent:
    """Messages nginx did not take, the newest for each group of streams, sent again every
    RETRY_SECONDS from a thread of this process until nginx takes them, for KEPT_SECONDS: a
    page whose stream has been down over 45 s asks for its version when it opens again
    (app.js), so an older message would tell no one. A match's message is sent again as the
    match is then (Republish). Each process keeps its own: one that ends meanwhile loses them,
    and another process's message of the same match, or its next change, tells its phones.

    What nginx took in the TAKEN_SECONDS before it stopped answering is sent again too: an
    nginx going down still takes a message (seen 11–12 ms after its SIGTERM) whose streams it has
    already closed, and the nginx started after it holds nothing, so the phones of that match,
    opening their streams again, would be told nothing until its next change. Such a message is
    a repeat to a phone that had it: the versions it names are those it shows."""

    RETRY_SECONDS = 1.0
    KEPT_SECONDS = 60.0
    TAKEN_SECONDS = 5.0

    def __init__(self) -> None:
        # path: (body, when it was first kept, the match to send again as it is then, or None)
        self.messages: dict[str, tuple[bytes, float, Republish | None]] = {}
        # What nginx took lately: (when its request started, path, body, match), oldest first.
        self.taken: deque[tuple[float, str, bytes, Republish | None]] = deque()
        self.down_since: float | None = None  # the first failure since all was sent
        self.lock = threading.Lock()
        self.retrying = False

    def took(self, path: str, data: bytes, again: Republish | None, started: float) -> None:
        """nginx took this message, whose request started at `started`."""
        with self.lock:
            if self.down_since is not None and started < self.down_since:
                # Sent before nginx stopped answering: taken by the nginx going down, maybe.
                self.messages[path] = (data, time.monotonic(), again)
            else:  # a newer message reached these streams: the one kept would repeat an older
                self.messages.pop(path, None)
            self.taken.append((started, path, data, again))
            while self.taken[0][0] < started - self.TAKEN_SECONDS:
                self.taken.popleft()

    def keep(self, path: str, data: bytes, again: Republish | None = None) -> None:
        with self.lock:
            now = time.monotonic()
            if self.down_since is None:
                self.down_since = now
                for started, taken_path, taken_data, taken_again in self.taken:
                    if started >= now - self.TAKEN_SECONDS:
                        self.messages[taken_path] = (taken_data, now, taken_again)
                self.taken.clear()
            earlier = self.messages.get(path)
            self.messages[path] = (data, earlier[1] if earlier else now, again)
            if not self.retrying:
                self.retrying = True
                self.retry_later()

    def retry_later(self) -> None:
        timer = threading.Timer(self.RETRY_SECONDS, self.send_again)
        timer.daemon = True
        timer.start()

    def send_again(self) -> None:
        """One round. Each message stays kept until it is sent, and is then dropped only if no
        other took its place meanwhile: one cleared before it is sent may follow a newer one
        that reached nginx in those milliseconds."""
        with self.lock:
            kept_since = time.monotonic() - self.KEPT_SECONDS
            for path in [path for path, kept in self.messages.items() if kept[1] <= kept_since]:
                del self.messages[path]
            due = list(self.messages.items())
        try:
            matches: dict[type, dict[int, list]] = {}  # read and published once a round
            for path, kept in due:
                if not enabled():
                    continue
                if (match := kept[2]) is not None:
                    matches.setdefault(match.model, {}).setdefault(match.pk, []).append(
                        (path, kept)
                    )
                elif deliver("POST", path, kept[0]):
                    self.sent(path, kept)
            for model, paths in matches.items():
                try:  # send() drops each stream group nginx takes (took), and keeps the others
                    publish_matches(model.objects.filter(pk__in=list(paths)))
                except Exception:  # the database away: these matches wait for the next round
                    logger.exception("push: matches could not be read to be sent again")
                    continue
                for path, kept in (found for each in paths.values() for found in each):
                    self.sent(path, kept)  # a link renewed meanwhile: its old group is done
        finally:  # whatever went wrong, the next round is scheduled while anything is kept
            connections.close_all()  # this thread's, opened to read the matches
            with self.lock:
                self.retrying = bool(self.messages)
                if self.retrying:
                    self.retry_later()
                else:
                    self.down_since = None

    def sent(self, path: str, kept: tuple) -> None:
        with self.lock:
            if self.messages.get(path) is kept:
                del self.messages[path]


UNSENT = Unsent()
