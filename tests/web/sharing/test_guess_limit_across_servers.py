"""The admin login's count of wrong passwords holds across processes: two app servers (real
gunicorn, DEBUG off) on one database, each answering half of an address's wrong passwords,
refuse the 21st together, on Redis and in the database (DJANGO_CACHE_URL=db). With each
process's own memory (locmem) they do not: the proof that the test can fail, and why production
must not use it with more than one process. (Link misses are never counted:
tests/web/sharing/test_guess_limits.py.)
"""

from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from bench.harness import Client, Gunicorn, prepare, server_env
from cetele.settings import cache_settings, miss_counts
from cetele.shell.wrong_passwords import BAD_LINK_LIMIT
from tests.web.sharing.test_guess_limits import ADMIN_ON, a_wrong_password
from tests.web.shell.test_admin import ADMIN

pytestmark = pytest.mark.usefixtures("whole_window")


def two_servers(
    tmp_path: Path, admin_static_root: Path, cache_url: str
) -> tuple[Gunicorn, Gunicorn]:
    env = server_env(
        f"sqlite:///{tmp_path}/shared.sqlite3",
        admin_static_root,
        DJANGO_CACHE_URL=cache_url,
        **ADMIN_ON,
    )
    prepare(env, static=False)
    return (
        Gunicorn(env, workers=1, log=tmp_path / "a.log"),
        Gunicorn(env, workers=1, log=tmp_path / "b.log"),
    )


def misses_then_answers(tmp_path: Path, admin_static_root: Path, cache_url: str) -> tuple[int, int]:
    """20 wrong passwords from one address, alternating between two servers; then what each
    answers the login page."""
    first, second = two_servers(tmp_path, admin_static_root, cache_url)
    with first, second:
        clients = [Client(first.port), Client(second.port)]
        for client in clients:
            client.get("/")  # the CSRF cookie the login form needs
        for n in range(BAD_LINK_LIMIT):
            status = a_wrong_password(clients[n % 2])
            assert status == 200, f"wrong password {n + 1} answered {status}"
        return clients[0].get(ADMIN + "login/")[0], clients[1].get(ADMIN + "login/")[0]


def test_two_servers_on_redis_refuse_the_21st_wrong_password_together(
    tmp_path, admin_static_root, redis_url
):
    assert misses_then_answers(tmp_path, admin_static_root, redis_url) == (429, 429)


def test_two_servers_counting_in_the_database_refuse_the_21st_wrong_password_together(
    tmp_path, admin_static_root
):
    assert misses_then_answers(tmp_path, admin_static_root, "db") == (429, 429)


def test_each_process_s_own_memory_lets_twice_the_guesses_through(tmp_path, admin_static_root):
    """The failure the shared cache prevents: each server has seen only 10 wrong passwords."""
    assert misses_then_answers(tmp_path, admin_static_root, "locmem") == (200, 200)


@pytest.mark.parametrize(
    ("url", "backend"),
    [
        ("redis://127.0.0.1:6379/0", "django.core.cache.backends.redis.RedisCache"),
        ("rediss://cache.example:6380/1", "django.core.cache.backends.redis.RedisCache"),
        ("unix:///run/redis/redis.sock", "django.core.cache.backends.redis.RedisCache"),
        ("db", "django.core.cache.backends.db.DatabaseCache"),  # the counts: cetele.models
        (" locmem ", "django.core.cache.backends.locmem.LocMemCache"),
    ],
)
def test_the_cache_is_chosen_by_the_environment(url, backend):
    chosen = cache_settings(url)["default"]
    assert chosen["BACKEND"] == backend
    if "redis" in backend:
        assert chosen["LOCATION"] == url
    assert miss_counts(url) == ("database" if url == "db" else "cache")


@pytest.mark.parametrize("url", ["memcached://127.0.0.1", "database", "redis:/x", "file:///tmp"])
def test_an_unknown_cache_is_refused_at_start(url):
    with pytest.raises(ImproperlyConfigured, match="DJANGO_CACHE_URL"):
        cache_settings(url)
