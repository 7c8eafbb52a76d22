"""What counting does and does not do, on real gunicorn workers sharing the database (SQLite by
default, PostgreSQL under scripts/with-postgres.sh) or Redis.

Link misses are never counted: a link is 256 bits from `secrets`, so a hundred guessers at a
café's address find nothing, and the phones sharing that address must not pay for them
(docs/decisions.md). Parallel guessers get the plain 404, every one, and a valid link opens
from their address while they guess.

What is counted is the admin login's wrong passwords (a password can be guessed): exact under
parallel guessers; never culled however many other addresses miss; an IPv6 client counted by
its /64.
"""

import os
import random
import secrets
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import pytest

from bench.harness import Client, Gunicorn, prepare, server_env
from cetele.models import MissCount
from cetele.shell import wrong_passwords
from tests.web.races import at_once
from tests.web.shell.test_admin import ADMIN, ADMIN_PATH, admin_on, admin_tables  # noqa: F401

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


# The admin's login (what counts), its wrong passwords hashed at no cost (tests/server_settings.py).
ADMIN_ON = {"DJANGO_ADMIN_PATH": ADMIN_PATH, "DJANGO_SETTINGS_MODULE": "tests.server_settings"}


def a_server(tmp_path: Path, admin_static_root: Path, cache_url: str) -> Gunicorn:
    env = server_env(
        database_url(tmp_path), admin_static_root, DJANGO_CACHE_URL=cache_url, **ADMIN_ON
    )
    prepare(env, static=False)
    return Gunicorn(env, workers=4, worker_class="gthread", threads=4, log=tmp_path / "g.log")


def in_parallel(port: int, address: str, guess) -> list[int]:
    """16 guessers from one address at once, 4 guesses each (`guess(client)`): every status.
    Each holds the login form's CSRF cookie before any guesses: a guesser that asked for the
    form only once the limit was reached would be refused it (429), and its guesses, without
    the cookie, CSRF's 403, counted nowhere."""
    guessers = [Client(port, source=address) for _ in range(GUESSERS)]
    for client in guessers:
        client.get(ADMIN + "login/")
    answers = at_once(*(partial(guesses, client, guess) for client in guessers))
    return [status for statuses in answers for status in statuses]


def guesses(client: Client, guess) -> list[int]:
    return [guess(client) for _ in range(GUESSES_EACH)]


def a_link_miss(client: Client) -> int:
    return client.get(a_guess())[0]


def a_wrong_password(client: Client) -> int:
    return client.post(ADMIN + "login/", {"username": "x", "password": "y"})[0]


# --- Link misses: never refused -------------------------------------------------------------


def guessers_and_a_phone(port: int) -> tuple[list[int], list[int]]:
    """16 parallel guessers at one address, and meanwhile a phone there opening a match's link
    someone sent it, again and again: the guessers' statuses, the phone's."""
    address = an_address()
    scorer = Client(port, source=address)
    edit = scorer.start_match()
    view = edit.replace("/m/", "/v/", 1)  # not the view token: a miss, like the guesses
    sent = scorer.get(edit + "paylas/")  # the share page holds the view link
    assert sent[0] == 200 and view not in sent[2].decode()
    with ThreadPoolExecutor(2) as pool:
        guesses = pool.submit(in_parallel, port, address, a_link_miss)
        phone = pool.submit(lambda: [Client(port, source=address).get(edit)[0] for _ in range(20)])
        return guesses.result(), phone.result()


@servers_in_one_window
@pytest.mark.database  # its server's database is DATABASE_URL's on the PostgreSQL leg
def test_parallel_guessers_get_the_plain_404_and_lock_no_phone_out(tmp_path, admin_static_root):
    """DJANGO_CACHE_URL=db, the default."""
    with a_server(tmp_path, admin_static_root, "db") as server:
        guesses, phone = guessers_and_a_phone(server.port)

    assert set(guesses) == {404} and len(guesses) == GUESSERS * GUESSES_EACH
    assert set(phone) == {200}


@servers_in_one_window  # on SQLite only: Redis counts; the database answers as above
def test_parallel_guessers_on_redis_get_the_plain_404_and_lock_no_phone_out(
    tmp_path, admin_static_root, redis_url
):
    with a_server(tmp_path, admin_static_root, redis_url) as server:
        guesses, phone = guessers_and_a_phone(server.port)

    assert set(guesses) == {404} and set(phone) == {200}


# --- Wrong admin passwords: counted exactly -------------------------------------------------


