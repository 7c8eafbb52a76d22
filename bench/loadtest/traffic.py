"""The traffic mix: each phone on its own clock (open-loop: it fires whether or not the server
has answered), the scorer's hands (previews, the save, a correction now and then, the deal),
tables arriving through /yeni/, the tournament's spectators, and a step that runs them all;
each phone polls, or holds its page's stream when the app pushes (push.py)."""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import random
import re
import time

from bench.loadtest.actions import THINK
from bench.loadtest.figures import ARRIVED, Step, delays, percentile
from bench.loadtest.machine import cpu_seconds
from bench.loadtest.page import EDIT_PAGE, JOIN_LINK, VIEW_LINK, header, read_form
from bench.loadtest.phones import Phone, Spectator, Table, keep_cookies, watchers
from bench.loadtest.push import PushPhones
from bench.loadtest.taps import hand_taps, spread, table_hand

ROW_WRITES = 2  # a joined player's row is sent twice a hand: its opening, then its sum
DEAL_SECONDS = (15, 45)  # after a save, the tiles are dealt and the gösterge turned up


class Load(PushPhones):
    """The phones of every live table, firing on their own clocks; `push`: the app publishes
    (its pages carry a stream), and the phones follow it as app.js does."""

    def __init__(self, port: int, csrf: str, args: argparse.Namespace, push: bool) -> None:
        super().__init__(port)
        self.push = push
        self.csrf = csrf  # the cross-server checks' (bench.harness.Client)
        self.args = args
        self.loops: set[asyncio.Task] = set()  # phones of tables that arrived during the step
        self.steps: list[Step] = []
        self.server_pids: list[int] = []  # whose CPU is read once the phones have arrived
        self.live: list[Table] = []  # tables whose phones have opened their pages
        self.joined = 0  # how many seeded tables those are
        # --tournament: the phones that watch the tournament's view page, once opened.
        self.spectators: list[Spectator] = []

    # --- Tables arriving through /yeni/ --------------------------------------------------------

    async def new_match(self, step: Step, end: float, rng) -> None:
        """A table arrives: its scorer starts a match through the form, lands on its sheet,
        opens the share page and comes back (a page that is not stored: loaded again); each
        viewer opens the view link within the next minute."""
        scorer = Phone("m", "")
        table = Table("", "", 0, phones=[scorer], changed_at=time.monotonic())
        page = await self.page(step, table, scorer, "the new match form", "/yeni/", sheet=False)
        form = page and read_form(page.decode(), 'action="/yeni/"')
        if not form:
            if page is not None:
                step.error("new match: /yeni/ has no form")
            return
        await asyncio.sleep(rng.uniform(10, 30))  # four names typed
        names = {f"name_{n}": f"Oyuncu {n}" for n in range(1, 5)}
        hands = str(self.args.match_hands)
        if hands in form.choices("planned_hands"):
            names["planned_hands"] = hands
        start = self.request("POST", form.action, scorer, body=form.data(names), referer="/yeni/")
        answer = await self.timed(step, "new match", start)
        if answer is None:
            return
        status, head, _, elapsed = answer
        location = re.sub(r"^https?://[^/]+", "", header(head, b"location") or "")
        found = EDIT_PAGE.match(location)
        if status not in (302, 303) or not found:
            step.error(f"new match: HTTP {status}")
            return
        step.record("new match", "", elapsed)
        keep_cookies(scorer, head)
        step.new_tables += 1
        table.edit_token = scorer.token = found[1]
        table.changed_at = time.monotonic()
        if not await self.page(step, table, scorer, "the scorer's, new match", location):
            return
        await asyncio.sleep(rng.uniform(2, 10))
        sheet = scorer.url
        share = f"/m/{scorer.token}/paylas/"
        page = await self.page(step, table, scorer, "the share page", share, sheet=False)
        found = page and VIEW_LINK.search(page.decode())
        if not found:
            if page is not None:
                step.error("new match: the share page has no view link")
            return
        table.view_token = found[1]
        if rng.random() < self.args.joined:  # the players join with their own phones
            if not (found := JOIN_LINK.search(page.decode())):
                step.error("new match: the share page has no join link")
                return
            table.join_token = found[1]
        await asyncio.sleep(rng.uniform(10, 30))  # the others scan the QR code
        if not await self.page(step, table, scorer, "back to the sheet", sheet):
            return
        self.live.append(table)
        self.loop(self.watch(step, table, scorer, end, random.Random(rng.random())))
        self.loop(self.hands(step, table, end, random.Random(rng.random())))
        for phone in watchers(table, self.args.viewers):
            self.loop(self.viewer_joins(step, table, phone, end, random.Random(rng.random())))

    async def viewer_joins(self, step: Step, table: Table, phone: Phone, end: float, rng):
        await asyncio.sleep(rng.uniform(0, 30))
        if time.monotonic() >= end:
            return
        if phone.role == "k":
            opened = await self.take_seat(step, table, phone, "a player's, new match")
        else:
            path = f"/v/{phone.token}/"
            opened = await self.page(step, table, phone, "a viewer's, new match", path) is not None
        if opened:
            table.phones.append(phone)  # from the next step on, one of the table's phones
            await self.watch(step, table, phone, end, rng)

    def loop(self, coroutine) -> None:
        task = asyncio.create_task(coroutine)
        self.loops.add(task)
        task.add_done_callback(self.loops.discard)

    # --- Each phone's clock --------------------------------------------------------------------

    def watch(self, step: Step, table: Table, phone: Phone, end: float, rng):
        """The phone's clock: on its stream when the app pushes, else polling."""
        phone.arrived_at = math.inf  # until its first ask, or its stream held
        clock = self.pushed if self.push else self.phone
        return clock(step, table, phone, end, rng)

    async def phone(self, step: Step, table: Table, phone: Phone, end: float, rng) -> None:
        """One phone polling on the schedule (--live poll, the app's way), reloading its page
        now and then."""
        fixed = self.args.poll_every
        rate = self.args.reloads_per_minute / 60

        def every(at: float) -> float:
            if phone.rows_url and not phone.sheet_polls:  # the rows' poll, which says the rest
                return phone.rows_every or 4.0
            return phone.interval(at - phone.changed_at, fixed)

        now = time.monotonic()
        due = now + rng.uniform(0, every(now))
        reload_at = now + rng.expovariate(rate) if rate else math.inf
        while min(due, reload_at) < end:
            at = min(due, reload_at)
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            phone.arrived_at = min(phone.arrived_at, at)
            if phone.away:
                pass
            elif at == reload_at:
                self.fire(step, self.page(step, table, phone, "a reload", due=at))
            elif phone.rows_url and not phone.sheet_polls:
                self.fire(step, self.rows(step, table, phone, at))
            else:
                self.fire(step, self.poll(step, table, phone, at))
            if at == reload_at:
                reload_at = at + rng.expovariate(rate)
                due = at + every(at)  # drawn anew
            else:
                due += every(due)

    async def hands(self, step: Step, table: Table, end: float, rng, since: float = 0) -> None:
        """The scorer's hands: previews as they tap, the save, and now and then a correction
        of a past hand, before the next hand's entry begins; none due before `since` (the step's
        start: a table placed in the middle of its hand taps on from there, not all its taps of
        the second before at once)."""
        scorer = table.phones[0]
        every, entry = self.args.save_every, min(self.args.entry_seconds, self.args.save_every)
        next_save = table.changed_at + every
        while next_save - entry < end:
            inputs = table_hand(table, rng)
            events = []
            if rng.random() < self.args.corrections:
                # Between two hands' entries, leaving the correction (~10 s) time to finish.
                low, high = next_save - every + 0.1 * every, next_save - entry - 6 * THINK
                if high > low:
                    events.append((rng.uniform(low, high), "correction", None))
            taps = spread(hand_taps(inputs), self.args.previews)
            for n, chosen in enumerate(taps):
                events.append(
                    (next_save - entry + entry * (n + rng.random()) / len(taps), "", chosen)
                )
            for phone in table.phones[1:]:
                if phone.role == "k":  # its player writes the row: the opening, then the sum
                    for _ in range(ROW_WRITES):
                        events.append((next_save - entry * rng.random(), "row", phone))
            events.append((next_save - every + rng.uniform(*DEAL_SECONDS), "gösterge", None))
            events.append((next_save, "save", None))
            for at, what, chosen in sorted(events, key=lambda event: event[0]):
                if at >= end:
                    return
                if at < since or at < time.monotonic() - 1:
                    continue  # before the step began
                await asyncio.sleep(max(0.0, at - time.monotonic()))
                if what == "correction":
                    self.fire(step, self.correct(step, table, scorer, rng, at))
                elif what == "row":
                    self.fire(step, self.write_row(step, chosen, rng, at))
                elif what == "gösterge":
                    self.fire(step, self.indicator(step, table, rng, at))
                elif scorer.away or scorer.form is None:
                    continue  # on a hand's page, or no form to tap on
                elif what == "save":
                    self.fire(step, self.save(step, table, at, scorer, inputs))
                else:
                    self.fire(step, self.preview(step, scorer, scorer.form, chosen, at))
            next_save += every

    async def arrivals(self, step: Step, end: float, rng) -> None:
        """New tables, a Poisson process at the steady state's rate (or --arrivals-per-minute)."""
        per_minute = self.args.arrivals_per_minute
        if per_minute < 0:  # a match of match_hands hands ends as another begins
            per_minute = step.tables * 60 / (self.args.match_hands * self.args.save_every)
        if per_minute <= 0:
            return
        at = time.monotonic()
        while (at := at + rng.expovariate(per_minute / 60)) < end:
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            self.fire(step, self.new_match(step, end, random.Random(rng.random())))

    # --- The tournament's view page (--tournament) ---------------------------------------------

    async def open_tournament(self, view_token: str, count: int) -> None:
        """The café's phones open the tournament's view page (before the first step)."""
        joining = Step(0, 0)

        async def one() -> None:
            phone = Phone("tv", view_token, url=f"/tv/{view_token}/")
            answer = await self.timed(joining, "page", self.request("GET", phone.url, phone))
            if answer is None or answer[0] != 200:
                joining.error("a spectator's page did not come")
                return
            keep_cookies(phone, answer[1])
            spectator = Spectator(phone)
            if spectator.show(answer[2]):
                self.spectators.append(spectator)
                phone.following = self.push and bool(phone.stream)  # opened at once (join)

        await asyncio.gather(*(one() for _ in range(count)))
        if joining.errors or len(self.spectators) < count:
            raise RuntimeError(f"the tournament's view page: {joining.errors or 'no live part'}")

    async def spectate(self, step: Step, spectator: Spectator, end: float, rng) -> None:
        """One phone on the tournament's view page: its live part asks on app.js's schedule
        (data-poll-schedule, from data-quiet), 204 until a table saves or the organiser acts,
        then the whole live part again."""
        phone = spectator.phone

        def every(at: float) -> float:
            return phone.interval(at - spectator.changed_at)

        due = time.monotonic() + rng.uniform(0, every(time.monotonic()))
        while due < end:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            self.fire(step, self.tournament_poll(step, spectator, due))
            due += every(due)

    # --- A step --------------------------------------------------------------------------------

    async def join(self, tables: list[Table], concurrency: int = 16) -> Step:
        """The phones of tables about to play open their pages (before the step: not counted in
        it): the scorer's the edit link, each viewer the view link. On push each page opens its
        stream at once, as app.js does: the phone follows its match from the step's start (its
        stream opened again there, PushPhones.reopen: a socket cannot outlive this event loop)."""
        joining = Step(len(tables), 0)
        gate = asyncio.Semaphore(concurrency)
        started = time.monotonic()

        async def one(table: Table, phone: Phone) -> None:
            async with gate:
                if phone.role == "k":
                    opened = await self.take_seat(joining, table, phone, "a player's phone joins")
                else:
                    path = f"/{phone.role}/{phone.token}/"
                    opened = await self.page(joining, table, phone, "a phone joins", path)
                phone.following = self.push and bool(opened and phone.stream)

        for table in tables:
            table.phones = [Phone("m", table.edit_token), *watchers(table, self.args.viewers)]
        await asyncio.gather(*(one(table, phone) for table in tables for phone in table.phones))
        joining.seconds = time.monotonic() - started
        return joining

    async def join_for(self, step: Step, seeded: list[Table]) -> None:
        """Before a step: enough seeded tables join for it to start with `step.tables`."""
        if len(self.live) >= step.tables:
            return
        more = seeded[self.joined : self.joined + step.tables - len(self.live)]
        joining = await self.join(more)
        self.joined += len(more)
        self.live += more
        pages = joining.latencies.get("page", [])
        errors = sum(joining.errors.values())
        print(
            f"{'':>14}{len(more)} more tables join: {len(pages)} pages in "
            f"{joining.seconds:.0f} s (p50 {percentile(pages, 0.5):.1f} ms, "
            f"p95 {percentile(pages, 0.95):.1f} ms), errors {errors}"
            + "".join(f"; {what} × {n}" for what, n in joining.errors.items()),
            flush=True,
        )
        for what, count in joining.errors.items():
            step.errors[f"joining: {what}"] = count

    async def run(self, step: Step, only: int | None = None) -> None:
        """Play a step: every live table (`only`: the first this many; the others' phones
        have closed their pages) and the tables arriving meanwhile. The client's garbage
        collector waits for the step's end: a full collection of its objects (every phone, every
        figure) stops its event loop 0.1–0.3 s, a delay that every answer then in flight would
        show as the server's."""
        gc.collect()
        gc.disable()
        try:
            await self.play(step, only)
        finally:
            gc.enable()

    async def play(self, step: Step, only: int | None) -> None:
        tables = self.live[:only]
        if self.push:
            phones = [(table, phone, None) for table in tables for phone in table.phones]
            spectators = [(None, spectator.phone, spectator) for spectator in self.spectators]
            await self.reopen(phones + spectators)
        start = time.monotonic()
        end = start + step.seconds
        already = len(self.live)
        step.started_with = len(tables)
        rng = random.Random(step.tables * 31 + len(self.steps))
        clocks = []
        for index, table in enumerate(tables):
            # Tables started at different times: each is somewhere in its current hand.
            table.changed_at = start - rng.uniform(0, self.args.save_every)
            table.saves, table.shown = [], []
            for n, phone in enumerate(table.phones):
                phone.changed_at = table.changed_at
                clocks.append(self.watch(step, table, phone, end, random.Random(index * 10 + n)))
            clocks.append(self.hands(step, table, end, random.Random(-index - 1), since=start))
        clocks.append(self.arrivals(step, end, random.Random(step.tables)))
        spectate = self.pushed_spectator if self.push else self.spectate
        for index, spectator in enumerate(self.spectators):
            spectator.changed_at = start - spectator.quiet_at_start
            clocks.append(spectate(step, spectator, end, random.Random(-index - 10**6)))
        arrived = asyncio.create_task(self.arrived(step, start + ARRIVED))
        await asyncio.gather(*clocks)
        await arrived
        while self.loops:  # the tables that arrived (their clocks end with the step)
            await asyncio.gather(*list(self.loops), return_exceptions=True)
        while self.tasks:  # let the last requests finish (each is bounded by its timeout)
            await asyncio.gather(*list(self.tasks), return_exceptions=True)
        step.delays = delays(tables + self.live[already:])

    async def arrived(self, step: Step, at: float) -> None:
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        step.arrived_at, step.arrived_cpu = time.monotonic(), cpu_seconds(self.server_pids)
