"""Fixtures for the tests that start real servers (tests/web/test_shared_cache.py,
tests/web/test_miss_counts.py)."""

import shutil
import time
from pathlib import Path

import pytest

from bench.harness import RedisServer, prepare, server_env
from cetele.sharing.links import current_window
from tests.conftest import require_or_skip


@pytest.fixture(scope="session")
def static_root(tmp_path_factory) -> Path:
    """collectstatic once for the run (the servers only read it): they run with DEBUG off."""
    root = tmp_path_factory.mktemp("static")
    env = server_env(f"sqlite:///{tmp_path_factory.mktemp('db')}/static.sqlite3", root)
    prepare(env, static=True)
    return root


@pytest.fixture
def redis_url(tmp_path):
    require_or_skip(shutil.which("redis-server") is not None, "redis-server (Debian package)")
    with RedisServer(tmp_path) as redis:
        yield redis.url


def start_in_a_whole_window(margin: int) -> None:
    """Start in a counting window with at least `margin` seconds to spare: misses are counted
    per fixed 10-minute window, and a test whose misses straddle two windows would see its count
    start again (the limiter's real behaviour, not what these tests are about)."""
    left = current_window()[1]
    if left < margin:
        time.sleep(left + 0.5)


@pytest.fixture
def whole_window():
    """For a test that misses through the test client: a few dozen requests in this process,
    well under a second, a few on a machine running every leg of make test at once. 15 s to
    spare (a minute, as the servers' tests have, made every run sleep up to a minute per leg
    each time it met a window's end)."""
    start_in_a_whole_window(15)


@pytest.fixture
def whole_window_for_servers():
    """For a test that starts real servers before it misses (gunicorn, Redis): up to a minute
    on a busy machine."""
    start_in_a_whole_window(60)
