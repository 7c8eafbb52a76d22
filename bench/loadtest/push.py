"""Phones on push (cetele.live.push, static/cetele/app.js "Live by push"): each live page holds its
stream from nginx's nchan and asks, through the poll it already has, once when the stream opens
(after a moment drawn from 0–1 s; not at all on the first opening of a page drawn moments ago,
whose stream's first message is the newest nginx holds; opened again after a failure, after
0–5 s and only if an ask it was told to make failed with the stream, or it was down longer than
nginx holds a message: else what it missed is the stream's first message, the newest nginx holds
or what Django sent again) and on each message, up to 0.3 s after it, for what the message says
it does not show yet: its rows where the page has them (their answer asks for the sheet when
that changed too), else its sheet (a tournament's page: its live part, at every message); an ask
that gets no answer is sent again after 1–3 s; its polls' ticks do not ask while the stream is
open.
When the stream fails or is closed, the page polls on its schedule and opens it again after
min(30, 2^n) × U(0.5, 1) s (n: the tries since it last opened).
A phone holding its stream at a step's end follows the match into the next (Phone.following):
only the new tables' phones arrive, as at a café, where phones keep their pages open; the
restart step is where every phone opens its stream again at once.
(No phone here is hidden or offline, which would make its page ask on opening again too.)

A stream is read with a few lines of asyncio over a raw socket (one idle connection a phone:
cheap for the client on the 2 shared cores). The restart step (stacks.py) records here which
phones held a stream when nginx stopped, when each opened it again and when each then showed
the latest version: on opening, when it already showed its table's newest save; else once the
ask a message made was answered."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

from bench.loadtest.actions import PhoneActions
from bench.loadtest.browser import HOST, REQUEST_TIMEOUT
from bench.loadtest.figures import Step
from bench.loadtest.phones import Phone, Spectator, Table

ASK_ON_OPEN = 1.0  # app.js: the ask on opening waits U(0, this) s, and U(0, the next) s when
ASK_ON_REOPEN = 5.0  # the stream opens again after a failure (no storm after a restart) ...
HELD = 45.0  # ... if it was down longer than this (nginx holds a message 60 s)
FRESH = 30.0  # ... and none on the first opening of a page drawn this long ago or less
ASK_AFTER_MESSAGE = 0.3  # ... and on a message U(0, this) s: a table's phones not all at once
RETRY_CAP = 30.0  # ... and a failed stream is tried again after min(this, 2^n) × U(0.5, 1) s


class StreamRefused(Exception):
    """nginx answered a stream's request with another status than 200 (counted as an error)."""


@dataclass
class Restart:
    """What the restart step sees of the phones' streams around nginx's stop and start."""

    stopped_at: float = 0.0
    started_at: float = 0.0
    were_open: set[int] = field(default_factory=set)  # phones (id) holding a stream at the stop
    reopened: dict[int, float] = field(default_factory=dict)  # ... when each opened it again
    caught_up: dict[int, float] = field(default_factory=dict)  # ... and its ask then answered


