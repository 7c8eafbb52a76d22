"""The link-guessing limiter's count: exact under parallel guessers, on real gunicorn workers
sharing the database (SQLite by default, PostgreSQL under scripts/with-postgres.sh) or Redis;
never culled however many other addresses miss; an IPv6 client counted by its /64.
"""

import os
import random
import secrets
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.urls import reverse

from bench.harness import Client, Gunicorn, prepare, server_env
from cetele.models import MissCount
from cetele.sharing import links as sharing
from tests.factories import make_match

# The servers' counts keep the real clock: each server test waits for time to spare in one
# counting window (tests/web/conftest.py).
servers_in_one_window = pytest.mark.usefixtures("whole_window")

GUESSERS = 16
GUESSES_EACH = 4


def a_guess() -> str:
    return f"/m/{secrets.token_urlsafe(32)}/"


def database_url(tmp_path: Path) -> str:
    """The PostgreSQL of scripts/with-postgres.sh when it runs the tests, else a SQLite file."""
    url = os.environ.get("DATABASE_URL", "")
    return url if url.startswith("postgres") else f"sqlite:///{tmp_path}/counts.sqlite3"


def an_address() -> str:
    """A loopback address of this test's own (127.0.0.0/8 is all loopback on Linux): counts
    left in a shared PostgreSQL database by an earlier test are not this test's."""
    return f"127.{random.randint(1, 254)}.0.1"


def a_server(tmp_path: Path, static_root: Path, cache_url: str) -> Gunicorn:
    env = server_env(database_url(tmp_path), static_root, DJANGO_CACHE_URL=cache_url)
    prepare(env, static=False)
    return Gunicorn(env, workers=4, worker_class="gthread", threads=4, log=tmp_path / "g.log")


def parallel_guesses(port: int, address: str) -> list[int]:
    """16 guessers from one address at once, 4 guesses each: every answer's status."""

    def guesser(_: int) -> list[int]:
        client = Client(port, source=address)
        return [client.get(a_guess())[0] for _ in range(GUESSES_EACH)]

    with ThreadPoolExecutor(GUESSERS) as pool:
        return [status for answers in pool.map(guesser, range(GUESSERS)) for status in answers]


@servers_in_one_window
@pytest.mark.database  # its server's database is DATABASE_URL's on the PostgreSQL leg
def test_sixteen_parallel_guessers_get_exactly_the_limit_in_answers(tmp_path, static_root):
    """DJANGO_CACHE_URL=db, the default: the database's own UPDATE counts."""
    with a_server(tmp_path, static_root, "db") as server:
        statuses = parallel_guesses(server.port, an_address())

    assert sorted(set(statuses)) == [404, 429]
    assert statuses.count(404) == sharing.BAD_LINK_LIMIT


@servers_in_one_window
@pytest.mark.database  # its server's database is DATABASE_URL's on the PostgreSQL leg
def test_sixteen_parallel_guessers_on_redis_get_exactly_the_limit_in_answers(
    tmp_path, static_root, redis_url
):
    with a_server(tmp_path, static_root, redis_url) as server:
        statuses = parallel_guesses(server.port, an_address())

    assert statuses.count(404) == sharing.BAD_LINK_LIMIT
    assert statuses.count(429) == GUESSERS * GUESSES_EACH - sharing.BAD_LINK_LIMIT


@servers_in_one_window
@pytest.mark.database  # its server's database is DATABASE_URL's on the PostgreSQL leg
def test_a_live_count_outlives_hundreds_of_other_addresses(tmp_path, static_root):
    """Django's database cache culls a third of its entries past 300 (MAX_ENTRIES): a guesser's
    count must not go with them, nor could a guesser with many addresses wipe it."""
    guesser = an_address()
    with a_server(tmp_path, static_root, "db") as server:
        client = Client(server.port, source=guesser)
        for _ in range(sharing.BAD_LINK_LIMIT):
            assert client.get(a_guess())[0] == 404
        others = guesser.rsplit(".", 2)[0]  # 127.x: the guesser is 127.x.0.1, first in order
        for n in range(400):
            Client(server.port, source=f"{others}.{1 + n // 200}.{1 + n % 200}").get(a_guess())
        still = client.get(a_guess())[0]

    assert still == 429


# --- Who is counted ------------------------------------------------------------------------


@pytest.fixture(params=["database", "cache"])
def counting(request, settings):
    """In the database (DJANGO_CACHE_URL=db) and in a cache (Redis, locmem)."""
    settings.CETELE_MISS_COUNTS = request.param


@pytest.mark.django_db
def test_an_ipv6_client_is_counted_by_its_64(client, counting):
    """A phone on IPv6 may use a new address of its /64 for each request."""
    match = make_match()
    for n in range(sharing.BAD_LINK_LIMIT):
        assert client.get(a_guess(), REMOTE_ADDR=f"2001:db8:1:2::{n + 1:x}").status_code == 404

    same_64 = client.get(a_guess(), REMOTE_ADDR="2001:db8:1:2:ffff:ffff:ffff:ffff")
    other_64 = client.get(f"/m/{match.edit_token}/", REMOTE_ADDR="2001:db8:1:3::1")

    assert same_64.status_code == 429
    assert other_64.status_code == 200
    assert client.get(a_guess(), REMOTE_ADDR="fe80::1%eth0").status_code == 404  # a zone: no 500


@pytest.mark.django_db
def test_an_ipv4_client_written_as_ipv6_is_counted_as_itself(client, counting):
    for _ in range(sharing.BAD_LINK_LIMIT):
        client.get(a_guess(), REMOTE_ADDR="::ffff:203.0.113.9")

    assert client.get(a_guess(), REMOTE_ADDR="203.0.113.9").status_code == 429
    assert client.get(reverse("home"), REMOTE_ADDR="203.0.113.9").status_code == 200


@pytest.mark.django_db
def test_a_new_window_starts_an_address_s_count_anew(client, settings):
    """One row per address in the database: the misses of a window that has passed do not
    carry over into the next."""
    settings.CETELE_MISS_COUNTS = "database"
    window, _left = sharing.current_window()
    MissCount.objects.create(counter="links:203.0.113.20", window=window - 1, count=50)

    first = client.get(a_guess(), REMOTE_ADDR="203.0.113.20")

    assert first.status_code == 404
    assert MissCount.objects.get(counter="links:203.0.113.20").count == 1
