"""Each kind of request a phone makes, built from the page it was given: a page load, a poll of
the sheet or of the open hand's rows, a joined player's row and seat, the gösterge, the hand
form's previews and save, a correction, the tournament's live part. What the server acknowledged
is kept for the exactly-once check."""

from __future__ import annotations

import asyncio
import html
import re
import time

from bench.loadtest.browser import Browser
from bench.loadtest.figures import Step
from bench.loadtest.page import (
    CSRF_HEADER,
    EDIT_PAGE,
    EVERY,
    HAND_LINK,
    NEW_VERSION,
    ROWS_SECTION,
    ROWS_SEEN,
    SCHEDULE,
    SHEET_TRIGGER,
    STREAM,
    Form,
    header,
    parse_schedule,
    read_form,
    saved_token,
)
from bench.loadtest.phones import Phone, Spectator, Table, keep_cookies
from bench.loadtest.taps import hand_taps, spread, table_hand

THINK = 2.0  # seconds between two taps of a correction, and before its save
NOTHING_CHANGED = (204, b"", b"", 0.0)  # what news() gives for a 204, already recorded


class PhoneActions(Browser):
    """What the phones send, one request (or one short exchange) at a time."""

    def __init__(self, port: int) -> None:
        super().__init__(port)
        self.sent: set[str] = set()  # request tokens of every save sent
        self.acknowledged: list[str] = []  # ... and of those the server said it saved
        self.corrections_sent: set[str] = set()  # the same for corrections
        self.corrections_acknowledged: list[str] = []

    async def page(
        self,
        step: Step,
        table: Table,
        phone: Phone,
        detail: str,
        path: str = "",
        due: float | None = None,
        sheet: bool = True,
    ) -> bytes | None:
        """A page load (a navigation); a `sheet` page is then what the phone shows. Returns the
        page, or None when it did not come."""
        path = path or phone.url
        request = self.request("GET", path, phone)
        body = await self.accepted(step, "page", request, phone, detail, due, named=detail)
        if body is None:
            return None
        if sheet:
            self.show(table, phone, body, path)
            phone.drawn_at, phone.stream_opened = time.monotonic(), False
            if phone.rows_url and not phone.rows_every:  # hx-trigger="load"
                await self.rows(step, table, phone, time.monotonic())
        return body

    def show(self, table: Table, phone: Phone, body: bytes, path: str) -> None:
        """What a sheet's page gives the phone: version, schedule, CSRF token, hand form."""
        phone.url = path
        if found := CSRF_HEADER.search(body):
            phone.csrf = found[1].decode()
        if found := SCHEDULE.search(body):
            phone.schedule = parse_schedule(found[1])
        if found := STREAM.search(body):
            phone.stream = found[1].decode()
        drawn = int(found[1]) if (found := NEW_VERSION.search(body)) else phone.known
        if drawn < phone.known:
            # Drawn before a save this phone has since heard of: a reload that was in flight
            # when the save was sent, answered after it (only when answers take seconds). Its
            # form would name the place just saved, and the next save be told so.
            return
        phone.known = drawn
        phone.changed_at = table.changed_at  # the sheet says how long ago it changed
        if found := SHEET_TRIGGER.search(body):
            phone.sheet_polls = b"every" in found[1]
        self.show_rows(phone, body)
        if phone.role == "m":
            phone.hands = sorted({int(n) for n in HAND_LINK.findall(body)})
            phone.form = read_form(body.decode(), 'id="hand-form"')

    @staticmethod
    def show_rows(phone: Phone, body: bytes) -> None:
        """The rows' section a page or a rows' answer draws: where and how often to ask."""
        if found := ROWS_SECTION.search(body):
            phone.rows_url = html.unescape(found[1].decode())
            every = EVERY.search(found[2])
            phone.rows_every = float(every[1]) if every else 0.0
            seen = ROWS_SEEN.search(body)
            phone.rows_seen = html.unescape(seen[1].decode()) if seen else ""
        if phone.role == "k" and (form := read_form(body.decode(), '/satir/"')):
            phone.row_form = form
        if phone.role == "k" and (form := read_form(body.decode(), '/gosterge/"')):
            phone.indicator_form = form

    async def accepted(
        self,
        step: Step,
        kind: str,
        request: bytes,
        phone: Phone,
        detail: str = "",
        due: float | None = None,
        ok: tuple[int, ...] = (200,),
        named: str | None = None,
    ) -> bytes | None:
        """Send `request` and time it as `kind`: an answer of an `ok` status is recorded under
        `detail`, its cookies kept and its body returned (b"" for a redirect); any other answer
        is counted as an error (`kind (named): HTTP …`) and gives None, as does no answer."""
        answer = await self.timed(step, kind, request, due)
        if answer is None:
            return None
        status, head, body, elapsed = answer
        if status not in ok:
            what = kind if named is None else f"{kind} ({named})"
            step.error(f"{what}: HTTP {status}")
            return None
        step.record(kind, detail, elapsed)
        keep_cookies(phone, head)
        return body

    async def news(
        self, step: Step, kind: str, phone: Phone, path: str, element: str, due: float, told=None
    ):
        """An htmx poll: the hx-get of the page's `element` (it sends the request and is its
        target), timed as `kind`. The answer (status, head, body, ms) when it is not "nothing
        changed"; a 204 is recorded as such (and `told()` called) and gives NOTHING_CHANGED; no
        answer, None."""
        htmx = {"HX-Trigger": element, "HX-Target": element}
        request = self.request("GET", path, phone, htmx=htmx, referer=phone.url)
        answer = await self.timed(step, kind, request, due)
        if answer is not None and answer[0] == 204:
            step.record(kind, "nothing changed (204)", answer[3])
            if told is not None:
                told()
            return NOTHING_CHANGED
        return answer

    async def poll(self, step: Step, table: Table, phone: Phone, due: float, saved_at=None) -> bool:
        """One poll, as htmx sends the sheet's hx-get; `saved_at`: asked at once after a save
        answered then (as app.js asks), which tells the load client the version that save made.
        False when no answer came, or a server error (app.js asks again on push)."""
        path = f"/{phone.role}/{phone.token}/poll/?v={phone.known}"

        def shown_already() -> None:  # its stream brought the save first: the page shows it
            if saved_at is not None:
                table.saves.append((phone.known, saved_at))

        answer = await self.news(step, "poll", phone, path, "sheet", due, told=shown_already)
        if answer is None or answer is NOTHING_CHANGED:
            return answer is not None
        status, _, body, elapsed = answer
        if status == 200:
            step.record("poll", "new version (200)", elapsed)
            if found := NEW_VERSION.search(body):
                version, now = int(found[1]), time.monotonic()
                if saved_at is not None:
                    table.saves.append((version, saved_at))
                if phone.role in ("v", "k"):  # the phones that only watch the sheet
                    table.shown.append((phone.known, version, now, phone.arrived_at))
                else:
                    phone.hands = sorted({int(n) for n in HAND_LINK.findall(body)})
                phone.known = max(phone.known, version)
                phone.changed_at = table.changed_at  # the sheet says how long ago it changed
        else:
            step.error(f"poll: HTTP {status}")
        return status < 500

    async def rows(self, step: Step, table: Table, phone: Phone, due: float) -> bool:
        """The open hand's rows, as htmx asks for #table-rows; their answer says when the sheet
        changed (HX-Trigger cetele:poll-now: the sheet asks at once) and, once the match is
        over, 286: no more rows, the sheet asks on its own again. False as poll's."""
        answer = await self.news(step, "rows", phone, phone.rows_url, "table-rows", due)
        if answer is None or answer is NOTHING_CHANGED:
            return answer is not None
        status, head, body, elapsed = answer
        if status not in (200, 286):
            step.error(f"rows: HTTP {status}")
            return status < 500
        step.record("rows", f"news ({status})", elapsed)
        if status == 286:
            phone.rows_url, phone.sheet_polls = "", True
        else:
            self.show_rows(phone, body)
        if "cetele:poll-now" in (header(head, b"hx-trigger") or ""):
            self.fire(step, self.poll(step, table, phone, time.monotonic()))
        return True

    async def write_row(self, step: Step, phone: Phone, rng, due: float) -> None:
        """A joined phone's row as its player fills it (every change is sent: hx-trigger
        "change, input delay:600ms"): the opening, then the sum."""
        form = phone.row_form
        if form is None:
            return
        names = [control[0] for control in form.controls]
        opened = next((n for n in names if n.endswith("-opened")), None)
        remaining = next((n for n in names if n.endswith("-remaining")), None)
        chosen = {}
        if opened and (choices := form.choices(opened)):
            chosen[opened] = rng.choice(choices)
        if remaining:
            chosen[remaining] = str(rng.randint(5, 90))
        htmx = {"HX-Trigger": "my-row", "HX-Target": "row-status"}
        request = self.request(
            "POST", form.action, phone, htmx, form.data(chosen), referer=phone.url
        )
        await self.accepted(step, "row", request, phone, due=due)

    async def indicator(self, step: Step, table: Table, rng, due: float) -> None:
        """The gösterge turned up after the deal: its colour, then its number, each tap sent as
        it is made, by a joined phone where the players joined (its gösterge section), else by
        the scorer (the hand form's chips: action=indicator, the preview its answer)."""
        players = [phone for phone in table.phones[1:] if phone.indicator_form]
        phone = rng.choice(players) if players else table.phones[0]
        form = phone.indicator_form if players else phone.form
        if form is None or phone.away or not form.choices("indicator"):
            return  # a correction's page, or a match over
        chosen = {"colour": rng.choice(form.choices("colour") or [""])}
        for tap in ("colour", "indicator"):
            if tap == "indicator":
                chosen["indicator"] = rng.choice(form.choices("indicator"))
                await asyncio.sleep(THINK)
            if players:
                htmx = {"HX-Trigger": "indicator", "HX-Target": "indicator-status"}
                body = form.data(chosen)
            else:
                htmx = {"HX-Trigger": "indicator-picker", "HX-Target": "hand-preview"}
                body = form.data(chosen, extra=(("action", "indicator"),))
            request = self.request("POST", form.action, phone, htmx, body, referer=phone.url)
            who = "a joined phone's" if players else "the scorer's"
            sent_at = due if tap == "colour" else None
            if await self.accepted(step, "gösterge", request, phone, who, sent_at) is None:
                return

    async def take_seat(self, step: Step, table: Table, phone: Phone, detail: str) -> bool:
        """A player's phone opens the join link, picks its name and lands on its own page."""
        pick = f"/k/{phone.token}/"
        page = await self.page(step, table, phone, detail, pick, sheet=False)
        form = page and read_form(page.decode(), 'class="card pick-seat"')
        if not form or phone.seat not in form.choices("seat"):
            if page is not None:
                step.error("joining: the join page has no free seat to pick")
            return False
        request = self.request(
            "POST", pick, phone, body=form.data({"seat": phone.seat}), referer=pick
        )
        if await self.accepted(step, "seat", request, phone, ok=(302, 303)) is None:
            return False
        return await self.page(step, table, phone, detail, pick) is not None

    def hand_post(self, phone: Phone, form: Form, body: bytes, target: str) -> bytes:
        """The hand form's htmx POST: typing (the form is the trigger, the preview the target)
        or a button (its name, the whole form the target)."""
        if target == "hand-preview":
            htmx = {"HX-Trigger": "hand-form", "HX-Target": "hand-preview"}
        else:
            htmx = {"HX-Trigger-Name": "action", "HX-Target": "hand-form"}
        return self.request("POST", form.action, phone, htmx, body, referer=phone.url)

    async def preview(self, step: Step, phone: Phone, form: Form, chosen: dict, due=None) -> None:
        answer = await self.timed(
            step, "preview", self.hand_post(phone, form, form.data(chosen), "hand-preview"), due
        )
        if answer is None:
            return
        status, _, body, elapsed = answer
        if status == 200 and b'id="hand-preview"' in body:
            step.record("preview", "", elapsed)
        else:
            step.error(f"preview: HTTP {status}" + (" (no preview)" if status == 200 else ""))

    async def save(
        self, step: Step, table: Table, due: float, phone: Phone, inputs, again: bool = False
    ) -> None:
        form = phone.form
        if form is None:
            step.error("save: the page has no hand form")
            return
        token = form.value("request_token")
        self.sent.add(token)
        chosen = {**hand_taps(inputs)[-1], "rows_seen": phone.rows_seen}
        body = form.data(chosen, extra=(("action", "save"),))
        answer = await self.timed(step, "save", self.hand_post(phone, form, body, "hand-form"), due)
        if answer is None:
            return
        status, head, body, elapsed = answer
        # A saved hand answers with the next hand's form and names itself (HX-Trigger); the
        # page then asks for the sheet at once (static/cetele/app.js).
        if status == 200 and saved_token(head) == token:
            step.record("save", "", elapsed)
            self.acknowledged.append(token)
            keep_cookies(phone, head)
            if phone.form is form:  # the next hand's form, unless the page was reloaded since
                phone.form = read_form(body.decode(), 'id="hand-form"')
            now = time.monotonic()
            table.changed_at = phone.changed_at = now
            self.fire(step, self.poll(step, table, phone, now, saved_at=now))
        elif (
            status == 200 and "cetele:rows-now" in (header(head, b"hx-trigger") or "") and not again
        ):
            # A row came since the page last asked: the form is shown with it; the scorer looks
            # and taps again (with the rows the form now names).
            step.record("save", "a row came first: shown, tapped again", elapsed)
            shown = read_form(body.decode(), 'id="hand-form"')
            if shown is not None and phone.form is form:
                phone.form, phone.rows_seen = shown, shown.value("rows_seen")
            await self.save(step, table, time.monotonic(), phone, inputs, again=True)
        else:
            step.error(f"save: HTTP {status}" + (" (not saved)" if status == 200 else ""))

    async def correct(self, step: Step, table: Table, phone: Phone, rng, due: float) -> None:
        """The scorer opens a past hand from the sheet, taps a few previews, saves the corrected
        hand (with the hand's version as its page carries it) and is sent back to the sheet."""
        if not phone.hands:
            return
        number = rng.choice(phone.hands)
        sheet = phone.url
        hand_page = f"/m/{phone.token}/el/{number}/"
        phone.away = True
        try:
            page = await self.page(step, table, phone, "a hand's page", hand_page, due, False)
            if page is None:
                return
            phone.url = hand_page
            form = read_form(page.decode(), 'id="hand-form"')
            if form is None or not form.value("version"):
                step.error("correction: the hand's page has no form with its version")
                return
            taps = hand_taps(table_hand(table, rng))
            for chosen in spread(taps, 3):
                await asyncio.sleep(THINK)
                await self.preview(step, phone, form, chosen)
            await asyncio.sleep(THINK)
            token = form.value("request_token")
            self.corrections_sent.add(token)
            body = form.data(taps[-1], extra=(("action", "save"),))
            answer = await self.timed(
                step, "correction", self.hand_post(phone, form, body, "hand-form")
            )
            if answer is None:
                return
            status, head, _, elapsed = answer
            redirect = header(head, b"hx-redirect") or ""
            if status != 204 or not EDIT_PAGE.match(redirect):
                step.error(f"correction: HTTP {status}" + ("" if status != 200 else " (not saved)"))
                return
            step.record("correction", "", elapsed)
            self.corrections_acknowledged.append(token)
            keep_cookies(phone, head)
            table.changed_at = time.monotonic()
            # HX-Redirect: the browser loads the sheet it is sent to (with the note and Geri al).
            path = re.sub(r"^https?://[^/]+", "", redirect)
            await self.page(step, table, phone, "after a correction", path)
        finally:
            phone.away = False
            if phone.url == hand_page:  # the sheet it was sent back to did not come
                phone.url = sheet

    async def tournament_poll(self, step: Step, spectator: Spectator, due: float) -> bool:
        answer = await self.news(step, "tournament", spectator.phone, spectator.poll, "live", due)
        if answer is None or answer is NOTHING_CHANGED:
            return answer is not None
        status, _, body, elapsed = answer
        if status == 200 and spectator.show(body):
            step.record("tournament", "news (200)", elapsed)
            spectator.changed_at = time.monotonic() - spectator.quiet_at_start
        else:
            step.error(f"tournament: HTTP {status}")
        return status < 500