@servers_in_one_window
@pytest.mark.database  # its server's database is DATABASE_URL's on the PostgreSQL leg
def test_sixteen_parallel_password_guessers_get_exactly_the_limit_in_answers(
    tmp_path, admin_static_root
):
    """DJANGO_CACHE_URL=db, the default: the database's own UPDATE counts."""
    with a_server(tmp_path, admin_static_root, "db") as server:
        statuses = in_parallel(server.port, an_address(), a_wrong_password)

    assert sorted(set(statuses)) == [200, 429]  # the login form again, then refused
    assert statuses.count(200) == wrong_passwords.BAD_LINK_LIMIT


@servers_in_one_window  # on SQLite only: Redis counts; the database answers as above
def test_sixteen_parallel_password_guessers_on_redis_get_exactly_the_limit_in_answers(
    tmp_path, admin_static_root, redis_url
):
    with a_server(tmp_path, admin_static_root, redis_url) as server:
        statuses = in_parallel(server.port, an_address(), a_wrong_password)

    assert statuses.count(200) == wrong_passwords.BAD_LINK_LIMIT
    assert statuses.count(429) == GUESSERS * GUESSES_EACH - wrong_passwords.BAD_LINK_LIMIT


# --- Who is counted ------------------------------------------------------------------------


@pytest.fixture(params=["database", "cache"])
def counting(request, settings):
    """In the database (DJANGO_CACHE_URL=db) and in a cache (Redis, locmem)."""
    settings.CETELE_MISS_COUNTS = request.param


def wrong_password(client, address: str) -> int:
    return client.post(
        ADMIN + "login/", {"username": "x", "password": "y"}, REMOTE_ADDR=address
    ).status_code


def login_page(client, address: str) -> int:
    return client.get(ADMIN + "login/", REMOTE_ADDR=address).status_code


@pytest.mark.django_db
@pytest.mark.usefixtures("admin_on")
def test_a_live_count_outlives_hundreds_of_other_addresses(client, settings):
    """Django's database cache culls a third of its entries past 300 (MAX_ENTRIES): a guesser's
    count, in its own table (DJANGO_CACHE_URL=db), must not go with them, nor could a guesser
    with many addresses wipe it. (A process's memory, locmem, culls so too: one process only.)"""
    settings.CETELE_MISS_COUNTS = "database"
    for _ in range(wrong_passwords.BAD_LINK_LIMIT):
        assert wrong_password(client, "203.0.113.1") == 200
    for n in range(400):
        wrong_password(client, f"198.51.{1 + n // 200}.{1 + n % 200}")

    assert login_page(client, "203.0.113.1") == 429


@pytest.mark.django_db
@pytest.mark.usefixtures("admin_on")
def test_an_ipv6_client_is_counted_by_its_64(client, counting):
    """A phone on IPv6 may use a new address of its /64 for each request."""
    for n in range(wrong_passwords.BAD_LINK_LIMIT):
        assert wrong_password(client, f"2001:db8:1:2::{n + 1:x}") == 200

    assert login_page(client, "2001:db8:1:2:ffff:ffff:ffff:ffff") == 429
    assert login_page(client, "2001:db8:1:3::1") == 200
    assert wrong_password(client, "fe80::1%eth0") == 200  # a zone: no 500


@pytest.mark.django_db
@pytest.mark.usefixtures("admin_on")
def test_an_ipv4_client_written_as_ipv6_is_counted_as_itself(client, counting):
    for _ in range(wrong_passwords.BAD_LINK_LIMIT):
        wrong_password(client, "::ffff:203.0.113.9")

    assert login_page(client, "203.0.113.9") == 429
    assert client.get("/", REMOTE_ADDR="203.0.113.9").status_code == 200


@pytest.mark.django_db
@pytest.mark.usefixtures("admin_on")
def test_a_new_window_starts_an_address_s_count_anew(client, settings):
    """One row per address in the database: the misses of a window that has passed do not
    carry over into the next."""
    settings.CETELE_MISS_COUNTS = "database"
    window, _left = wrong_passwords.current_window()
    MissCount.objects.create(counter="admin:203.0.113.20", window=window - 1, count=50)

    assert wrong_password(client, "203.0.113.20") == 200
    assert MissCount.objects.get(counter="admin:203.0.113.20").count == 1


@pytest.mark.django_db
def test_link_misses_are_not_counted_anywhere(client, counting):
    for _ in range(wrong_passwords.BAD_LINK_LIMIT * 2):
        assert client.get(a_guess(), REMOTE_ADDR="203.0.113.30").status_code == 404

    assert not MissCount.objects.exists()
