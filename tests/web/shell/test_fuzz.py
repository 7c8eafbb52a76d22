"""A seeded fuzz over every POST endpoint: bodies, charsets, content types, sizes, field names
and values, with real keys so that the views are reached. Never a 500; a refused request
changes nothing; whatever was saved is whole.

`make fuzz` runs FUZZ_REQUESTS (10,000 by default); the suite's own run (`make test`, on SQLite
and on PostgreSQL) is shorter: FUZZ_REQUESTS defaults to 1,000 there. FUZZ_SEED repeats a run.
"""

import os
import random
import re
import time
import uuid
from urllib.parse import quote_plus

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Max, Sum
from django.test import Client

import scoring
from cetele.models import Change, Hand, HousePreset, Match, Player, Table, TablePlayer
from tests.web.endpoints import fill, make_keys, post_routes

pytestmark = pytest.mark.django_db

REQUESTS = int(os.environ.get("FUZZ_REQUESTS", "1000"))
SEED = int(os.environ.get("FUZZ_SEED", "20261130"))
CSRF = "F" * 32

CHARSETS = ["utf-8", "UTF-8", "utf8", "latin-1", "iso-8859-9", "utf-16", "ascii", "x-bogus", ""]
OTHER_TYPES = [
    "text/plain",
    "application/json",
    "application/octet-stream",
    "multipart/form-data",  # no boundary
    "multipart/mixed; boundary=x",
    "application/x-www-form-urlencoded;;;",
    "ç/ğ",
    "",
]
ODD_VALUES = [
    "",
    "on",
    "none",
    "-1",
    "0",
    "1e9",
    "NaN",
    "9" * 40,
    "\x00",
    "\u200b",
    "\u202e",
    "<script>",
    "' OR 1=1 --",
    "ç" * 100,
    "%",
    "&=&=",
    "house:" + "A" * 43,
    "edit",
    "view",
    "save",
    "preview",
    "start",
]


def page_fields(client: Client, urls: list[str]) -> tuple[list[str], list[str]]:
    """The field names and values our own pages put in their forms."""
    names, values = set(), set()
    for url in urls:
        html = client.get(url).content.decode()
        names.update(re.findall(r'name="([^"]+)"', html))
        values.update(re.findall(r'value="([^"]{0,40})"', html))
    return sorted(names), sorted(values)


def snapshot() -> tuple:
    """A fingerprint of everything a request could change (a few aggregate queries)."""
    return (
        Match.objects.aggregate(n=Count("id"), v=Sum("version"), t=Max("edit_token")),
        Match.objects.aggregate(w=Max("view_token")),
        Hand.objects.aggregate(n=Count("id"), v=Sum("version")),
        Change.objects.count(),
        Player.objects.aggregate(n=Count("id"), name=Max("name")),
        HousePreset.objects.aggregate(n=Count("id"), u=Max("updated_at"), t=Max("edit_token")),
        Table.objects.aggregate(n=Count("id"), t=Max("edit_token"), w=Max("view_token")),
        TablePlayer.objects.aggregate(n=Count("id"), name=Max("name")),
    )


def rows_changed() -> int | None:
    """On SQLite, the rows this connection has inserted, updated or deleted so far (sqlite3's
    `total_changes`): the check that `Statements` misses no write. None elsewhere."""
    if connection.vendor != "sqlite":
        return None
    connection.ensure_connection()
    return connection.connection.total_changes


class Statements:
    """Counts the statements that could have written, on this test's connection: the test
    client serves each request on this same connection, so while the count stays the same no
    request wrote a row, and the snapshot and the keys are what they were. Anything but a read
    or a savepoint's bookkeeping counts (a statement counted for nothing costs one snapshot; one
    missed would let a half-save by), on either database."""

    READS = ("SELECT", "SAVEPOINT", "RELEASE", "ROLLBACK TO")

    def __init__(self) -> None:
        self.writes = 0

    def __call__(self, execute, sql, params, many, context):
        if not sql.lstrip().upper().startswith(self.READS):
            self.writes += 1
        return execute(sql, params, many, context)


def assert_everything_saved_is_whole() -> None:
    for hand in Hand.objects.select_related("match"):
        assert hand.match.score(hand.inputs) == hand.result, hand.pk
    for match in Match.objects.annotate(seats=Count("players")):
        assert 2 <= match.seats <= 4, match.pk
        assert match.hands.count() <= match.planned_hands
    assert not Player.objects.filter(name="").exists()
    for house in HousePreset.objects.all():
        scoring.validate_ruleset(house.rules)
        assert house.name.strip()


