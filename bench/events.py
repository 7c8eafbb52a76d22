"""Server-sent events for the live sheet, from an asynchronous server: `make loadtest --live sse`
measures them side by side with polling (issue 17). A measurement, not the app's live path: the
app polls (cetele.live.schedule), which works behind any balancer and needs no second kind of
server.

A phone that opened a match link holds one connection, GET /events/<m|v>/<token>/?v=<n>,
answered `text/event-stream`; whenever the match is past the version the phone shows, the
server sends `data: <version>` and the phone fetches the sheet as a poll that found news does
(/m|v/<token>/poll/?v=<n>, from the app server). Only connections are held here, never Django's
request cycle: the connection is guarded as cetele.live.fastpoll guards the plain poll (the
browser's signed `cetele_links` cookie must hold the link's mark, as Django would have set it),
then the match is looked up by its token (one indexed query).

How a process learns of a save, which the app server made: once a second one query reads the
versions of every match it has a listener for, and the listeners of each match that moved are
woken. So a viewer's delay is at most that second plus the fetch, and the database sees one query
a second per process however many phones listen.

    uvicorn bench.events:application --workers 2 --loop uvloop --http httptools
"""

from __future__ import annotations

import asyncio
import os
import re
from urllib.parse import parse_qs

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")

import django  # noqa: E402

django.setup()

from asgiref.sync import sync_to_async  # noqa: E402
from django.db import close_old_connections, connection  # noqa: E402
from django.http import parse_cookie  # noqa: E402

from cetele.live.fastpoll import PollFastPath, current_version  # noqa: E402
from cetele.sharing.links import EDIT, TOKEN_FIELDS, VIEW  # noqa: E402

EVENTS = re.compile(r"/events/(m|v)/([A-Za-z0-9_-]{22,64})/")
ROLES = {"m": EDIT, "v": VIEW}
CHECK_EVERY = 1.0  # seconds between two reads of the watched matches' versions
STREAM_HEADERS = [
    (b"content-type", b"text/event-stream"),
    (b"cache-control", b"no-store"),
    (b"x-accel-buffering", b"no"),  # nginx: pass each event on at once
]


def versions_of(pks: list[int]) -> dict[int, int]:
    """The current version of each of these matches: one query (SQLite takes 32,766 parameters,
    PostgreSQL more; a process listens to at most a few thousand matches)."""
    close_old_connections()
    marks = ", ".join(["%s"] * len(pks))
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, version FROM cetele_match WHERE id IN ({marks})", pks)
        return dict(cursor.fetchall())


def lookup(role: str, token: str) -> tuple[int, int] | None:
    close_old_connections()
    found = current_version(TOKEN_FIELDS[role], token)
    return found and found[:2]  # (pk, version): the rows' version is no news to a stream


# Every database call of this process runs in one thread (sync_to_async's default), as Django's
# connections are per thread.
versions_async = sync_to_async(versions_of)
lookup_async = sync_to_async(lookup)


class Watcher:
    """The versions of the matches this process has listeners for, read once a second."""

    def __init__(self) -> None:
        self.versions: dict[int, int] = {}
        self.moved: dict[int, asyncio.Event] = {}  # woken, and replaced, when the match moves
        self.listeners: dict[int, int] = {}
        self.task: asyncio.Task | None = None

    def listen(self, pk: int, version: int) -> None:
        self.listeners[pk] = self.listeners.get(pk, 0) + 1
        # A version only grows: a listener that read it later may know a newer one.
        self.versions[pk] = max(self.versions.get(pk, version), version)
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self.run())

    def leave(self, pk: int) -> None:
        self.listeners[pk] -= 1
        if not self.listeners[pk]:
            del self.listeners[pk]
            self.versions.pop(pk, None)
            self.moved.pop(pk, None)

    def moved_event(self, pk: int) -> asyncio.Event:
        return self.moved.setdefault(pk, asyncio.Event())

    async def run(self) -> None:
        while True:
            await asyncio.sleep(CHECK_EVERY)
            if not self.listeners:
                continue
            try:
                found = await versions_async(list(self.listeners))
            except Exception:  # noqa: BLE001 -- the database failed: try again next second
                continue
            for pk, version in found.items():
                if pk in self.listeners and version != self.versions.get(pk):
                    self.versions[pk] = version
                    event = self.moved.pop(pk, None)
                    if event is not None:
                        event.set()


watcher = Watcher()


async def application(scope, receive, send) -> None:
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    path = EVENTS.fullmatch(scope.get("path", ""))
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    headers = dict(scope.get("headers", []))
    cookies = parse_cookie(headers.get(b"cookie", b"").decode("latin-1"))
    shown = query.get("v", [""])[0]
    if scope["method"] != "GET" or path is None or not shown.isdigit():
        return await refuse(send, 400)
    role, token = ROLES[path[1]], path[2]
    if not PollFastPath.opened(cookies, token):
        return await refuse(send, 403)  # the app's page sets the cookie: open the page first
    found = await lookup_async(role, token)
    if found is None:
        return await refuse(send, 404)
    pk, version = found
    await send({"type": "http.response.start", "status": 200, "headers": STREAM_HEADERS})
    watcher.listen(pk, version)
    gone = asyncio.ensure_future(disconnected(receive))
    try:
        known = int(shown)
        while True:
            current = watcher.versions.get(pk, version)
            if current != known:
                known = current
                body = f"data: {current}\n\n".encode()
                await send({"type": "http.response.body", "body": body, "more_body": True})
            moved = asyncio.ensure_future(watcher.moved_event(pk).wait())
            done, _ = await asyncio.wait({gone, moved}, return_when=asyncio.FIRST_COMPLETED)
            if gone in done:
                moved.cancel()
                return
    finally:
        watcher.leave(pk)
        gone.cancel()


async def disconnected(receive) -> None:
    """Returns when the phone goes away (after the request's own, empty, body)."""
    while (await receive())["type"] != "http.disconnect":
        pass


async def refuse(send, status: int) -> None:
    await send({"type": "http.response.start", "status": status, "headers": []})
    await send({"type": "http.response.body", "body": b""})