class PushPhones(PhoneActions):
    """The phones' streams, and what a page does with them."""

    def __init__(self, port: int) -> None:
        super().__init__(port)
        self.open_streams: set[int] = set()  # phones (id) holding their stream now
        self.restart: Restart | None = None

    async def ask(
        self, step: Step, table: Table | None, phone: Phone, spectator=None, data: bytes = b""
    ) -> bool:
        """What app.js's ask sends for a message's `data` ("<sheet's version>.<rows' version>";
        empty: on opening, whatever changed): the rows' poll where the page has them and they
        are not at those versions, else the sheet's poll where it is not at that version; a
        tournament's page: its live part. False when its request got no answer or a server
        error (asked again, as app.js does); True when answered or nothing was to ask."""
        now = time.monotonic()
        versions = data.decode().strip().split(".") if data else []
        told = len(versions) == 2 and all(part.isdigit() for part in versions)
        if spectator is not None:
            return await self.tournament_poll(step, spectator, now)
        if phone.away:
            return True
        if phone.rows_url:
            shown = parse_qs(urlsplit(phone.rows_url).query)
            if not told or versions != [shown.get("v", [""])[0], shown.get("d", [""])[0]]:
                return await self.rows(step, table, phone, now)
        elif not told or int(versions[0]) != phone.known:
            return await self.poll(step, table, phone, now)
        return True

    async def asked(self, step: Step, table, phone: Phone, spectator, data: bytes, rng) -> None:
        """An ask, sent again after U(1, 3) s while it gets no answer (or a server error) and
        the stream is open (app.js, askAgain); then the phone shows the latest."""
        while not await self.ask(step, table, phone, spectator, data):
            await asyncio.sleep(rng.uniform(1, 3))
            if id(phone) not in self.open_streams:
                phone.behind = True  # owed: its stream opening again asks
                return
        self.shows_the_latest(phone)

    async def ask_on_open(self, step: Step, table, phone: Phone, spectator, rng) -> None:
        if id(phone) not in self.open_streams:
            return  # closed meanwhile: app.js drops the timer with the stream
        await self.asked(step, table, phone, spectator, b"", rng)

    def shows_the_latest(self, phone: Phone) -> None:
        """After a restart: this phone, back on its stream, has asked (on opening, or told of a
        change) or loaded its page again, so it shows the latest version."""
        restart = self.restart
        if restart and id(phone) in restart.reopened and id(phone) not in restart.caught_up:
            restart.caught_up[id(phone)] = time.monotonic()

    async def hold(
        self,
        step: Step,
        table,
        phone: Phone,
        until: float,
        rng,
        spectator=None,
        again=False,
        keep=False,
    ):
        """Open the page's stream (or go on with the one reopened for it before the step,
        Phone.kept_stream) and hold it until `until`; returns (opened, still open at `until`).
        Held to `until` with `keep` (the step's end), the phone follows its match into the
        next step. Each message: one ask, as app.js's onmessage."""
        writer = None
        opened = False
        try:
            if phone.kept_stream is not None:
                (reader, writer), phone.kept_stream = phone.kept_stream, None
                opened = True
                phone.arrived_at = min(phone.arrived_at, time.monotonic())
                self.open_streams.add(id(phone))
            else:
                reader, writer = await self.open_stream(step, table, phone, rng, spectator, again)
                opened = True
            while (left := until - time.monotonic()) > 0:
                try:
                    line = await asyncio.wait_for(reader.readline(), left)
                except TimeoutError:
                    break
                if not line:
                    step.error("stream: closed by the server")
                    return True, False
                if line.startswith(b"data:"):
                    data = line[len(b"data:") :]
                    phone.told = (time.monotonic(), data.strip())
                    self.fire(
                        step,
                        self.asked(step, table, phone, spectator, data, rng),
                        after=rng.uniform(0, ASK_AFTER_MESSAGE),
                    )
            phone.following = keep
            return True, True
        except StreamRefused:
            return False, False
        except (TimeoutError, OSError, asyncio.IncompleteReadError) as error:
            step.error(f"stream: {type(error).__name__}")
            return opened, False
        finally:
            if writer is not None:
                self.open_streams.discard(id(phone))
                writer.close()

    async def reopen(self, phones: list[tuple[Table | None, Phone, Spectator | None]]) -> None:
        """Before a step's clock starts: the streams of the phones following since the last
        step or since their page was loaded before it (Load.join), opened again (not counted:
        the load client's, not a phone's), 200 at a time. One that does not open arrives as a
        new phone does. What nginx gives a stream as it opens (the newest message of the last
        60 s: the seats taken during the join, the last step's last change) a phone holding its
        stream all along was told when it came, so it asks for it here, uncounted too."""
        gate = asyncio.Semaphore(200)
        uncounted = Step(0, 0)

        async def again(table, phone: Phone, spectator) -> None:
            async with gate:
                try:
                    reader, writer = phone.kept_stream = await self.connect_stream(phone)
                    phone.stream_opened = True
                    self.open_streams.add(id(phone))
                    if data := await self.given_on_opening(reader):
                        await self.ask(uncounted, table, phone, spectator, data)
                except (StreamRefused, TimeoutError, OSError, asyncio.IncompleteReadError):
                    pass
            phone.following = False

        await asyncio.gather(*(again(*phone) for phone in phones if phone[1].following))

    @staticmethod
    async def given_on_opening(reader, wait: float = 0.1) -> bytes:
        """The message nginx gives a stream as it opens, if it holds one (else b"")."""
        while True:
            try:
                line = await asyncio.wait_for(reader.readline(), wait)
            except TimeoutError:
                return b""
            if not line:
                raise asyncio.IncompleteReadError(b"", None)
            if line.startswith(b"data:"):
                return line[len(b"data:") :]

    async def open_stream(self, step: Step, table, phone: Phone, rng, spectator, again: bool):
        """Open the page's stream: (reader, writer) once nginx answered 200, and one ask
        after a moment; StreamRefused (counted) for any other answer."""
        started = time.monotonic()
        try:
            reader, writer = await self.connect_stream(phone)
        except StreamRefused as refused:
            step.error(f"stream: HTTP {refused}")
            raise
        now = time.monotonic()
        # Counted among the step's requests, not in its seconds (by_second: what the app
        # servers were asked, whose peak after a restart the restart step reports).
        step.record("stream opened", "", (now - started) * 1000)
        phone.arrived_at = min(phone.arrived_at, now)
        self.open_streams.add(id(phone))
        restart = self.restart
        if restart and restart.stopped_at and id(phone) in restart.were_open:
            restart.reopened.setdefault(id(phone), now)
        if again and phone.stream_opened and phone.lost_at:
            missed = phone.behind or now - phone.lost_at > HELD
        else:  # a change since a page drawn moments ago was drawn is the stream's first message
            missed = again or phone.stream_opened or now - phone.drawn_at > FRESH
        phone.stream_opened, phone.lost_at, phone.behind = True, 0.0, False
        if missed:
            self.fire(
                step,
                self.ask_on_open(step, table, phone, spectator, rng),
                after=rng.uniform(0, ASK_ON_REOPEN if again else ASK_ON_OPEN),
            )
        elif table is None or phone.known >= newest_save(table):
            self.shows_the_latest(phone)  # a tournament's page: as far as the load client knows
        return reader, writer

    async def connect_stream(self, phone: Phone):
        """The page's stream, (reader, writer), once nginx answered 200; StreamRefused (its
        status) for any other answer."""
        request = (
            f"GET {phone.stream} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"
            f"Accept: text/event-stream\r\nCache-Control: no-cache\r\n"
            f"Referer: {self.origin}{phone.url}\r\n\r\n"
        ).encode()
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(HOST, self.port), REQUEST_TIMEOUT
        )
        try:
            writer.write(request)
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), REQUEST_TIMEOUT)
        except BaseException:
            writer.close()
            raise
        if head[9:12] != b"200":
            writer.close()
            raise StreamRefused(head[9:12].decode())
        return reader, writer

    async def pushed(self, step: Step, table: Table, phone: Phone, end: float, rng) -> None:
        """One phone of a table on push: it arrives when it would first have polled, holds its
        stream, reloads its page now and then (a new page: a new stream), and polls on the
        schedule only while its stream is down."""
        rate = self.args.reloads_per_minute / 60
        now = time.monotonic()
        if phone.kept_stream is None and now - phone.drawn_at > FRESH:
            # A page open before the step whose stream did not open again: it arrives at a
            # random moment of its first poll interval, as polling's phones do. A page drawn
            # moments ago opens its stream at once, as app.js does.
            await asyncio.sleep(rng.uniform(0, phone.interval(now - phone.changed_at)))
        reload_at = time.monotonic() + rng.expovariate(rate) if rate else float("inf")
        await self.follow(step, table, phone, end, rng, reload_at=reload_at, rate=rate)

    async def pushed_spectator(self, step: Step, spectator: Spectator, end: float, rng) -> None:
        """A phone on the tournament's view page, on push: its live part asks on each message."""
        phone = spectator.phone
        if phone.kept_stream is None:
            await asyncio.sleep(
                rng.uniform(0, phone.interval(time.monotonic() - spectator.changed_at))
            )
        await self.follow(step, None, phone, end, rng, spectator=spectator)

    async def follow(
        self,
        step,
        table,
        phone: Phone,
        end: float,
        rng,
        reload_at=float("inf"),
        rate=0.0,
        spectator=None,
    ) -> None:
        tries = 0
        while time.monotonic() < end:
            if not phone.stream:
                step.error("push: the page carries no stream")
                return
            until = min(end, reload_at)
            opened, held = await self.hold(
                step, table, phone, until, rng, spectator, again=tries > 0, keep=until == end
            )
            if opened:
                tries = 0
            if held:
                if time.monotonic() >= end:
                    return
                # The page is loaded again (its new page opens a new stream).
                await self.page(step, table, phone, "a reload", due=reload_at)
                self.shows_the_latest(phone)
                reload_at = time.monotonic() + rng.expovariate(rate)
                continue
            phone.lost_at = phone.lost_at or time.monotonic()
            wait = min(RETRY_CAP, 2.0**tries) * rng.uniform(0.5, 1)
            tries += 1
            retry_at = min(end, time.monotonic() + wait)
            await self.fallback(step, table, phone, retry_at, rng, spectator)

    async def fallback(self, step, table, phone: Phone, until: float, rng, spectator=None) -> None:
        """Until the stream is tried again, the page's polls ask on their schedule (their ticks
        go on all along: the first comes at a random point of one interval)."""

        def every(at: float) -> float:
            if spectator is not None:
                return phone.interval(at - spectator.changed_at)
            if phone.rows_url and not phone.sheet_polls:
                return phone.rows_every or 4.0
            return phone.interval(at - phone.changed_at, self.args.poll_every)

        due = time.monotonic() + rng.uniform(0, every(time.monotonic()))
        while due < until:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            if spectator is not None:
                self.fire(step, self.tournament_poll(step, spectator, due))
            elif phone.away:
                pass
            elif phone.rows_url and not phone.sheet_polls:
                self.fire(step, self.rows(step, table, phone, due))
            else:
                self.fire(step, self.poll(step, table, phone, due))
            due += every(due)
        await asyncio.sleep(max(0.0, until - time.monotonic()))


def newest_save(table: Table) -> int:
    """The version of the table's newest save acknowledged (or its seeded version)."""
    return max((version for version, _ in table.saves), default=table.version)