class Fuzzer:
    def __init__(self, rng: random.Random, names: list[str], values: list[str]) -> None:
        self.rng = rng
        self.names = names
        self.values = values

    def value(self) -> str:
        rng = self.rng
        pick = rng.random()
        if pick < 0.45:
            return rng.choice(self.values) if self.values else ""
        if pick < 0.7:
            return str(rng.randint(-5, 120))
        if pick < 0.85:
            return rng.choice(ODD_VALUES)
        return "".join(chr(rng.randint(0, 0x2FFF)) for _ in range(rng.randint(0, 20)))

    def fields(self) -> list[tuple[str, str]]:
        rng = self.rng
        count = rng.choice([0, 1, 3, 8, 20, 40, 80]) if rng.random() > 0.01 else 1200
        fields = []
        for _ in range(count):
            name = rng.choice(self.names) if rng.random() < 0.9 else self.value()
            fields.append((name, self.value()))
        if rng.random() < 0.03:  # a big body: up to past the cap
            fields.append(("description", "x" * rng.choice([10_000, 70_000, 300_000, 3_000_000])))
        return fields

    def body(self) -> tuple[bytes, str]:
        """(body, Content-Type)."""
        rng = self.rng
        fields = self.fields()
        kind = rng.random()
        if kind < 0.6:
            charset = rng.choice(CHARSETS) if rng.random() < 0.3 else ""
            content_type = "application/x-www-form-urlencoded"
            if charset:
                content_type += f"; charset={charset}"
            encoding = "latin-1" if rng.random() < 0.05 else "utf-8"
            body = "&".join(f"{quote(k)}={quote(v)}" for k, v in fields)
            return body.encode(encoding, "replace"), content_type
        if kind < 0.85:
            return self.multipart(fields)
        raw = bytes(rng.getrandbits(8) for _ in range(rng.choice([0, 10, 300, 5000])))
        return raw, rng.choice(OTHER_TYPES)

    def multipart(self, fields: list[tuple[str, str]]) -> tuple[bytes, str]:
        rng = self.rng
        boundary = uuid.UUID(int=rng.getrandbits(128)).hex
        parts = []
        for name, value in fields:
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
            )
        if rng.random() < 0.3:  # a file
            size = rng.choice([10, 5000, 300_000])
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="f"; filename="a.png"\r\n'
                f"Content-Type: image/png\r\n\r\n{'A' * size}\r\n"
            )
        if rng.random() > 0.1:
            parts.append(f"--{boundary}--\r\n")
        charset = f"; charset={rng.choice(CHARSETS)}" if rng.random() < 0.2 else ""
        body = "".join(parts).encode("utf-8", "surrogatepass")
        return body, f"multipart/form-data; boundary={boundary}{charset}"

    def headers(self) -> dict[str, str]:
        rng = self.rng
        headers = {}
        if rng.random() < 0.97:
            headers["X-CSRFToken"] = CSRF
        if rng.random() < 0.5:
            headers["HX-Request"] = "true"
            if rng.random() < 0.5:
                headers["HX-Target"] = rng.choice(["hand-preview", "sheet", "rules-example", "x"])
        return headers


def quote(text: str) -> str:
    return quote_plus(text, encoding="utf-8", errors="surrogatepass")


def test_fuzz_every_post_endpoint_never_answers_500_and_never_half_saves():
    routes = post_routes()
    keys = make_keys(hands=3)
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.cookies["csrftoken"] = CSRF
    get_urls = [fill(route, keys) for route in routes]
    names, values = page_fields(Client(), get_urls + ["/yeni/", "/kurallar/yeni/"])
    names.remove("csrfmiddlewaretoken")  # the header carries it; a few requests go without
    fuzzer = Fuzzer(random.Random(SEED), names, values)
    rng = fuzzer.rng
    statuses: dict[int, int] = {}
    started = time.monotonic()
    before = snapshot()

    read_at = None  # statements.writes when the keys, the numbers and `before` were last read
    statements = Statements()
    with connection.execute_wrapper(statements):
        for index in range(REQUESTS):
            if read_at is None or statements.writes != read_at:
                if keys.refresh():  # a deleted match, preset or table was replaced
                    before = snapshot()
                numbers = list(keys.match.hands.values_list("number", flat=True)) or [1]
                read_at = statements.writes
            route = rng.choice(routes)
            url = fill(
                route, keys, rng.choice(numbers) if rng.random() < 0.9 else rng.randint(0, 99)
            )
            body, content_type = fuzzer.body()

            changed = rows_changed()
            response = client.generic(
                "POST", url, body, content_type=content_type, headers=fuzzer.headers()
            )

            status = response.status_code
            statuses[status] = statuses.get(status, 0) + 1
            assert status < 500, (index, url, content_type, body[:300])
            written = statements.writes != read_at  # (read_at is this request's start)
            if rows_changed() != changed:  # what SQLite counts, the statements counted
                assert written, (index, url, status)
            after = snapshot() if written else before
            if status >= 400:
                assert after == before, (index, url, status)
            before = after
            if index % 500 == 499:
                assert_everything_saved_is_whole()
                cache.clear()  # a lost-token 404 counts as a miss; keep the limiter out of the way
            if written and Hand.objects.count() > 40:  # keep the sheets small: saves stay possible
                keys = make_keys(hands=3)
                before = snapshot()

    assert_everything_saved_is_whole()
    elapsed = time.monotonic() - started
    print(f"\nfuzz: {REQUESTS} requests in {elapsed:.1f} s, statuses {sorted(statuses.items())}")
    # The fuzz must reach the views, not only the refusals in front of them.
    assert statuses.get(200, 0) + statuses.get(302, 0) > REQUESTS // 10
    assert statuses.get(400, 0) > 0
    assert statements.writes > 0
